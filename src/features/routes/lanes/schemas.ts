import { Type, type TProperties } from '@sinclair/typebox';
import { SHIP_CATEGORIES } from '../../../fleet/ship-types.js';
import { RouteGeometrySchema } from '../schemas.js';
import { CoverageFields, Cursor, Limit, NextCursor, Nullable } from '../../kit/schema-kit.js';

const Int = (min: number, max: number, description: string) => Type.Integer({ minimum: min, maximum: max, description });

// ---- query parameters (each declared once, reused) ----

const Until = Type.String({
  minLength: 1,
  maxLength: 40,
  description:
    'End of the window: ISO 8601 (e.g. 2026-11-23T00:00:00Z) or epoch ms, rounded down to 00:00 UTC; default and latest: your horizon (now with vessels:live, else now minus the preview delay).',
});
const Days = (def: number, max: number) => Int(1, max, `Window length in whole UTC days ending at until (default ${def}, at most ${max}).`);
const Weeks = (min: number, def: number, max: number, text: string) => Int(min, max, `${text} (default ${def}, ${min}-${max}).`);
const ShipTypeParam = Type.Union(
  SHIP_CATEGORIES.map((c) => Type.Literal(c)),
  { description: 'Only voyages of vessels of this AIS ship category (vessels with no reported type are then left out).' },
);
const PortParam = (text: string) => Type.String({ minLength: 1, maxLength: 20, description: `${text} A port_id or a UN/LOCODE (e.g. NLRTM).` });
const Rows = (def: number, max: number) => Limit(max, def, `Rows 1-${max} (default ${def}).`);

const common = (def: number, max: number) => ({ days: Type.Optional(Days(def, max)), until: Type.Optional(Until), ship_type: Type.Optional(ShipTypeParam) });
const Q = <T extends TProperties>(props: T) => Type.Object(props, { additionalProperties: false });

export const TopLanesQuery = Q({ ...common(30, 90), limit: Rows(10, 50), port: Type.Optional(PortParam('Only lanes from or to this port.')) });
export const LaneDetailsQuery = Q({
  ...common(30, 90),
  from: PortParam('Origin port.'),
  to: PortParam('Destination port.'),
  limit: Rows(20, 100),
  cursor: Cursor(),
  offset: Type.Optional(Int(0, 100_000, 'Voyages to skip: the older way to page, kept for clients that send it (next_offset of the previous page); prefer cursor.')),
});
export const LaneTrendsQuery = Q({
  weeks: Type.Optional(Weeks(2, 8, 13, 'Weeks of the current period; the previous period is as long')),
  until: Type.Optional(Until),
  ship_type: Type.Optional(ShipTypeParam),
  limit: Rows(10, 50),
  port: Type.Optional(PortParam('Only lanes from or to this port.')),
});
export const LaneVolatilityQuery = Q({
  ...common(56, 91),
  bucket: Type.Optional(Type.Union([Type.Literal('day'), Type.Literal('week')], { description: 'Count per UTC day or per 7 days (default week; days must then be a multiple of 7).' })),
  limit: Rows(10, 50),
  min_voyages: Type.Optional(Int(1, 1000, 'Only lanes with at least this many voyages in the window (default 2).')),
});
export const TopPolylinesQuery = Q({ ...common(30, 90), limit: Rows(10, 25) });
export const LaneHeatmapQuery = Q({
  ...common(30, 90),
  cell_deg: Type.Optional(Type.Number({ minimum: 0.25, maximum: 10, description: 'Grid cell size in degrees of longitude and latitude (default 2, 0.25-10).' })),
  limit: Rows(500, 5000),
});
export const HubsQuery = Q({ ...common(30, 90), limit: Rows(10, 100) });
export const NetworkOverviewQuery = Q({ ...common(30, 90) });
export const WeeklySummaryQuery = Q({ weeks: Type.Optional(Weeks(1, 4, 26, 'Weeks of 7 days ending at until')), until: Type.Optional(Until), ship_type: Type.Optional(ShipTypeParam) });
export const WeeklyTrendQuery = Q({ weeks: Type.Optional(Weeks(2, 8, 26, 'Weeks of 7 days ending at until')), until: Type.Optional(Until) });
export const SeasonalityQuery = Q({ ...common(90, 366), port: Type.Optional(PortParam('Only voyages departing from this port.')) });
export const AnomalyDaysQuery = Q({
  ...common(30, 90),
  port: Type.Optional(PortParam('Only departures from this port.')),
  threshold: Type.Optional(Type.Number({ minimum: 1, maximum: 20, description: 'Absolute robust z-score from which a day is an anomaly (default 3.5).' })),
});
export const PortActivityImbalanceQuery = Q({
  ...common(30, 90),
  port: Type.Optional(PortParam('Only this port.')),
  limit: Rows(10, 100),
  min_calls: Type.Optional(Int(1, 10_000, 'Only ports with at least this many arrivals plus departures (default 1).')),
});
export const DestOpportunitiesQuery = Q({ ...common(30, 90), from: PortParam('Origin port.'), limit: Rows(10, 50) });
export const StabilityForecastQuery = Q({
  weeks: Type.Optional(Weeks(6, 12, 26, 'Weeks of history ending at until')),
  until: Type.Optional(Until),
  ship_type: Type.Optional(ShipTypeParam),
  from: Type.Optional(PortParam('Origin of one lane (with to); without from/to, all voyages.')),
  to: Type.Optional(PortParam('Destination of the lane (with from).')),
});

