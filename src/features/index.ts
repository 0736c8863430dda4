import type { RouteDefinition } from './kit/route.js';
import { AREAS } from './areas.js';

/** Every feature's routes, from the areas; an operation is implemented when one of these binds it. */
export const ALL_ROUTES: readonly RouteDefinition[] = AREAS.routes;
