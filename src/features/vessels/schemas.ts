import { Type } from '@sinclair/typebox';
import { SHIP_CATEGORIES } from '../../fleet/ship-types.js';
import { PREVIEW } from '../kit/preview-constants.js';
import { DeclaredIdentity } from '../../http/declared-identity.js';
import { DOWNSAMPLE_MAX_SECONDS, POSITIONS_LIMIT_MAX, POLL_TIMEOUT_DEFAULT, POLL_TIMEOUT_MAX, SEARCH_LIMIT_MAX, UPDATES_LIMIT_MAX, WATCHLIST_MAX_IDS } from './limits.js';
import { Nullable } from '../kit/schema-kit.js';

const DateTime = (description?: string) => Type.String({ format: 'date-time', ...(description ? { description } : {}) });

const VOYAGE_NOTE =
  'From the AIS static reports: the latest with vessels:live; without it the value in effect 50,400 s ago (null, and the answer flagged voyage_withheld, when the vessel was first heard less than that ago).';
const ID_FORMS = 'IMO:<7 digits with a valid check digit>, MMSI:<9 digits>, a vsl_id, or bare 7 (IMO) or 9 (MMSI) digits';
const VesselRef = (description: string) => Type.String({ minLength: 1, maxLength: 64, description });

export const VesselSelectorQuery = Type.Object(
  {
    id: Type.Optional(VesselRef(`The vessel: ${ID_FORMS}.`)),
    imo: Type.Optional(VesselRef('IMO number (7 digits, check digit verified).')),
    mmsi: Type.Optional(VesselRef('MMSI (9 digits).')),
  },
  { additionalProperties: false },
);

const Category = Nullable(Type.Union(SHIP_CATEGORIES.map((c) => Type.Literal(c))), 'Category of the AIS ship type; null when not reported.');
const PositionConfidence = Type.Number({
  minimum: 0,
  maximum: 1,
  description: 'Confidence of the position, 0-1, from its quality flags (0.95 unflagged AIS; coarse_position 0.6, future_timestamp 0.3, impossible_jump 0.2, invalid_coordinates 0).',
});
const IdentityConfidence = Type.Number({
  minimum: 0,
  maximum: 1,
  description: 'Confidence of the identity merged from AIS reports, 0-1: 0.4 for an MMSI seen in position reports, +0.2 name, +0.2 valid IMO, +0.1 callsign, +0.1 reported by two or more feeds.',
});
const QualityFlags = Type.Array(Type.String(), {
  description:
    'invalid_coordinates, impossible_jump, future_timestamp, coarse_position (AIS type 27, 1/10 minute), simulated_source; delayed_position when the position is served under the 50,400 s delay because the key lacks the vessels:live entitlement.',
});

export const PositionSummary = Type.Object({
  lat: Type.Number(),
  lon: Type.Number(),
  sog_kn: Nullable(Type.Number(), 'Speed over ground in knots.'),
  cog_deg: Nullable(Type.Number(), 'Course over ground, degrees true.'),
  heading_deg: Nullable(Type.Number(), 'True heading, degrees.'),
  nav_status: Nullable(Type.Integer(), 'AIS navigation status 0-15.'),
  nav_status_text: Nullable(Type.String()),
  observed_at: DateTime(),
  age_seconds: Type.Integer({ description: 'Seconds between observed_at and the response.' }),
  source: Type.String({ description: 'Feed that reported it.' }),
  simulated: Type.Boolean(),
  quality_flags: QualityFlags,
  confidence: PositionConfidence,
});

/** How most answers name a vessel: its id, MMSI, IMO, name and callsign (in this order). */
export const VESSEL_NAMING = {
  vsl_id: Type.String(),
  mmsi: Type.Integer(),
  imo: Nullable(Type.Integer()),
  name: Nullable(Type.String()),
  callsign: Nullable(Type.String()),
};

/** A reported position's motion: speed and course over ground, heading, navigational status. */
export const REPORTED_MOTION = {
  sog_kn: Nullable(Type.Number()),
  cog_deg: Nullable(Type.Number()),
  heading_deg: Nullable(Type.Number()),
  nav_status: Nullable(Type.Integer()),
};

/** The service answers' vessel (IMO before MMSI): id, IMO, MMSI, name, callsign, flag and AIS ship type. */
export const SERVICE_VESSEL_IDENTITY = {
  vsl_id: Type.String(),
  imo: Nullable(Type.Integer()),
  mmsi: Type.Integer(),
  name: Nullable(Type.String()),
  callsign: Nullable(Type.String()),
  flag: Nullable(Type.String()),
  ship_type: Nullable(Type.Integer()),
};

