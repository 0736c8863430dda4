import type { RouteDefinition } from './kit/route.js';
import { agentRoutes } from './agents/routes.js';
import { contractRoutes } from './harbor/contract/routes.js';
import { feedRoutes } from './harbor/feed/routes.js';
import { groupRoutes } from './harbor/groups/routes.js';
import { helpRoutes } from './harbor/help/routes.js';
import { operatorRequestRoutes } from './harbor/operator-requests/routes.js';
import { researchRoutes } from './harbor/research/routes.js';
import { trialRoutes } from './harbor/trials/routes.js';
import { profileRoutes } from './harbor/profiles/routes.js';
import { taskRoutes } from './harbor/tasks/routes.js';
import { metaRoutes } from './meta/routes.js';
import { paymentRoutes } from './payments/routes.js';
import { portRoutes } from './ports/routes.js';
import { stsRoutes } from './sts/routes.js';
import { eventsApiRoutes } from './events-api/routes.js';
import { metricsRoutes } from './routes/stress/routes.js';
import { routeRoutes } from './routes/routes.js';
import { planningRoutes } from './routes/planning/planning-routes.js';
import { congestionRoutes } from './congestion/routes.js';
import { conditionsRoutes } from './routes/conditions/conditions-routes.js';
import { vesselRoutes } from './vessels/routes.js';
import { billingRoutes } from './billing/routes.js';
import { webmcpRoutes } from './mcp/routes.js';
import { exchangeCommunityRoutes } from './exchange/community/routes.js';
import { exchangeMessageRoutes } from './exchange/messages/routes.js';
import { exchangeCoreRoutes } from './exchange/core/routes.js';
import { workspaceRoutes } from './workspace/routes.js';
import { feedbackRoutes } from './feedback/routes.js';
import { vesselServiceRoutes } from './vessel-services/routes.js';
import { resourceInfraRoutes } from './resource-infra/routes.js';
import { siteRoutes } from './site/routes.js';
import { routesReadinessRoutes } from './routes/readiness/routes.js';
import { routesQualityRoutes } from './routes/quality/routes.js';
import { laneRoutes } from './routes/lanes/routes.js';
import { corridorRoutes } from './routes/corridors/routes.js';

/** Every feature's routes; an operation is implemented when one of these binds it. */
export const ALL_ROUTES: readonly RouteDefinition[] = [
  ...metaRoutes,
  ...agentRoutes,
  ...operatorRequestRoutes,
  ...profileRoutes,
  ...contractRoutes,
  ...paymentRoutes,
  ...researchRoutes,
  ...taskRoutes,
  ...vesselRoutes,
  ...groupRoutes,
  ...feedRoutes,
  ...helpRoutes,
  ...trialRoutes,
  ...portRoutes,
  ...stsRoutes,
  ...eventsApiRoutes,
  ...metricsRoutes,
  ...routeRoutes,
  ...planningRoutes,
  ...congestionRoutes,
  ...conditionsRoutes,
  ...billingRoutes,
  ...webmcpRoutes,
  ...exchangeCommunityRoutes,
  ...exchangeMessageRoutes,
  ...exchangeCoreRoutes,
  ...workspaceRoutes,
  ...feedbackRoutes,
  ...vesselServiceRoutes,
  ...resourceInfraRoutes,
  ...siteRoutes,
  ...routesReadinessRoutes,
  ...routesQualityRoutes,
  ...laneRoutes,
  ...corridorRoutes,
];
