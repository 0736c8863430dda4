import { callingAgent } from '../../../http/route.js';
import { defineRoute } from '../../kit/route.js';
import {
  ExplainData,
  ExplainQuery,
  LATEST_MAX_LIMIT,
  PORTFOLIO_MAX_PAIRS,
  PortfolioData,
  PortfolioQuery,
  SCENARIO_MAX_PAIRS,
  ScenarioData,
  ScenarioQuery,
  SUMMARY_MAX_PAIRS,
  SUMMARY_MEMORY,
  SummaryData,
  SummaryLatestData,
  SummaryLatestQuery,
  SummaryQuery,
  WhatIfData,
  WhatIfQuery,
} from './planning-schemas.js';

const PLACE_ERRORS = ['invalid_request', 'port_not_found', 'point_off_network', 'point_on_land', 'same_origin_destination'] as const;
const ENGINE =
  'Routes are the shortest over the Eurostat marnet sea network (50 km, EUPL-1.2) as in /v1/routes/direct (method there); the Arctic passages and the Corinth Canal are never used. Durations are time at sea at the speed (no port, canal or weather time). Fuel and CO2 (fuel_t, co2_t) are estimates for the reference ship of ship_type (Fourth IMO GHG Study main-engine method, IMO carbon factors; the reference ships are assumptions of Bosun, docs/routing.md).';
const PAIRS = 'pairs are origin:destination separated by ; (each a port_id, a UN/LOCODE or lat,lon), e.g. NLRTM:SGSIN;USHOU:NLRTM.';

const whatIf = defineRoute({
  operationId: 'getRoutesWhatIf',
  description: `The route from → to (optional via, ; separated) as it is and with the passages in closed shut: both routes' distance, time and passages, what the closures add (nm, %, hours, days), the passages the route now uses and which closures mattered (the baseline crossed them). closed takes the routing passage ids and the event layer's chokepoint keys (bab_el_mandeb, cape_of_good_hope). route_unreachable when no route remains. ${ENGINE}`,
  query: WhatIfQuery,
  response: WhatIfData,
  errors: [...PLACE_ERRORS, 'unknown_passage', 'route_unreachable', 'too_many_vias'],
  examples: [
    { summary: 'Rotterdam to Singapore with Suez closed (round the Cape)', query: { from: 'NLRTM', to: 'SGSIN', closed: 'suez' } },
    { summary: 'Suez and Bab-el-Mandeb closed, a container ship', query: { from: 'NLRTM', to: 'SGSIN', closed: 'suez,bab_el_mandeb', ship_type: 'container' } },
    { summary: 'Panama closed for Shanghai to Los Angeles: it did not matter', query: { from: 'CNSGH', to: 'USLAX', closed: 'panama' } },
  ],
  async handler({ query }, call) {
    return call.services.planning.whatIf(query);
  },
});

const explain = defineRoute({
  operationId: 'getRoutesExplain',
  description: `Why the route from → to is the one chosen: its passages in order, the stretches between them (segments), and for each passage it crosses the best route avoiding it, with its distance and extra cost (nm, %, hours); passages without which no route exists are listed as unavoidable. The chosen route wins by being the shortest; reason says by how much. ${ENGINE}`,
  query: ExplainQuery,
  response: ExplainData,
  errors: [...PLACE_ERRORS, 'route_unreachable'],
  examples: [
    { summary: 'Rotterdam to Singapore: why Suez', query: { from: 'NLRTM', to: 'SGSIN' } },
    { summary: 'Houston to Rotterdam for a tanker', query: { from: 'USHOU', to: 'NLRTM', ship_type: 'tanker' } },
  ],
  async handler({ query }, call) {
    return call.services.planning.explain(query);
  },
});

