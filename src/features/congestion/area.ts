import type { AreaBase } from '../kit/area.js';
import { defineArea } from '../kit/define-area.js';
import type { EventsService } from '../events/events-service.js';
import type { CorrectionsReader } from '../kit/override-fields.js';
import type { PortsService } from '../ports/ports-service.js';
import { createCongestionService } from './congestion-service.js';
import { congestionRoutes } from './routes.js';
import { createVisitRankRepo } from './visit-rank-repo.js';

export const congestionArea = defineArea({
  name: 'congestion',
  routes: congestionRoutes,
  build: ({ store, events, fleet, ports, clock, overrides }: Pick<AreaBase, 'store' | 'fleet' | 'clock'> & { events: EventsService; ports: PortsService; overrides: CorrectionsReader }) => ({
    services: { congestion: createCongestionService({ events, fleet, repo: createVisitRankRepo(store.db), clock, ports, corrections: (vslId) => overrides.corrections('vessel', vslId) }) },
  }),
});
