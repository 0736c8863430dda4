import assert from 'node:assert/strict';
import { test } from 'node:test';
import { voyagePairs } from '../../src/events/voyages.js';
import { migrateToLatest, openStore } from '../../src/store/db.js';
import { dropTestSchema, TEST_EPOCH, testConfig } from '../helpers/app.js';
import { storedCallDays, storedVoyages } from '../helpers/voyage-rows.js';

const BEFORE_VOYAGES = '20261128T0300_bounty_funding';
const H = 3_600_000;

test('the voyages migration backfills one voyage per consecutive pair of stored calls at two ports, across its pages; the next one counts the calls per day', async () => {
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
    // the next migration (decision 138) counts the same calls per UTC day of arrival and of departure, port, ship type and simulated flag
    const day = (t: number) => Math.floor(t / (24 * H)) * 24 * H;
    const cells = new Map<string, { arrival_day: number; port_id: number; ship_type: number; simulated: number; departure_day: number; calls: number }>();
    for (const r of rows) {
      const cell = { arrival_day: day(r.arrival), port_id: r.port_id, ship_type: r.ship_type ?? -1, simulated: r.simulated, departure_day: r.departure === null ? -1 : day(r.departure), calls: 0 };
      const key = JSON.stringify({ ...cell, calls: 0 });
      cells.set(key, cells.get(key) ?? cell);
      cells.get(key)!.calls++;
    }
    const expectedCells = [...cells.values()].sort(
      (a, b) => a.arrival_day - b.arrival_day || a.port_id - b.port_id || a.ship_type - b.ship_type || a.simulated - b.simulated || a.departure_day - b.departure_day,
    );
    assert.ok(expectedCells.some((c) => c.calls > 1) && expectedCells.some((c) => c.departure_day === -1 || c.ship_type === -1), 'cells of several calls, open calls and unknown types');
    assert.deepEqual(await storedCallDays(store.db), expectedCells);
  } finally {
    await store.close();
    await dropTestSchema(config);
  }
});
