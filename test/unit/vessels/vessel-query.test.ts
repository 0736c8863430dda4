import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AppError } from '../../../src/platform/errors.js';
import { WATCHLIST_MAX_IDS } from '../../../src/features/vessels/limits.js';
import { parseBBox, parseTime, splitIds } from '../../../src/features/vessels/vessel-query.js';

const invalid = (fn: () => unknown, field: string) => assert.throws(fn, (e: unknown) => e instanceof AppError && e.code === 'invalid_request' && e.options.field === field);

test('parseBBox: four numbers in range, edges included; anything else invalid_request on the field', () => {
  assert.equal(parseBBox(undefined, 'query.bbox'), undefined);
  assert.deepEqual(parseBBox(' 3.5, 51 ,5,53', 'query.bbox'), { minLon: 3.5, minLat: 51, maxLon: 5, maxLat: 53 });
  assert.deepEqual(parseBBox('-180,-90,180,90', 'query.bbox'), { minLon: -180, minLat: -90, maxLon: 180, maxLat: 90 });
  assert.deepEqual(parseBBox('170,0,-170,10', 'query.bbox'), { minLon: 170, minLat: 0, maxLon: -170, maxLat: 10 }, 'crossing the antimeridian');
  for (const bad of ['1,2,3', '1,2,3,4,5', '1,,3,4', 'a,2,3,4', '-180.1,0,0,1', '0,-90.5,1,1', '0,10,1,5']) invalid(() => parseBBox(bad, 'query.bbox'), 'query.bbox');
});

test('parseTime: ISO 8601, epoch seconds up to 11 digits, milliseconds with 12-13 digits', () => {
  assert.equal(parseTime('2026-11-20T10:00:00Z', 'query.from'), Date.UTC(2026, 10, 20, 10));
  assert.equal(parseTime(' 2026-11-20 ', 'query.from'), Date.UTC(2026, 10, 20));
  assert.equal(parseTime('99999999999', 'query.to'), 99_999_999_999_000, '11 digits are seconds');
  assert.equal(parseTime('100000000000', 'query.to'), 100_000_000_000, '12 digits are milliseconds');
  assert.equal(parseTime('1763632800000', 'query.to'), 1_763_632_800_000);
  for (const bad of ['yesterday', '12345678901234', '2026-13-45', '']) invalid(() => parseTime(bad, 'query.from'), 'query.from');
});

test('splitIds: 1 to WATCHLIST_MAX_IDS non-empty ids', () => {
  assert.deepEqual(splitIds(' a, ,b ,', 'query.ids'), ['a', 'b']);
  assert.equal(splitIds(Array.from({ length: WATCHLIST_MAX_IDS }, (_, i) => `id${i}`).join(','), 'query.ids').length, WATCHLIST_MAX_IDS);
  invalid(() => splitIds(Array.from({ length: WATCHLIST_MAX_IDS + 1 }, (_, i) => `id${i}`).join(','), 'query.ids'), 'query.ids');
  invalid(() => splitIds(' , ', 'query.ids'), 'query.ids');
});