const summary = defineRoute({
  operationId: 'getRoutesSummary',
  description: `Distance, time and passages for each pair (at most ${SUMMARY_MAX_PAIRS}; too_many_pairs beyond). ${PAIRS} One bad pair refuses the request (its error names query.pairs[i]); /v1/routes/portfolio reports bad pairs inline instead. Each summary is remembered for the calling agent (GET /v1/routes/summary/latest). ${ENGINE}`,
  query: SummaryQuery,
  response: SummaryData,
  errors: [...PLACE_ERRORS, 'route_unreachable', 'too_many_pairs'],
  examples: [
    { summary: 'Two lanes', query: { pairs: 'NLRTM:SGSIN;USHOU:NLRTM' } },
    { summary: 'Santos to Qingdao for a bulk carrier', query: { pairs: 'BRSSZ:CNQIN', ship_type: 'bulk' } },
  ],
  async handler({ query }, call) {
    return call.services.planning.summary(callingAgent(call).agentId, query);
  },
});

const summaryLatest = defineRoute({
  operationId: 'getRoutesSummaryLatest',
  description: `The summaries the calling agent computed most recently with /v1/routes/summary, newest first, with their age in seconds (another agent's are never shown). Kept in memory by the serving process (at most ${SUMMARY_MEMORY} across agents, least recent dropped first; a restart or another process starts empty): a cache of recomputable results, not a record.`,
  query: SummaryLatestQuery,
  response: SummaryLatestData,
  errors: ['invalid_request'],
  examples: [
    { summary: 'The ten most recent', query: {} },
    { summary: `Up to ${LATEST_MAX_LIMIT}`, query: { limit: LATEST_MAX_LIMIT } },
  ],
  async handler({ query }, call) {
    return call.services.planning.latest(callingAgent(call).agentId, query.limit ?? 10);
  },
});

const portfolio = defineRoute({
  operationId: 'getRoutesPortfolio',
  description: `Up to ${PORTFOLIO_MAX_PAIRS} pairs in one call (too_many_pairs beyond): each pair's distance, time and passages, and totals over the routed pairs (distance, time, passages with the number of pairs crossing each). ${PAIRS} A pair that cannot be routed (unknown port, same place, off the network) carries its error inline (code, message, field) and the others are still answered; the request fails only on malformed or too many pairs. ${ENGINE}`,
  query: PortfolioQuery,
  response: PortfolioData,
  errors: ['invalid_request', 'too_many_pairs'],
  examples: [
    { summary: 'Four reference lanes', query: { pairs: 'NLRTM:SGSIN;CNSGH:USLAX;USHOU:NLRTM;BRSSZ:CNQIN', ship_type: 'container' } },
    { summary: 'With a pair that cannot be routed (reported inline)', query: { pairs: 'NLRTM:SGSIN;NLXXX:SGSIN' } },
  ],
  async handler({ query }, call) {
    return call.services.planning.portfolio(query);
  },
});

const scenario = defineRoute({
  operationId: 'getRoutesScenario',
  description: `Closures (closed) and a speed change (speed_kn, or speed_factor times the baseline speed; not both) applied to a set of pairs: per pair the baseline (no closure, ship_type default speed) and the scenario route, their distance, time and passages and the delta; totals over the pairs routed both ways. ${PAIRS} At most ${SCENARIO_MAX_PAIRS}. Without pairs, the ${SCENARIO_MAX_PAIRS} busiest lanes of GET /v1/routes/top-lanes over its default window (30 whole UTC days ending at the caller's visibility horizon rounded down to 00:00; voyages that departed in it and arrived before its end, the same pairs and counts top-lanes gives; data.window states it with coverage_start and days_with_data); with none the set is empty and quality_flags says no_port_pairs_in_window. Pairs that cannot be routed carry their error inline. ${ENGINE}`,
  query: ScenarioQuery,
  response: ScenarioData,
  errors: ['invalid_request', 'unknown_passage', 'too_many_pairs'],
  examples: [
    { summary: 'Suez closed and slow steaming on two lanes', query: { pairs: 'NLRTM:SGSIN;CNSGH:NLRTM', closed: 'suez', speed_factor: 0.8, ship_type: 'container' } },
    { summary: 'Red Sea closed on the busiest port pairs of the last 30 days', query: { closed: 'bab_el_mandeb' } },
  ],
  async handler({ query }, call) {
    return call.services.planning.scenario(call.caller, query);
  },
});

export const planningRoutes = [whatIf, explain, summary, summaryLatest, portfolio, scenario];
