import { SECOND } from '../../platform/clock.js';
import type { AreaBase } from '../kit/area.js';
import { defineArea } from '../kit/define-area.js';
import { createOverridesRepo } from './overrides-repo.js';
import { createOverridesService } from './overrides-service.js';

/** Applied feedback corrections, laid over vessel and port data wherever it is served (docs/feedback.md). */
export const overridesArea = defineArea({
  name: 'overrides',
  routes: [],
  build: ({ store }: Pick<AreaBase, 'store'>) => {
    const overrides = createOverridesService({ repo: createOverridesRepo(store.db) });
    return { services: { overrides }, jobs: [{ name: 'overrides_refresh', everyMs: 5 * SECOND, run: () => overrides.refresh() }] };
  },
});
