import { hourlyRetention, type AreaBase } from '../kit/area.js';
import { defineArea } from '../kit/define-area.js';
import { webmcpRoutes } from './routes.js';
import { createWebmcpRepo } from './webmcp-repo.js';
import { createWebmcpService } from './webmcp-service.js';

export const webmcpArea = defineArea({
  name: 'webmcp',
  routes: webmcpRoutes,
  build: ({ store, clock, catalog, cursors }: Pick<AreaBase, 'store' | 'clock' | 'catalog' | 'cursors'>) => {
    const webmcp = createWebmcpService({ repo: createWebmcpRepo(store.db), clock, catalog, cursors });
    return { services: { webmcp }, jobs: [hourlyRetention('webmcp_dispatch_retention', webmcp)] };
  },
});
