import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildLandIndex, landIndex } from '../../../src/geo/land.js';

/** The reference: an even-odd ray test over every edge of every closed ring (first point repeated last), by brute force. */
function evenOddInside(rings: ReadonlyArray<ReadonlyArray<readonly [number, number]>>, x: number, y: number): boolean {
  let inside = false;
  for (const ring of rings) {
    for (let i = 0, j = ring.length - 2; i < ring.length - 1; j = i++) {
      const [xi, yi] = ring[i]!;
      const [xj, yj] = ring[j]!;
      if (yi > y !== yj > y && x < xj + ((y - yj) / (yi - yj)) * (xi - xj)) inside = !inside;
    }
  }
  return inside;
}

test('land index on a small shape: inside, outside, a hole, the edge rule and coast distances', () => {
  const square: Array<[number, number]> = [
    [0, 0],
    [10, 0],
    [10, 10],
    [0, 10],
    [0, 0],
  ];
  const hole: Array<[number, number]> = [
    [4, 4],
    [6, 4],
    [6, 6],
    [4, 6],
    [4, 4],
  ];
  const land = buildLandIndex([square, hole]);
  assert.equal(land.segments, 8);
  assert.equal(land.isLand(2, 2), true);
  assert.equal(land.isLand(5, 5), false, 'a hole is water');
  assert.equal(land.isLand(-1, 5), false);
  assert.equal(land.isLand(11, 5), false);
  assert.equal(land.isLand(2, 4), true, 'a ray through a vertex of the hole crosses it once: still land');
  // 1° of latitude on the IUGG sphere is 111.195 km; the nearest edge of (2, 2) is 2° away.
  assert.ok(Math.abs(land.coastDistanceKm(2, 2, 1000) - 2 * 111.195) < 0.5);
  assert.equal(land.coastDistanceKm(2, 2, 100), Infinity, 'beyond maxKm');
  assert.ok(land.signedCoastDistanceKm(5, 5, 500) < 0, 'in the hole: offshore');
  assert.ok(land.signedCoastDistanceKm(1, 5, 500) > 0);
});

test('Natural Earth 1:10m: known places on land and at sea, with coast distances', () => {
  const land = landIndex();
  assert.ok(land.segments > 400_000);
  const cases: Array<[string, number, number, boolean]> = [
    ['Paris', 2.35, 48.85, true],
    ['Madrid', -3.7, 40.4, true],
    ['central Australia', 134, -25, true],
    ['North Sea', 3, 55, false],
    ['mid-Atlantic', -30, 30, false],
    ['Caspian Sea', 50.5, 42, false],
    ['off Honolulu', -157.9, 21.2, false],
    ['Viti Levu (across the antimeridian lies Fiji)', 178.0, -17.8, true],
  ];
  for (const [name, lon, lat, expected] of cases) assert.equal(land.isLand(lon, lat), expected, name);
  const honolulu = land.coastDistanceKm(-157.9, 21.2, 100);
  assert.ok(honolulu > 3 && honolulu < 20, `off Honolulu ${honolulu} km from the coast`);
  assert.ok(land.signedCoastDistanceKm(2.35, 48.85, 500) > 100, 'Paris is well inland');
});

test('rings across the antimeridian (Eurasia through Chukotka, Wrangel Island): no band of latitude flips between land and sea', () => {
  const land = landIndex();
  const cases: Array<[string, number, number, boolean]> = [
    ['Norwegian Sea', 5, 66, false],
    ['Norwegian Sea, north', 2, 69, false],
    ['Vestfjorden', 14, 68.5, false],
    ['Barents Sea', 40, 71.5, false],
    ['Davis Strait', -57, 67, false],
    ['Lapland', 25, 67.5, true],
    ['Chukotka, west of 180°', 175, 67, true],
    ['Chukotka, east of 180°', -175, 66.5, true],
    ['Bering Strait', -169.5, 65.8, false],
    ['Wrangel Island', -179.5, 71.2, true],
    ['Chukchi Sea', -172, 70, false],
    ['Taveuni (Fiji, just east of 180°)', -179.97, -16.85, true],
    ['Vanua Levu', 179.3, -16.5, true],
    ['Ross Sea', -175, -75, false],
  ];
  for (const [name, lon, lat, expected] of cases) assert.equal(land.isLand(lon, lat), expected, name);
  // The segment joining 179.9° to −180° used to measure as spanning the globe.
  const offNorway = land.coastDistanceKm(5, 66, 1000);
  assert.ok(offNorway > 250 && offNorway < 350, `5° E 66° N is ${offNorway} km from the coast`);
});

