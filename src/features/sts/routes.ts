import { SAMPLE_VESSEL } from '../../fleet/sample-vessel.js';
import { CHOKEPOINTS } from '../../events/chokepoints.js';
import { DELAY_SECONDS } from '../vessels/entitlements.js';
import { defineRoute } from '../kit/route.js';
import { STS_LIMIT_DEFAULT, STS_LIMIT_MAX, StsEventsData, StsEventsQuery } from './schemas.js';

const events = defineRoute({
  operationId: 'getStsEvents',
  description: `Ship-to-ship encounters detected from the position stream (Global Fishing Watch definition: two vessels under 500 m apart for at least 2 h, both slower than 2 kn, at least 10 km from any anchorage: setting open_sea; nearer a port, within 100 m for at least 1 h: setting anchorage, or port when both vessels lie alongside), newest first (by end). setting: open_sea, anchorage, port (comma-separated) or all; default open_sea,anchorage (ships moored side by side at a quay are not transfers unless asked for). Window: range (24H, 7D, 30D; default 7D) back from to, or from/to (ISO 8601 or epoch ms), at most 30 days; events that ended in it are listed. zone: a chokepoint key (${CHOKEPOINTS.map((c) => c.key).join(', ')}) for meetings in its gate, or a box minLon,minLat,maxLon,maxLat (minLon > maxLon crosses the antimeridian). vessel: IMO:<7 digits>, MMSI:<9 digits> or a vsl_id (vessel_not_found when unknown). min_duration: minutes (150) or 2H, 90M, 2H30M. Each event: start, end, duration, median distance, position, zone, setting, both vessels' identities and types, observations, evidence (first/last position sequence numbers), confidence, simulated. Callers without vessels:live see events that ended at least ${DELAY_SECONDS / 3600} h ago (the preview delay); the window ends at that horizon. limit 1-${STS_LIMIT_MAX} (default ${STS_LIMIT_DEFAULT}); page with next_cursor (same query).`,
  query: StsEventsQuery,
  response: StsEventsData,
  errors: ['invalid_request', 'invalid_range', 'unknown_zone', 'invalid_vessel_id', 'vessel_not_found', 'cursor_invalid'],
  examples: [
    { summary: 'The last 7 days', query: { range: '7D', limit: 10 } },
    { summary: 'In the Strait of Malacca, 30 days', query: { zone: 'malacca', range: '30D' } },
    { summary: 'At anchorages only, 7 days', query: { setting: 'anchorage', range: '7D' } },
    { summary: 'In a box across the antimeridian, 3 h or longer', query: { zone: '170,-30,-170,10', min_duration: '3H' } },
    { summary: 'One vessel, 2 h 30 min or longer', query: { vessel: `IMO:${SAMPLE_VESSEL.imo}`, min_duration: '150' } },
    { summary: 'A time window', query: { from: '2026-11-01T00:00:00Z', to: '2026-11-08T00:00:00Z' } },
  ],
  async handler({ query }, call) {
    return call.services.sts.list(call.caller, { ...query, limit: query.limit ?? STS_LIMIT_DEFAULT });
  },
});

export const stsRoutes = [events];
