import { callingAgent } from '../../http/route.js';
import { defineRoute } from '../kit/route.js';
import { selectorRef } from '../kit/vessel-ids.js';
import { HistoryData, HistoryQuery, SnapshotData, SnapshotQuery } from './schemas.js';

const STATE =
  'Without an entitlement for the vessel the answer is operator_configuration_required (403), never data: core-interface 4.2, a purchase requires an immutable quote and a confirmed settlement and the production snapshot status is operator_configuration_required. Entitlements are checked per vessel and expire; ask the operator with POST /v1/harbor/operator-requests.';
const NEEDS = 'an operator grant of this vessel (bosun services grant AGENT --vessel IMO|MMSI --days N) or, for the snapshot, an active snapshot trial of it';

const snapshot = defineRoute({
  operationId: 'getServicesVesselSnapshotRead',
  description: `A vessel snapshot: identity (with operator corrections and their provenance), the newest live position, voyage data (destination, ETA, draught, navigation status) and the port calls, chokepoint transits and encounters of the last 30 days. Query exactly one of id, imo or mmsi. Entitled by an operator grant of the vessel or by your harbor snapshot trial of it. ${STATE}`,
  query: SnapshotQuery,
  response: SnapshotData,
  errors: ['operator_configuration_required', 'vessel_not_found', 'invalid_vessel_id'],
  examples: [{ summary: 'Snapshot by IMO', query: { imo: '9321483' }, requires: NEEDS }],
  async handler({ query }, call) {
    return call.services.vesselServices.snapshot(callingAgent(call), selectorRef(query));
  },
});

const history = defineRoute({
  operationId: 'getServicesVesselHistoryRead',
  description: `A vessel history: its usable positions (oldest first, paged with next_cursor) and port calls, chokepoint transits and encounters over a range (from/to, at most 7 days; default the last 24 hours). Query exactly one of id, imo or mmsi. Entitled by an operator grant of the vessel only (a snapshot trial covers the snapshot, not the history). ${STATE}`,
  query: HistoryQuery,
  response: HistoryData,
  errors: ['operator_configuration_required', 'vessel_not_found', 'invalid_vessel_id', 'invalid_range', 'cursor_invalid'],
  examples: [{ summary: 'The last day of a vessel', query: { imo: '9321483' }, requires: NEEDS }],
  async handler({ query }, call) {
    return call.services.vesselServices.history(callingAgent(call), selectorRef(query), { from: query.from, to: query.to, limit: query.limit ?? 500, cursor: query.cursor });
  },
});

export const vesselServiceRoutes = [snapshot, history];
