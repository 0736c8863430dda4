import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createCursorCodec } from '../../../src/http/cursor-codec.js';
import { AppError } from '../../../src/platform/errors.js';
import { compareKeys, decodeSearchCursor, encodeSearchCursor, matchRank, normalizeQuery, rankVessels, searchKey, type SearchKey } from '../../../src/features/vessels/vessel-search.js';

type Candidate = Parameters<typeof rankVessels>[0] extends Iterable<infer V> ? V : never;

const vessel = (n: number, fields: Partial<Candidate> = {}): Candidate => ({
  vslId: `vsl_${n.toString(16).padStart(16, '0')}`,
  name: null,
  callsign: null,
  imo: null,
  mmsi: 200_000_000 + n,
  shipType: null,
  flag: null,
  latest: null,
  ...fields,
});

test('normalizeQuery: upper case, trimmed, an IMO/MMSI prefix before digits dropped, blank is no query', () => {
  assert.equal(normalizeQuery(undefined), null);
  assert.equal(normalizeQuery('   '), null);
  assert.equal(normalizeQuery(' ocean pride '), 'OCEAN PRIDE');
  assert.equal(normalizeQuery('imo 9811000'), '9811000');
  assert.equal(normalizeQuery('MMSI:563033300'), '563033300');
  assert.equal(normalizeQuery('IMOGEN'), 'IMOGEN', 'a name starting with IMO keeps it');
});

test('matchRank: exact 0, prefix 1, name contains 2, no match null; the best field wins', () => {
  const v = vessel(1, { name: 'OCEAN PRIDE', callsign: '9V1234', imo: 9811000, mmsi: 563033300 });
  assert.equal(matchRank(v, null), 0);
  assert.equal(matchRank(v, 'OCEAN PRIDE'), 0);
  assert.equal(matchRank(v, 'OCEAN'), 1);
  assert.equal(matchRank(v, 'PRIDE'), 2);
  assert.equal(matchRank(v, '9V1234'), 0);
  assert.equal(matchRank(v, '9V'), 1);
  assert.equal(matchRank(v, '9811000'), 0);
  assert.equal(matchRank(v, '98110'), 1);
  assert.equal(matchRank(v, '563033300'), 0);
  assert.equal(matchRank(v, '1000'), null, 'digits match numbers by prefix only');
  assert.equal(matchRank(v, 'QUEEN'), null);
  assert.equal(matchRank(vessel(2), 'X'), null, 'no name, callsign or IMO');
});

test('compareKeys orders by rank, then name (unnamed last), then vsl_id', () => {
  const keys: SearchKey[] = [
    searchKey(vessel(3), 'OCEAN', 1),
    searchKey(vessel(2, { name: 'OCEAN B' }), 'OCEAN', 1),
    searchKey(vessel(1, { name: 'OCEAN B' }), 'OCEAN', 1),
    searchKey(vessel(4, { name: 'ZULU' }), 'OCEAN', 0),
  ];
  const sorted = [...keys].sort(compareKeys).map((k) => k[2]);
  assert.deepEqual(sorted, [keys[3]![2], keys[2]![2], keys[1]![2], keys[0]![2]]);
});

test('rankVessels pages strictly after the cursor key; more is set only when further hits exist', () => {
  const fleet = [vessel(1, { name: 'OCEAN A' }), vessel(2, { name: 'OCEAN B' }), vessel(3, { name: 'BLUE OCEAN' }), vessel(4, { name: 'RIVER' })];
  const first = rankVessels(fleet, { q: 'ocean' }, null, 2);
  assert.deepEqual(
    first.vessels.map((v) => v.name),
    ['OCEAN A', 'OCEAN B'],
  );
  assert.equal(first.more, true);
  const second = rankVessels(fleet, { q: 'ocean' }, first.lastKey, 2);
  assert.deepEqual(
    second.vessels.map((v) => v.name),
    ['BLUE OCEAN'],
  );
  assert.equal(second.more, false, 'exactly the last hit: no further page');
  const exact = rankVessels(fleet, { q: 'ocean' }, null, 3);
  assert.equal(exact.vessels.length, 3);
  assert.equal(exact.more, false, 'limit equal to the hit count');
});

test('rankVessels filters by category, flag (case-insensitive) and bbox on the latest position', () => {
  const fleet = [
    vessel(1, { name: 'A', flag: 'NL', shipType: 70, latest: { lat: 52, lon: 4 } as Candidate['latest'] }),
    vessel(2, { name: 'B', flag: 'SG', shipType: 80, latest: { lat: 1.3, lon: 103.8 } as Candidate['latest'] }),
    vessel(3, { name: 'C', flag: 'NL', shipType: 70 }),
  ];
  assert.deepEqual(
    rankVessels(fleet, { flag: 'nl' }, null, 10).vessels.map((v) => v.name),
    ['A', 'C'],
  );
  assert.deepEqual(
    rankVessels(fleet, { category: 'tanker' }, null, 10).vessels.map((v) => v.name),
    ['B'],
  );
  const box = { minLon: 3, minLat: 51, maxLon: 5, maxLat: 53 };
  assert.deepEqual(
    rankVessels(fleet, { bbox: box }, null, 10).vessels.map((v) => v.name),
    ['A'],
    'no position, not in any box',
  );
});

test('search cursors round-trip names with any characters; another codec or a track cursor is cursor_invalid', () => {
  const codec = createCursorCodec('search test');
  const key: SearchKey = [2, 'ÅLESUND: ØST', 'vsl_00000000000000ab'];
  assert.deepEqual(decodeSearchCursor(codec, encodeSearchCursor(codec, key)), key);
  const invalid = (fn: () => unknown) => assert.throws(fn, (e: unknown) => e instanceof AppError && e.code === 'cursor_invalid' && e.options.field === 'query.cursor');
  invalid(() => decodeSearchCursor(createCursorCodec('other'), encodeSearchCursor(codec, key)));
  invalid(() => decodeSearchCursor(codec, codec.seal('p:123')));
});
