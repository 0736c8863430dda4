import assert from 'node:assert/strict';
import { test } from 'node:test';
import { visitCellOf, type VisitCall } from '../../src/events/visit-cells.js';
import { createEventsRepo } from '../../src/features/events/events-repo.js';
import { DAY, HOUR } from '../../src/platform/clock.js';
import { migrateToLatest, openStore } from '../../src/store/db.js';
import { dropTestSchema, NO_PORTS, TEST_EPOCH, testConfig } from '../helpers/app.js';

const BEFORE_VISIT_CELLS = '20261129T1000_transit_cells';

test('the visit cells migration marks every (day, port) of the stored calls; counted, they are the cells of those calls (decision 161)', async () => {
  const config = testConfig();
  const store = await openStore(config.database);
  try {
    await migrateToLatest(store, { upTo: BEFORE_VISIT_CELLS });
    // 30 vessels × 40 calls at 3 ports
    const rows = [];
    for (let v = 0; v < 30; v++)
      for (let k = 0; k < 40; k++) {
        const arrival = TEST_EPOCH - 30 * DAY + k * 17 * HOUR + v * 60_000;
        rows.push({
          vsl_id: `m${v}`,
          port_id: 1 + ((v + k) % 3),
          ship_type: 70,
          arrival,
          departure: k % 9 === 0 ? null : arrival + (2 + (v % 5)) * HOUR,
          last_fix_at: arrival + 7 * HOUR,
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
    // and 80 vessels at port 1 on one day: more calls than an exact cell lists
    for (let x = 0; x < 80; x++) rows.push({ ...rows[0]!, vsl_id: `x${x}`, arrival: TEST_EPOCH - 2 * DAY + x * 60_000, departure: TEST_EPOCH - 2 * DAY + x * 60_000 + (x + 1) * HOUR, port_id: 1 });
    for (let i = 0; i < rows.length; i += 400)
      await store.db
        .insertInto('port_calls')
        .values(rows.slice(i, i + 400))
        .execute();
    await migrateToLatest(store);
    const marks = await store.db.selectFrom('port_visit_cells_dirty').select(['arrival_day', 'port_id']).execute();
    const byCell = new Map<string, VisitCall[]>();
    for (const r of rows) {
      const key = `${Math.floor(r.arrival / DAY) * DAY}|${r.port_id}`;
      byCell.set(key, [...(byCell.get(key) ?? []), r]);
    }
    assert.deepEqual(new Set(marks.map((m) => `${Number(m.arrival_day)}|${Number(m.port_id)}`)), new Set(byCell.keys()));

    await createEventsRepo(store.db, NO_PORTS).countMarkedVisitCells();
    const cells = await store.db.selectFrom('port_visit_cells').selectAll().orderBy('arrival_day').orderBy('port_id').execute();
    const expected = [...byCell]
      .map(([key, calls]) => {
        const [day, port] = key.split('|').map(Number);
        return visitCellOf(day!, port!, calls);
      })
      .sort((a, b) => a.arrival_day - b.arrival_day || a.port_id - b.port_id);
    assert.deepEqual(
      cells.map((c) => ({ ...c, arrival_day: Number(c.arrival_day), last_departure: c.last_departure === null ? null : Number(c.last_departure) })),
      expected,
    );
    assert.ok(
      cells.some((c) => c.call_list === null),
      'a sketched cell is among them',
    );
    assert.equal((await store.db.selectFrom('port_visit_cells_dirty').selectAll().execute()).length, 0, 'no mark is left');
  } finally {
    await store.close();
    await dropTestSchema(config);
  }
});
