import type { Redis } from 'ioredis';
import type { Bus } from '../bus/bus.js';
import type { CatalogView } from '../catalog/catalog.js';
import type { Clock } from '../platform/clock.js';
import type { Config } from '../platform/config.js';
import type { Limiter } from '../limits/limiter.js';
import type { LimitPolicyName } from '../limits/policies.js';
import type { Store } from '../store/db.js';
import type { RouteDefinition } from '../features/kit/route.js';
import type { Services } from '../features/services.js';
import type { Logger } from '../observability/logger.js';
import type { StatusReporter } from '../observability/status.js';

export interface AppContext {
  config: Config;
  clock: Clock;
  logger: Logger;
  store: Store;
  redis: Redis | null;
  /** Publish/subscribe between components and processes (Redis when configured). */
  bus: Bus;
  limiter: Limiter;
  catalog: CatalogView<RouteDefinition>;
  services: Services;
  startedAt: number;
  statusReporters: StatusReporter[];
  /** Extra limit policies attached to operations by whoever embeds Bosun (see createBosun). */
  ratePolicyOverrides: Readonly<Record<string, readonly LimitPolicyName[]>>;
}
