import type { CatalogEntry } from '../../catalog/types.js';
import { HARBOR_CAPABILITIES } from '../kit/harbor-contract.js';

/** Which toolset (toolsets.ts, docs/decisions/085) each operation's tool belongs to; kept apart so tools.ts can name it without a cycle. */

/** Operations of the harbor section (and agents/meta) that make the default harbor toolset; the rest of the harbor is `community`. */
const HARBOR_BASICS: ReadonlySet<string> = new Set([
  'postAgentsRegister',
  'getAgentsMe',
  'getAgentsQuickstart',
  'postHarborProfiles',
  'getHarborProfilesMe',
  // asking for help and giving it; reporting a request is in `community`
  ...HARBOR_CAPABILITIES.find((c) => c.id === 'harbor.help_requests')!.operations.filter((op) => op !== 'postHarborHelpRequestsByIdReport'),
]);

/** Route operations that plan or judge a voyage; the other /v1/routes operations are lanes analytics or the service's own health. */
const ROUTE_PLANNING: ReadonlySet<string> = new Set([
  'getRoutesDirect',
  'getRoutesWithVia',
  'getRoutesWhatIf',
  'getRoutesExplain',
  'getRoutesAdvisory',
  'getRoutesRiskFlags',
  'getRoutesForecastLite',
  'getMetricsRouteStressIndex',
]);

const PORT_OPERATIONS: ReadonlySet<string> = new Set(['getPortsSearch', 'getPortsByPortIdCongestion', 'getStsEvents', 'getVesselsVisitRank']);

/** Paths under /v1/routes that are lanes, corridors and network analytics (the rest, past planning, is the service's own health). */
const LANE_PATH =
  /^\/v1\/routes\/(top-lanes|lane-|top-polylines|hubs|network-overview|weekly-|seasonality|anomaly-days|port-activity-imbalance|dest-opportunities|stability-forecast|corridor|summary|portfolio|scenario)/;

/** The one toolset an operation's tool belongs to. */
export function toolsetOf(entry: CatalogEntry): string {
  if (entry.access === 'U') return 'operator';
  if (HARBOR_BASICS.has(entry.operationId)) return 'harbor';
  if (ROUTE_PLANNING.has(entry.operationId)) return 'routes';
  if (PORT_OPERATIONS.has(entry.operationId)) return 'ports';
  switch (entry.section) {
    case 'vessels':
    case 'services':
      return 'vessels';
    case 'ports':
    case 'sts':
    case 'events':
      return 'ports';
    case 'routes':
    case 'metrics':
      return LANE_PATH.test(entry.path) ? 'lanes' : 'routes_service';
    case 'workspace':
      return 'workspace';
    case 'harbor':
    case 'agents':
      return entry.operationId === 'getServicesVesselSnapshotTrial' ? 'vessels' : 'community';
    case 'exchange':
      return 'exchange';
    case 'feedback':
      return 'feedback';
    case 'layers':
      return 'layers';
    case 'billing':
    case 'payments':
      return 'billing';
    default:
      return 'discovery';
  }
}
