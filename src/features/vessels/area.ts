import { hourlyRetention, type AreaBase } from '../kit/area.js';
import { defineArea } from '../kit/define-area.js';
import type { CorrectionsReader } from '../kit/override-fields.js';
import type { TrialRecord } from './entitlements.js';
import { vesselRoutes } from './routes.js';
import { createVesselsRepo } from './vessels-repo.js';
import { createVesselsService } from './vessels-service.js';

export const vesselsArea = defineArea({
  name: 'vessels',
  routes: vesselRoutes,
  build: (
    built: Pick<AreaBase, 'store' | 'clock' | 'bus' | 'cursors' | 'fleet' | 'fleetReads' | 'logger' | 'leaseSlots'> & {
      overrides: CorrectionsReader;
      findTrial: (agentId: string) => Promise<TrialRecord | undefined>;
    },
  ) => {
    const { store, clock, logger, overrides } = built;
    const vessels = createVesselsService({
      fleet: built.fleet,
      fleetReads: built.fleetReads,
      repo: createVesselsRepo(store.db),
      bus: built.bus,
      clock,
      cursors: built.cursors,
      pollSlots: built.leaseSlots(
        'polls',
        (err) => logger.warn({ err }, 'poll lease not released; it lapses at its deadline'),
        () => clock.now(),
      ),
      findTrial: built.findTrial,
      corrections: (vslId) => overrides.corrections('vessel', vslId),
      onError: (err, context) => logger.error({ err }, context),
    });
    return { services: { vessels }, jobs: [hourlyRetention('vessel_lookups_retention', vessels)] };
  },
});
