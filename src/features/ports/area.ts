import { MINUTE } from '../../platform/clock.js';
import type { AreaBase } from '../kit/area.js';
import { defineArea } from '../kit/define-area.js';
import type { CorrectionsReader } from '../kit/override-fields.js';
import { createPortsRepo } from './ports-repo.js';
import { createPortsService } from './ports-service.js';
import { portRoutes } from './routes.js';

export const portsArea = defineArea({
  name: 'ports',
  routes: portRoutes,
  build: ({ store, clock, cursors, overrides }: Pick<AreaBase, 'store' | 'clock' | 'cursors'> & { overrides: CorrectionsReader }) => {
    const ports = createPortsService({ cursors, repo: createPortsRepo(store.db), clock, corrections: { version: () => overrides.version(), corrected: () => overrides.corrected('port') } });
    return { services: { ports }, jobs: [{ name: 'port_table_refresh', everyMs: MINUTE, run: () => ports.refreshIfLoaded() }] };
  },
});
