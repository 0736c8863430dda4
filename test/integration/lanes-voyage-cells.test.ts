import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Caller } from '../../src/access/principals.js';
import { DAY, HOUR, MINUTE } from '../../src/platform/clock.js';
import { createEventsRepo, type PortCallWrite } from '../../src/features/events/events-repo.js';
import { blockStartOf, EXACT_VOYAGES_PER_DAY, EXACT_VOYAGES_PER_LANE_CELL, WEEK, weekStartOf } from '../../src/events/voyage-cells.js';
import { median } from '../../src/platform/stats.js';
import { startTestApp, TEST_EPOCH, type TestApp } from '../helpers/app.js';

/**
 * Voyage cells beyond the exact size (docs/decisions/149 and 158): a day with more voyages than
 * EXACT_VOYAGES_PER_DAY is summed as sketches; its voyage count stays exact, its vessels and median hours
 * are estimates within the documented bounds and the answer says so; a window that ends while some of the
 * cell's voyages are at sea reads that cell's voyages instead, and is exact again.
 */
const NOW = TEST_EPOCH;
const caller: Caller = { kind: 'operator', operator: { tokenPrefix: 'cells' } };
const VESSELS = 300;
const DEPARTURE_DAY = NOW - 10 * DAY;

let app: TestApp;

before(async () => {
  app = await startTestApp({ now: NOW });
});
after(async () => {
  await app?.close();
});

const call = (vslId: string, portId: number, arrival: number, departure: number, seq: number): PortCallWrite => ({
  vsl_id: vslId,
  port_id: portId,
  ship_type: 70,
  arrival,
  departure,
  last_fix_at: departure,
  anchorage_ms: 0,
  berth_ms: 0,
  stops: '[]',
  first_seq: seq,
  last_seq: seq,
  fixes: 5,
  gaps: 0,
  confidence: 0.9,
  simulated: 0,
  updated_at: NOW,
});

test('a lane of one day beyond the exact cell size: exact voyages, estimated vessels and hours, flagged; exact again when the window cuts the cell', async () => {
  assert.ok(VESSELS > 2 * EXACT_VOYAGES_PER_DAY && VESSELS > 2 * EXACT_VOYAGES_PER_LANE_CELL);
  const { services, store } = app.bosun.ctx;
  const routes = services.routes;
  const rotterdam = routes.resolvePlace('NLRTM', 'x').port!.port_id;
  const hamburg = routes.resolvePlace('DEHAM', 'x').port!.port_id;
  const rows: PortCallWrite[] = [];
  const voyages: Array<{ vslId: string; hours: number; arrival: number }> = [];
  for (let i = 0; i < VESSELS; i++) {
    const departure = DEPARTURE_DAY + i * 2 * MINUTE;
    const hours = 10 + (i % 23);
    const arrival = departure + hours * HOUR;
    const vslId = `c${i}`;
    rows.push(call(vslId, rotterdam, departure - 6 * HOUR, departure, 2 * i + 1), call(vslId, hamburg, arrival, arrival + 5 * HOUR, 2 * i + 2));
    voyages.push({ vslId, hours, arrival });
  }
  await createEventsRepo(store.db, services.ports).upsertCalls(rows);
  const vesselIds = new Set(voyages.map((v) => v.vslId));

  const lanes = services.lanes;
  const whole = await lanes.topLanes({ days: 30 }, caller);
  const lane = whole.data.items[0]!;
  assert.equal(lane.voyages, VESSELS);
  assert.ok(Math.abs(lane.vessels - vesselIds.size) / vesselIds.size < 0.1, `vessels ${lane.vessels} vs ${vesselIds.size}`);
  const truth = median(voyages.map((v) => v.hours))!;
  assert.ok(Math.abs(lane.median_voyage_hours! - truth) / truth < 0.011, `median ${lane.median_voyage_hours} vs ${truth}`);
  assert.ok(whole.qualityFlags.includes('approximate_distinct_counts'));
  // the cells per ship category and the lane cells (all ship categories, decisions 153, 157 and 164): the day, the
  // runs of days of its week and the runs of weeks of its block that hold it, its week and its block; sketches, no list
  const dayOfWeek = (DEPARTURE_DAY - weekStartOf(DEPARTURE_DAY)) / DAY;
  const weekOfBlock = Math.floor((DEPARTURE_DAY - blockStartOf(DEPARTURE_DAY)) / WEEK);
  const holding = [1, 7, 28];
  for (let n = 2; n <= 6; n++) holding.push(...(dayOfWeek < n ? [n] : []), ...(dayOfWeek >= 7 - n ? [n] : []));
  for (const n of [2, 3]) holding.push(...(weekOfBlock < n ? [7 * n] : []), ...(weekOfBlock >= 4 - n ? [7 * n] : []));
  holding.sort((a, b) => a - b);
  const stored = await store.db.selectFrom('voyage_cells').select(['period_days', 'exact', 'voyages']).execute();
  assert.deepEqual(
    stored.map((c) => [Number(c.period_days), Number(c.exact), Number(c.voyages)]).sort((a, b) => a[0]! - b[0]!),
    holding.map((days) => [days, 0, VESSELS]),
  );
  const laneCells = await store.db.selectFrom('voyage_lane_cells').select(['period_days', 'voyage_list', 'voyages']).execute();
  assert.deepEqual(
    laneCells.map((c) => [Number(c.period_days), c.voyage_list, Number(c.voyages)]).sort((a, b) => Number(a[0]) - Number(b[0])),
    holding.map((days) => [days, null, VESSELS]),
  );

  // a window ending the day after the departures: the voyages still at sea then do not count, read one by one
  const until = new Date(DEPARTURE_DAY + DAY).toISOString();
  const cut = await lanes.topLanes({ days: 7, until }, caller);
  const arrived = voyages.filter((v) => v.arrival < DEPARTURE_DAY + DAY);
  assert.ok(arrived.length > 0 && arrived.length < VESSELS);
  assert.equal(cut.data.items[0]!.voyages, arrived.length);
  assert.equal(cut.data.items[0]!.vessels, new Set(arrived.map((v) => v.vslId)).size);
  assert.equal(cut.data.items[0]!.median_voyage_hours, median(arrived.map((v) => v.hours)));
  assert.ok(!cut.qualityFlags.includes('approximate_distinct_counts'));
});
