import { CHOKEPOINTS } from '../../../events/chokepoints.js';
import { STRESS_WEIGHTS } from '../../../events/route-stress.js';
import { defineRoute } from '../../kit/route.js';
import { RouteStressData, RouteStressQuery } from './schemas.js';

const routeStress = defineRoute({
  operationId: 'getMetricsRouteStressIndex',
  description: `Route stress index of a chokepoint (0-100; low < 25 ≤ elevated < 50 ≤ high < 75 ≤ severe): six components, each a measure over the range compared with its baseline (the mean of the same measure over the 4 windows of equal length before the range that the stored data covers), turned into a stress 0-1 and weighted: ${Object.entries(
    STRESS_WEIGHTS,
  )
    .map(([name, w]) => `${name} ${w}`)
    .join(
      ', ',
    )}. transit_volume: transits that left the gate; gate_speed: mean speed in the gate; gate_waiting: hours stopped in the gate per transit, less time in port calls (a call at a port inside the gate is port congestion); port_congestion: median anchorage wait of calls completed at ports within 100 km; detours: of the voyages (consecutive calls of a vessel at two ports) that arrived in the range and whose shortest sea route by the routing engine crosses the gate, the share whose vessel made no transit of it (detour_voyages gives the counts; unavailable for gates that are no passage of the sea network: oresund, taiwan_strait, lombok); sts_activity: encounters within 100 km. Unavailable components are listed with the reason and their weight shared out (weight_measured). zone_key: ${CHOKEPOINTS.map((c) => c.key).join(', ')}. range: 24H, 7D, 30D (default 7D), ending at your horizon (now with vessels:live, else the preview delay ago).`,
  query: RouteStressQuery,
  response: RouteStressData,
  errors: ['invalid_request', 'invalid_range', 'unknown_zone'],
  examples: [
    { summary: 'Strait of Gibraltar, 7 days', query: { zone_key: 'gibraltar', range: '7D' } },
    { summary: 'Suez Canal, 24 hours', query: { zone_key: 'suez', range: '24H' } },
  ],
  async handler({ query }, call) {
    return call.services.routeStress.index(call.caller, query);
  },
});

export const metricsRoutes = [routeStress];
