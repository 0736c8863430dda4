import { defineRoute } from '../../kit/route.js';
import {
  AnomalyDaysData,
  AnomalyDaysQuery,
  DestOpportunitiesData,
  DestOpportunitiesQuery,
  HubsData,
  HubsGeoJsonData,
  HubsQuery,
  LaneDetailsData,
  LaneDetailsQuery,
  LaneHeatmapData,
  LaneHeatmapGeoJsonData,
  LaneHeatmapQuery,
  LaneTrendsData,
  LaneTrendsQuery,
  LaneVolatilityData,
  LaneVolatilityQuery,
  NetworkOverviewData,
  NetworkOverviewQuery,
  PortActivityImbalanceData,
  PortActivityImbalanceQuery,
  SeasonalityData,
  SeasonalityQuery,
  StabilityForecastData,
  StabilityForecastQuery,
  TopLanesData,
  TopLanesQuery,
  TopPolylinesData,
  TopPolylinesQuery,
  WeeklySummaryData,
  WeeklySummaryQuery,
  WeeklyTrendData,
  WeeklyTrendQuery,
} from './schemas.js';

const VOYAGES =
  'From the port calls Bosun detects in the AIS stream (docs/events.md): a voyage is a vessel leaving port A and arriving next at a port B other than A (consecutive calls of the vessel); a lane is the directed pair A → B. Ports under 5 nm apart are terminals of one harbour (no lane) and a pair of calls faster than 60 kn over the great circle is no voyage (overlapping port areas); sample.left_out counts both. A voyage counts in the window when it departed in it and arrived before its end. The window is whole UTC days ending at until (default your horizon: now with vessels:live, else now minus the preview delay), rounded down to 00:00 UTC; window.coverage_start and days_with_data say which of its days the stored port calls cover (days before are missing, not zero traffic). No port calls: empty answer with quality flag no_port_calls_in_window; simulated_source when demo-fleet calls contributed. Method: docs/lanes.md.';
const ERRORS = ['invalid_request'] as const;
const PORT_ERRORS = [...ERRORS, 'port_not_found'] as const;

const topLanes = defineRoute({
  operationId: 'getRoutesTopLanes',
  description: `Lanes ranked by voyages in the window (ties: more vessels, then port ids), with distinct vessels, median voyage hours (departure to arrival) and the sea route distance from Bosun's routing engine. ${VOYAGES}`,
  query: TopLanesQuery,
  response: TopLanesData,
  errors: PORT_ERRORS,
  examples: [
    { summary: 'Busiest lanes of the last 30 days', query: { limit: 5 } },
    { summary: 'Tanker lanes touching Houston over 90 days', query: { days: 90, ship_type: 'tanker', port: 'USHOU' } },
  ],
  async handler({ query }, call) {
    return call.services.lanes.topLanes(query, call.caller);
  },
});

const laneDetails = defineRoute({
  operationId: 'getRoutesLaneDetails',
  description: `One lane from → to: its voyages (limit per page, oldest departure first; pass next_cursor as cursor for the next page — offset/next_offset still work), transit hours (min, median, mean, p90, max), ship type mix, voyages per 7 days, and the engine's route distance, passages and the implied speed (distance / median hours). ${VOYAGES}`,
  query: LaneDetailsQuery,
  response: LaneDetailsData,
  errors: [...PORT_ERRORS, 'same_origin_destination', 'cursor_invalid'],
  examples: [{ summary: 'Rotterdam to Hamburg, last 30 days', query: { from: 'NLRTM', to: 'DEHAM' } }],
  async handler({ query }, call) {
    return call.services.lanes.laneDetails(query, call.caller);
  },
});

const laneTrends = defineRoute({
  operationId: 'getRoutesLaneTrends',
  description: `Per lane, voyages per 7 days over the last weeks, the least-squares slope (voyages per week per week), and the change against the previous period of as many weeks (change_pct; direction rising above +10 %, falling below −10 %, else steady; from the slope when the previous period had none). ${VOYAGES}`,
  query: LaneTrendsQuery,
  response: LaneTrendsData,
  errors: PORT_ERRORS,
  examples: [{ summary: 'Lane trends over 8 weeks', query: { weeks: 8, limit: 10 } }],
  async handler({ query }, call) {
    return call.services.lanes.laneTrends(query, call.caller);
  },
});

const laneVolatility = defineRoute({
  operationId: 'getRoutesLaneVolatility',
  description: `Coefficient of variation (population standard deviation / mean) of each lane's voyage counts per day or per 7 days over the window (zeros included), most volatile first; and the same for all voyages. ${VOYAGES}`,
  query: LaneVolatilityQuery,
  response: LaneVolatilityData,
  errors: ERRORS,
  examples: [
    { summary: 'Weekly volatility over 8 weeks', query: { days: 56 } },
    { summary: 'Daily volatility over 28 days', query: { days: 28, bucket: 'day', min_voyages: 3 } },
  ],
  async handler({ query }, call) {
    return call.services.lanes.laneVolatility(query, call.caller);
  },
});

