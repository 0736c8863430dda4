import { Type } from '@sinclair/typebox';
import { SHIP_CATEGORIES } from '../../fleet/ship-types.js';
import { Nullable } from '../kit/schema-kit.js';

export const VISIT_RANK_LIMIT_MAX = 100;

const Range = (text: string) => Type.String({ minLength: 1, maxLength: 8, description: `${text} A count of hours or days: 24H, 7D, 30D (at most 30D).` });
const Time = (text: string) => Type.String({ minLength: 1, maxLength: 40, description: `${text} ISO 8601 (e.g. 2026-11-24T06:00:00Z) or epoch milliseconds.` });

export const CongestionParams = Type.Object(
  { port_id: Type.Integer({ minimum: 1, maximum: 999_999_999, description: 'A port_id of the port table (find one with /v1/ports/search).' }) },
  { additionalProperties: false },
);

export const CongestionQuery = Type.Object(
  {
    range: Type.Optional(Range('Length of the window ending at `at` (default 24H); the previous window, for the trend, is as long.')),
    vessel_type: Type.Optional(
      Type.Union([...SHIP_CATEGORIES.map((c) => Type.Literal(c))], { description: 'Only calls of vessels of this AIS ship category (vessels with no reported type are then left out).' }),
    ),
    at: Type.Optional(Time('The moment analysed (default now); later than your horizon (now, or now minus the preview delay without vessels:live) is clamped to it.')),
  },
  { additionalProperties: false },
);

export const PortRef = Type.Object({
  port_id: Type.Integer(),
  name: Nullable(Type.String(), 'Null only for a port a table update has removed since its calls were detected.'),
  locode: Nullable(Type.String()),
  country: Nullable(Type.String(), 'ISO 3166-1 alpha-2.'),
});

const Hours = (text: string) => Nullable(Type.Number({ minimum: 0 }), `${text} Hours, one decimal; null without completed calls.`);

export const CallsSummary = Type.Object({
  from: Type.String({ description: 'Start of the window (exclusive), ISO 8601.' }),
  to: Type.String({ description: 'End of the window (inclusive), ISO 8601.' }),
  arrivals: Type.Integer({ description: 'Calls that began in the window.' }),
  departures: Type.Integer({ description: 'Calls that ended in the window (the completed calls the times below are taken from).' }),
  calls_with_wait: Type.Integer({ description: 'Completed calls that waited at anchor.' }),
  median_wait_hours: Hours('Median wait at anchor of the completed calls (zero for a call that did not wait).'),
  p90_wait_hours: Hours('90th percentile (nearest rank) of the same.'),
  median_berth_hours: Hours('Median time at berth of the completed calls that berthed.'),
  p90_berth_hours: Hours('90th percentile (nearest rank) of the same.'),
});

export const CongestionData = Type.Object({
  port: PortRef,
  at: Type.String({ description: 'The moment analysed, ISO 8601: the requested one, or your horizon if that is earlier.' }),
  at_clamped: Type.Boolean({ description: 'True when the requested moment was later than your horizon.' }),
  range: Type.String({ description: 'The window length, as 24H or 7D.' }),
  vessel_type: Nullable(Type.String()),
  now: Type.Object({
    waiting_at_anchor: Type.Integer({ description: 'Vessels in a call at `at` whose stop at that moment is a wait at anchor.' }),
    at_berth: Type.Integer({ description: 'Vessels in a call at `at` stopped at a berth.' }),
    moving_in_port: Type.Integer({ description: 'Vessels in a call at `at` under way in the port area (between stops).' }),
    silent_not_counted: Type.Integer({ description: 'Calls still open at `at` whose last fix is more than 6 h older: left out of the three counts above (the vessel has gone silent).' }),
  }),
  window: CallsSummary,
  previous_window: CallsSummary,
  trend: Type.Object({
    arrivals_change_pct: Nullable(Type.Number(), 'Arrivals against the previous window, percent; null when it had none.'),
    median_wait_change_pct: Nullable(Type.Number(), 'Median wait against the previous window, percent; null unless both have a non-zero median.'),
    direction: Type.Union(
      ['rising', 'falling', 'steady', 'unknown'].map((d) => Type.Literal(d)),
      {
        description: 'The median wait change where there is one, else the arrivals change: beyond +10 % rising, below -10 % falling, else steady.',
      },
    ),
  }),
  analysed_up_to: Nullable(Type.String(), 'Observation time of the newest position the event detector has analysed; null before it has run.'),
  data_age_seconds: Nullable(Type.Integer({ minimum: 0 }), 'How far the analysed positions stop short of `at` (0 when they reach it); null before the detector has run.'),
  calls_analysed: Type.Integer({ description: 'Port calls read for this answer (both windows and the moment).' }),
  method: Type.Object({ summary: Type.String(), reference: Type.String({ description: 'Where the method is documented.' }) }),
});

