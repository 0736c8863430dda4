import assert from 'node:assert/strict';
import test from 'node:test';
import { cellKey, cellOfPoint, contiguousGroups, networkCells } from '../../../src/features/routes/readiness/network-cells.js';
import { buildSeaGraph } from '../../../src/routing/graph.js';

test('network cells: every 1° cell an edge crosses, across the antimeridian too', () => {
  const graph = buildSeaGraph([
    // along the equator band from 10.5°E to 12.5°E: three cells
    {
      pass: null,
      coordinates: [
        [10.5, 0.5],
        [12.5, 0.5],
      ],
    },
    // a diagonal through the corner at (21°E, 2°N): the two cells it passes, not the two it only touches
    {
      pass: null,
      coordinates: [
        [20.2, 1.2],
        [21.8, 2.8],
      ],
    },
    // across ±180°: 179.5°E to 179.5°W through the meridian (stored as 180)
    {
      pass: null,
      coordinates: [
        [179.5, -5.5],
        [-180, -5.5],
        [-179.5, -5.5],
      ],
    },
  ]);
  const cells = networkCells(graph);
  const expected = new Set([
    cellOfPoint(0.5, 10.5),
    cellOfPoint(0.5, 11.5),
    cellOfPoint(0.5, 12.5),
    cellOfPoint(1.2, 20.2),
    cellOfPoint(1.9, 20.9),
    cellOfPoint(2.1, 21.1),
    cellOfPoint(2.8, 21.8),
    cellOfPoint(-5.5, 179.5),
    cellOfPoint(-5.5, -179.5),
  ]);
  assert.deepEqual(
    [...cells].sort((a, b) => a - b),
    [...expected].sort((a, b) => a - b),
  );
  assert.equal(cellOfPoint(-5.5, 180), cellOfPoint(-5.5, -180), 'longitude 180 is the cell of -180');
  assert.equal(cellOfPoint(90, 0), cellOfPoint(89.5, 0), 'the pole row is the last row');
});

test('contiguous groups: 8 neighbours, joined across the antimeridian, the pole rows not wrapped', () => {
  const groups = contiguousGroups(
    new Set([
      cellKey(90, 190),
      cellKey(90, 191),
      cellKey(91, 192), // diagonal neighbour: same group
      cellKey(90, 359),
      cellKey(91, 0), // across ±180°: same group
      cellKey(10, 10), // alone
      cellKey(10, 12), // one column apart: separate
    ]),
  );
  assert.deepEqual(groups.map((g) => g.length).sort(), [1, 1, 2, 3]);
  assert.ok(groups.some((g) => g.includes(cellKey(90, 359)) && g.includes(cellKey(91, 0))));
  assert.deepEqual(contiguousGroups(new Set()), []);
});
