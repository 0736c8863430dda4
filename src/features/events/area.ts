import { HOUR, SECOND } from '../../platform/clock.js';
import { createLeaseRepo } from '../../store/leases.js';
import type { AreaBase } from '../kit/area.js';
import { defineArea } from '../kit/define-area.js';
import type { PortsService } from '../ports/ports-service.js';
import { createEventRunner } from './event-runner.js';
import { createEventsRepo } from './events-repo.js';
import { writeTogetherIn } from './event-writes.js';
import { createEventsService } from './events-service.js';
import { createPortAreasRepo } from './port-areas-repo.js';
import { createPortAreasService } from './port-areas-service.js';

/**
 * The event store, its detector runner and the port areas it detects calls on (docs/decisions/120): a rebuild
 * or a correction of the areas reloads them in the runner at once.
 */
export const eventsArea = defineArea({
  name: 'events',
  routes: [],
  build: ({ config, store, clock, fleet, fleetReads, ports }: Pick<AreaBase, 'config' | 'store' | 'clock' | 'fleet' | 'fleetReads'> & { ports: PortsService }) => {
    const eventsRepo = createEventsRepo(store.db, ports);
    const portAreasRepo = createPortAreasRepo(store.db);
    const eventRunner = createEventRunner({
      repo: eventsRepo,
      together: writeTogetherIn(store),
      fleetReads,
      ports: () => ports.table(),
      areas: { version: () => portAreasRepo.version(), load: () => portAreas.load() },
      clock,
      owner: fleet.instanceId,
    });
    const portAreas = createPortAreasService({
      repo: portAreasRepo,
      ports: () => ports.table(),
      portById: (id) => ports.byId(id),
      clock,
      leases: createLeaseRepo(store.db),
      owner: fleet.instanceId,
      onChanged: () => eventRunner.areasChanged(),
    });
    const events = createEventsService({ repo: eventsRepo, runner: eventRunner, areas: portAreas, clock });
    return {
      services: { events },
      jobs: [
        // BOSUN_EVENT_DETECTION=false: this process never claims the detector's lease (another one detects)
        ...(config.eventDetection ? [{ name: 'event_detection', everyMs: 2 * SECOND, run: () => events.runner.follow(SECOND) }] : []),
        { name: 'port_areas_rebuild', everyMs: HOUR, run: () => events.areas.rebuildIfDue() },
      ],
    };
  },
});
