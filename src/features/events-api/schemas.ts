import { Type } from '@sinclair/typebox';
import { CHOKEPOINTS } from '../../events/chokepoints.js';
import { Cursor, Limit, NextCursor, Nullable } from '../kit/schema-kit.js';

export const EVENTS_LIMIT_MAX = 1000;
export const EVENTS_LIMIT_DEFAULT = 50;
/** The event types listed by GET /v1/events (docs/decisions/112, 114). */
export const EVENT_TYPES = ['port_call', 'encounter', 'chokepoint_transit', 'loitering', 'ais_gap'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

const CHOKEPOINT_KEYS = CHOKEPOINTS.map((c) => c.key).join(', ');

export const EventsQuery = Type.Object(
  {
    type: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: `Event types, comma-separated: ${EVENT_TYPES.join(', ')} (default all).`,
      }),
    ),
    vessel: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'Events of these vessels, comma-separated (at most 20): IMO:<7 digits>, MMSI:<9 digits> or a vsl_id.' })),
    port_id: Type.Optional(Type.Integer({ minimum: 1, description: 'Port calls at this port (port_id of /v1/ports/search); lists port calls only.' })),
    area: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: `A box minLon,minLat,maxLon,maxLat (decimal degrees, minLon > maxLon crosses the antimeridian) or a chokepoint key (${CHOKEPOINT_KEYS}). Port calls by their port's position, encounters and loitering by where they happened, AIS gaps by either end, transits by their chokepoint (loitering and gaps in a chokepoint: within the box around its gate).`,
      }),
    ),
    from: Type.Optional(
      Type.String({ minLength: 1, maxLength: 40, description: 'Window start: ISO 8601 time or epoch milliseconds. Events under way at some moment of [from, to] are listed. Default: to − 30 days.' }),
    ),
    to: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: 'Window end: ISO 8601 time or epoch milliseconds (default now). At most 366 days after from.' })),
    min_duration: Type.Optional(Type.Integer({ minimum: 0, maximum: 366 * 86_400, description: 'Shortest duration listed, in seconds (ongoing events count the time so far).' })),
    setting: Type.Optional(
      Type.String({
        pattern: '^(all|(open_sea|anchorage|port)(,(open_sea|anchorage|port)){0,2})$',
        description: 'Encounter settings, comma-separated: open_sea, anchorage, port, or all (default all). Lists encounters only.',
      }),
    ),
    limit: Limit(EVENTS_LIMIT_MAX, EVENTS_LIMIT_DEFAULT),
    cursor: Cursor(400, 'next_cursor of the previous page (same query).'),
  },
  { additionalProperties: false },
);

export const EventParams = Type.Object(
  {
    event_id: Type.String({
      minLength: 1,
      maxLength: 40,
      pattern: '^(pc|enc|tr|lt|gap)_[0-9]{1,15}$',
      description: 'An event id as listed: pc_<n> (port call), enc_<n> (encounter), tr_<n> (chokepoint transit), lt_<n> (loitering), gap_<n> (AIS gap).',
    }),
  },
  { additionalProperties: false },
);

const EventVessel = Type.Object({
  vsl_id: Type.String(),
  mmsi: Nullable(Type.Integer()),
  imo: Nullable(Type.Integer()),
  name: Nullable(Type.String(), 'As served elsewhere: with operator corrections applied.'),
});

const EventPort = Type.Object({ port_id: Type.Integer(), name: Nullable(Type.String()), locode: Nullable(Type.String()) });

const EventStop = Type.Object({
  kind: Type.Union([Type.Literal('berth'), Type.Literal('anchorage')]),
  start_at: Type.String(),
  end_at: Type.String(),
  position: Type.Object({ lat: Type.Number(), lon: Type.Number() }),
  nav_status: Nullable(Type.Integer(), 'AIS navigation status last reported during the stop (1 at anchor, 5 moored).'),
});

const Position = Type.Object({ lat: Type.Number(), lon: Type.Number() });