export const VisitRankQuery = Type.Object(
  {
    by: Type.Optional(Type.Union([Type.Literal('port'), Type.Literal('vessel')], { description: 'port (default): the most-visited ports; vessel: the vessels with the most port calls.' })),
    range: Type.Optional(Range('Window ending at to (or at your horizon); default 7D. Give range or from/to.')),
    from: Type.Optional(Time('Start of the window, inclusive.')),
    to: Type.Optional(Time('End of the window, exclusive (default and latest: your horizon).')),
    port_id: Type.Optional(Type.Integer({ minimum: 1, maximum: 999_999_999, description: 'With by=vessel: only calls at this port (the vessels calling there most).' })),
    terminals: Type.Optional(
      Type.Boolean({
        description:
          'With by=port: rank every port-table entry on its own (terminals, anchorages and neighbouring places listed as ports) instead of rolling them up to the port they belong to (the largest port within 30 km). Default false.',
      }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: VISIT_RANK_LIMIT_MAX, default: 10, description: `Rows 1-${VISIT_RANK_LIMIT_MAX} (default 10).` })),
  },
  { additionalProperties: false },
);

export const RankedPortItem = Type.Object({
  rank: Type.Integer(),
  port: PortRef,
  calls: Type.Integer({ description: 'Port calls that began in the window.' }),
  distinct_vessels: Type.Integer(),
  median_dwell_hours: Nullable(Type.Number(), 'Median arrival-to-departure time of those calls that had ended by the end of the window.'),
  includes: Type.Array(Type.Object({ port: PortRef, calls: Type.Integer() }), {
    description: 'Entries rolled up into this port (its terminals, anchorages and neighbouring places listed as ports), busiest first; empty with terminals=true.',
  }),
});

export const RankedVesselItem = Type.Object({
  rank: Type.Integer(),
  vessel: Type.Object({
    vsl_id: Type.String(),
    name: Nullable(Type.String()),
    imo: Nullable(Type.Integer()),
    mmsi: Nullable(Type.Integer()),
    ship_category: Nullable(Type.String(), `AIS ship category: ${SHIP_CATEGORIES.join(', ')}.`),
  }),
  calls: Type.Integer({ description: 'Port calls that began in the window.' }),
  distinct_ports: Type.Integer(),
});

export const VisitRankData = Type.Object({
  by: Type.Union([Type.Literal('port'), Type.Literal('vessel')]),
  from: Type.String({ description: 'Start of the window, inclusive, ISO 8601.' }),
  to: Type.String({ description: 'End of the window, exclusive, ISO 8601 (clamped to your horizon).' }),
  port: Nullable(PortRef, 'The port_id filter, when given.'),
  items: Type.Array(Type.Union([RankedPortItem, RankedVesselItem]), { description: 'by=port: ports; by=vessel: vessels; ordered by rank. Ties: more distinct vessels (ports), then the lower id.' }),
  total_calls: Type.Integer({ description: 'Port calls that began in the window (after the port_id filter).' }),
  analysed_up_to: Nullable(Type.String(), 'Observation time of the newest position the event detector has analysed.'),
});
