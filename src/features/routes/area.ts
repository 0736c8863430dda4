import { shippedSeaNetwork } from '../../routing/network-file.js';
import type { AreaBase } from '../kit/area.js';
import { defineArea } from '../kit/define-area.js';
import type { BillingService } from '../billing/billing-service.js';
import type { EventsService } from '../events/events-service.js';
import type { PortsService } from '../ports/ports-service.js';
import type { TelemetryService } from '../telemetry/telemetry-service.js';
import type { VesselsService } from '../vessels/vessels-service.js';
import type { ReadinessDeps } from './readiness/readiness-service.js';
import { conditionsRoutes } from './conditions/conditions-routes.js';
import { corridorRoutes } from './corridors/routes.js';
import { laneRoutes } from './lanes/routes.js';
import { planningRoutes } from './planning/planning-routes.js';
import { routesQualityRoutes } from './quality/routes.js';
import { routesReadinessRoutes } from './readiness/routes.js';
import { createRoutesArea } from './routes-area.js';
import { routeRoutes } from './routes.js';
import { metricsRoutes } from './stress/routes.js';

type RoutesNeeds = Pick<AreaBase, 'store' | 'clock' | 'cursors' | 'catalog' | 'fleetReads'> & {
  ports: PortsService;
  events: EventsService;
  vessels: VesselsService;
  billing: BillingService;
  /** The telemetry handlers record into (metered), and the recorder below it. */
  telemetry: TelemetryService;
  telemetryRecorder: TelemetryService;
  agentUsageLines: ReadinessDeps['usageLines'];
};

export const routesArea = defineArea({
  name: 'routes',
  routes: [...metricsRoutes, ...routeRoutes, ...planningRoutes, ...conditionsRoutes, ...routesReadinessRoutes, ...routesQualityRoutes, ...laneRoutes, ...corridorRoutes],
  build: (built: RoutesNeeds) =>
    createRoutesArea({
      store: built.store,
      clock: built.clock,
      cursors: built.cursors,
      catalog: built.catalog,
      network: shippedSeaNetwork,
      ports: built.ports,
      events: built.events,
      vessels: built.vessels,
      fleetReads: built.fleetReads,
      telemetry: built.telemetry,
      flushTelemetry: () => built.telemetryRecorder.flush(),
      usageLines: built.agentUsageLines,
      allowance: async (agent) => (await built.billing.status(agent)).allowance,
    }),
});
