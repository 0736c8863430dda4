import { Type } from '@sinclair/typebox';
import { CHOKEPOINTS } from '../../../events/chokepoints.js';
import { RANGE_PATTERN } from '../../kit/time-window.js';
import { RouteGeometrySchema, RoutesWithViaQuery, SHIP_TYPES } from '../schemas.js';
import { Nullable } from '../../kit/schema-kit.js';

/** An encounter counts as near the route when it lies within this distance of the route's line. */
export const STS_NEAR_ROUTE_KM = 20;
/** Encounters listed in an answer at most (nearest first); `count` has them all. */
export const STS_LISTED_MAX = 10;

/** Thresholds of the risk flags (docs/decisions/035): each flag's severity from measured values. */
export const FLAG_THRESHOLDS = {
  /** Route stress index of a crossed chokepoint: its level (decision 023) from 25 (elevated), 50 (high), 75 (severe). */
  chokepoint_stress: { elevated: 25, high: 50, severe: 75 },
  /** Encounters (possible STS transfers) that ended in the window within STS_NEAR_ROUTE_KM of the route. */
  sts_near_route: { elevated: 1, high: 3, severe: 10 },
  /** Median anchorage wait (hours) of calls completed at the destination port in the window. */
  destination_congestion: { elevated: 6, high: 24, severe: 72 },
} as const;

const { from, to, avoid, allow } = RoutesWithViaQuery.properties;

export const RouteConditionsQuery = Type.Object(
  {
    from,
    to,
    via: Type.Optional(RoutesWithViaQuery.properties.via),
    avoid,
    allow,
    range: Type.Optional(
      Type.String({
        pattern: RANGE_PATTERN,
        description: 'Window of the conditions, back from your horizon: 24H, 7D, 30D (default 7D, at most 30D); the stress baselines are the 4 windows of this length before it.',
      }),
    ),
  },
  { additionalProperties: false },
);

const Severity = Type.Union([Type.Literal('elevated'), Type.Literal('high'), Type.Literal('severe')]);

const RouteSummary = Type.Object(
  {
    from: Type.String({ description: 'The origin as given.' }),
    to: Type.String(),
    via: Type.Array(Type.String()),
    destination_port: Nullable(Type.Object({ port_id: Type.Integer(), name: Type.String(), locode: Nullable(Type.String()) }), 'The destination when it is a port (congestion is measured there).'),
    distance_nm: Type.Number(),
    passages: Type.Array(Type.String(), { description: 'Routing passages crossed, in order.' }),
    geometry: RouteGeometrySchema,
  },
  { description: 'The route the conditions are read along (as GET /v1/routes/direct or with-via plans it).' },
);

const Window = Type.Object(
  { from: Type.String(), to: Type.String({ description: 'Your horizon: now with vessels:live, the preview delay ago otherwise.' }) },
  { description: 'The window of the conditions.' },
);

const StressComponent = Type.Object({ name: Type.String(), value: Nullable(Type.Number()), baseline: Nullable(Type.Number()), stress: Nullable(Type.Number()), unit: Type.String() });

const ChokepointCondition = Type.Object({
  zone: Type.String({ description: `Event-layer chokepoint key (${CHOKEPOINTS.map((c) => c.key).join(', ')}).` }),
  name: Type.String(),
  passage: Nullable(Type.String(), 'The routing passage it corresponds to (null for gates the routing network does not name: crossed when the route enters the gate disc).'),
  at_nm: Type.Number({ description: 'Distance from the origin where the route reaches it.' }),
  stress_index: Nullable(Type.Number(), 'Route stress index 0-100 (GET /v1/metrics/route_stress_index); null when no component could be measured.'),
  level: Nullable(Type.Union([Type.Literal('low'), Type.Literal('elevated'), Type.Literal('high'), Type.Literal('severe')])),
  weight_measured: Type.Number(),
  components: Type.Array(StressComponent, { description: 'The available components (measured, with a baseline).' }),
  unavailable: Type.Array(Type.Object({ name: Type.String(), note: Type.String() }), { description: 'Components not measured, and why.' }),
  data_age_seconds: Nullable(Type.Integer(), 'Age of the newest event behind the available components.'),
});

