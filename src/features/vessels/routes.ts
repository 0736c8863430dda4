import { SAMPLE_VESSEL } from '../../fleet/sample-vessel.js';
import { callingAgent } from '../../http/route.js';
import { defineRoute, type CallContext } from '../kit/route.js';
import { PREVIEW } from '../kit/preview-constants.js';
import { MAX_CONCURRENT_POLLS, POLL_TIMEOUT_DEFAULT, POLL_TIMEOUT_MAX, POSITIONS_LIMIT_MAX, SEARCH_LIMIT_MAX, WATCHLIST_MAX_IDS } from './limits.js';
import {
  LastPositionData,
  LookupData,
  PopularData,
  PopularQuery,
  PositionsData,
  PositionsQuery,
  PreviewLastPositionData,
  PreviewLastPositionQuery,
  PreviewSearchData,
  PreviewSearchQuery,
  SearchData,
  SearchQuery,
  UpdatesData,
  UpdatesQuery,
  VesselPathParams,
  VesselSelectorQuery,
  WatchlistData,
  WatchlistQuery,
} from './schemas.js';
import { DELAYED_READ_HELP, LIVE_ONLY_HELP } from './entitlements.js';
import { parseVesselRef, selectorRef } from '../kit/vessel-ids.js';
import { parseBBox } from './vessel-query.js';
import { declaredIdentity } from '../../http/declared-identity.js';

/** The sample vessel of the published examples. */
const SAMPLE = { imo: String(SAMPLE_VESSEL.imo), mmsi: String(SAMPLE_VESSEL.mmsi) } as const;

/** The calling agent and what it may read (vessels:live, its snapshot trial vessel, or delayed only). */
async function reader(call: CallContext) {
  const agent = callingAgent(call);
  return { agentId: agent.agentId, access: await call.services.vessels.access(agent) };
}

