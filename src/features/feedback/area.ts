import type { AreaBase } from '../kit/area.js';
import { defineArea } from '../kit/define-area.js';
import type { AuditService } from '../audit/audit-service.js';
import type { EventsService } from '../events/events-service.js';
import type { PortsService } from '../ports/ports-service.js';
import type { WorkspaceService } from '../workspace/workspace-service.js';
import { createFeedbackRepo } from './feedback-repo.js';
import { createFeedbackService } from './feedback-service.js';
import type { OverridesService } from './overrides-service.js';
import { feedbackRoutes } from './routes.js';

export const feedbackArea = defineArea({
  name: 'feedback',
  routes: feedbackRoutes,
  build: (built: Pick<AreaBase, 'store' | 'clock' | 'fleet'> & { overrides: OverridesService; audit: AuditService; workspace: WorkspaceService; ports: PortsService; events: EventsService }) => ({
    services: {
      feedback: createFeedbackService({
        repo: createFeedbackRepo(built.store.db),
        overrides: built.overrides,
        clock: built.clock,
        audit: built.audit,
        transaction: built.store.transaction,
        emit: built.workspace.emit,
        fleet: built.fleet,
        portExists: (portId) => built.ports.byId(portId) !== undefined,
        areas: built.events.areas,
      }),
    },
  }),
});