export const VesselRecord = Type.Object({
  ...VESSEL_NAMING,
  flag: Nullable(Type.String({ description: 'ISO 3166-1 alpha-2 from the MMSI country code (MID).' })),
  ship_type: Nullable(Type.Integer({ description: 'AIS ship and cargo type 1-99.' })),
  ship_type_text: Nullable(Type.String()),
  category: Category,
  length_m: Nullable(Type.Number()),
  beam_m: Nullable(Type.Number()),
  draught_m: Nullable(Type.Number(), VOYAGE_NOTE),
  destination: Nullable(Type.String({ description: 'As typed by the crew.' }), VOYAGE_NOTE),
  eta: Nullable(DateTime('Reported ETA (AIS has no year; the year is inferred).'), VOYAGE_NOTE),
  simulated: Type.Boolean({ description: 'True when the vessel comes from a simulated source (the demo fleet).' }),
  sources: Type.Array(Type.String(), { description: 'Feeds that reported the vessel, most recent last.' }),
  first_seen_at: Nullable(DateTime(), 'When Bosun first heard the vessel; without vessels:live null when that is less than 50,400 s ago.'),
  last_seen_at: Nullable(DateTime(), 'Its newest observation of any kind; without vessels:live the newest at least 50,400 s old (null when none).'),
  confidence: IdentityConfidence,
  corrections: Type.Optional(
    Type.Array(Type.Object({ field: Type.String(), value: Type.Union([Type.String(), Type.Number()]), ticket_id: Type.String(), provenance: Type.String(), applied_at: DateTime() }), {
      description:
        'Fields served from an operator correction (feedback ticket) instead of the observed value; the answer then carries the quality flag operator_corrected. Present only when some field is corrected.',
    }),
  ),
});

export const LookupData = Type.Object({
  vessel: VesselRecord,
  latest_position: Nullable(PositionSummary, 'Newest usable position the key may see (live with vessels:live, else at least 50,400 s old); null when none.'),
  data_age_seconds: Nullable(Type.Integer(), 'Age of last_seen_at (null when it is null).'),
});

export const LastPositionData = Type.Object({
  vsl_id: Type.String(),
  mmsi: Type.Integer(),
  imo: Nullable(Type.Integer()),
  name: Nullable(Type.String()),
  simulated: Type.Boolean(),
  position: Nullable(PositionSummary, 'Null when the vessel has no usable position yet (without vessels:live: none at least 50,400 s old).'),
});

export const SearchQuery = Type.Object(
  {
    q: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Name (contains), callsign, IMO or MMSI (prefix); case-insensitive.' })),
    type: Type.Optional(
      Type.Union(
        SHIP_CATEGORIES.map((c) => Type.Literal(c)),
        { description: 'Ship category.' },
      ),
    ),
    flag: Type.Optional(Type.String({ pattern: '^[A-Za-z]{2}$', description: 'ISO 3166-1 alpha-2 flag.' })),
    bbox: Type.Optional(
      Type.String({ maxLength: 100, description: 'minLon,minLat,maxLon,maxLat on the latest position the key may see (delayed without vessels:live; minLon > maxLon crosses 180°).' }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: SEARCH_LIMIT_MAX, default: 20, description: `Page size 1-${SEARCH_LIMIT_MAX} (default 20).` })),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 300, description: 'next_cursor of the previous page.' })),
  },
  { additionalProperties: false },
);

const LatestPoint = Type.Object({ lat: Type.Number(), lon: Type.Number(), observed_at: DateTime(), age_seconds: Type.Integer(), quality_flags: QualityFlags });

export const SearchItem = Type.Object({
  ...VESSEL_NAMING,
  flag: Nullable(Type.String()),
  ship_type: Nullable(Type.Integer()),
  category: Category,
  simulated: Type.Boolean(),
  latest_position: Nullable(LatestPoint),
  confidence: IdentityConfidence,
});

export const SearchData = Type.Object({ items: Type.Array(SearchItem), next_cursor: Nullable(Type.String()) });

export const WatchlistQuery = Type.Object(
  { ids: Type.String({ minLength: 1, maxLength: 4000, description: `Comma-separated, 1-${WATCHLIST_MAX_IDS} ids (${ID_FORMS}).` }) },
  { additionalProperties: false },
);

export const WatchlistData = Type.Object({
  items: Type.Array(
    Type.Object({
      id: Type.String({ description: 'The id as given.' }),
      status: Type.Union([Type.Literal('ok'), Type.Literal('error')]),
      result: Nullable(LastPositionData),
      error: Nullable(Type.Object({ code: Type.String(), message: Type.String() })),
    }),
  ),
  found: Type.Integer(),
  errors: Type.Integer(),
});

export const VesselPathParams = Type.Object({ vsl_id: Type.String({ minLength: 1, maxLength: 64, description: `The vessel: ${ID_FORMS}.` }) }, { additionalProperties: false });

const TimeBound = (description: string) => Type.String({ minLength: 1, maxLength: 40, description: `${description} ISO 8601, or epoch seconds (up to 11 digits) or milliseconds (12-13 digits).` });

