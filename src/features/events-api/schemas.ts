import { Type } from '@sinclair/typebox';
import { CHOKEPOINTS } from '../../events/chokepoints.js';
import { Cursor, Limit, NextCursor, Nullable } from '../kit/schema-kit.js';

export const EVENTS_LIMIT_MAX = 1000;
export const EVENTS_LIMIT_DEFAULT = 50;
/** The event types listed by GET /v1/events (docs/decisions/112); loitering and ais_gap are not detected yet. */
export const EVENT_TYPES = ['port_call', 'encounter', 'chokepoint_transit'] as const;
export type EventType = (typeof EVENT_TYPES)[number];
/** Named by issue 27 but not detected yet: refused with a message saying so rather than listed empty. */
export const UNDETECTED_EVENT_TYPES = ['loitering', 'ais_gap'] as const;

const CHOKEPOINT_KEYS = CHOKEPOINTS.map((c) => c.key).join(', ');

export const EventsQuery = Type.Object(
  {
    type: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: `Event types, comma-separated: ${EVENT_TYPES.join(', ')} (default all three). loitering and ais_gap are not detected yet and are refused.`,
      }),
    ),
    vessel: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'Events of these vessels, comma-separated (at most 20): IMO:<7 digits>, MMSI:<9 digits> or a vsl_id.' })),
    port_id: Type.Optional(Type.Integer({ minimum: 1, description: 'Port calls at this port (port_id of /v1/ports/search); lists port calls only.' })),
    area: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: `A box minLon,minLat,maxLon,maxLat (decimal degrees, minLon > maxLon crosses the antimeridian) or a chokepoint key (${CHOKEPOINT_KEYS}). Port calls by their port's position, encounters by where they met, transits by their chokepoint.`,
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
      pattern: '^(pc|enc|tr)_[0-9]{1,15}$',
      description: 'An event id as listed: pc_<n> (port call), enc_<n> (encounter), tr_<n> (chokepoint transit).',
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

export const EventView = Type.Object({
  event_id: Type.String({ description: 'Stable id: pc_<n>, enc_<n> or tr_<n>.' }),
  type: Type.Union(EVENT_TYPES.map((t) => Type.Literal(t))),
  vessel: EventVessel,
  other_vessel: Nullable(EventVessel, 'The other vessel of an encounter (the one not asked for when filtering by vessel); null for other types.'),
  start_at: Type.String(),
  end_at: Nullable(Type.String(), 'Null while the event is under way (port calls; visible with vessels:live only).'),
  duration_seconds: Type.Integer({ description: 'end − start, or the time so far while under way.' }),
  position: Nullable(Type.Object({ lat: Type.Number(), lon: Type.Number() }), "Port call: the port's position; encounter: where they met; transit: the chokepoint's centre."),
  zone: Nullable(Type.String(), 'The chokepoint key of a transit or of an encounter in a gate.'),
  setting: Nullable(Type.String(), 'Encounters: open_sea, anchorage or port; null for other types.'),
  direction: Nullable(Type.String(), 'Transits: the direction of passage; null for other types.'),
  port: Nullable(EventPort, 'Port calls: the port.'),
  stops: Nullable(Type.Array(EventStop), 'Port calls: berth and anchorage stops with times.'),
  durations: Nullable(Type.Object({ anchorage_seconds: Type.Integer(), berth_seconds: Type.Integer() }), 'Port calls: time at anchor and at berth.'),
  evidence: Type.Object(
    {
      observations: Type.Integer({ description: 'Positions (port calls, transits) or paired observations (encounters) the event stands on.' }),
      first_seq: Type.Integer(),
      last_seq: Type.Integer(),
      gaps: Nullable(Type.Integer(), 'Port calls: silences over 6 h inside the call.'),
    },
    { description: 'Counts and the sequence numbers of the first and last stored position behind the event.' },
  ),
  confidence: Nullable(Type.Number(), 'Null for transits (the gate detector rates none).'),
  detector: Type.Object(
    { name: Type.String(), parameters: Type.Record(Type.String(), Type.Union([Type.Number(), Type.String()])) },
    { description: "The detector and its published parameters (Global Fishing Watch definitions for port calls and encounters; Bosun's gates for transits)." },
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
