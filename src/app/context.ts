import type { CatalogView } from '../catalog/catalog.js';
import type { Limiter } from '../limits/limiter.js';
import type { LimitPolicyName } from '../limits/policies.js';
import type { RouteDefinition } from '../features/kit/route.js';
import type { ProcessBase } from '../features/kit/area.js';
import type { Services } from '../features/services.js';
import type { StatusReporter } from '../observability/status.js';

export interface AppContext extends ProcessBase {
  limiter: Limiter;
  catalog: CatalogView<RouteDefinition>;
  services: Services;
  startedAt: number;
  statusReporters: StatusReporter[];
  /** Extra limit policies attached to operations by whoever embeds Bosun (see createBosun). */
  ratePolicyOverrides: Readonly<Record<string, readonly LimitPolicyName[]>>;
}
