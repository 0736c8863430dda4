import type { CursorCodec } from '../../http/cursor-codec.js';
import type { CatalogView } from '../../catalog/catalog.js';
import type { Clock } from '../../platform/clock.js';
import type { FleetReads } from '../../fleet/fleet-reads.js';
import type { Job } from '../../jobs/scheduler.js';
import type { LoadedSeaNetwork } from '../../routing/network-file.js';
import type { Store } from '../../store/db.js';
import type { EventsService } from '../events/events-service.js';
import type { PortsService } from '../ports/ports-service.js';
import type { VesselsService } from '../vessels/vessels-service.js';
import { createRouteConditionsService } from './conditions/conditions-service.js';
import { createCorridorsRepo } from './corridors/corridors-repo.js';
import { createCorridorsService } from './corridors/corridors-service.js';
import { createLanesRepo } from './lanes/lanes-repo.js';
import { createLanesService } from './lanes/lanes-service.js';
import { createPlanningService } from './planning/planning-service.js';
import { createRoutesQualityRepo } from './quality/quality-repo.js';
import { createRoutesQualityService } from './quality/quality-service.js';
import { createRoutesDataService } from './readiness/data-service.js';
import { createReadinessRepo } from './readiness/readiness-repo.js';
import { createRoutesReadinessService, type ReadinessDeps } from './readiness/readiness-service.js';
import { SNAPSHOT_JOB_EVERY_MS } from './readiness/readiness-rules.js';
import { createRoutesService } from './routes-service.js';
import { createRouteStressService } from './stress/route-stress-service.js';
import { createStressRepo } from './stress/stress-repo.js';

/**
 * The routes area (`/v1/routes` and the route stress index), built in dependency order: the engine, then
 * what plans on it (planning, conditions), what reads events (stress, corridors, lanes), and the service views
 * over telemetry (quality, data, readiness). Every service is given the ones it uses, already built.
 */
export function createRoutesArea(deps: {
  store: Store;
  clock: Clock;
  cursors: CursorCodec;
  catalog: CatalogView;
  network: () => LoadedSeaNetwork;
  ports: PortsService;
  events: EventsService;
  vessels: VesselsService;
  fleetReads: FleetReads;
  /** The request telemetry as the routes views read it (metered: reading it flushes the usage ledger too). */
  telemetry: ReadinessDeps['telemetry'];
  /** Writes buffered telemetry rows before a quality view reads them. */
  flushTelemetry: () => Promise<void>;
  usageLines: ReadinessDeps['usageLines'];
  allowance: ReadinessDeps['allowance'];
}) {
  const { store, clock, catalog, ports, events, fleetReads } = deps;
  const portTable = () => ports.table();
  const routes = createRoutesService({ ports: portTable, clock });
  const corridorsRepo = createCorridorsRepo(store.db);
  const routeStress = createRouteStressService({ events, transitSums: corridorsRepo, repo: createStressRepo(store.db), fleetReads, clock, ports: portTable, network: deps.network });
  const routeConditions = createRouteConditionsService({ routes, routeStress, events, ports, vessels: deps.vessels, fleetReads, clock });
  const corridors = createCorridorsService({ repo: corridorsRepo, events, routeStress, fleetReads, clock });
  const lanes = createLanesService({ repo: createLanesRepo(store.db), events, ports, routes, clock, cursors: deps.cursors });
  const planning = createPlanningService({ routes, clock, busiestLanes: lanes.busiestLanes });
  const routesQuality = createRoutesQualityService({
    repo: createRoutesQualityRepo(store.db),
    clock,
    catalog,
    flushTelemetry: deps.flushTelemetry,
    cacheStatus: () => routes.status(),
    cachedAt: () => routes.cachedAt(),
  });
  const readinessRepo = createReadinessRepo(store.db, store.dialect.name);
  const routesData = createRoutesDataService({ repo: readinessRepo, clock, network: deps.network, ports: portTable });
  const routesReadiness = createRoutesReadinessService({
    repo: readinessRepo,
    clock,
    catalog,
    network: deps.network,
    routes,
    ports,
    telemetry: deps.telemetry,
    data: routesData,
    usageLines: deps.usageLines,
    allowance: deps.allowance,
  });
  const jobs: Job[] = [{ name: 'routes_readiness_snapshot', everyMs: SNAPSHOT_JOB_EVERY_MS, run: () => routesReadiness.snapshotJob() }];
  return { services: { routes, planning, routeStress, routeConditions, corridors, lanes, routesQuality, routesData, routesReadiness }, jobs };
}