const Encounter = Type.Object({
  id: Type.Integer(),
  end: Type.String(),
  lat: Type.Number(),
  lon: Type.Number(),
  distance_km: Type.Number({ description: 'From the route line.' }),
  duration_minutes: Type.Integer(),
  zone: Nullable(Type.String()),
});

const StsCondition = Type.Object({
  within_km: Type.Number(),
  count: Nullable(Type.Integer(), 'Encounters that ended in the window within within_km of the route; null when the detector has analysed nothing.'),
  nearest_km: Nullable(Type.Number()),
  data_age_seconds: Nullable(Type.Integer(), 'Age of the newest of them.'),
  items: Type.Array(Encounter, { description: `Nearest first, at most ${STS_LISTED_MAX}.` }),
});

const CallsSummary = Type.Object({
  arrivals: Type.Integer(),
  departures: Type.Integer(),
  calls_with_wait: Type.Integer(),
  median_wait_hours: Nullable(Type.Number()),
  p90_wait_hours: Nullable(Type.Number()),
});

const DestinationCondition = Type.Object({
  port: Nullable(Type.Object({ port_id: Type.Integer(), name: Type.String(), locode: Nullable(Type.String()) })),
  available: Type.Boolean(),
  note: Nullable(Type.String()),
  waiting_now: Nullable(Type.Integer(), 'Vessels waiting at anchor at the end of the window.'),
  at_berth_now: Nullable(Type.Integer()),
  window: Nullable(CallsSummary),
  previous_window: Nullable(CallsSummary),
  trend: Nullable(Type.Union(['rising', 'falling', 'steady', 'unknown'].map((t) => Type.Literal(t)))),
  data_age_seconds: Nullable(Type.Integer(), 'Age of the newest call event behind the figures.'),
});

export const Conditions = Type.Object({
  chokepoints: Type.Array(ChokepointCondition, { description: 'Chokepoints of the event layer the route crosses, in route order.' }),
  sts: StsCondition,
  destination: DestinationCondition,
});

const common = {
  route: RouteSummary,
  window: Window,
  analysed_up_to: Nullable(Type.String(), 'Observation time of the newest position the event detector has analysed (at most your horizon); null: nothing analysed, no conditions.'),
};

export const RouteAdvisoryData = Type.Object({
  ...common,
  conditions: Conditions,
  summary: Type.Array(Type.String(), { description: 'One sentence per condition, each quoting the measured values behind it.' }),
  recommendations: Type.Array(Type.String(), {
    description: 'Derived from the flags and the measured alternatives (e.g. the route avoiding a stressed passage, with its added distance); empty when nothing is flagged.',
  }),
  alternatives: Type.Array(
    Type.Object({ avoid: Type.String(), distance_nm: Nullable(Type.Number()), added_nm: Nullable(Type.Number()), passages: Type.Array(Type.String()), note: Nullable(Type.String()) }),
    { description: 'For each crossed passage flagged high or severe: the same route avoiding it (null distance when no route exists).' },
  ),
});

const Flag = Type.Object({
  code: Type.Union([Type.Literal('chokepoint_stress'), Type.Literal('sts_near_route'), Type.Literal('destination_congestion')]),
  severity: Severity,
  subject: Type.String({ description: 'The chokepoint key, "route" or the destination port_id.' }),
  message: Type.String(),
  evidence: Type.Record(Type.String(), Type.Unknown(), { description: 'The measured values the flag stands on.' }),
  threshold: Type.Number({ description: 'The threshold of this severity that the value met.' }),
  data_age_seconds: Nullable(Type.Integer()),
});