// ---- answers ----

const Port = Type.Object({
  port_id: Type.Integer(),
  name: Nullable(Type.String(), 'Null only for a port a table update has removed since its calls were detected.'),
  locode: Nullable(Type.String()),
  country: Nullable(Type.String()),
  lat: Nullable(Type.Number()),
  lon: Nullable(Type.Number()),
});
const Iso = Type.String({ description: 'ISO 8601, UTC.' });
const Window = Type.Object({ since: Iso, until: Iso, days: Type.Integer(), ...CoverageFields }, { description: 'Voyages that departed in [since, until) and arrived before until.' });
const Sample = Type.Object(
  {
    port_calls: Type.Integer({ description: 'Port calls that began or ended in the window.' }),
    voyages: Type.Integer(),
    vessels: Type.Integer(),
    left_out: Type.Object(
      {
        same_harbour: Type.Integer({ description: 'Moves between ports under 5 nm apart (terminals of one harbour): no lane.' }),
        implausible_speed: Type.Integer({ description: 'Pairs of calls faster than 60 kn over the great circle between the ports (overlapping port areas): no voyage.' }),
      },
      { description: 'Pairs of consecutive calls in the window the lanes do not count as voyages.' },
    ),
  },
  { additionalProperties: true },
);
const Meta = {
  window: Window,
  sample: Sample,
  analysed_up_to: Nullable(Iso, 'Newest position the event detectors have analysed; null before they have run.'),
  method_reference: Type.String(),
};
const ShipTypeOut = Nullable(Type.String(), 'The ship_type filter, if any.');
const Num = Nullable(Type.Number());
const Counts = Type.Array(Type.Integer());

const LaneItem = Type.Object({
  rank: Type.Integer(),
  from: Port,
  to: Port,
  voyages: Type.Integer(),
  vessels: Type.Integer({ description: 'Distinct vessels that sailed the lane.' }),
  median_voyage_hours: Num,
  sea_distance_nm: Nullable(Type.Number(), 'Sea route distance from the routing engine; null when the ports cannot be routed.'),
  simulated_voyages: Type.Integer(),
});

export const TopLanesData = Type.Object({ ...Meta, ship_type: ShipTypeOut, port: Nullable(Port), lanes_total: Type.Integer(), items: Type.Array(LaneItem) });

