import type { AreaBase } from '../kit/area.js';
import { defineArea } from '../kit/define-area.js';
import type { EventsService } from '../events/events-service.js';
import type { CorrectionsReader } from '../kit/override-fields.js';
import { stsRoutes } from './routes.js';
import { createStsService } from './sts-service.js';

export const stsArea = defineArea({
  name: 'sts',
  routes: stsRoutes,
  build: ({ events, fleet, cursors, clock, overrides }: Pick<AreaBase, 'fleet' | 'cursors' | 'clock'> & { events: EventsService; overrides: CorrectionsReader }) => ({
    services: { sts: createStsService({ events, fleet, cursors, clock, corrections: (vslId) => overrides.corrections('vessel', vslId) }) },
  }),
});
