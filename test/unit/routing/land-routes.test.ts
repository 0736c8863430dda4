import { test } from 'node:test';
import assert from 'node:assert/strict';
import { landIndex } from '../../../src/geo/land.js';
import { BUILTIN_PORTS } from '../../../src/geo/ports-builtin.js';
import { segmentLand } from '../../../src/routing/land-check.js';
import { shippedSeaNetwork } from '../../../src/routing/network-file.js';
import { shippedSeaLanes } from '../../../src/sim/lanes.js';
import { Rng, seedFromText } from '../../../src/sim/random.js';
import { SimWorld } from '../../../src/sim/world.js';

// Issue 17 / decision 052: engine routes never more than 1 km inland on Natural Earth 1:10m outside the
// declared waterways (src/routing/waterways.ts). The simulator's side: test/unit/sim/land-check.test.ts.
const land = landIndex();
const world = new SimWorld(shippedSeaLanes(), land);
const LIMIT_KM = 1;

test('routes from the engine for 1,000 random pairs of simulator ports (seeded) stay at sea outside declared waterways', () => {
  const { engine } = shippedSeaNetwork();
  const rng = new Rng(seedFromText('land-check'));
  // Each port enters the network where the simulator's ships do: its anchorage or last approach waypoint.
  const entry = world.ports.map((p) => p.seaward.points[Math.max(0, p.seaward.points.length - 3)]!);
  const segments = new Map<string, [[number, number], [number, number]]>();
  for (let i = 0; i < 1000; i++) {
    const a = rng.int(0, BUILTIN_PORTS.length - 1);
    let b = rng.int(0, BUILTIN_PORTS.length - 2);
    if (b >= a) b++;
    const route = engine.route([entry[a]!, entry[b]!]);
    const c = route.coordinates;
    for (let k = 1; k < c.length; k++) segments.set(`${c[k - 1]!.join(',')}|${c[k]!.join(',')}`, [c[k - 1]!, c[k]!]);
  }
  assert.ok(segments.size > 2000, `${segments.size} distinct segments`);
  const inland: string[] = [];
  for (const [key, [a, b]] of segments) {
    const r = segmentLand(land, a, b, 0.5, LIMIT_KM);
    if (r.maxKm > LIMIT_KM) inland.push(`${key}: ${r.maxKm.toFixed(1)} km at ${r.at!.map((x) => x.toFixed(3)).join(',')}`);
  }
  assert.deepEqual(inland, []);
});