const EventLoitering = Type.Object({
  mean_speed_kn: Type.Number({ description: 'Time-weighted mean speed over ground during the event.' }),
  distance_nm: Type.Number({ description: 'Track length during the event.' }),
  min_shore_distance_nm: Type.Number({ description: 'Nearest the vessel came to shore (Natural Earth 1:10m land); 100 stands for 100 or more.' }),
});

const EventGap = Type.Object({
  start_position: Position,
  end_position: Position,
  distance_nm: Type.Number({ description: 'Great-circle distance between where the vessel went silent and where it reappeared.' }),
  implied_speed_kn: Type.Number({ description: 'distance_nm over the silence.' }),
  start_shore_distance_nm: Type.Number({ description: 'Distance to shore where it went silent; 100 stands for 100 or more.' }),
  end_shore_distance_nm: Type.Number({ description: 'Distance to shore where it reappeared; 100 stands for 100 or more.' }),
  near_shore: Type.Boolean({ description: 'Both ends within 50 nm of shore: more likely a hole in receiver coverage than a switch-off.' }),
});

export const EventView = Type.Object({
  event_id: Type.String({ description: 'Stable id: pc_<n>, enc_<n>, tr_<n>, lt_<n> or gap_<n>.' }),
  type: Type.Union(EVENT_TYPES.map((t) => Type.Literal(t))),
  vessel: EventVessel,
  other_vessel: Nullable(EventVessel, 'The other vessel of an encounter (the one not asked for when filtering by vessel); null for other types.'),
  start_at: Type.String(),
  end_at: Nullable(Type.String(), 'Null while the event is under way (port calls; visible with vessels:live only).'),
  duration_seconds: Type.Integer({ description: 'end − start, or the time so far while under way.' }),
  position: Nullable(Position, "Port call: the port's position; encounter: where they met; transit: the chokepoint's centre; loitering: the mean position; AIS gap: where the vessel went silent."),
  zone: Nullable(Type.String(), 'The chokepoint key of a transit or of an encounter in a gate.'),
  setting: Nullable(Type.String(), 'Encounters: open_sea, anchorage or port; null for other types.'),
  direction: Nullable(Type.String(), 'Transits: the direction of passage; null for other types.'),
  port: Nullable(EventPort, 'Port calls: the port.'),
  stops: Nullable(Type.Array(EventStop), 'Port calls: berth and anchorage stops with times.'),
  durations: Nullable(Type.Object({ anchorage_seconds: Type.Integer(), berth_seconds: Type.Integer() }), 'Port calls: time at anchor and at berth.'),
  loitering: Nullable(EventLoitering, 'Loitering: speed, track length and distance to shore; null for other types.'),
  gap: Nullable(EventGap, 'AIS gaps: where and when the vessel went silent and reappeared; null for other types.'),
  evidence: Type.Object(
    {
      observations: Type.Integer({
        description: 'Positions (port calls, transits, loitering; 2 for an AIS gap: the last before and the first after) or paired observations (encounters) the event stands on.',
      }),
      first_seq: Type.Integer(),
      last_seq: Type.Integer(),
      gaps: Nullable(Type.Integer(), 'Port calls: silences over 6 h inside the call.'),
    },
    { description: 'Counts and the sequence numbers of the first and last stored position behind the event.' },
  ),
  confidence: Nullable(Type.Number(), 'Null for transits, loitering and AIS gaps (those detectors rate none).'),
  detector: Type.Object(
    { name: Type.String(), parameters: Type.Record(Type.String(), Type.Union([Type.Number(), Type.String()])) },
    { description: "The detector and its published parameters (Global Fishing Watch definitions for port calls, encounters, loitering and AIS gaps; Bosun's gates for transits)." },
  ),
  simulated: Type.Boolean({ description: 'Reported by the demo simulator.' }),
});

export const EventsData = Type.Object({
  window: Type.Object({ from: Type.String(), to: Type.String() }, { description: 'Events under way at some moment of this window are listed.' }),
  visible_up_to: Type.String({ description: 'Your horizon: events must have ended by then (now with vessels:live, else now − 50,400 s).' }),
  types: Type.Array(Type.String()),
  items: Type.Array(EventView),
  next_cursor: NextCursor,
});

export const EventData = Type.Object({ event: EventView, visible_up_to: Type.String() });
