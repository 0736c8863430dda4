import type { FleetService } from '../fleet/fleet-service.js';
import type { CursorCodec } from '../http/cursor-codec.js';
import type { Services } from '../platform/services.js';
import { agentsArea } from './agents/area.js';
import { auditArea } from './audit/area.js';
import { billingArea } from './billing/area.js';
import { usageArea } from './billing/usage-area.js';
import { congestionArea } from './congestion/area.js';
import { consoleArea } from './console/area.js';
import { eventsApiArea } from './events-api/area.js';
import { eventsArea } from './events/area.js';
import { exchangeArea } from './exchange/area.js';
import { feedbackArea } from './feedback/area.js';
import { overridesArea } from './feedback/overrides-area.js';
import { harborArea } from './harbor/area.js';
import { idempotencyArea } from './idempotency/area.js';
import { AreaList, type AreaBase } from './kit/area.js';
import { webmcpArea } from './mcp/area.js';
import { metaArea } from './meta/area.js';
import { operatorArea } from './operator/area.js';
import { paymentsArea } from './payments/area.js';
import { portsArea } from './ports/area.js';
import { resourceInfraArea } from './resource-infra/area.js';
import { routesArea } from './routes/area.js';
import { siteArea } from './site/area.js';
import { stsArea } from './sts/area.js';
import { telemetryArea } from './telemetry/area.js';
import { vesselServicesArea } from './vessel-services/area.js';
import { vesselsArea } from './vessels/area.js';
import { workspaceArea } from './workspace/area.js';

/**
 * Every area in build order: the one list the operations (the catalog's implemented set), the services handlers
 * reach and the interval jobs come from. An area is placed after the areas whose services it uses; the type
 * checker refuses any other order.
 */
export const AREAS = AreaList.over<AreaBase>()
  .then(auditArea)
  .then(agentsArea)
  .then(workspaceArea)
  .then(harborArea)
  .then(operatorArea)
  .then(consoleArea)
  .then(idempotencyArea)
  .then(telemetryArea)
  .then(usageArea)
  .then(overridesArea)
  .then(portsArea)
  .then(eventsArea)
  .then(exchangeArea)
  .then(paymentsArea)
  .then(vesselsArea)
  .then(billingArea)
  .then(routesArea)
  .then(stsArea)
  .then(eventsApiArea)
  .then(congestionArea)
  .then(resourceInfraArea)
  .then(metaArea)
  .then(webmcpArea)
  .then(feedbackArea)
  .then(vesselServicesArea)
  .then(siteArea);

/** The services the areas build, as handlers reach them (with the base's cursors and fleet). */
export type AreaServices = ReturnType<typeof AREAS.build>['services'];

/** true when A and B are the same type. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
// The Services interface handlers are typed with (src/features/services.ts) names exactly what the areas build
// and the base's cursors and fleet: an area that adds, renames or drops a service fails here until it says so.
export const SERVICES_MATCH_AREAS: Same<Services, AreaServices & { cursors: CursorCodec; fleet: FleetService }> = true;
