import type { Redis } from 'ioredis';
import type { Bus } from '../../bus/index.js';
import type { CatalogView } from '../../catalog/catalog.js';
import type { FleetReads } from '../../fleet/fleet-reads.js';
import type { FleetService } from '../../fleet/fleet-service.js';
import type { CursorCodec } from '../../http/cursor-codec.js';
import type { Job } from '../../jobs/scheduler.js';
import type { LimitPolicyName } from '../../limits/policies.js';
import type { LeaseSlots } from '../../limits/slots.js';
import type { Logger } from '../../observability/logger.js';
import type { StatusReporter } from '../../observability/status.js';
import { HOUR, type Clock } from '../../platform/clock.js';
import type { Config } from '../../platform/config.js';
import type { Store } from '../../store/db.js';
import type { RouteDefinition } from './route.js';

/** The process's configuration, clock, logger, store, Redis (when configured) and bus. */
export interface ProcessBase {
  config: Config;
  clock: Clock;
  logger: Logger;
  store: Store;
  redis: Redis | null;
  /** Publish/subscribe between components and processes (Redis when configured). */
  bus: Bus;
}

/** What every area may build on: the process's base, the cursors, the catalog and the fleet below the features. */
export interface AreaBase extends ProcessBase {
  cursors: CursorCodec;
  catalog: CatalogView;
  fleet: FleetService;
  fleetReads: FleetReads;
  /**
   * Per-agent lease slots for long-lived requests under `name`: shared by every process through Redis when it is
   * configured, else held by this process (timed by `now`); `onError` hears of leases Redis did not renew or release.
   */
  leaseSlots(name: string, onError: (err: unknown) => void, now?: () => number): LeaseSlots;
  /** Whether Redis answers a ping within its deadline; null without Redis. */
  pingRedis: (() => Promise<boolean>) | null;
  /** Components reporting into /v1/status. */
  statusReporters: StatusReporter[];
  startedAt: number;
  /** The built resource_infra layer loaded into an empty layer: undefined for the shipped file, null for none. */
  infraLayerFile?: string | null;
  ratePolicyOverrides: Record<string, readonly LimitPolicyName[]>;
}

/**
 * What an area adds once built: the services handlers reach by name (CallContext.services), what only later
 * areas use (`provides`, never a handler's), and its interval jobs.
 */
export interface AreaParts<S extends object, P extends object> {
  services: S;
  provides?: P;
  jobs?: readonly Job[];
}

/** One area: the operations it binds and how it builds its services from what the areas before it built. */
export interface Area<Needs, S extends object, P extends object = object> {
  name: string;
  routes: readonly RouteDefinition[];
  build(built: Needs): AreaParts<S, P>;
}

/**
 * The areas in build order. An area's build receives the base and whatever the areas before it built, and
 * the type checker refuses an area placed before one it needs: nothing is reached through a thunk or a
 * half-built object. The route list, the services and the jobs all come from this one list.
 */
export class AreaList<Base extends object, S extends object = object, P extends object = object> {
  private constructor(private readonly areas: readonly Area<never, object, object>[]) {}

  static over<Base extends object>(): AreaList<Base> {
    return new AreaList<Base>([]);
  }

  then<S2 extends object, P2 extends object = object>(area: Area<Base & S & P, S2, P2>): AreaList<Base, S & S2, P & P2> {
    return new AreaList<Base, S & S2, P & P2>([...this.areas, area as unknown as Area<never, object, object>]);
  }

  get names(): string[] {
    return this.areas.map((a) => a.name);
  }

  get routes(): RouteDefinition[] {
    return this.areas.flatMap((a) => a.routes);
  }

  /** Builds every area in order; a service name two areas build is refused. */
  build(base: Base): { services: S; jobs: Job[] } {
    const services: Record<string, unknown> = {};
    const provided: Record<string, unknown> = {};
    const jobs: Job[] = [];
    for (const area of this.areas) {
      const parts = (area.build as (built: unknown) => AreaParts<object, object>)({ ...base, ...provided, ...services });
      for (const [name, service] of Object.entries(parts.services)) {
        if (name in services) throw new Error(`service ${name} is built by two areas (the second is ${area.name})`);
        services[name] = service;
      }
      Object.assign(provided, parts.provides ?? {});
      jobs.push(...(parts.jobs ?? []));
    }
    return { services: services as S, jobs };
  }
}

/** The hourly job that enforces a service's retention (rows past their keep period deleted). */
export function hourlyRetention(name: string, service: { enforceRetention(): Promise<unknown> }): Job {
  return { name, everyMs: HOUR, run: () => service.enforceRetention() };
}
