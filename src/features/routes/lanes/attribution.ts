import { PORT_TABLE_ATTRIBUTION } from '../../ports/port-table-file.js';
import { SEA_NETWORK_ATTRIBUTION } from '../../../routing/network-file.js';

/** What the lane figures are counted from: Bosun's own port calls and voyages. */
const VOYAGES_LINE = 'Voyages and port calls: Bosun, detected from the AIS positions it receives (simulated vessels counted apart).';

/**
 * The attribution lines of the lanes' GeoJSON collections (docs/decisions/091): the voyages, the port
 * table that places their ends, and for routed lines and cells the sea network the engine routes on.
 */
export const LANE_GEOJSON_ATTRIBUTION = {
  routed: [VOYAGES_LINE, ...PORT_TABLE_ATTRIBUTION, ...SEA_NETWORK_ATTRIBUTION],
  hubs: [VOYAGES_LINE, ...PORT_TABLE_ATTRIBUTION],
} as const;
