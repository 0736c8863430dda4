import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PortPointIndex, type PortPoint } from '../../../src/events/port-calls.js';
import { distanceM } from '../../../src/geo/distance.js';
import { Rng } from '../../../src/sim/random.js';

/** Every point within the radius, nearest per port, by looking at all of them. */
function bruteForce(points: readonly PortPoint[], lat: number, lon: number, radiusM: number): Map<number, number> {
  const out = new Map<number, number>();
  for (const point of points) {
    const d = distanceM(lat, lon, point.lat, point.lon);
    if (d <= radiusM && d < (out.get(point.portId) ?? Infinity)) out.set(point.portId, d);
  }
  return out;
}

test('port point index: the same ports and distances as a look at every point, across block edges, the antimeridian and high latitudes', () => {
  const rng = new Rng(151);
  // points clustered on 1° block edges, on both sides of the antimeridian and far north, where a cell is narrow
  const centres = [
    [0, 0],
    [1, 1],
    [-1, -1],
    [10, 179.99],
    [10, -179.99],
    [70, 20],
    [-45, 3],
    [51.9, 4.1],
  ] as const;
  const points: PortPoint[] = [];
  centres.forEach(([lat, lon], i) => {
    for (let k = 0; k < 6; k++) {
      const pointLon = lon + (rng.next() - 0.5) * 0.1;
      points.push({ portId: i * 10 + (k % 3), lat: lat + (rng.next() - 0.5) * 0.1, lon: pointLon > 180 ? pointLon - 360 : pointLon < -180 ? pointLon + 360 : pointLon });
    }
  });
  const index = new PortPointIndex(points);
  let nonEmpty = 0;
  for (let i = 0; i < 4000; i++) {
    const [lat, lon] = centres[i % centres.length]!;
    const queryLat = lat + (rng.next() - 0.5) * 0.8;
    const rawLon = lon + (rng.next() - 0.5) * 0.8;
    const queryLon = rawLon > 180 ? rawLon - 360 : rawLon < -180 ? rawLon + 360 : rawLon;
    for (const radiusM of [3_000, 4_000, 30_000]) {
      const expected = bruteForce(points, queryLat, queryLon, radiusM);
      if (expected.size > 0) nonEmpty++;
      assert.deepEqual(index.portsWithin(queryLat, queryLon, radiusM), expected, `${queryLat},${queryLon} within ${radiusM} m`);
    }
  }
  // open water far from every point: nothing
  assert.equal(index.portsWithin(-30, -120, 30_000).size, 0);
  assert.ok(nonEmpty > 1000, `the queries reached points (${nonEmpty} non-empty answers)`);
});
