import { createLanesKit, type LanesDeps } from './lanes-kit.js';
import { createLaneViews } from './lanes-views.js';
import { createNetworkViews } from './network-views.js';
import { createPortViews } from './port-views.js';

/** Voyages and lanes from the voyages the event store keeps (docs/lanes.md, decisions 062, 063 and 123). */
export function createLanesService(deps: LanesDeps) {
  const kit = createLanesKit(deps);
  return { ...createLaneViews(kit), ...createNetworkViews(kit), ...createPortViews(kit) };
}
export type LanesService = ReturnType<typeof createLanesService>;
