import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildLandIndex, landIndex } from '../../../src/geo/land.js';
import { buildSeaGraph } from '../../../src/routing/graph.js';
import { inlandKm, landRunKm, NETWORK_LAND_RUN_KM, repairNetworkLines, segmentLand, waterPath } from '../../../src/routing/land-check.js';
import { waterwayAt } from '../../../src/routing/waterways.js';

// A square island of 1° in the southern Indian Ocean (no declared waterway there).
const island: Array<[number, number]> = [
  [100, -30],
  [101, -30],
  [101, -29],
  [100, -29],
  [100, -30],
];
const land = buildLandIndex([island]);

test('inland distance: 0 at sea, the distance to the coast on land', () => {
  assert.equal(inlandKm(land, 99.5, -29.5), 0);
  const centre = inlandKm(land, 100.5, -29.5);
  // Half a degree of latitude is 55.6 km; of longitude at 29.5° S, 48.4 km: the nearest coast is east or west.
  assert.ok(Math.abs(centre - 48.4) < 0.5, `${centre}`);
  const crossing = segmentLand(land, [99.5, -29.5], [101.5, -29.5]);
  assert.ok(crossing.maxKm > 48 && crossing.inlandLengthKm > 90 && crossing.inlandLengthKm < 100, JSON.stringify(crossing));
  assert.equal(segmentLand(land, [99.5, -29.5], [99.5, -28.5]).maxKm, 0);
});

test('the network repair: an edge across the island follows the water round it, a node on land moves to the coast, the pass is kept', () => {
  const lines = [
    { pass: 'suez', coordinates: [[99.5, -29.5] as const, [101.5, -29.5] as const] },
    { pass: null, coordinates: [[100.02, -29.6] as const, [99.0, -29.6] as const] },
    { pass: null, coordinates: [[99.5, -29.5] as const, [99.5, -28.5] as const] },
  ];
  const { lines: repaired, report } = repairNetworkLines(lines, land);
  assert.equal(report.nodesChecked, 5, 'distinct nodes');
  assert.equal(report.nodesMoved.length, 1);
  assert.deepEqual(report.nodesMoved[0]!.from, [100.02, -29.6]);
  assert.ok(report.nodesMoved[0]!.to[0] < 100, 'moved west off the island');
  assert.equal(report.edgesRepaired.length, 1);
  assert.equal(report.edgesUnresolved.length, 0);
  const across = repaired[0]!;
  assert.equal(across.pass, 'suez');
  assert.ok(across.coordinates.length > 2, 'densified');
  assert.deepEqual(across.coordinates[0], [99.5, -29.5]);
  assert.deepEqual(across.coordinates.at(-1), [101.5, -29.5]);
  for (let i = 1; i < across.coordinates.length; i++) {
    assert.ok(segmentLand(land, across.coordinates[i - 1]!, across.coordinates[i]!).maxKm <= 0.5, `segment ${i} at sea`);
  }
  const { lengthKm, newLengthKm } = report.edgesRepaired[0]!;
  assert.ok(newLengthKm > lengthKm && newLengthKm < lengthKm + 120, `${lengthKm} → ${newLengthKm} km`);
  assert.deepEqual(repaired[2], lines[2], 'a clear line is unchanged');
  // The graph of the repaired lines is still connected and keeps the passage on every replacement segment.
  const graph = buildSeaGraph(repaired);
  assert.ok(graph.edgeCount >= 4);
  assert.ok(Array.from(graph.edgePassage).filter((p) => p === 1).length === across.coordinates.length - 1);
});

test('no water path inside a closed lake: the edge is kept and reported', () => {
  const ring: Array<[number, number]> = [
    [10, -40],
    [14, -40],
    [14, -36],
    [10, -36],
    [10, -40],
  ];
  const lake: Array<[number, number]> = [
    [11, -39],
    [13, -39],
    [13, -37],
    [11, -37],
    [11, -39],
  ];
  const shore = buildLandIndex([ring, lake]);
  assert.equal(waterPath(shore, [11.5, -38], [9.5, -38]), null, 'the lake has no way out within the search area');
  const { report } = repairNetworkLines([{ pass: null, coordinates: [[11.5, -38] as const, [9.5, -38] as const] }], shore);
  assert.equal(report.edgesUnresolved.length, 1);
});

test('declared waterways: the Suez, Kiel and Panama canals and the Houston Ship Channel are water, the desert beside them is not', () => {
  const world = landIndex();
  const cases: Array<[string, number, number, string | null]> = [
    ['Suez at Ismailia', 32.29, 30.59, 'Suez Canal'],
    ['Kiel Canal at Rendsburg', 9.68, 54.3, 'Kiel Canal'],
    ['Panama Canal, Gatun Lake', -79.85, 9.2, 'Panama Canal'],
    ['Houston Ship Channel', -95.1, 29.72, 'Houston Ship Channel'],
    ['Sinai desert', 33.2, 30.0, null],
    ['Paris', 2.35, 48.85, null],
  ];
  for (const [name, lon, lat, expected] of cases) {
    assert.equal(waterwayAt(lon, lat)?.name ?? null, expected, name);
    if (expected !== null) assert.equal(inlandKm(world, lon, lat), 0, `${name} is not inland`);
  }
  assert.ok(inlandKm(world, 33.2, 30.0) > 20, 'the Sinai is inland');
});

test('decision 136: an edge a few hundred metres inside a coast for a hundred kilometres is replaced, a node 0.2 km inland moves', () => {
  // the island's north coast is latitude 29° S; the edge runs 0.33–0.45 km south of it (inland) from sea to sea,
  // across the island's 97 km
  const west = [99.99, -29.003] as const;
  const east = [101.01, -29.003] as const;
  const along = { pass: null, coordinates: [west, east] };
  assert.ok(segmentLand(land, west, east).maxKm <= 0.5, 'never deeper than the old 0.5 km depth rule allowed');
  const run = landRunKm(land, west, east).km;
  assert.ok(run > 95 && run < 99, `but a run of land the island's width (97 km): ${run}`);
  const shallow = { pass: null, coordinates: [[100.5, -29.002] as const, [100.5, -28.5] as const] };
  assert.ok(inlandKm(land, 100.5, -29.002) > 0.15 && inlandKm(land, 100.5, -29.002) < 0.5);
  const { lines: repaired, report } = repairNetworkLines([along, shallow], land);
  assert.deepEqual(
    report.nodesMoved.map((n) => n.from),
    [[100.5, -29.002]],
  );
  assert.equal(inlandKm(land, ...report.nodesMoved[0]!.to), 0, 'moved to water');
  assert.deepEqual(
    report.edgesRepaired.map((e) => [e.from, e.to]),
    [
      [
        [99.99, -29.003],
        [101.01, -29.003],
      ],
    ],
  );
  const path = repaired[0]!.coordinates;
  assert.ok(path.length > 2);
  for (let i = 1; i < path.length; i++) assert.ok(landRunKm(land, path[i - 1]!, path[i]!).km <= 0.3, `segment ${i}: no run of land over 0.3 km`);
  assert.ok(NETWORK_LAND_RUN_KM === 0.5);
});
