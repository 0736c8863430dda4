import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bearingDeg, destinationPoint, distanceM, distanceNm, distanceToSegmentM, greatCircle, interpolate } from '../../../src/geo/distance.js';
import { Polyline } from '../../../src/geo/polyline.js';

test('great-circle distance, bearing, destination and interpolation', () => {
  // One degree of latitude ≈ 111.2 km; Rotterdam to Singapore ≈ 5,703 nm as the crow flies.
  assert.ok(Math.abs(distanceM(0, 0, 1, 0) - 111_195) < 10);
  assert.ok(Math.abs(distanceNm(51.95, 4.05, 1.26, 103.8) - 5703) < 5);
  assert.equal(Math.round(bearingDeg(0, 0, 0, 1)), 90);
  assert.equal(Math.round(bearingDeg(0, 0, -1, 0)), 180);
  const p = destinationPoint(10, 20, 45, 100_000);
  assert.ok(Math.abs(distanceM(10, 20, p.lat, p.lon) - 100_000) < 1);
  // Across the antimeridian the midpoint stays on the short side.
  const mid = interpolate(0, 179, 0, -179, 0.5);
  assert.ok(Math.abs(Math.abs(mid.lon) - 180) < 1e-6 && Math.abs(mid.lat) < 1e-9);
  // the prepared great circle gives the same points, into a reused object
  const quarterOfEquator = greatCircle(0, 0, 0, 90);
  const out = { lat: NaN, lon: NaN };
  quarterOfEquator.pointAt(0.5, out);
  assert.ok(Math.abs(out.lon - 45) < 1e-9 && Math.abs(out.lat) < 1e-9);
  const toPole = greatCircle(10, 20, 60, -30);
  for (const f of [0, 0.3, 1]) {
    toPole.pointAt(f, out);
    assert.deepEqual(out, interpolate(10, 20, 60, -30, f));
  }
  toPole.pointAt(1, out);
  assert.ok(Math.abs(out.lat - 60) < 1e-9 && Math.abs(out.lon + 30) < 1e-9);
  assert.ok(Math.abs(distanceToSegmentM({ lat: 0.1, lon: 0.5 }, { lat: 0, lon: 0 }, { lat: 0, lon: 1 }) - 11_120) < 20);
  assert.ok(Math.abs(distanceToSegmentM({ lat: 0, lon: 2 }, { lat: 0, lon: 0 }, { lat: 0, lon: 1 }) - 111_195) < 20);
});

test('polyline: position and course along the line, slices', () => {
  const line = new Polyline([
    { lat: 0, lon: 0 },
    { lat: 0, lon: 1 },
    { lat: 1, lon: 1 },
  ]);
  assert.ok(Math.abs(line.lengthM - 2 * 111_195) < 50);
  const quarter = line.at(line.lengthM / 4);
  assert.ok(Math.abs(quarter.lon - 0.5) < 1e-3 && Math.round(quarter.bearing) === 90);
  const third = line.at(line.lengthM * 0.75);
  assert.ok(Math.abs(third.lat - 0.5) < 1e-3 && Math.round(third.bearing) === 0);
  assert.ok(Math.abs(line.slice(1000, 3000).lengthM - 2000) < 1);
});