export const LaneDetailsData = Type.Object({
  ...Meta,
  ship_type: ShipTypeOut,
  from: Port,
  to: Port,
  voyages_count: Type.Integer(),
  vessels: Type.Integer(),
  transit_hours: Type.Object({ min: Num, median: Num, mean: Num, p90: Num, max: Num }, { description: 'Departure to arrival; p90 by nearest rank.' }),
  ship_types: Type.Array(Type.Object({ ship_type: Type.String(), voyages: Type.Integer(), share: Type.Number() })),
  weekly: Type.Array(Type.Object({ week_start: Iso, week_end: Iso, voyages: Type.Integer() })),
  route: Type.Object({ distance_nm: Num, passages: Type.Array(Type.String()), implied_speed_kn: Nullable(Type.Number(), 'distance_nm / median transit hours.') }),
  voyages: Type.Array(Type.Object({ vsl_id: Type.String(), departure: Iso, arrival: Iso, hours: Type.Number(), ship_type: Nullable(Type.String()), simulated: Type.Boolean() })),
  next_cursor: NextCursor,
  offset: Type.Integer({ description: 'Voyages skipped before this page.' }),
  next_offset: Nullable(Type.Integer(), 'offset of the next page, for clients that page by offset; null on the last page.'),
});

const Direction = Type.Union(['rising', 'falling', 'steady', 'unknown'].map((d) => Type.Literal(d)));

export const LaneTrendsData = Type.Object({
  ...Meta,
  previous_window: Type.Object({
    since: Iso,
    until: Iso,
    voyages: Nullable(Type.Integer(), 'Null when the store does not cover the whole previous period (its traffic is then unknown, not zero).'),
    ...CoverageFields,
  }),
  weeks: Type.Integer(),
  ship_type: ShipTypeOut,
  port: Nullable(Port),
  lanes_total: Type.Integer(),
  items: Type.Array(
    Type.Object({
      rank: Type.Integer(),
      from: Port,
      to: Port,
      voyages: Type.Integer(),
      previous_voyages: Nullable(Type.Integer(), 'Null when the store does not cover the whole previous period.'),
      change_pct: Num,
      slope_per_week: Nullable(Type.Number(), 'Over the weeks with data; null with fewer than two.'),
      direction: Direction,
      weekly: Type.Array(Nullable(Type.Integer()), { description: 'Voyages per week of the current period, oldest first; null for a week before the store has data.' }),
    }),
  ),
});

export const LaneVolatilityData = Type.Object({
  ...Meta,
  ship_type: ShipTypeOut,
  bucket: Type.Union([Type.Literal('day'), Type.Literal('week')]),
  buckets: Type.Integer(),
  min_voyages: Type.Integer(),
  lanes_total: Type.Integer(),
  overall: Type.Object({ counts: Counts, mean: Num, std: Num, cv: Num }),
  items: Type.Array(
    Type.Object({ rank: Type.Integer(), from: Port, to: Port, voyages: Type.Integer(), mean_per_bucket: Type.Number(), std_per_bucket: Type.Number(), cv: Type.Number(), counts: Counts }),
  ),
});

export const TopPolylinesData = Type.Object({
  type: Type.Literal('FeatureCollection'),
  features: Type.Array(
    Type.Object({
      type: Type.Literal('Feature'),
      geometry: RouteGeometrySchema,
      properties: Type.Object({
        rank: Type.Integer(),
        from: Port,
        to: Port,
        voyages: Type.Integer(),
        vessels: Type.Integer(),
        median_voyage_hours: Num,
        sea_distance_nm: Type.Number(),
        simulated_voyages: Type.Integer(),
        passages: Type.Array(Type.String()),
      }),
    }),
  ),
  ...Meta,
  ship_type: ShipTypeOut,
  unroutable_lanes: Type.Integer(),
  /** Attribution lines of the collection's data (docs/decisions/091). */
  attribution: Type.Array(Type.String()),
});

