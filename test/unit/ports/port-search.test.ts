import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import test from 'node:test';
import { parseAnchorages, parseUnLocode, parseWorldPortIndex } from '../../../src/features/ports/port-sources.js';
import { createPortSearchIndex, editDistance } from '../../../src/features/ports/port-search.js';
import { buildPortTable, type PortRecord } from '../../../src/features/ports/port-table.js';
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
