import type { AreaBase } from '../kit/area.js';
import { defineArea } from '../kit/define-area.js';
import type { PortsService } from '../ports/ports-service.js';
import { createInfraRepo } from './infra-repo.js';
import { createInfraService } from './infra-service.js';
import { resourceInfraRoutes } from './routes.js';

export const resourceInfraArea = defineArea({
  name: 'resource-infra',
  routes: resourceInfraRoutes,
  build: ({ store, cursors, clock, ports, infraLayerFile }: Pick<AreaBase, 'store' | 'cursors' | 'clock' | 'infraLayerFile'> & { ports: PortsService }) => ({
    services: { resourceInfra: createInfraService({ repo: createInfraRepo(store.db), cursors, clock, ports: () => ports.table(), layerFile: infraLayerFile }) },
  }),
});
