import assert from 'node:assert/strict';
import { test } from 'node:test';
import { visitBoundsOf } from '../../src/events/visit-bounds.js';
import { createEventsRepo, type PortCallWrite } from '../../src/features/events/events-repo.js';
import { DAY, HOUR } from '../../src/platform/clock.js';
import { migrateToLatest, openStore } from '../../src/store/db.js';
import { dropTestSchema, NO_PORTS, TEST_EPOCH, testConfig } from '../helpers/app.js';

const BEFORE_VISIT_BOUNDS = '20261129T1600_port_visit_cells';

test('the visit bounds migration marks every vessel of the stored calls from its first arrival; counted, they are the bounds of those calls (decision 165)', async () => {
  const config = testConfig();
  const store = await openStore(config.database);
  try {
    await migrateToLatest(store, { upTo: BEFORE_VISIT_BOUNDS });
    // 30 vessels × 40 calls, each vessel at its own pace
    const rows: PortCallWrite[] = [];
    for (let v = 0; v < 30; v++)
      for (let k = 0; k < 40; k++) {
        const arrival = TEST_EPOCH - 60 * DAY + k * (20 + v) * HOUR + v * 60_000;
        rows.push({
          vsl_id: `m${v}`,
          port_id: 1 + ((v + k) % 3),
          ship_type: 70,
          arrival,
          departure: arrival + 5 * HOUR,
          last_fix_at: arrival + 5 * HOUR,
          anchorage_ms: 0,
          berth_ms: 0,
          stops: '[]',
          first_seq: v * 1000 + k,
          last_seq: v * 1000 + k,
          fixes: 3,
          gaps: 0,
          confidence: 0.9,
          simulated: 0,
          updated_at: TEST_EPOCH,
        });
      }
    for (let i = 0; i < rows.length; i += 400)
      await store.db
        .insertInto('port_calls')
        .values(rows.slice(i, i + 400))
        .execute();
    await migrateToLatest(store);
    const marks = await store.db.selectFrom('vessel_visit_bounds_dirty').select(['vsl_id', 'since']).execute();
    const first = new Map<string, number>();
    for (const r of rows) first.set(r.vsl_id, Math.min(first.get(r.vsl_id) ?? Infinity, r.arrival));
    assert.deepEqual(new Map(marks.map((m) => [m.vsl_id, Number(m.since)])), first);

    assert.equal(await createEventsRepo(store.db, NO_PORTS).countMarkedVisitBounds(), 30);
    const bounds = await store.db.selectFrom('vessel_visit_bounds').selectAll().execute();
    const key = (b: { vsl_id: string; length_days: number; week_start: number }) => `${b.vsl_id}|${Number(b.length_days)}|${Number(b.week_start)}`;
    const expected = [...first.keys()].flatMap((id) =>
      visitBoundsOf(
        id,
        rows.filter((r) => r.vsl_id === id).map((r) => r.arrival),
        -Infinity,
      ),
    );
    assert.deepEqual(new Map(bounds.map((b) => [key(b), Number(b.bound)])), new Map(expected.map((b) => [key(b), b.bound])));
    assert.equal((await store.db.selectFrom('vessel_visit_bounds_dirty').selectAll().execute()).length, 0, 'no mark left');
  } finally {
    await store.close();
    await dropTestSchema(config);
  }
});
