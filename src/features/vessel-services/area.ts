import type { AreaBase } from '../kit/area.js';
import { defineArea } from '../kit/define-area.js';
import type { AuditService } from '../audit/audit-service.js';
import type { EventsService } from '../events/events-service.js';
import type { CorrectionsReader } from '../kit/override-fields.js';
import type { PortsService } from '../ports/ports-service.js';
import type { VesselsService } from '../vessels/vessels-service.js';
import { vesselServiceRoutes } from './routes.js';
import { createVesselServicesRepo } from './vessel-services-repo.js';
import { createVesselServicesService } from './vessel-services-service.js';

export const vesselServicesArea = defineArea({
  name: 'vessel-services',
  routes: vesselServiceRoutes,
  build: (
    built: Pick<AreaBase, 'store' | 'clock' | 'cursors' | 'fleetReads'> & { audit: AuditService; vessels: VesselsService; events: EventsService; ports: PortsService; overrides: CorrectionsReader },
  ) => ({
    services: {
      vesselServices: createVesselServicesService({
        repo: createVesselServicesRepo(built.store.db),
        clock: built.clock,
        cursors: built.cursors,
        audit: built.audit,
        vessels: built.vessels,
        events: built.events,
        ports: built.ports,
        fleetReads: built.fleetReads,
        corrections: (vslId) => built.overrides.corrections('vessel', vslId),
      }),
    },
  }),
});
