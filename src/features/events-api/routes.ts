import { CHOKEPOINTS } from '../../events/chokepoints.js';
import { SAMPLE_VESSEL } from '../../fleet/sample-vessel.js';
import { DELAY_SECONDS } from '../vessels/entitlements.js';
import { defineRoute } from '../kit/route.js';
import { EVENT_TYPES, EVENTS_LIMIT_DEFAULT, EVENTS_LIMIT_MAX, EventData, EventParams, EventsData, EventsQuery } from './schemas.js';

const VISIBILITY = `Callers without vessels:live see only events that ended at least ${DELAY_SECONDS} s (${DELAY_SECONDS / 3600} h) ago; under way and newer ones are left out (the operator and vessels:live holders see them up to now).`;

const list = defineRoute({
  operationId: 'getEvents',
  description: `Bosun extension (beyond the interface documents): the events Bosun detected from AIS positions — port calls (port visits with their berth and anchorage stops), encounters (two vessels together, possible ship-to-ship transfers), chokepoint transits, loitering (slower than 2 kn for 4 h or more, 20 nm or more from shore) and AIS gaps (no position for 6 h or more: where and when the vessel went silent and reappeared, near_shore when both ends lie within 50 nm of shore) — filtered by vessel, port, area and time, like Global Fishing Watch's Events API. Answers "which ports did this vessel call at last month?", "encounters near Malta last week", "transits of Hormuz", "vessels that went dark in the Gulf of Oman". type: ${EVENT_TYPES.join(', ')} (comma-separated; default all). vessel: IMO:<7 digits>, MMSI:<9 digits> or vsl_id, up to 20 comma-separated (vessel_not_found when one is unknown). port_id: port calls at that port. area: box minLon,minLat,maxLon,maxLat (minLon > maxLon crosses the antimeridian) or a chokepoint key (${CHOKEPOINTS.map((c) => c.key).join(', ')}). from/to: ISO 8601 or epoch ms (default the last 30 days, at most 366 days); events under way at some moment of the window are listed. min_duration in seconds. setting (encounters): open_sea, anchorage, port or all. Oldest first by start time, then port calls, encounters, transits, loitering, gaps, then id; page with next_cursor (same query). Each event: event_id, type, vessel (and other_vessel for encounters), start_at/end_at (null while under way), duration, position, zone, port and stops for port calls, loitering (mean speed, distance to shore), gap (start and end positions, distance, implied speed, near_shore), evidence counts, confidence, detector parameters, simulated. ${VISIBILITY} limit 1-${EVENTS_LIMIT_MAX} (default ${EVENTS_LIMIT_DEFAULT}).`,
  query: EventsQuery,
  response: EventsData,
  errors: ['invalid_range', 'unknown_zone', 'invalid_vessel_id', 'vessel_not_found', 'port_not_found', 'cursor_invalid'],
  examples: [
    { summary: 'Port calls of a vessel over the last 30 days', query: { type: 'port_call', vessel: `IMO:${SAMPLE_VESSEL.imo}` } },
    { summary: 'Encounters near Malta in a week', query: { type: 'encounter', area: '13.5,35.0,15.5,36.5', from: '2026-11-01T00:00:00Z', to: '2026-11-08T00:00:00Z' } },
    { summary: 'Transits of the Strait of Hormuz, 100 at a time', query: { type: 'chokepoint_transit', area: 'hormuz', limit: 100 } },
    { summary: 'Port calls of 12 h or longer at Houston', query: { port_id: 9240, min_duration: 43200 } },
    { summary: 'Vessels that went dark in the Gulf of Oman in November', query: { type: 'ais_gap', area: '56.0,22.0,61.0,26.5', from: '2026-11-01T00:00:00Z', to: '2026-11-28T00:00:00Z' } },
  ],
  async handler({ query }, call) {
    return call.services.eventsApi.list(call.caller, { ...query, limit: query.limit ?? EVENTS_LIMIT_DEFAULT });
  },
});

const one = defineRoute({
  operationId: 'getEventsByEventId',
  description: `Bosun extension (beyond the interface documents): one detected event by the event_id GET /v1/events lists (pc_<n> port call with its stops, enc_<n> encounter, tr_<n> chokepoint transit, lt_<n> loitering, gap_<n> AIS gap), with the same fields. ${VISIBILITY} An event you may not see yet answers event_not_found, as an unknown id does.`,
  params: EventParams,
  response: EventData,
  errors: ['event_not_found'],
  examples: [{ summary: 'A port call by id', params: { event_id: 'pc_1' }, requires: 'an event_id listed by GET /v1/events' }],
  async handler({ params }, call) {
    return call.services.eventsApi.get(call.caller, params.event_id);
  },
});

export const eventsApiRoutes = [list, one];
