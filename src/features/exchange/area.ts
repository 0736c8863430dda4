import type { AreaBase } from '../kit/area.js';
import { defineArea } from '../kit/define-area.js';
import type { AgentsService } from '../agents/agents-service.js';
import type { AuditService } from '../audit/audit-service.js';
import type { UsageMeter } from '../billing/usage-meter.js';
import type { ProfilesService } from '../harbor/profiles/profiles-service.js';
import type { PortsService } from '../ports/ports-service.js';
import type { TelemetryService } from '../telemetry/telemetry-service.js';
import type { WorkspaceService } from '../workspace/workspace-service.js';
import { exchangeCommunityRoutes } from './community/routes.js';
import { exchangeCoreRoutes } from './core/routes.js';
import { createExchangeArea } from './exchange-area.js';
import { exchangeMessageRoutes } from './messages/routes.js';

type ExchangeNeeds = Pick<AreaBase, 'store' | 'bus' | 'clock' | 'cursors' | 'fleet' | 'fleetReads' | 'logger' | 'leaseSlots'> & {
  audit: AuditService;
  agents: AgentsService;
  profiles: ProfilesService;
  telemetryRecorder: TelemetryService;
  usageMeter: UsageMeter;
  ports: PortsService;
  workspace: WorkspaceService;
};

export const exchangeArea = defineArea({
  name: 'exchange',
  routes: [...exchangeCommunityRoutes, ...exchangeMessageRoutes, ...exchangeCoreRoutes],
  build: (built: ExchangeNeeds) =>
    createExchangeArea({
      store: built.store,
      bus: built.bus,
      clock: built.clock,
      cursors: built.cursors,
      audit: built.audit,
      agents: built.agents,
      profiles: built.profiles,
      telemetry: built.telemetryRecorder,
      fleet: built.fleet,
      fleetReads: built.fleetReads,
      ports: built.ports,
      notify: built.workspace.emit,
      streamSlots: built.leaseSlots('exchange-streams', (err) => built.logger.warn({ err }, 'exchange stream lease not renewed or released; it lapses')),
      flushUsage: () => built.usageMeter.flush(),
      onStreamError: (err) => built.logger.error({ err }, 'exchange message stream failed'),
    }),
});