export const PositionsQuery = Type.Object(
  {
    from: Type.Optional(TimeBound('Start, inclusive (default: 24 h before to).')),
    to: Type.Optional(TimeBound('End, inclusive (default: now).')),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: POSITIONS_LIMIT_MAX, default: 100, description: `Page size 1-${POSITIONS_LIMIT_MAX} (default 100).` })),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    downsample: Type.Optional(Type.Integer({ minimum: 1, maximum: DOWNSAMPLE_MAX_SECONDS, description: 'At most one point per bucket of this many seconds (the first in each).' })),
    include_flagged: Type.Optional(Type.Boolean({ description: 'Include positions whose quality flags keep them from being a latest position (default false).' })),
  },
  { additionalProperties: false },
);

export const TrackPoint = Type.Object({
  observed_at: DateTime(),
  lat: Type.Number(),
  lon: Type.Number(),
  ...REPORTED_MOTION,
  source: Type.String(),
  simulated: Type.Boolean(),
  quality_flags: QualityFlags,
  confidence: PositionConfidence,
});

export const PositionsData = Type.Object({
  vsl_id: Type.String(),
  mmsi: Type.Integer(),
  from: DateTime(),
  to: DateTime(),
  downsample_seconds: Nullable(Type.Integer()),
  items: Type.Array(TrackPoint),
  next_cursor: Nullable(Type.String()),
});

export const UpdatesQuery = Type.Object(
  {
    since: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'cursor of the previous poll; omitted = start now.' })),
    timeout: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: POLL_TIMEOUT_MAX,
        default: POLL_TIMEOUT_DEFAULT,
        description: `Seconds to wait for new positions, 0-${POLL_TIMEOUT_MAX} (default ${POLL_TIMEOUT_DEFAULT}).`,
      }),
    ),
    ids: Type.Optional(Type.String({ minLength: 1, maxLength: 4000, description: `Only these vessels: comma-separated, up to ${WATCHLIST_MAX_IDS} (${ID_FORMS}).` })),
    bbox: Type.Optional(Type.String({ maxLength: 100, description: 'Only positions inside minLon,minLat,maxLon,maxLat.' })),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: UPDATES_LIMIT_MAX,
        default: 500,
        description: `Most positions per answer, 1-${UPDATES_LIMIT_MAX} (default 500); more_available tells when to poll again at once.`,
      }),
    ),
  },
  { additionalProperties: false },
);

export const UpdateItem = Type.Composite([Type.Object({ vsl_id: Type.String(), mmsi: Type.Integer() }), TrackPoint]);

export const UpdatesData = Type.Object({
  items: Type.Array(UpdateItem),
  cursor: Type.String({ description: 'Pass as since in the next poll.' }),
  more_available: Type.Boolean(),
  timed_out: Type.Boolean({ description: 'True when the wait ended without new positions.' }),
});

export const PopularQuery = Type.Object(
  {
    window: Type.Optional(Type.Union([Type.Literal('24h'), Type.Literal('7d')], { default: '24h', description: 'Counting window (default 24h).' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 20, description: 'Number of vessels, 1-50 (default 20).' })),
  },
  { additionalProperties: false },
);

export const PopularData = Type.Object({
  window: Type.String(),
  since: DateTime(),
  items: Type.Array(
    Type.Object({
      rank: Type.Integer(),
      vsl_id: Type.String(),
      mmsi: Nullable(Type.Integer()),
      imo: Nullable(Type.Integer()),
      name: Nullable(Type.String()),
      flag: Nullable(Type.String()),
      category: Category,
      lookups: Type.Integer({ description: 'Keyed reads (lookup, last_position, positions, watchlist) in the window.' }),
      agents: Type.Integer({ description: 'Distinct agents among them.' }),
    }),
  ),
});

export const PreviewSearchQuery = Type.Object(
  {
    q: Type.String({ minLength: 2, maxLength: 64, description: 'Name (contains), callsign, IMO or MMSI (prefix); case-insensitive.' }),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: PREVIEW.maxSearchResults, default: PREVIEW.maxSearchResults, description: `1-${PREVIEW.maxSearchResults}.` })),
  },
  { additionalProperties: false },
);

export const PreviewIdentity = Type.Object({
  ...VESSEL_NAMING,
  flag: Nullable(Type.String()),
  category: Category,
  simulated: Type.Boolean(),
});

export const PreviewSearchData = Type.Object({
  items: Type.Array(PreviewIdentity),
  note: Type.String(),
  declared_identity: DeclaredIdentity,
});

export const PreviewLastPositionQuery = Type.Object(
  { imo: Type.String({ minLength: 1, maxLength: 16, description: 'IMO number (7 digits, check digit verified).' }) },
  { additionalProperties: false },
);

export const PreviewLastPositionData = Type.Object({
  declared_identity: DeclaredIdentity,
  vessel: PreviewIdentity,
  position: Type.Object({
    lat: Type.Number(),
    lon: Type.Number(),
    ...REPORTED_MOTION,
    observed_at: DateTime(),
    age_seconds: Type.Integer({ minimum: PREVIEW.positionDelaySeconds }),
  }),
  position_delay_seconds: Type.Literal(PREVIEW.positionDelaySeconds),
});
