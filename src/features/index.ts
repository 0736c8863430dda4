import type { RouteDefinition } from '../http/route.js';
import { agentRoutes } from './agents/routes.js';
import { operatorRequestRoutes } from './harbor/operator-requests/routes.js';
import { profileRoutes } from './harbor/profiles/routes.js';
import { metaRoutes } from './meta/routes.js';
import { vesselRoutes } from './vessels/routes.js';

/** Every feature's routes; an operation is implemented when one of these binds it. */
export const ALL_ROUTES: readonly RouteDefinition[] = [...metaRoutes, ...agentRoutes, ...operatorRequestRoutes, ...profileRoutes, ...vesselRoutes];
