import type { AreaBase } from '../kit/area.js';
import { defineArea } from '../kit/define-area.js';
import { createUsageMeter } from './usage-meter.js';
import { createUsageRepo } from './usage-repo.js';

/** The usage ledger and its in-memory meter, built before the areas that flush or read it (the exchange, the routes views). */
export const usageArea = defineArea({
  name: 'usage',
  routes: [],
  build: ({ store, clock, logger }: Pick<AreaBase, 'store' | 'clock' | 'logger'>) => {
    const usageRepo = createUsageRepo(store.db);
    const usageMeter = createUsageMeter({ repo: usageRepo, clock, onFlushError: (err) => logger.error({ err }, 'usage ledger flush failed; counts kept for the next flush') });
    /** An agent's ledger lines since a UTC day, with this process's counts written first. */
    const agentUsageLines = async (agentId: string, sinceDay: string) => {
      await usageMeter.flush();
      return usageRepo.agentLines(agentId, sinceDay);
    };
    return { services: {}, provides: { usageRepo, usageMeter, agentUsageLines } };
  },
});
