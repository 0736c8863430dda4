import { routeDefiner, type CallContext as HttpCallContext, type RouteDefinition as HttpRouteDefinition } from '../../http/route.js';
import type { Services } from '../../platform/services.js';
import { SHIP_TYPE_VOCABULARY } from './ship-type-vocabulary.js';

/** What a Bosun handler gets: http/route.ts's call context with Bosun's services. */
export type CallContext = HttpCallContext<Services>;
export type RouteDefinition = HttpRouteDefinition<Services>;

/** Binds a handler to a catalog operation; input and output types follow the schemas. */
export const defineRoute = routeDefiner<Services>(SHIP_TYPE_VOCABULARY);
