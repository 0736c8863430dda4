import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import test from 'node:test';
import { parseAnchorages, parseUnLocode, parseWorldPortIndex } from '../../../src/features/ports/port-sources.js';
import { createPortSearchIndex } from '../../../src/features/ports/port-search.js';
import { editDistance } from '../../../src/platform/edit-distance.js';
import { buildPortTable, type PortRecord } from '../../../src/features/ports/port-table.js';
import { distanceM } from '../../../src/geo/distance.js';
import { sharedDataPath } from '../../helpers/shared-data.js';

const port = (port_id: number, name: string, extra: Partial<PortRecord> = {}): PortRecord => ({
  port_id,
  name,
  alternate_names: [],
  country: 'NL',
  locode: null,
  lat: 52,
  lon: 4,
  harbor_size: null,
  harbor_type: null,
  sources: ['wpi'],
  flags: [],
  anchorages: [],
  ...extra,
});

const PORTS = [
  port(31140, 'Rotterdam', { locode: 'NLRTM', harbor_size: 'large', lat: 51.9, lon: 4.48 }),
  port(31150, 'Rotterdam Botlek', { harbor_size: 'small', lat: 51.88, lon: 4.3 }),
  port(31160, 'Dordrecht', { lat: 51.81, lon: 4.66 }),
  port(48030, 'North Ain Sukhna Port', { country: 'EG', locode: 'EGAIS', alternate_names: ['Sokhna Port', 'Ain Sukhna'], lat: 29.65, lon: 32.37 }),
  port(12345, 'São Sebastião', { country: 'BR', lat: -23.8, lon: -45.4 }),
  port(100000001, 'Rotterdam', { country: 'US', locode: 'USRTD', sources: ['unlocode'], lat: 42.8, lon: -73.9 }),
];

test('edit distance counts an adjacent transposition as one and stops above the budget', () => {
  assert.equal(editDistance('rotterdam', 'rotterdm', 2), 1);
  assert.equal(editDistance('rotterdam', 'rottedram', 2), 1);
  assert.equal(editDistance('hamburg', 'homburx', 1), 2, 'over the budget: budget + 1');
  assert.equal(editDistance('abc', 'abc', 0), 0);
});

test('names: exact before prefix before typo; diacritics and case ignored; alternate names and LOCODEs found', () => {
  const index = createPortSearchIndex(PORTS);
  const names = (q: string) => index.search({ q }).map((h) => [h.port.port_id, h.match]);
  assert.deepEqual(
    names('rotterdam'),
    [
      [31140, 'exact'],
      [100000001, 'exact'],
      [31150, 'prefix'],
    ],
    'the large WPI port first among equal matches',
  );
  assert.deepEqual(names('Rotterdm').slice(0, 2), [
    [31140, 'typo'],
    [100000001, 'typo'],
  ]);
  assert.deepEqual(names('SAO SEBASTIAO'), [[12345, 'exact']]);
  assert.deepEqual(names('ain sukhna'), [[48030, 'exact']]);
  assert.equal(index.search({ q: 'ain sukhna' })[0]!.matched_name, 'Ain Sukhna');
  assert.deepEqual(names('NL RTM'), [[31140, 'locode']]);
  assert.deepEqual(names('xyzzy'), []);
  assert.deepEqual(names('Dordrecht'), [[31160, 'exact']]);
});

test('filters: country, locode and near with a radius (nearest first), alone or with a name', () => {
  const index = createPortSearchIndex(PORTS);
  assert.deepEqual(
    index.search({ q: 'rotterdam', country: 'us' }).map((h) => h.port.port_id),
    [100000001],
  );
  assert.deepEqual(
    index.search({ locode: 'EGAIS' }).map((h) => h.port.port_id),
    [48030],
  );
  const near = index.search({ near: { lat: 51.9, lon: 4.45, radiusKm: 30 } });
  assert.deepEqual(
    near.map((h) => h.port.port_id),
    [31140, 31150, 31160],
  );
  assert.equal(near[0]!.distance_km, 2.1);
  assert.deepEqual(
    index.search({ q: 'rotterdam', near: { lat: 51.9, lon: 4.45, radiusKm: 30 } }).map((h) => h.port.port_id),
    [31140, 31150],
  );
  assert.deepEqual(
    index.search({ country: 'BR' }).map((h) => h.port.port_id),
    [12345],
  );
});

