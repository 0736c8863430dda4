import { test } from 'node:test';
import assert from 'node:assert/strict';
import { distanceNm, interpolate } from '../../../src/geo/distance.js';
import { landIndex } from '../../../src/geo/land.js';
import { inWaterway } from '../../../src/routing/land-check.js';
import { waterwayAt } from '../../../src/routing/waterways.js';
import { lineOverLand } from '../../../src/routing/line-land.js';
import { shippedSeaNetwork } from '../../../src/routing/network-file.js';
import type { Snap } from '../../../src/routing/snap.js';

// Issue 28 / decision 141: the land audit's rule (a run of land over 0.5 km, sampled every 100 m on Natural
// Earth 1:10m outside the declared waterways) on routes from Calcutta and from coastal points in bays.
const land = landIndex();
const { engine } = shippedSeaNetwork();
const LIMIT_KM = 0.5;
const innerLandRunKm = (coordinates: readonly (readonly [number, number])[]) => lineOverLand(land, coordinates, inWaterway).longestInnerRunKm;

/** A join's connector as drawn: the place, the water path's corners, the point where it meets the network. */
function connectorPath(place: { lat: number; lon: number }, join: Snap): [number, number][] {
  return [[place.lon, place.lat], ...join.waterPath!.map(([x, y]) => [x, y] as [number, number]), [join.snappedLon, join.snappedLat]];
}

/** A path's length (nm) summed here, leg by leg, apart from the routing's own helper. */
function summedNm(path: readonly (readonly [number, number])[]): number {
  let nm = 0;
  for (let k = 1; k < path.length; k++) nm += distanceNm(path[k - 1]![1], path[k - 1]![0], path[k]![1], path[k]![0]);
  return nm;
}

test('Calcutta is routed down the Hooghly, not over the Sundarbans', () => {
  const calcutta = { lat: 22.55, lon: 88.33333 };
  const singapore = { lat: 1.26, lon: 103.84 };
  const route = engine.route([calcutta, singapore]);
  assert.ok(innerLandRunKm(route.coordinates) <= LIMIT_KM, `a run of ${innerLandRunKm(route.coordinates).toFixed(1)} km of land`);
  assert.ok(route.legs[0]!.from.connectorNm < 5, `joined near the port (${route.legs[0]!.from.connectorNm.toFixed(1)} nm)`);
});

// coastal points of the land audit (seed 28) whose every straight join crossed 7–20 km of land
const bayPoints = [
  { name: 'Gulf of Kutch', lat: 22.813, lon: 69.823 },
  { name: 'Bahrain, Gulf of Salwa side', lat: 25.839, lon: 50.141 },
  { name: 'Labrador', lat: 58.003, lon: -63.244 },
  { name: 'Norwegian fjord', lat: 60.504, lon: 7.028 },
];

for (const place of bayPoints) {
  test(`a coastal point with no straight join at sea is joined over water: ${place.name}`, () => {
    const join = engine.joins(place)[0]!;
    assert.ok(join.waterPath !== undefined, 'a water path');
    const connector = connectorPath(place, join);
    assert.ok(innerLandRunKm(connector) <= LIMIT_KM, `connector crosses ${innerLandRunKm(connector).toFixed(1)} km of land`);
    assert.ok(Math.abs(join.connectorNm - summedNm(connector)) < 1e-6, 'the connector length is the path length');
    const route = engine.route([place, { lat: join.snappedLat, lon: join.snappedLon }]);
    assert.ok(innerLandRunKm(route.coordinates) <= LIMIT_KM, `route crosses ${innerLandRunKm(route.coordinates).toFixed(1)} km of land`);
  });
}

test('a place with a straight join at sea keeps its straight connector', () => {
  const offRotterdam = { lat: 52.05, lon: 3.6 };
  const join = engine.joins(offRotterdam)[0]!;
  assert.equal(join.waterPath, undefined);
  assert.ok(Math.abs(join.connectorNm - distanceNm(offRotterdam.lat, offRotterdam.lon, join.snappedLat, join.snappedLon)) < 1e-9);
});

/**
 * The longest run of land (km) on a path of [lon, lat] points, sampled every 100 m straight from the land index
 * (outside the declared waterways): the check of the tests below, written apart from the routing's own.
 */
function longestLandRunKm(points: readonly (readonly [number, number])[]): number {
  let longest = 0;
  let run = 0;
  for (let k = 1; k < points.length; k++) {
    const [aLon, aLat] = points[k - 1]!;
    const [bLon, bLat] = points[k]!;
    const n = Math.max(1, Math.ceil(distanceNm(aLat, aLon, bLat, bLon) * 1.852 * 10));
    for (let i = k === 1 ? 0 : 1; i <= n; i++) {
      const p = interpolate(aLat, aLon, bLat, bLon, i / n);
      const lon = p.lon > 180 ? p.lon - 360 : p.lon < -180 ? p.lon + 360 : p.lon;
      run = land.isLand(lon, p.lat) && waterwayAt(lon, p.lat) === null ? run + 0.1 : 0;
      longest = Math.max(longest, run);
    }
  }
  return longest;
}

// the coastal points of the land audit (seed 28, generator fixed) whose water paths lie beyond the 30 nm of the
// nearest edges or behind a strip of land narrower than the grid's cell (decision 145); the longest connector
// allowed each is about the water path drawn by hand on the 1:10m coast, with a margin
const farWaterPoints = [
  { name: 'Mackenzie delta', lat: 68.952, lon: -133.184, maxConnectorNm: 160 },
  { name: 'Seno Otway', lat: -52.973, lon: -71.255, maxConnectorNm: 80 },
  { name: 'Baffin Island', lat: 62.761, lon: -67.006, maxConnectorNm: 110 },
  { name: 'Banana River', lat: 28.565, lon: -80.603, maxConnectorNm: 70 },
  { name: 'Bristol Bay', lat: 58.788, lon: -161.69, maxConnectorNm: 40 },
];

for (const place of farWaterPoints) {
  test(`a coastal point whose water path lies beyond the nearest edges is joined over water: ${place.name}`, () => {
    const join = engine.joins(place)[0]!;
    assert.ok(join.waterPath !== undefined, 'a water path');
    const connector = connectorPath(place, join);
    assert.ok(longestLandRunKm(connector) <= LIMIT_KM, `connector crosses ${longestLandRunKm(connector).toFixed(1)} km of land`);
    assert.ok(Math.abs(join.connectorNm - summedNm(connector)) < 1e-6, 'the connector length is the path length');
    assert.ok(join.connectorNm <= place.maxConnectorNm, `connector ${join.connectorNm.toFixed(1)} nm`);
    assert.equal(join.overLandKm, 0);
    assert.equal(join.lat, place.lat);
    assert.equal(join.lon, place.lon);
    const route = engine.route([place, { lat: join.snappedLat, lon: join.snappedLon }]);
    assert.deepEqual(route.coordinates[0], [place.lon, place.lat]);
    assert.ok(longestLandRunKm(route.coordinates) <= LIMIT_KM, `route crosses ${longestLandRunKm(route.coordinates).toFixed(1)} km of land`);
  });
}
