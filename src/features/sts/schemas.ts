import { Type } from '@sinclair/typebox';
import { RANGE_PATTERN } from '../kit/time-window.js';
import { Nullable } from '../kit/schema-kit.js';

export const STS_LIMIT_MAX = 100;
export const STS_LIMIT_DEFAULT = 20;

export const StsEventsQuery = Type.Object(
  {
    range: Type.Optional(Type.String({ pattern: RANGE_PATTERN, description: 'Window back from to (or from the horizon): 24H, 7D, 30D (default 7D, at most 30D). Not with from.' })),
    from: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: 'Window start: ISO 8601 time or epoch milliseconds (events that ended at or after it).' })),
    to: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: 'Window end: ISO 8601 time or epoch milliseconds (default and latest: your horizon).' })),
    zone: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description:
          'A chokepoint key (suez, panama, bosporus, bab_el_mandeb, malacca, hormuz, cape_of_good_hope, gibraltar, dover, oresund, taiwan_strait, lombok): events in its gate; or a box minLon,minLat,maxLon,maxLat (minLon > maxLon crosses the antimeridian).',
      }),
    ),
    vessel: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: 'Events of one vessel: IMO:<7 digits>, MMSI:<9 digits> or a vsl_id.' })),
    setting: Type.Optional(
      Type.String({
        pattern: '^(all|(open_sea|anchorage|port)(,(open_sea|anchorage|port)){0,2})$',
        description:
          'Settings listed, comma-separated: open_sea (GFW rules, at least 10 km from ports), anchorage (near a port, within 100 m for at least 1 h), port (both vessels alongside: ships moored side by side at a quay, barges alongside; not transfers unless asked for); or all. Default open_sea,anchorage.',
      }),
    ),
    min_duration: Type.Optional(
      Type.String({
        pattern: '^([0-9]{1,5}|[0-9]{1,3}[Hh]([0-9]{1,4}[Mm])?|[0-9]{1,5}[Mm])$',
        description: 'Shortest duration listed: minutes as an integer (150) or hours/minutes (2H, 90M, 2H30M).',
      }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: STS_LIMIT_MAX, default: STS_LIMIT_DEFAULT, description: `Page size 1-${STS_LIMIT_MAX} (default ${STS_LIMIT_DEFAULT}).` })),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 400, description: 'next_cursor of the previous page (same query).' })),
  },
  { additionalProperties: false },
);

const StsVessel = Type.Object({
  vsl_id: Type.String(),
  name: Nullable(Type.String()),
  imo: Nullable(Type.Integer()),
  mmsi: Nullable(Type.Integer()),
  flag: Nullable(Type.String(), 'ISO 3166-1 alpha-2 from the MMSI.'),
  ship_type: Nullable(Type.Integer(), 'AIS ship and cargo type code.'),
  category: Nullable(Type.String(), 'cargo, tanker, passenger, fishing, tug, pleasure, high_speed, sailing, military or other.'),
});

export const StsEvent = Type.Object({
  id: Type.Integer(),
  start: Type.String({ description: 'First time the two vessels were together (ISO 8601).' }),
  end: Type.String({ description: 'Last time they were together.' }),
  duration_minutes: Type.Integer(),
  median_distance_m: Type.Number(),
  position: Type.Object({ lat: Type.Number(), lon: Type.Number() }, { description: 'Where they met (median of the paired positions).' }),
  zone: Nullable(Type.String(), 'The chokepoint gate the meeting lies in, if any.'),
  setting: Type.Union([Type.Literal('open_sea'), Type.Literal('anchorage'), Type.Literal('port')], {
    description: 'Where it happened: open_sea (at least 10 km from ports), anchorage (near a port, not both alongside) or port (both vessels alongside, as at a quay).',
  }),
  vessels: Type.Array(StsVessel, { minItems: 2, maxItems: 2 }),
  observations: Type.Integer({ description: 'Paired observations the event stands on.' }),
  evidence: Type.Object({ first_seq: Type.Integer(), last_seq: Type.Integer() }, { description: 'Sequence numbers of the first and last stored position behind the event.' }),
  confidence: Type.Number(),
  simulated: Type.Boolean({ description: 'Either vessel was reported by the simulator.' }),
});

export const StsEventsData = Type.Object({
  window: Type.Object({ from: Type.String(), to: Type.String() }, { description: 'Events that ended in this window (to is at most your horizon).' }),
  items: Type.Array(StsEvent),
  next_cursor: Nullable(Type.String()),
  analysed_up_to: Nullable(Type.String(), 'Observation time of the newest position the detector has analysed.'),
});
