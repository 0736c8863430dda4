import { hourlyRetention, type AreaBase } from '../kit/area.js';
import { defineArea } from '../kit/define-area.js';
import { createIdempotencyRepo } from './idempotency-repo.js';
import { createIdempotencyService } from './idempotency-service.js';

export const idempotencyArea = defineArea({
  name: 'idempotency',
  routes: [],
  build: ({ store, clock }: Pick<AreaBase, 'store' | 'clock'>) => {
    const idempotency = createIdempotencyService({ repo: createIdempotencyRepo(store.db), clock });
    return { services: { idempotency }, jobs: [hourlyRetention('idempotency_retention', idempotency)] };
  },
});
