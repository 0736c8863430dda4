import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildLandIndex } from '../../../src/geo/land.js';
import { createRoutingEngine } from '../../../src/routing/engine.js';
import { buildSeaGraph } from '../../../src/routing/graph.js';
import { joinLandRunKm, landRunKm } from '../../../src/routing/land-check.js';
import { addPortSpurs } from '../../../src/routing/port-spurs.js';

// A square island of 1° in the southern Indian Ocean; the network runs west of it, a port lies on its east side.
const land = buildLandIndex([
  [
    [100, -30],
    [101, -30],
    [101, -29],
    [100, -29],
    [100, -30],
  ],
]);
const network = [{ pass: null, coordinates: [[99.5, -31] as const, [99.5, -28] as const] }];
const port = { name: 'East Harbour', lat: -29.5, lon: 101.05 };
const clearPort = { name: 'West Harbour', lat: -29.5, lon: 99.6 };

test('decision 136: a port whose straight joins cross the island gets a spur over water; a port in sight of the network does not', () => {
  const before = createRoutingEngine(buildSeaGraph(network), { land: () => land, pull: false });
  assert.ok(joinLandRunKm(land, port, before.joins(port)[0]!) > 90, 'the straight join crosses the island');
  const { lines, report } = addPortSpurs(network, [port, clearPort], land);
  assert.equal(report.placesChecked, 2);
  assert.deepEqual(
    report.spurs.map((s) => s.name),
    ['East Harbour'],
  );
  assert.deepEqual(report.unjoined, []);
  const spur = lines.at(-1)!.coordinates;
  assert.deepEqual(spur[0], [101.05, -29.5], 'from the port (at sea)');
  assert.equal(spur.at(-1)![0], 99.5, 'to a point of the network line');
  for (let i = 1; i < spur.length; i++) assert.ok(landRunKm(land, spur[i - 1]!, spur[i]!).km <= 0.5, `spur segment ${i} over water`);
  // the network line is split where the spur ends, so the graph is one component
  assert.ok(lines[0]!.coordinates.some((p) => p[0] === spur.at(-1)![0] && p[1] === spur.at(-1)![1]));
  const after = createRoutingEngine(buildSeaGraph(lines), { land: () => land, pull: false });
  assert.ok(joinLandRunKm(land, port, after.joins(port)[0]!) <= 0.5, 'joined at sea now');
  const route = after.route([port, { lat: -30.9, lon: 99.5 }]);
  assert.ok(route.distanceNm > 60, `round the island: ${route.distanceNm} nm`);
});