const topPolylines = defineRoute({
  operationId: 'getRoutesTopPolylines',
  description: `The busiest lanes as a GeoJSON FeatureCollection: each lane's sea route from the routing engine (LineString, MultiLineString across ±180°) with its voyages, vessels, median hours, distance and passages; lanes the engine cannot route are counted in unroutable_lanes. ${VOYAGES}`,
  query: TopPolylinesQuery,
  response: TopPolylinesData,
  errors: ERRORS,
  examples: [{ summary: 'Ten busiest lanes as lines', query: { limit: 10 } }],
  async handler({ query }, call) {
    return call.services.lanes.topPolylines(query, call.caller);
  },
});

const HEATMAP =
  'Traffic density on a lon/lat grid of cell_deg degrees: each lane (the 200 busiest) is drawn along its sea route from the routing engine and adds its voyages to every cell the route passes through; cells ranked by voyages.';

const laneHeatmap = defineRoute({
  operationId: 'getRoutesLaneHeatmap',
  description: `${HEATMAP} ${VOYAGES}`,
  query: LaneHeatmapQuery,
  response: LaneHeatmapData,
  errors: ERRORS,
  examples: [{ summary: '2° cells over 30 days', query: { cell_deg: 2, limit: 100 } }],
  async handler({ query }, call) {
    return call.services.lanes.laneHeatmap(query, call.caller);
  },
});

const laneHeatmapGeoJson = defineRoute({
  operationId: 'getRoutesLaneHeatmapGeojson',
  description: `${HEATMAP} As a GeoJSON FeatureCollection of cell polygons (properties: voyages, lanes, bounds). ${VOYAGES}`,
  query: LaneHeatmapQuery,
  response: LaneHeatmapGeoJsonData,
  errors: ERRORS,
  examples: [{ summary: '5° cells as polygons', query: { cell_deg: 5 } }],
  async handler({ query }, call) {
    return call.services.lanes.laneHeatmapGeoJson(query, call.caller);
  },
});

const HUBS =
  'Ports ranked by the lane graph of the window: voyages out, in and in total, out-degree (distinct destinations), in-degree (distinct origins), partners (distinct ports either way), distinct vessels; ties by partners, then port_id.';

const hubs = defineRoute({
  operationId: 'getRoutesHubs',
  description: `${HUBS} ${VOYAGES}`,
  query: HubsQuery,
  response: HubsData,
  errors: ERRORS,
  examples: [{ summary: 'Top hubs of the last 30 days', query: { limit: 10 } }],
  async handler({ query }, call) {
    return call.services.lanes.hubs(query, call.caller);
  },
});

const hubsGeoJson = defineRoute({
  operationId: 'getRoutesHubsGeojson',
  description: `${HUBS} As a GeoJSON FeatureCollection of Point features at the ports' positions. ${VOYAGES}`,
  query: HubsQuery,
  response: HubsGeoJsonData,
  errors: ERRORS,
  examples: [{ summary: 'Top hubs as points', query: { limit: 25 } }],
  async handler({ query }, call) {
    return call.services.lanes.hubsGeoJson(query, call.caller);
  },
});

const networkOverview = defineRoute({
  operationId: 'getRoutesNetworkOverview',
  description: `The lane network of the window: ports with voyages, lanes, voyages, vessels, connected components of the undirected lane graph and the largest one's size, density, median voyage hours, the top hub and the busiest lane. ${VOYAGES}`,
  query: NetworkOverviewQuery,
  response: NetworkOverviewData,
  errors: ERRORS,
  examples: [{ summary: 'Network of the last 30 days', query: {} }],
  async handler({ query }, call) {
    return call.services.lanes.networkOverview(query, call.caller);
  },
});

const weeklySummary = defineRoute({
  operationId: 'getRoutesWeeklySummary',
  description: `Per 7-day week ending at until (give a Monday for ISO weeks): voyages, departures (port calls that ended), vessels, lanes, median voyage hours, voyages per ship type, and the change of voyages against the week before. ${VOYAGES}`,
  query: WeeklySummaryQuery,
  response: WeeklySummaryData,
  errors: ERRORS,
  examples: [{ summary: 'The last four weeks', query: { weeks: 4 } }],
  async handler({ query }, call) {
    return call.services.lanes.weeklySummary(query, call.caller);
  },
});