const Cell = Type.Object({ west: Type.Number(), south: Type.Number(), east: Type.Number(), north: Type.Number(), voyages: Type.Integer(), lanes: Type.Integer() });
const HeatmapMeta = {
  ...Meta,
  ship_type: ShipTypeOut,
  cell_deg: Type.Number(),
  lanes_total: Type.Integer(),
  lanes_mapped: Type.Integer(),
  unroutable_lanes: Type.Integer(),
  voyages_mapped: Type.Integer(),
  cells_total: Type.Integer(),
  max_voyages: Type.Integer(),
};
export const LaneHeatmapData = Type.Object({ ...HeatmapMeta, cells: Type.Array(Cell) });
export const LaneHeatmapGeoJsonData = Type.Object({
  type: Type.Literal('FeatureCollection'),
  features: Type.Array(
    Type.Object({
      type: Type.Literal('Feature'),
      geometry: Type.Object({ type: Type.Literal('Polygon'), coordinates: Type.Array(Type.Array(Type.Array(Type.Number()))) }),
      properties: Cell,
    }),
  ),
  ...HeatmapMeta,
  /** Attribution lines of the collection's data (docs/decisions/091). */
  attribution: Type.Array(Type.String()),
});

const Hub = {
  port: Port,
  voyages_out: Type.Integer(),
  voyages_in: Type.Integer(),
  voyages_total: Type.Integer(),
  out_degree: Type.Integer(),
  in_degree: Type.Integer(),
  partners: Type.Integer(),
  vessels: Type.Integer(),
};
export const HubsData = Type.Object({ ...Meta, ship_type: ShipTypeOut, ports_total: Type.Integer(), items: Type.Array(Type.Object({ rank: Type.Integer(), ...Hub })) });
export const HubsGeoJsonData = Type.Object({
  type: Type.Literal('FeatureCollection'),
  features: Type.Array(
    Type.Object({
      type: Type.Literal('Feature'),
      geometry: Type.Object({ type: Type.Literal('Point'), coordinates: Type.Array(Type.Number(), { minItems: 2, maxItems: 2 }) }),
      properties: Type.Object({ rank: Type.Integer(), ...Hub }),
    }),
  ),
  ...Meta,
  ship_type: ShipTypeOut,
  ports_total: Type.Integer(),
  unplaced_ports: Type.Integer({ description: 'Ranked ports left out because a table update removed them (no position).' }),
  /** Attribution lines of the collection's data (docs/decisions/091). */
  attribution: Type.Array(Type.String()),
});

export const NetworkOverviewData = Type.Object({
  ...Meta,
  ship_type: ShipTypeOut,
  ports: Type.Integer({ description: 'Ports with at least one voyage in or out.' }),
  lanes: Type.Integer(),
  voyages: Type.Integer(),
  vessels: Type.Integer(),
  connected_components: Type.Integer({ description: 'Of the undirected lane graph.' }),
  largest_component_ports: Type.Integer(),
  density: Nullable(Type.Number(), 'lanes / (ports × (ports − 1)), directed.'),
  median_voyage_hours: Num,
  top_hub: Nullable(Type.Object({ port: Port, voyages_total: Type.Integer(), partners: Type.Integer() })),
  top_lane: Nullable(Type.Object({ from: Port, to: Port, voyages: Type.Integer() })),
});

export const WeeklySummaryData = Type.Object({
  ...Meta,
  weeks: Type.Integer(),
  ship_type: ShipTypeOut,
  items: Type.Array(
    Type.Object({
      week_start: Iso,
      week_end: Iso,
      voyages: Type.Integer(),
      departures: Type.Integer({ description: 'Port calls that ended in the week (whether or not the next call is known yet).' }),
      vessels: Type.Integer(),
      lanes: Type.Integer(),
      median_voyage_hours: Num,
      by_ship_type: Type.Array(Type.Object({ ship_type: Type.String(), voyages: Type.Integer() })),
      voyages_change_pct: Num,
    }),
  ),
});

const Trend = {
  voyages: Type.Integer(),
  weekly: Type.Array(Nullable(Type.Integer()), { description: 'Voyages per week, oldest first; null for a week before the store has data.' }),
  last_week_change_pct: Num,
  slope_per_week: Num,
  direction: Direction,
};
export const WeeklyTrendData = Type.Object({
  ...Meta,
  weeks: Type.Integer(),
  week_starts: Type.Array(Iso),
  overall: Type.Object(Trend),
  by_ship_type: Type.Array(Type.Object({ ship_type: Type.String(), ...Trend })),
});

