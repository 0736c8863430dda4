import { callingAgent } from '../../../http/route.js';
import { SAMPLE_VESSEL } from '../../../fleet/sample-vessel.js';
import { DELAY_SECONDS } from '../../vessels/entitlements.js';
import type { OperationExample } from '../../../catalog/types.js';
import { defineRoute } from '../../kit/route.js';
import { FLAG_THRESHOLDS, ForecastLiteData, ForecastLiteQuery, RouteAdvisoryData, RouteConditionsQuery, RouteRiskFlagsData, STS_NEAR_ROUTE_KM } from './conditions-schemas.js';
import { CHOKEPOINT_PASSAGES } from '../chokepoint-passages.js';
import { MIN_SPEED_SAMPLES, MOVING_KN } from './forecast-lite.js';

const ROUTE_ERRORS = [
  'invalid_request',
  'invalid_range',
  'port_not_found',
  'point_off_network',
  'point_on_land',
  'same_origin_destination',
  'unknown_passage',
  'route_unreachable',
  'too_many_vias',
] as const;

const mapping = Object.entries(CHOKEPOINT_PASSAGES)
  .map(([key, passage]) => `${key}${passage === null ? ' (gate disc)' : passage === key ? '' : ` = ${passage}`}`)
  .join(', ');

const CONDITIONS = `The route is planned as GET /v1/routes/direct (or with-via when via is given: from, to, via, avoid, allow as there); the conditions are read from the event layer over range (24H, 7D, 30D; default 7D, or on a store holding less than 14 days of positions half its days with data, so the stress indexes keep a baseline window: quality flag range_shortened_to_store) ending at your horizon (now with vessels:live, else ${DELAY_SECONDS / 3600} h ago, quality flag delayed_position). Chokepoints crossed (event key = routing passage): ${mapping}; for each, its route stress index (GET /v1/metrics/route_stress_index, same range). STS: encounters (possible ship-to-ship transfers) that ended in the window within ${STS_NEAR_ROUTE_KM} km of the route's line. Destination (when a port): congestion from its detected port calls (waiting at anchor and at berth at the end of the window, median anchorage wait of completed calls, the window before, trend). When the detector has analysed nothing, no value is given and quality_flags has no_event_data; a chokepoint without a measurable index adds stress_unavailable:<key>; a destination port without calls adds destination_congestion_unavailable.`;

const conditionsExamples: OperationExample[] = [
  { summary: 'Rotterdam to Singapore (Dover, Gibraltar, Suez, Bab-el-Mandeb, Malacca)', query: { from: 'NLRTM', to: 'SGSIN' } },
  { summary: 'The same over 30 days, avoiding Suez', query: { from: 'NLRTM', to: 'SGSIN', avoid: 'suez', range: '30D' } },
  { summary: 'Houston to Piraeus through Gibraltar, over 24 hours', query: { from: 'USHOU', to: 'GRPIR', range: '24H' } },
];

/** Documented fallbacks recorded in telemetry (docs/decisions/066): conditions answered without the event layer, an ETA at the ship type's default speed. */
export const NO_EVENT_DATA_FALLBACK = 'no_event_data';
export const DEFAULT_SPEED_FALLBACK = 'ship_type_default_speed';
const withoutEventsFallback = <R extends { qualityFlags?: string[] }>(result: R): R & { served?: { fallback: string } } =>
  result.qualityFlags?.includes(NO_EVENT_DATA_FALLBACK) ? { ...result, served: { fallback: NO_EVENT_DATA_FALLBACK } } : result;

const advisory = defineRoute({
  operationId: 'getRoutesAdvisory',
  description: `Conditions along a sea route, as sentences quoting the measured values, with recommendations derived from them (for a passage whose stress is high or severe: the same route avoiding it and the distance that adds, measured). ${CONDITIONS}`,
  query: RouteConditionsQuery,
  response: RouteAdvisoryData,
  errors: ROUTE_ERRORS,
  examples: conditionsExamples,
  async handler({ query }, call) {
    return withoutEventsFallback(await call.services.routeConditions.advisory(call.caller, query));
  },
});

const riskFlags = defineRoute({
  operationId: 'getRoutesRiskFlags',
  description: `Machine-readable risk flags for a sea route: code, severity (elevated, high, severe), subject, the evidence values, the threshold met and the data age. Thresholds: chokepoint_stress at a route stress index of ${FLAG_THRESHOLDS.chokepoint_stress.elevated}/${FLAG_THRESHOLDS.chokepoint_stress.high}/${FLAG_THRESHOLDS.chokepoint_stress.severe}; sts_near_route at ${FLAG_THRESHOLDS.sts_near_route.elevated}/${FLAG_THRESHOLDS.sts_near_route.high}/${FLAG_THRESHOLDS.sts_near_route.severe} encounters within ${STS_NEAR_ROUTE_KM} km; destination_congestion at a median anchorage wait of ${FLAG_THRESHOLDS.destination_congestion.elevated}/${FLAG_THRESHOLDS.destination_congestion.high}/${FLAG_THRESHOLDS.destination_congestion.severe} h. checked says what could be measured: an unchecked condition raises no flag. ${CONDITIONS}`,
  query: RouteConditionsQuery,
  response: RouteRiskFlagsData,
  errors: ROUTE_ERRORS,
  examples: conditionsExamples,
  async handler({ query }, call) {
    return withoutEventsFallback(await call.services.routeConditions.riskFlags(call.caller, query));
  },
});

const forecastLite = defineRoute({
  operationId: 'getRoutesForecastLite',
  description: `ETA of a vessel from its last position you may see (live with vessels:live, else the newest at least ${DELAY_SECONDS / 3600} h old, flagged delayed_position) over the sea route to its AIS-reported destination, or to to. The destination text (after the last > of FROM>TO) resolves to a port by its UN/LOCODE, else an exact port name, else a UN/LOCODE within it, else the best close name match; without vessels:live the destination is the one in effect ${DELAY_SECONDS / 3600} h ago; destination_unknown when the vessel reports none (or, without vessels:live, was first heard less than ${DELAY_SECONDS / 3600} h ago), destination_unresolved when nothing matches. Speed: speed_kn, else the mean SOG of its moving positions (≥ ${MOVING_KN} kn) in the 6 h up to the position (at least ${MIN_SPEED_SAMPLES}), else the default of its type (AIS cargo = general_cargo, tanker, passenger, other). eta = observed_at + remaining_nm / speed. confidence = position-age factor × speed-source factor × destination-resolution factor (each given).`,
  query: ForecastLiteQuery,
  response: ForecastLiteData,
  errors: [
    'invalid_request',
    'invalid_vessel_id',
    'vessel_not_found',
    'position_unavailable',
    'destination_unknown',
    'destination_unresolved',
    'port_not_found',
    'point_off_network',
    'unknown_passage',
    'route_unreachable',
  ],
  examples: [
    { summary: 'The sample vessel to its AIS destination', query: { vessel: `IMO:${SAMPLE_VESSEL.imo}` } },
    { summary: 'To a given port at 14 knots', query: { vessel: `MMSI:${SAMPLE_VESSEL.mmsi}`, to: 'NLRTM', speed_kn: 14 } },
  ],
  async handler({ query }, call) {
    const result = await call.services.routeConditions.forecastLite(call.caller, callingAgent(call), query);
    return result.data.speed.source === 'ship_type_default' ? { ...result, served: { fallback: DEFAULT_SPEED_FALLBACK } } : result;
  },
});

export const conditionsRoutes = [advisory, riskFlags, forecastLite];
