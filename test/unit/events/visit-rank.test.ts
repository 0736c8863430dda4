import assert from 'node:assert/strict';
import test from 'node:test';
import { medianHours } from '../../../src/events/visit-rank.js';

const H = 3_600_000;

test('median dwell: the middle value, the mean of the middle two for an even count, in hours to one decimal; null for none', () => {
  assert.equal(medianHours([]), null);
  assert.equal(medianHours([10 * H, 6 * H, 20 * H]), 10);
  assert.equal(medianHours([4 * H, 2 * H]), 3);
  assert.equal(medianHours([H + 4 * 60_000]), 1.1);
  assert.equal(medianHours([H + 2 * 60_000]), 1);
});
