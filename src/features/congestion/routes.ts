import { SHIP_CATEGORIES } from '../../fleet/ship-types.js';
import { defineRoute } from '../kit/route.js';
import { CongestionData, CongestionParams, CongestionQuery, VISIT_RANK_LIMIT_MAX, VisitRankData, VisitRankQuery } from './schemas.js';

const HORIZON_HELP =
  'Without vessels:live (anonymous callers too) the analysis ends at now minus the preview delay, so no position fresher than the delay shows through; a later moment is clamped to that horizon.';

const congestion = defineRoute({
  operationId: 'getPortsByPortIdCongestion',
  description: `Congestion of one port from the port calls Bosun detects in the AIS stream, at a moment \`at\` (default now; a past time analyses e.g. an imported day): vessels waiting at anchor, at berth and moving in the port area then (open calls silent for over 6 h are left out and counted apart); arrivals and departures in the window of length range (24H default, 7D, 30D; any count of hours or days up to 30D) ending at \`at\`; median and p90 waiting and berth hours of the calls that ended in it; the same for the window before, and the trend. vessel_type (${SHIP_CATEGORIES.join(', ')}) keeps the calls of that AIS ship category. data_age_seconds says how far the analysed positions stop short of \`at\`. ${HORIZON_HELP} Method: docs/events.md.`,
  params: CongestionParams,
  query: CongestionQuery,
  response: CongestionData,
  errors: ['invalid_request', 'invalid_range', 'port_not_found'],
  examples: [
    { summary: 'Houston now, last 24 hours', params: { port_id: '9240' } },
    { summary: 'Rotterdam, tankers, last 7 days', params: { port_id: '31140' }, query: { range: '7D', vessel_type: 'tanker' } },
    { summary: 'Galveston at the end of an imported day', params: { port_id: '9150' }, query: { at: '2020-01-02T00:00:00Z' } },
  ],
  async handler({ params, query }, call) {
    return call.services.congestion.congestion(params.port_id, query, call.caller);
  },
});

const visitRank = defineRoute({
  operationId: 'getVesselsVisitRank',
  description: `Visit leaderboard from detected port calls that began in the window: by=port (default) the most-visited ports (calls, distinct vessels, median dwell), each port with the table entries rolled up into it (its terminals, anchorages and neighbouring places listed as ports: an entry rolls up to the largest port within 30 km; terminals=true ranks every entry on its own), by=vessel the vessels with the most calls (name, IMO, MMSI, ship category; never a position); with by=vessel, port_id ranks the vessels calling at that port. Window: range (default 7D, up to 30D) ending at to, or from/to. Ties: more distinct vessels (ports) first, then the lower id. limit 1-${VISIT_RANK_LIMIT_MAX} (default 10). ${HORIZON_HELP}`,
  query: VisitRankQuery,
  response: VisitRankData,
  errors: ['invalid_request', 'invalid_range', 'port_not_found'],
  examples: [
    { summary: 'Most-visited ports, last 7 days', query: { limit: 5 } },
    { summary: 'Vessels with the most calls, last 30 days', query: { by: 'vessel', range: '30D', limit: 10 } },
    { summary: 'Vessels calling most at Houston', query: { by: 'vessel', port_id: 9240, range: '30D' } },
  ],
  async handler({ query }, call) {
    return call.services.congestion.visitRank({ ...query, limit: query.limit ?? 10 }, call.caller);
  },
});

export const congestionRoutes = [congestion, visitRank];
