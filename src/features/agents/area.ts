import type { AreaBase } from '../kit/area.js';
import { defineArea } from '../kit/define-area.js';
import type { AuditService } from '../audit/audit-service.js';
import { createAgentsRepo } from './agents-repo.js';
import { createAgentsService } from './agents-service.js';
import { agentRoutes } from './routes.js';

export const agentsArea = defineArea({
  name: 'agents',
  routes: agentRoutes,
  build: ({ store, clock, config, audit }: Pick<AreaBase, 'store' | 'clock' | 'config'> & { audit: AuditService }) => ({
    services: { agents: createAgentsService({ repo: createAgentsRepo(store.db, store.readNow), clock, audit, autoSandbox: () => config.autoSandbox }) },
  }),
});