function header(call: CallContext, name: string): string | undefined {
  const value = call.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

const ID_HELP =
  'Identify the vessel with id (IMO:9811000, MMSI:563033300, a vsl_id, or bare 7/9 digits) or with imo= or mmsi=; exactly one. A malformed id (IMO failing its check digit, MMSI not 9 digits) answers invalid_vessel_id; a vessel never observed answers vessel_not_found.';
const SIMULATED_HELP = 'Data from a simulated source (the demo fleet) carries simulated: true and the quality flag simulated_source.';

const lookup = defineRoute({
  operationId: 'getVesselsLookup',
  description: `Identity of a vessel merged from every AIS report of its MMSI (name, callsign, IMO, flag from the MMSI country code, ship type and category, dimensions, draught, destination, ETA), the feeds that reported it, its latest usable position and the age of its newest observation (data_age_seconds; freshness_seconds is the age of the oldest data served). ${DELAYED_READ_HELP} ${ID_HELP} ${SIMULATED_HELP}`,
  query: VesselSelectorQuery,
  response: LookupData,
  errors: ['invalid_vessel_id', 'vessel_not_found'],
  examples: [
    { summary: 'Look up by IMO', query: { id: `IMO:${SAMPLE.imo}` } },
    { summary: 'Look up by MMSI', query: { mmsi: SAMPLE.mmsi } },
  ],
  async handler({ query }, call) {
    const { agentId, access } = await reader(call);
    return call.services.vessels.lookup(selectorRef(query), agentId, access);
  },
});

const lastPosition = defineRoute({
  operationId: 'getVesselsLastPosition',
  description: `The latest usable position of a vessel (live with the vessels:live entitlement, delayed otherwise): lat/lon, speed and course over ground, heading, navigation status, observed_at and age_seconds, the feed and any quality flags (coarse_position for AIS type 27). Fixes flagged invalid_coordinates, impossible_jump (implied speed over 80 kn) or future_timestamp never become the latest. position is null for a vessel known only from static reports (and, under the delay, for one with no position that old). ${DELAYED_READ_HELP} ${ID_HELP} ${SIMULATED_HELP}`,
  query: VesselSelectorQuery,
  response: LastPositionData,
  errors: ['invalid_vessel_id', 'vessel_not_found'],
  examples: [{ summary: 'Latest position by IMO', query: { imo: SAMPLE.imo } }],
  async handler({ query }, call) {
    const { agentId, access } = await reader(call);
    return call.services.vessels.lastPosition(selectorRef(query), agentId, access);
  },
});

const search = defineRoute({
  operationId: 'getVesselsSearch',
  description: `Finds vessels by q (name contains, callsign, IMO or MMSI prefix; case-insensitive) and/or filters: type (cargo, tanker, passenger, fishing, tug, pleasure, high_speed, sailing, military, other; from the AIS ship type), flag (ISO alpha-2 from the MMSI), bbox=minLon,minLat,maxLon,maxLat on the position the key may see (the delayed one without vessels:live). Exact matches first, then prefixes, then names containing q; within a rank by name. limit 1-${SEARCH_LIMIT_MAX} (default 20); pass next_cursor as cursor for the next page. ${DELAYED_READ_HELP} ${SIMULATED_HELP}`,
  query: SearchQuery,
  response: SearchData,
  errors: ['cursor_invalid'],
  examples: [
    { summary: 'Search by name', query: { q: 'ocean', limit: 10 } },
    { summary: 'Tankers in a box', query: { type: 'tanker', bbox: '103.5,1.0,104.5,1.5' } },
  ],
  async handler({ query }, call) {
    const { access } = await reader(call);
    return call.services.vessels.search(
      {
        q: query.q,
        category: query.type,
        flag: query.flag,
        bbox: parseBBox(query.bbox, 'query.bbox'),
        limit: query.limit ?? 20,
        cursor: query.cursor,
      },
      access,
    );
  },
});

const watchlist = defineRoute({
  operationId: 'getVesselsWatchlist',
  description: `Latest positions of up to ${WATCHLIST_MAX_IDS} vessels in one call: ids is a comma-separated list (IMO:…, MMSI:…, vsl_id, bare digits). Partial results: every id gets status ok with the same data as last_position, or status error with its own code (invalid_vessel_id, vessel_not_found); the call itself fails only when ids is empty or longer than ${WATCHLIST_MAX_IDS}. ${DELAYED_READ_HELP} ${SIMULATED_HELP}`,
  query: WatchlistQuery,
  response: WatchlistData,
  examples: [{ summary: 'Watch two vessels', query: { ids: `IMO:${SAMPLE.imo},MMSI:${SAMPLE.mmsi}` } }],
  async handler({ query }, call) {
    const { agentId, access } = await reader(call);
    return call.services.vessels.watchlist(query.ids, agentId, access);
  },
});

const positions = defineRoute({
  operationId: 'getVesselsByVslIdPositions',
  description: `Position history of one vessel, oldest first, between from and to (inclusive; ISO 8601 or epoch seconds/milliseconds; default the 24 h before to, to defaults to now). limit 1-${POSITIONS_LIMIT_MAX} (default 100), next_cursor for the next page. downsample=N keeps at most one point (the first) per N-second bucket aligned to the epoch. Positions flagged invalid_coordinates, impossible_jump or future_timestamp are left out unless include_flagged=true. The path takes a vsl_id, or IMO:… / MMSI:…. ${LIVE_ONLY_HELP} ${SIMULATED_HELP}`,
  params: VesselPathParams,
  query: PositionsQuery,
  response: PositionsData,
  errors: ['entitlement_required', 'invalid_vessel_id', 'vessel_not_found', 'cursor_invalid'],
  examples: [{ summary: 'Track of the last day, one point per 10 minutes', params: { vsl_id: `MMSI:${SAMPLE.mmsi}` }, query: { downsample: 600 }, scopes: ['vessels:live'] }],
  async handler({ params, query }, call) {
    const { agentId, access } = await reader(call);
    return call.services.vessels.positions(
      parseVesselRef(params.vsl_id, 'params.vsl_id'),
      { from: query.from, to: query.to, limit: query.limit ?? 100, cursor: query.cursor, downsample: query.downsample, includeFlagged: query.include_flagged ?? false },
      agentId,
      access,
    );
  },
});

const updates = defineRoute({
  operationId: 'getVesselsUpdates',
  description: `Long poll for new positions. Returns as soon as positions stored after since exist (waiting up to timeout seconds, 0-${POLL_TIMEOUT_MAX}, default ${POLL_TIMEOUT_DEFAULT}; timed_out: true when none came), in store order, at most limit per answer (more_available: poll again at once). Pass the returned cursor as since in the next poll: nothing is missed or repeated between polls. Without since the poll starts now (timeout=0 just returns the current cursor). Optional filters: ids (comma-separated, up to ${WATCHLIST_MAX_IDS}) and bbox=minLon,minLat,maxLon,maxLat. Only positions usable as a latest position are streamed. At most ${MAX_CONCURRENT_POLLS} polls per agent key at once (rate_limited beyond). ${LIVE_ONLY_HELP} ${SIMULATED_HELP}`,
  query: UpdatesQuery,
  response: UpdatesData,
  errors: ['entitlement_required', 'invalid_vessel_id', 'vessel_not_found', 'cursor_invalid', 'rate_limited'],
  examples: [{ summary: 'Get the current cursor without waiting', query: { timeout: 0 }, scopes: ['vessels:live'] }],
  async handler({ query }, call) {
    const { agentId, access } = await reader(call);
    return call.services.vessels.updates({ since: query.since, timeout: query.timeout ?? POLL_TIMEOUT_DEFAULT, ids: query.ids, bbox: query.bbox, limit: query.limit ?? 500 }, agentId, access, {
      onCancel: (listener) => call.onClose(listener),
    });
  },
});

const popular = defineRoute({
  operationId: 'getVesselsPopular',
  description:
    'Vessels most looked up by agents in the window (24h default, or 7d): counts of keyed reads (lookup, last_position, positions, watchlist) recorded in the store, ranked by distinct agents, then reads. Identity only, no positions. No authentication.',
  query: PopularQuery,
  response: PopularData,
  examples: [{ summary: 'Most looked-up vessels today', query: { window: '24h' } }],
  async handler({ query }, call) {
    return call.services.vessels.popular(query.window ?? '24h', query.limit ?? 20);
  },
});

const previewSearch = defineRoute({
  operationId: 'getBootstrapVesselsSearch',
  description: `Anonymous preview of vessel search: identity only (vsl_id, MMSI, IMO, name, callsign, flag, category), never a position or anything derived from one. q: name contains, callsign, IMO or MMSI prefix (at least 2 characters); limit 1-${PREVIEW.maxSearchResults}. Limited to ${PREVIEW.minuteLimit} calls a minute and ${PREVIEW.dailyLimit} a day per identity and IP. X-Agent-Name and X-Agent-Vendor are recorded as unverified labels; they never authenticate.`,
  query: PreviewSearchQuery,
  response: PreviewSearchData,
  examples: [{ summary: 'Preview search', query: { q: 'ocean' } }],
  async handler({ query }, call) {
    call.services.vessels.recordPreviewLabels('getBootstrapVesselsSearch', header(call, 'x-agent-name'), header(call, 'x-agent-vendor'), call.ip);
    const result = call.services.vessels.previewSearch(query.q, query.limit ?? PREVIEW.maxSearchResults);
    return { ...result, data: { ...result.data, declared_identity: declaredIdentity(call.headers) } };
  },
});

const previewLastPosition = defineRoute({
  operationId: 'getBootstrapVesselsLastPosition',
  description: `Anonymous preview of a vessel's position, delayed: the newest position at least ${PREVIEW.positionDelaySeconds} s (14 h) old, with observed_at and age_seconds (judge freshness from these). imo: 7 digits with a valid check digit (invalid_vessel_id otherwise). An unknown IMO and a vessel with no position that old both answer vessel_not_found, identically. Registration does not unlock fresher positions here; keyed reads serve the same delay unless the operator grants vessels:live. Limited to ${PREVIEW.minuteLimit} calls a minute and ${PREVIEW.dailyLimit} a day per identity and IP; X-Agent-Name / X-Agent-Vendor are unverified labels.`,
  query: PreviewLastPositionQuery,
  response: PreviewLastPositionData,
  errors: ['invalid_vessel_id', 'vessel_not_found'],
  examples: [{ summary: 'Delayed position by IMO', query: { imo: SAMPLE.imo } }],
  async handler({ query }, call) {
    call.services.vessels.recordPreviewLabels('getBootstrapVesselsLastPosition', header(call, 'x-agent-name'), header(call, 'x-agent-vendor'), call.ip);
    const result = await call.services.vessels.previewLastPosition(query.imo);
    return { ...result, data: { ...result.data, declared_identity: declaredIdentity(call.headers) } };
  },
});

export const vesselRoutes = [lookup, lastPosition, search, watchlist, positions, updates, popular, previewSearch, previewLastPosition];
