import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BLOCK_SPANS_DAYS, blockStartOf, visitBlockOf, visitCellOf, type VisitCall } from '../../src/events/visit-cells.js';
import { createEventsRepo } from '../../src/features/events/events-repo.js';
import { DAY, HOUR } from '../../src/platform/clock.js';
import { migrateToLatest, openStore } from '../../src/store/db.js';
import { dropTestSchema, NO_PORTS, TEST_EPOCH, testConfig } from '../helpers/app.js';

const BEFORE_VISIT_BLOCKS = '20261129T2200_vessel_visit_bounds';

test('the visit blocks migration keeps every visit cell and marks it; counted, the blocks are the cells merged (decision 170)', async () => {
  const config = testConfig();
  const store = await openStore(config.database);
  try {
    await migrateToLatest(store, { upTo: BEFORE_VISIT_BLOCKS });
    // 30 vessels × 40 calls at 3 ports, and 80 vessels at port 1 on one day (a sketched cell)
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
    for (let x = 0; x < 80; x++) rows.push({ ...rows[0]!, vsl_id: `x${x}`, arrival: TEST_EPOCH - 2 * DAY + x * 60_000, departure: TEST_EPOCH - 2 * DAY + x * 60_000 + (x + 1) * HOUR, port_id: 1 });
    for (let i = 0; i < rows.length; i += 400)
      await store.db
        .insertInto('port_calls')
        .values(rows.slice(i, i + 400))
        .execute();
    // the visit cells as the keeper of decision 161 left them
    const byCell = new Map<string, VisitCall[]>();
    for (const r of rows) {
      const key = `${Math.floor(r.arrival / DAY) * DAY}|${r.port_id}`;
      byCell.set(key, [...(byCell.get(key) ?? []), r]);
    }
    const cells = [...byCell].map(([key, calls]) => {
      const [day, port] = key.split('|').map(Number);
      return visitCellOf(day!, port!, calls);
    });
    for (let i = 0; i < cells.length; i += 100)
      await store.db
        .insertInto('port_visit_cells')
        .values(cells.slice(i, i + 100))
        .execute();

    await migrateToLatest(store);
    const kept = await store.db.selectFrom('port_visit_cells').select(['arrival_day', 'port_id']).execute();
    assert.equal(kept.length, cells.length, 'every visit cell is kept');
    const marks = await store.db.selectFrom('port_visit_cells_dirty').select(['arrival_day', 'port_id']).execute();
    assert.deepEqual(new Set(marks.map((m) => `${Number(m.arrival_day)}|${Number(m.port_id)}`)), new Set(byCell.keys()), 'every visit cell is marked');

    await createEventsRepo(store.db, NO_PORTS).countMarkedVisitCells();
    const blocks = await store.db.selectFrom('port_visit_blocks').selectAll().orderBy('span_days').orderBy('arrival_day').orderBy('port_id').execute();
    const expected = BLOCK_SPANS_DAYS.flatMap((span) => {
      const groups = new Map<string, typeof cells>();
      for (const c of cells) {
        const key = `${blockStartOf(c.arrival_day, span)}|${c.port_id}`;
        groups.set(key, [...(groups.get(key) ?? []), c]);
      }
      return [...groups].map(([key, list]) => {
        const [start, port] = key.split('|').map(Number);
        return { ...visitBlockOf(start!, port!, list)!, span_days: span };
      });
    }).sort((a, b) => a.span_days - b.span_days || a.arrival_day - b.arrival_day || a.port_id - b.port_id);
    assert.deepEqual(
      blocks.map((b) => ({
        ...b,
        span_days: Number(b.span_days),
        arrival_day: Number(b.arrival_day),
        port_id: Number(b.port_id),
        last_departure: b.last_departure === null ? null : Number(b.last_departure),
      })),
      expected,
    );
    assert.ok(blocks.some((b) => b.call_list === null) && blocks.some((b) => b.call_list !== null), 'sketched and listed blocks are among them');
    assert.equal((await store.db.selectFrom('port_visit_blocks_dirty').selectAll().execute()).length, 0, 'no mark is left');
  } finally {
    await store.close();
    await dropTestSchema(config);
  }
});
