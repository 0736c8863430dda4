import { pingStore } from '../../store/dialect.js';
import type { AreaBase } from '../kit/area.js';
import { defineArea } from '../kit/define-area.js';
import type { TelemetryService } from '../telemetry/telemetry-service.js';
import { createMetaService } from './meta-service.js';
import { metaRoutes } from './routes.js';

export const metaArea = defineArea({
  name: 'meta',
  routes: metaRoutes,
  build: (built: Pick<AreaBase, 'config' | 'catalog' | 'clock' | 'startedAt' | 'statusReporters' | 'ratePolicyOverrides' | 'store' | 'pingRedis'> & { telemetryRecorder: TelemetryService }) => ({
    services: {
      meta: createMetaService({
        config: built.config,
        catalog: built.catalog,
        clock: built.clock,
        startedAt: built.startedAt,
        statusReporters: built.statusReporters,
        ratePolicyOverrides: built.ratePolicyOverrides,
        storeDialect: built.store.dialect.name,
        pingStore: () => pingStore(built.store.db, () => performance.now()),
        pingRedis: built.pingRedis,
        pendingTelemetry: () => built.telemetryRecorder.pending(),
      }),
    },
  }),
});