test('a ring crossing the antimeridian is closed along 180°: inside on both sides, outside beyond', () => {
  // A box from 170° E to 170° W written as one ring with longitudes wrapping.
  const box: Array<[number, number]> = [
    [170, 10],
    [-170, 10],
    [-170, 20],
    [170, 20],
    [170, 10],
  ];
  const land = buildLandIndex([box]);
  assert.equal(land.isLand(175, 15), true);
  assert.equal(land.isLand(-175, 15), true);
  assert.equal(land.isLand(0, 15), false);
  assert.equal(land.isLand(-160, 15), false);
  assert.equal(land.isLand(160, 15), false);
  assert.equal(land.isLand(175, 25), false);
});

test('cells kept as all land or all sea answer as the ray test does: a dense grid over a slanted shape, asked twice', () => {
  // a triangle with slanted sides and a notch: cells wholly inside, wholly outside and crossed by the coast
  const shape: Array<[number, number]> = [
    [0.03, 0.01],
    [1.71, 0.26],
    [0.9, 0.93],
    [0.86, 0.51],
    [0.41, 1.37],
    [0.03, 0.01],
  ];
  const land = buildLandIndex([shape]);
  const evenOdd = (x: number, y: number) => evenOddInside([shape], x, y);
  let landPoints = 0;
  for (const round of [1, 2]) {
    for (let x = -0.2; x <= 1.9; x += 0.0123) {
      for (let y = -0.2; y <= 1.6; y += 0.0117) {
        assert.equal(land.isLand(x, y), evenOdd(x, y), `${x},${y} (round ${round})`);
        if (round === 1 && evenOdd(x, y)) landPoints++;
      }
    }
  }
  assert.ok(landPoints > 1000, String(landPoints));
  assert.equal(land.isLand(0.5, 0.25), true, 'a cell corner inside');
  assert.equal(land.isLand(-179.99, 0), false);
  assert.equal(land.isLand(180, 90), false, 'the last cell');
});

test('the ray walked cell by cell answers as an even-odd test over every ring: random star islands over 20° × 10°, asked in random order', () => {
  let seed = 42;
  const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const rings: Array<Array<[number, number]>> = [];
  for (let k = 0; k < 40; k++) {
    const cx = -10 + 20 * random();
    const cy = 30 + 10 * random();
    const arms = 5 + Math.floor(10 * random());
    const ring: Array<[number, number]> = [];
    for (let a = 0; a < arms; a++) {
      const angle = (2 * Math.PI * a) / arms;
      const r = 0.05 + 1.5 * random();
      ring.push([cx + r * Math.cos(angle), cy + r * Math.sin(angle)]);
    }
    ring.push(ring[0]!);
    rings.push(ring);
  }
  const land = buildLandIndex(rings);
  const evenOdd = (x: number, y: number) => evenOddInside(rings, x, y);
  let onLand = 0;
  for (let n = 0; n < 20_000; n++) {
    const x = -12 + 24 * random();
    const y = 28 + 14 * random();
    const expected = evenOdd(x, y);
    assert.equal(land.isLand(x, y), expected, `${x},${y}`);
    if (expected) onLand++;
  }
  assert.ok(onLand > 1000 && onLand < 19_000, `${onLand} of 20,000 on land`);
});
