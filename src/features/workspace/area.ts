import { hourlyRetention, type AreaBase } from '../kit/area.js';
import { defineArea } from '../kit/define-area.js';
import { workspaceRoutes } from './routes.js';
import { createWorkspaceRepo } from './workspace-repo.js';
import { createWorkspaceService } from './workspace-service.js';

/** The agent workspace; the harbor, the exchange and feedback write its events in their own transactions. */
export const workspaceArea = defineArea({
  name: 'workspace',
  routes: workspaceRoutes,
  build: ({ store, clock, bus }: Pick<AreaBase, 'store' | 'clock' | 'bus'>) => {
    const workspace = createWorkspaceService({ repo: createWorkspaceRepo(store.db), clock, bus, transaction: store.transaction });
    return { services: { workspace }, jobs: [hourlyRetention('workspace_events_retention', workspace)] };
  },
});
