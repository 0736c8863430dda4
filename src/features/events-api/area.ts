import type { AreaBase } from '../kit/area.js';
import { defineArea } from '../kit/define-area.js';
import type { EventsService } from '../events/events-service.js';
import type { CorrectionsReader } from '../kit/override-fields.js';
import type { PortsService } from '../ports/ports-service.js';
import { createEventsApiService } from './events-api-service.js';
import { createEventsListRepo } from './events-list-repo.js';
import { eventsApiRoutes } from './routes.js';

export const eventsApiArea = defineArea({
  name: 'events-api',
  routes: eventsApiRoutes,
  build: ({
    store,
    events,
    fleet,
    ports,
    cursors,
    clock,
    overrides,
  }: Pick<AreaBase, 'store' | 'fleet' | 'cursors' | 'clock'> & { events: EventsService; ports: PortsService; overrides: CorrectionsReader }) => ({
    services: { eventsApi: createEventsApiService({ events, repo: createEventsListRepo(store.db), fleet, ports, cursors, clock, corrections: (vslId) => overrides.corrections('vessel', vslId) }) },
  }),
});
