import type { AreaBase } from '../kit/area.js';
import { defineArea } from '../kit/define-area.js';
import type { AgentsService } from '../agents/agents-service.js';
import type { AuditService } from '../audit/audit-service.js';
import type { WorkspaceService } from '../workspace/workspace-service.js';
import { contractRoutes } from './contract/routes.js';
import { feedRoutes } from './feed/routes.js';
import { groupRoutes } from './groups/routes.js';
import { createHarborServices } from './harbor-services.js';
import { helpRoutes } from './help/routes.js';
import { operatorRequestRoutes } from './operator-requests/routes.js';
import { profileRoutes } from './profiles/routes.js';
import { researchRoutes } from './research/routes.js';
import { taskRoutes } from './tasks/routes.js';
import { trialRoutes } from './trials/routes.js';
import { createTrialsRepo } from './trials/trials-repo.js';

export const harborArea = defineArea({
  name: 'harbor',
  routes: [...operatorRequestRoutes, ...profileRoutes, ...contractRoutes, ...researchRoutes, ...taskRoutes, ...groupRoutes, ...feedRoutes, ...helpRoutes, ...trialRoutes],
  build: (built: Pick<AreaBase, 'store' | 'clock' | 'fleet' | 'cursors'> & { audit: AuditService; agents: AgentsService; workspace: WorkspaceService }) => {
    const harbor = createHarborServices({ store: built.store, clock: built.clock, audit: built.audit, agents: built.agents, fleet: built.fleet, cursors: built.cursors, emit: built.workspace.emit });
    const trialRecords = createTrialsRepo(built.store.db);
    // the vessels entitlement reads the snapshot trial record (one vessel) of callers holding snapshot:read
    return { ...harbor, provides: { findTrial: (agentId: string) => trialRecords.find(agentId) } };
  },
});