export const RouteRiskFlagsData = Type.Object({
  ...common,
  flags: Type.Array(Flag, { description: 'Most severe first.' }),
  thresholds: Type.Object(
    {
      chokepoint_stress: Type.Object({ elevated: Type.Number(), high: Type.Number(), severe: Type.Number() }),
      sts_near_route: Type.Object({ elevated: Type.Number(), high: Type.Number(), severe: Type.Number() }),
      destination_congestion: Type.Object({ elevated: Type.Number(), high: Type.Number(), severe: Type.Number() }),
    },
    { description: 'chokepoint_stress: route stress index; sts_near_route: encounters within 20 km; destination_congestion: median anchorage wait, hours.' },
  ),
  checked: Type.Object(
    { chokepoints: Type.Array(Type.String()), sts: Type.Boolean(), destination_congestion: Type.Boolean() },
    { description: 'What could be measured: a condition not checked raises no flag (quality_flags say why).' },
  ),
});

// ---- forecast-lite ----

export const ForecastLiteQuery = Type.Object(
  {
    vessel: Type.String({ minLength: 1, maxLength: 40, description: 'IMO:<7 digits>, MMSI:<9 digits> or a vsl_id.' }),
    to: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: 'Destination instead of the AIS-reported one: a port_id, a UN/LOCODE or lat,lon.' })),
    speed_kn: Type.Optional(Type.Number({ minimum: 1, maximum: 40, description: 'Speed instead of the recent mean speed over ground.' })),
    avoid: RoutesWithViaQuery.properties.avoid,
  },
  { additionalProperties: false },
);

export const ForecastLiteData = Type.Object({
  vessel: Type.Object({ vsl_id: Type.String(), name: Nullable(Type.String()), imo: Nullable(Type.Integer()), mmsi: Type.Integer(), ship_type: Nullable(Type.Integer()) }),
  position: Type.Object({
    lat: Type.Number(),
    lon: Type.Number(),
    sog_kn: Nullable(Type.Number()),
    observed_at: Type.String(),
    age_seconds: Type.Integer(),
    delayed: Type.Boolean({ description: 'The delayed position (no vessels:live): the newest at least 14 h old.' }),
  }),
  destination: Type.Object({
    source: Type.Union([Type.Literal('to'), Type.Literal('ais')]),
    text: Type.String({ description: 'The AIS destination or the given to.' }),
    resolution: Type.Union(['given', 'locode', 'name_exact', 'name_ambiguous', 'locode_in_text', 'name_fuzzy'].map((r) => Type.Literal(r))),
    port: Nullable(Type.Object({ port_id: Type.Integer(), name: Type.String(), locode: Nullable(Type.String()), country: Nullable(Type.String()) })),
    lat: Type.Number(),
    lon: Type.Number(),
    candidates: Type.Integer({ description: 'Ports matching the text as well as the one chosen (1 when unambiguous).' }),
  }),
  speed: Type.Object({
    kn: Type.Number(),
    source: Type.Union([Type.Literal('speed_kn'), Type.Literal('recent_sog'), Type.Literal('ship_type_default')]),
    samples: Type.Integer({ description: 'Moving positions (SOG ≥ 1 kn) averaged, in the 6 h up to the position.' }),
    ship_type: Type.Union(
      SHIP_TYPES.map((t) => Type.Literal(t)),
      { description: 'The routing ship type of the AIS type (for the default speed).' },
    ),
  }),
  remaining_nm: Type.Number(),
  passages: Type.Array(Type.String()),
  duration_hours: Type.Number(),
  eta: Type.String({ description: 'observed_at + remaining_nm / speed.' }),
  eta_in_hours: Type.Number({ description: 'From now (negative: the estimate is already past).' }),
  ais_eta: Nullable(Type.String(), 'The ETA the vessel reports in AIS (as sent), for comparison.'),
  confidence: Type.Object({
    value: Type.Number({ minimum: 0, maximum: 1 }),
    position_age: Type.Number({ description: 'Factor from the position age: 1 − age_hours / 48, at least 0.3.' }),
    speed_source: Type.Number({ description: 'speed_kn 0.8, recent_sog 0.9 (5 samples or more) or 0.75, ship_type_default 0.5.' }),
    destination: Type.Number({ description: 'given or locode 1, name_exact 0.9, locode_in_text 0.85, name_ambiguous 0.6, name_fuzzy 0.5.' }),
  }),
  route: Type.Object({ geometry: RouteGeometrySchema, attribution: Type.Array(Type.String()) }),
});
