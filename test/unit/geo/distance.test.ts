import { test } from 'node:test';
import assert from 'node:assert/strict';
import { distanceM, distanceNm, EARTH_RADIUS_M, METRES_PER_NM, pathLegsNm, pathLengthNm } from '../../../src/geo/distance.js';

test('distanceNm uses the IUGG mean radius: 3440.07 NM, one degree of a meridian 60.04 NM', () => {
  assert.ok(Math.abs(EARTH_RADIUS_M / METRES_PER_NM - 3440.0695) < 1e-4);
  assert.ok(Math.abs(distanceNm(0, 0, 1, 0) - 60.0405) < 1e-4);
  assert.ok(Math.abs(distanceNm(10, 20, 10, 20)) < 1e-12);
  assert.equal(distanceNm(51.95, 4.05, 1.26, 103.8), distanceM(51.95, 4.05, 1.26, 103.8) / METRES_PER_NM);
  assert.ok(Math.abs(distanceNm(0, 0, 0, 180) - Math.PI * 3440.0695) < 1e-3, 'half the equator');
});

test('pathLegsNm and pathLengthNm: a path of [lon, lat] points along the equator and up a meridian, one degree of arc per leg', () => {
  const degreeNm = (EARTH_RADIUS_M * Math.PI) / 180 / METRES_PER_NM;
  const path: [number, number][] = [
    [10, 0],
    [11, 0],
    [11, 1],
    [11, 3],
  ];
  const legs = pathLegsNm(path);
  assert.equal(legs.length, 3);
  assert.ok(Math.abs(legs[0]! - degreeNm) < 1e-9);
  assert.ok(Math.abs(legs[1]! - degreeNm) < 1e-9);
  assert.ok(Math.abs(legs[2]! - 2 * degreeNm) < 1e-9);
  assert.ok(Math.abs(pathLengthNm(path) - 4 * degreeNm) < 1e-9);
  assert.equal(pathLengthNm([[10, 0]]), 0);
});
