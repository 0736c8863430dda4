/**
 * Approach waypoints (and fairways) for the simulator's ports where the built-in ones let a ship cross
 * land on Natural Earth 1:10m (issue 17, decision 052): from the anchorage out to open water, where the
 * port joins the sea network. They replace the port's own `approach` (and `channel`, when given).
 * Checked by test/unit/sim/land-check.test.ts: every port's way from its berth to the network is at sea.
 */
import type { LatLon } from '../geo/distance.js';

export const SIM_APPROACHES: Readonly<Record<string, { approach?: LatLon[]; channel?: LatLon[] }>> = {};