const Share = Nullable(Type.Number());
export const SeasonalityData = Type.Object({
  ...Meta,
  ship_type: ShipTypeOut,
  port: Nullable(Port),
  by_weekday: Type.Array(Type.Object({ weekday: Type.String(), voyages: Type.Integer(), share: Share })),
  by_hour: Type.Array(Type.Object({ hour_utc: Type.Integer(), voyages: Type.Integer(), share: Share })),
  by_month: Type.Array(Type.Object({ month: Type.String(), voyages: Type.Integer(), share: Share })),
  weekday_occurrences: Type.Integer({ description: 'Whole weeks of the window with data (how often each weekday occurs).' }),
  enough_history: Type.Object({ weekday: Type.Boolean(), hour: Type.Boolean(), month: Type.Boolean() }),
});

const Day = { day: Type.String(), departures: Type.Integer(), z: Nullable(Type.Number()) };
export const AnomalyDaysData = Type.Object({
  ...Meta,
  sample: Type.Object({ port_calls: Type.Integer(), departures: Type.Integer(), days: Type.Integer() }),
  ship_type: ShipTypeOut,
  port: Nullable(Port),
  threshold: Type.Number(),
  baseline: Type.Object({ median: Num, mad: Num, scale: Type.Union([Type.Literal('mad'), Type.Literal('mean_absolute_deviation'), Type.Literal('none')]) }),
  days: Type.Array(Type.Object(Day)),
  anomalies: Type.Array(Type.Object({ ...Day, direction: Type.Union([Type.Literal('high'), Type.Literal('low')]) })),
});

export const PortActivityImbalanceData = Type.Object({
  ...Meta,
  ship_type: ShipTypeOut,
  port: Nullable(Port),
  min_calls: Type.Integer(),
  ports_total: Type.Integer(),
  items: Type.Array(
    Type.Object({
      rank: Type.Integer(),
      port: Port,
      arrivals: Type.Integer(),
      departures: Type.Integer(),
      net_flow: Type.Integer({ description: 'arrivals − departures.' }),
      imbalance_ratio: Type.Number({ description: '(arrivals − departures) / (arrivals + departures), −1..1.' }),
      balance: Type.Union([Type.Literal('accumulating'), Type.Literal('draining'), Type.Literal('balanced')]),
    }),
  ),
});

export const DestOpportunitiesData = Type.Object({
  ...Meta,
  previous_window: Type.Object({ since: Iso, until: Iso, days: Type.Integer(), ...CoverageFields }),
  ship_type: ShipTypeOut,
  from: Port,
  destinations_total: Type.Integer(),
  items: Type.Array(
    Type.Object({
      rank: Type.Integer(),
      to: Port,
      voyages_recent: Type.Integer(),
      voyages_previous: Type.Integer(),
      demand_growth_pct: Num,
      vessels_recent: Type.Integer(),
      opportunity_score: Type.Number({ description: '(voyages_recent − voyages_previous) / (vessels_recent + 1).' }),
    }),
  ),
});

export const StabilityForecastData = Type.Object({
  ...Meta,
  ship_type: ShipTypeOut,
  lane: Nullable(Type.Object({ from: Port, to: Port })),
  weeks: Type.Integer(),
  weeks_with_data: Type.Integer({ description: 'Weeks of the history that began on or after the day of the first port call in the store.' }),
  history: Type.Array(Type.Object({ week_start: Iso, voyages: Type.Integer() })),
  method: Type.Object({ name: Type.String(), k: Type.Integer(), interval: Type.String() }),
  forecast: Nullable(Type.Object({ week_start: Iso, week_end: Iso, voyages: Type.Number(), low: Type.Number(), high: Type.Number() })),
  backtest: Nullable(Type.Object({ points: Type.Integer(), mae: Type.Number(), rmse: Type.Number() })),
  cv: Num,
  stability: Nullable(Type.Union([Type.Literal('stable'), Type.Literal('variable'), Type.Literal('volatile')])),
});
