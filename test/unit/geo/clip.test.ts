import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clipRing, ringBox, type Ring } from '../../../src/geo/clip.js';

const box = { minLon: 0, minLat: 0, maxLon: 10, maxLat: 10 };
const area = (ring: Ring) => Math.abs(ring.slice(0, -1).reduce((sum, [x, y], i) => sum + x * ring[i + 1]![1] - ring[i + 1]![0] * y, 0) / 2);

test('clipRing keeps what lies inside the box, closed, and drops a ring outside it', () => {
  const inside: Ring = [
    [2, 2],
    [4, 2],
    [4, 4],
    [2, 2],
  ];
  assert.deepEqual(clipRing(inside, box), inside, 'a ring inside is unchanged');
  const across: Ring = [
    [-5, 5],
    [5, 5],
    [5, 15],
    [-5, 15],
    [-5, 5],
  ];
  const clipped = clipRing(across, box)!;
  assert.deepEqual(clipped[0], clipped[clipped.length - 1], 'closed');
  assert.equal(area(clipped), 25, 'the 5 × 5 corner inside the box');
  assert.deepEqual(ringBox(clipped), { minLon: 0, minLat: 5, maxLon: 5, maxLat: 10 });
  assert.equal(
    clipRing(
      [
        [20, 20],
        [30, 20],
        [30, 30],
        [20, 20],
      ],
      box,
    ),
    null,
  );
  // a U that leaves the box and comes back: one ring along the edge, the area inside exact
  const u: Ring = [
    [1, 1],
    [9, 1],
    [9, 20],
    [7, 20],
    [7, 3],
    [3, 3],
    [3, 20],
    [1, 20],
    [1, 1],
  ];
  assert.equal(area(clipRing(u, box)!), 8 * 2 + 2 * 7 * 2);
});
