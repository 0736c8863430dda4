import { MINUTE } from '../../platform/clock.js';
import type { AreaBase } from '../kit/area.js';
import { defineArea } from '../kit/define-area.js';
import type { AuditService } from '../audit/audit-service.js';
import { createPaymentsRepo } from './payments-repo.js';
import { createPaymentsService } from './payments-service.js';
import { paymentRoutes } from './routes.js';

export const paymentsArea = defineArea({
  name: 'payments',
  routes: paymentRoutes,
  build: ({ store, clock, config, audit }: Pick<AreaBase, 'store' | 'clock' | 'config'> & { audit: AuditService }) => {
    const payments = createPaymentsService({
      repo: createPaymentsRepo(store.db),
      clock,
      audit,
      rails: config.payments.rails,
      intentsEnabled: () => config.payments.intentsEnabled,
      transaction: store.transaction,
    });
    return { services: { payments }, jobs: [{ name: 'payment_intent_expiry', everyMs: MINUTE, run: () => payments.expireDue() }] };
  },
});
