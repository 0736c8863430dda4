import type { AreaBase } from '../kit/area.js';
import { defineArea } from '../kit/define-area.js';
import { createTelemetryRepo } from './telemetry-repo.js';
import { createTelemetryService } from './telemetry-service.js';

/**
 * The request telemetry as recorded, unmetered: handlers reach it as `telemetry` once billing has wrapped it
 * with the usage ledger; the exchange and the routes views read it directly.
 */
export const telemetryArea = defineArea({
  name: 'telemetry',
  routes: [],
  build: ({ store, clock, config, logger }: Pick<AreaBase, 'store' | 'clock' | 'config' | 'logger'>) => ({
    services: {},
    provides: {
      telemetryRecorder: createTelemetryService({
        repo: createTelemetryRepo(store.db),
        clock,
        enabled: () => config.telemetry,
        onFlushError: (err) => logger.error({ err }, 'telemetry flush failed'),
      }),
    },
  }),
});
