import { hourlyRetention, type AreaBase } from '../kit/area.js';
import { defineArea } from '../kit/define-area.js';
import type { PaymentsService } from '../payments/payments-service.js';
import type { TelemetryService } from '../telemetry/telemetry-service.js';
import { createBillingService } from './billing-service.js';
import { withUsageMetering } from './metered-telemetry.js';
import { billingRoutes } from './routes.js';
import type { UsageMeter } from './usage-meter.js';
import type { UsageRepo } from './usage-repo.js';

/** Pricing, the usage ledger's views, and the telemetry handlers record into, metered into the ledger. */
export const billingArea = defineArea({
  name: 'billing',
  routes: billingRoutes,
  build: (built: Pick<AreaBase, 'clock' | 'catalog' | 'cursors'> & { payments: PaymentsService; telemetryRecorder: TelemetryService; usageRepo: UsageRepo; usageMeter: UsageMeter }) => {
    const { payments } = built;
    const billing = createBillingService({
      usage: built.usageRepo,
      meter: built.usageMeter,
      clock: built.clock,
      catalog: built.catalog,
      cursors: built.cursors,
      payments: { rails: () => payments.rails(), intentsEnabled: () => payments.intentsEnabled() },
    });
    const telemetry = withUsageMetering(built.telemetryRecorder, built.usageMeter);
    return {
      services: { billing, telemetry },
      jobs: [hourlyRetention('telemetry_retention', telemetry), hourlyRetention('usage_ledger_retention', billing)],
    };
  },
});
