import assert from 'node:assert/strict';
import { test } from 'node:test';
import { voyagePairs } from '../../src/events/voyages.js';
import { migrateToLatest, openStore } from '../../src/store/db.js';
import { dropTestSchema, TEST_EPOCH, testConfig } from '../helpers/app.js';
import { storedVoyages } from '../helpers/voyage-rows.js';

const BEFORE_VOYAGES = '20261128T0300_bounty_funding';
const H = 3_600_000;

test('the voyages migration backfills one voyage per consecutive pair of stored calls at two ports, across its pages', async () => {
  const config = testConfig();
  const store = await openStore(config.database);
  try {
    await migrateToLatest(store, { upTo: BEFORE_VOYAGES });
    // 40 vessels × 130 calls: the 5,000-call pages of the backfill end in the middle of a vessel
    const rows = [];
    for (let v = 0; v < 40; v++)
      for (let k = 0; k < 130; k++) {
        const arrival = TEST_EPOCH - 2000 * H + k * 12 * H;
        rows.push({
          vsl_id: `m${String(v).padStart(2, '0')}`,
          port_id: 1 + ((v + k * (k % 3)) % 5),
          ship_type: k % 7 === 0 ? null : 70 + (v % 2) * 10,
          arrival,
          departure: k % 11 === 0 ? null : arrival + 6 * H,
          last_fix_at: arrival + 7 * H,
          anchorage_ms: 0,
          berth_ms: 0,
          stops: '[]',
          first_seq: v * 1000 + k,
          last_seq: v * 1000 + k,
          fixes: 3,
          gaps: 0,
          confidence: 0.9,
          simulated: k % 13 === 0 ? 1 : 0,
          updated_at: TEST_EPOCH,
        });
      }
    for (let i = 0; i < rows.length; i += 400)
      await store.db
        .insertInto('port_calls')
        .values(rows.slice(i, i + 400))
        .execute();
    await migrateToLatest(store);
    const stored = await storedVoyages(store.db);
    const expected = voyagePairs([...rows].sort((a, b) => a.vsl_id.localeCompare(b.vsl_id) || a.arrival - b.arrival));
    assert.ok(expected.length > 3000, `${expected.length} voyages expected`);
    assert.deepEqual(stored, expected);
  } finally {
    await store.close();
    await dropTestSchema(config);
  }
});