const weeklyTrend = defineRoute({
  operationId: 'getRoutesWeeklyTrend',
  description: `Weekly voyage series overall and per ship type over the weeks ending at until: the last week's change against the one before, the least-squares slope, and a direction (the slope over the weeks relative to the mean: above +10 % rising, below −10 % falling, else steady). ${VOYAGES}`,
  query: WeeklyTrendQuery,
  response: WeeklyTrendData,
  errors: ERRORS,
  examples: [{ summary: 'Eight-week trend', query: { weeks: 8 } }],
  async handler({ query }, call) {
    return call.services.lanes.weeklyTrend(query, call.caller);
  },
});

const seasonality = defineRoute({
  operationId: 'getRoutesSeasonality',
  description: `Voyages by weekday, by hour of the day (UTC) and by calendar month of their departure, each with its share; enough_history says whether the window can speak to each (weekday: at least 4 whole weeks with data; hour: 14 days with data; month: 365 days with data; days before the store's first port call are not data), with quality flags when it cannot. ${VOYAGES}`,
  query: SeasonalityQuery,
  response: SeasonalityData,
  errors: PORT_ERRORS,
  examples: [
    { summary: 'Seasonality over 90 days', query: {} },
    { summary: 'Departures from Rotterdam over a year', query: { days: 366, port: 'NLRTM' } },
  ],
  async handler({ query }, call) {
    return call.services.lanes.seasonality(query, call.caller);
  },
});

const anomalyDays = defineRoute({
  operationId: 'getRoutesAnomalyDays',
  description: `Days whose departures (port calls that ended that UTC day, at one port or all) deviate from the window's robust baseline: modified z = 0.6745 (x − median) / MAD (with the MAD 0: (x − median) / (1.253314 × mean absolute deviation)); a day is an anomaly when |z| ≥ threshold (default 3.5). ${VOYAGES}`,
  query: AnomalyDaysQuery,
  response: AnomalyDaysData,
  errors: PORT_ERRORS,
  examples: [
    { summary: 'Anomalous days of the last 30 days', query: {} },
    { summary: 'At Rotterdam, lower threshold', query: { port: 'NLRTM', threshold: 3 } },
  ],
  async handler({ query }, call) {
    return call.services.lanes.anomalyDays(query, call.caller);
  },
});

const portActivityImbalance = defineRoute({
  operationId: 'getRoutesPortActivityImbalance',
  description: `Per port, arrivals (calls that began in the window) against departures (calls that ended in it): net_flow = arrivals − departures, imbalance_ratio = net_flow / (arrivals + departures); ranked by |net_flow|, then by calls. ${VOYAGES}`,
  query: PortActivityImbalanceQuery,
  response: PortActivityImbalanceData,
  errors: PORT_ERRORS,
  examples: [{ summary: 'Most imbalanced ports of the last 30 days', query: { limit: 10 } }],
  async handler({ query }, call) {
    return call.services.lanes.portActivityImbalance(query, call.caller);
  },
});

const destOpportunities = defineRoute({
  operationId: 'getRoutesDestOpportunities',
  description: `For an origin port, its destinations ranked by opportunity_score = (voyages_recent − voyages_previous) / (vessels_recent + 1): demand growing between the previous window and the recent one (each of days), served by few vessels; demand_growth_pct alongside. ${VOYAGES}`,
  query: DestOpportunitiesQuery,
  response: DestOpportunitiesData,
  errors: PORT_ERRORS,
  examples: [{ summary: 'Destinations from Rotterdam', query: { from: 'NLRTM' } }],
  async handler({ query }, call) {
    return call.services.lanes.destOpportunities(query, call.caller);
  },
});

const stabilityForecast = defineRoute({
  operationId: 'getRoutesStabilityForecast',
  description: `Next week's voyages (one lane with from/to, else all) by the mean of the last 4 weeks, with an interval of ± 1.96 × the RMSE of the same method backtested over the history, the backtest MAE and RMSE, and the coefficient of variation of the history (stable below 0.25, variable below 0.5, else volatile). Weeks before the store's first port call are not history; with fewer than 6 weeks of it there is no forecast (quality flag history_too_short). ${VOYAGES}`,
  query: StabilityForecastQuery,
  response: StabilityForecastData,
  errors: [...PORT_ERRORS, 'same_origin_destination'],
  examples: [
    { summary: 'All voyages, 12 weeks of history', query: {} },
    { summary: 'One lane', query: { from: 'NLRTM', to: 'DEHAM', weeks: 8 } },
  ],
  async handler({ query }, call) {
    return call.services.lanes.stabilityForecast(query, call.caller);
  },
});

export const laneRoutes = [
  topLanes,
  laneDetails,
  laneTrends,
  laneVolatility,
  topPolylines,
  laneHeatmap,
  laneHeatmapGeoJson,
  hubs,
  hubsGeoJson,
  networkOverview,
  weeklySummary,
  weeklyTrend,
  seasonality,
  anomalyDays,
  portActivityImbalance,
  destOpportunities,
  stabilityForecast,
];