test('on the full table: typos, alternate names and the Houston area', { skip: sharedDataPath('ports/UpdatedPub150.csv').skip }, () => {
  const read = (relative: string) => readFileSync(sharedDataPath(relative).path, 'utf8');
  const { ports } = buildPortTable({
    wpi: parseWorldPortIndex(read('ports/UpdatedPub150.csv')).rows,
    unlocode: parseUnLocode(read('ports/unlocode-geoapify-combined.csv')).rows,
    anchorages: parseAnchorages(read('anchorages/anchorage_overrides.csv')).rows,
  });
  const index = createPortSearchIndex(ports);
  const first = (q: string) => index.search({ q })[0]?.port;
  assert.equal(first('Rotterdm')?.locode, 'NLRTM');
  assert.equal(first('rotterdam')?.port_id, 31140);
  assert.equal(first('Singapore')?.locode, 'SGSIN');
  assert.equal(first('hamburg')?.locode, 'DEHAM');
  assert.equal(first('Hambrug')?.locode, 'DEHAM');
  assert.equal(first('Tsingtao')?.name, 'Qingdao Gang', 'an alternate name');
  assert.equal(first('USHOU')?.name, 'Houston');
  const houston = index.search({ near: { lat: 29.5, lon: -94.9, radiusKm: 50 } }).map((h) => h.port.locode);
  for (const code of ['USHOU', 'USGLS', 'USTXT']) assert.ok(houston.includes(code), `${code} within 50 km of Galveston Bay`);
});

/** Deterministic pseudo-random numbers (mulberry32), so a failing case can be replayed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

test('near without text (the spatial grid) answers exactly what a walk over every port answers, at the poles and across the antimeridian', () => {
  const rnd = random(20261124);
  const sizes = ['large', 'medium', 'small', 'very_small', null] as const;
  const ports: PortRecord[] = [];
  for (let i = 0; i < 4000; i++) {
    // a third of the ports crowd the antimeridian and the poles, and some sit exactly on ±180 and ±90
    const kind = i % 6;
    const lat = kind === 0 ? 85 + rnd() * 5 : kind === 1 ? -90 + rnd() * 5 : i % 97 === 0 ? (i % 2 ? 90 : -90) : Math.asin(2 * rnd() - 1) / (Math.PI / 180);
    const lon = kind === 2 ? 178 + rnd() * 2 : kind === 3 ? -180 + rnd() * 2 : i % 89 === 0 ? (i % 2 ? 180 : -180) : -180 + rnd() * 360;
    ports.push(port(i + 1, `P${i}`, { lat: Math.round(lat * 1e5) / 1e5, lon: Math.round(lon * 1e5) / 1e5, harbor_size: sizes[i % 5]!, sources: i % 3 ? ['wpi'] : ['wpi', 'unlocode'] }));
  }
  const index = createPortSearchIndex(ports);
  const brute = (lat: number, lon: number, radiusKm: number) =>
    ports
      .map((p) => ({ p, km: distanceM(lat, lon, p.lat, p.lon) / 1000 }))
      .filter(({ km }) => km <= radiusKm)
      .map(({ p, km }) => ({ id: p.port_id, d: Math.round(km * 10) / 10, size: p.harbor_size, n: p.sources.length }))
      .sort((a, b) => a.d - b.d || (SIZE[b.size ?? ''] ?? 0) - (SIZE[a.size ?? ''] ?? 0) || b.n - a.n || a.id - b.id)
      .map((h) => h.id);
  const SIZE: Record<string, number> = { large: 4, medium: 3, small: 2, very_small: 1 };
  let compared = 0;
  let nonEmpty = 0;
  for (let i = 0; i < 600; i++) {
    const kind = i % 5;
    const lat = kind === 0 ? 80 + rnd() * 10 : kind === 1 ? -90 + rnd() * 10 : kind === 4 && i % 2 ? (i % 4 === 1 ? 90 : -90) : -90 + rnd() * 180;
    const lon = kind === 2 ? 175 + rnd() * 5 : kind === 3 ? -180 + rnd() * 5 : kind === 4 && i % 3 === 0 ? 180 : -180 + rnd() * 360;
    const radiusKm = [0.5, 20, 50, 300, 1000, 2000][i % 6]!;
    const got = index.search({ near: { lat, lon, radiusKm } }).map((h) => h.port.port_id);
    assert.deepEqual(got, brute(lat, lon, radiusKm), `near ${lat},${lon} within ${radiusKm} km`);
    compared++;
    if (got.length) nonEmpty++;
  }
  assert.equal(compared, 600);
  assert.ok(nonEmpty > 300, `most queries find ports (${nonEmpty})`);
  // with a country as well, the grid's answer is still filtered by it
  assert.deepEqual(
    index.search({ near: { lat: 89, lon: 179, radiusKm: 500 }, country: 'NL' }).map((h) => h.port.port_id),
    brute(89, 179, 500),
  );
});
