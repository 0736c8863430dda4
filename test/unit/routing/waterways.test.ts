import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readPortTableFile } from '../../../src/features/ports/port-table-file.js';
import { landIndex } from '../../../src/geo/land.js';
import { lineOverLand } from '../../../src/routing/line-land.js';
import { shippedSeaNetwork } from '../../../src/routing/network-file.js';
import { WATERWAYS, waterwayAt } from '../../../src/routing/waterways.js';

// An independent reference: distance in km from a point to a polyline, on the local equirectangular plane
// at the point's latitude, by brute force over every waterway.
const KM_PER_DEG = 111.195;
function kmToPath(lon: number, lat: number, path: readonly (readonly [number, number])[]): number {
  const k = Math.cos((lat * Math.PI) / 180);
  let best = Infinity;
  for (let i = 0; i + 1 < path.length; i++) {
    const [ax, ay] = path[i]!;
    const [bx, by] = path[i + 1]!;
    for (let s = 0; s <= 200; s++) {
      const x = ax + ((bx - ax) * s) / 200;
      const y = ay + ((by - ay) * s) / 200;
      best = Math.min(best, Math.hypot((lon - x) * k, lat - y) * KM_PER_DEG);
    }
  }
  return best;
}
const insideSomeWaterway = (lon: number, lat: number) =>
  WATERWAYS.some((w) => (w.box !== undefined ? lon >= w.box[0] && lon <= w.box[2] && lat >= w.box[1] && lat <= w.box[3] : kmToPath(lon, lat, w.path!) <= w.halfWidthKm! - 0.05));
const outsideEveryWaterway = (lon: number, lat: number) =>
  WATERWAYS.every((w) => (w.box !== undefined ? lon < w.box[0] || lon > w.box[2] || lat < w.box[1] || lat > w.box[3] : kmToPath(lon, lat, w.path!) >= w.halfWidthKm! + 0.05));

test('waterwayAt: points around every corridor are inside exactly when the brute-force distance says so', () => {
  let seed = 7;
  const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  let inside = 0;
  let outside = 0;
  for (const w of WATERWAYS) {
    const path = w.path;
    const halfWidthKm = w.halfWidthKm;
    if (path === undefined || halfWidthKm === undefined) continue;
    for (let n = 0; n < 60; n++) {
      // a point of the path, then up to 2 half-widths off it in any direction
      const i = Math.floor(random() * (path.length - 1));
      const f = random();
      const [ax, ay]: readonly [number, number] = path[i]!;
      const [bx, by]: readonly [number, number] = path[i + 1]!;
      const offKm = 2 * halfWidthKm * random();
      const bearing = 2 * Math.PI * random();
      const lat: number = ay + (by - ay) * f + (offKm / KM_PER_DEG) * Math.cos(bearing);
      const lon: number = ax + (bx - ax) * f + (offKm / KM_PER_DEG / Math.cos((lat * Math.PI) / 180)) * Math.sin(bearing);
      if (insideSomeWaterway(lon, lat)) {
        assert.notEqual(waterwayAt(lon, lat), null, `${lon},${lat} lies in a waterway`);
        inside++;
      } else if (outsideEveryWaterway(lon, lat)) {
        assert.equal(waterwayAt(lon, lat), null, `${lon},${lat} lies in no waterway`);
        outside++;
      }
    }
  }
  assert.ok(inside > 200 && outside > 200, `${inside} inside, ${outside} outside`);
});

test('waterwayAt: the corners and edges of every box are inside (the 1° cells read hold the boxes whole, bounds included)', () => {
  for (const w of WATERWAYS) {
    if (w.box === undefined) continue;
    const [west, south, east, north] = w.box;
    for (const [lon, lat] of [
      [west, south],
      [east, north],
      [west, north],
      [east, south],
      [(west + east) / 2, north],
      [east, (south + north) / 2],
    ] as const) {
      assert.notEqual(waterwayAt(lon, lat), null, `${w.name}: ${lon},${lat}`);
    }
    assert.equal(waterwayAt(east + 1e-9, north + 1e-9) === w, false, `${w.name}: just outside its north-east corner`);
  }
});

test('decision 136: New York is declared by its channels only; Bay Ridge, Queens and the Bronx beside them are not water, and the Rotterdam–New York route crosses none of them', () => {
  const world = landIndex();
  // land the old 4 km corridor exempted: Bay Ridge 1.7 km east of the Narrows channel, Queens and the Bronx 2–4 km off the East River
  for (const [name, lon, lat] of [
    ['Bay Ridge', -74.025, 40.63],
    ['Queens (Long Island City)', -73.935, 40.745],
    ['the Bronx (Hunts Point)', -73.88, 40.815],
  ] as const) {
    assert.ok(world.isLand(lon, lat), `${name} is land on the mask`);
    assert.equal(waterwayAt(lon, lat), null, `${name} is not a waterway`);
  }
  // the East River where the 1:10m mask draws it as land (by the Brooklyn Bridge) stays water
  assert.ok(world.isLand(-73.997, 40.707));
  assert.equal(waterwayAt(-73.997, 40.707)?.name, 'East River');
  const ports = readPortTableFile().ports;
  const at = (locode: string) => ports.find((p) => p.locode === locode)!;
  const route = shippedSeaNetwork().engine.route([at('NLRTM'), at('USNYC')]);
  const crossed = lineOverLand(world, route.coordinates, (lon, lat) => waterwayAt(lon, lat) !== null);
  assert.ok(crossed.longestInnerRunKm <= 0.5, `${crossed.longestInnerRunKm} km of land at ${crossed.innerRunAt}`);
});
