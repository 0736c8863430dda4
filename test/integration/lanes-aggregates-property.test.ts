import type { Db } from '../../src/store/db.js';
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Caller } from '../../src/access/principals.js';
import { DAY, HOUR } from '../../src/platform/clock.js';
import type { PortCallWrite } from '../../src/features/events/events-repo.js';
import { startTestApp, TEST_EPOCH, type TestApp } from '../helpers/app.js';
import { createMemoryLanesRepo } from '../helpers/lanes-memory-repo.js';
import { voyageCountsOf, type VoyageCounts } from '../../src/events/lane-rule.js';
import { storedCallDays, storedVoyageCalls, storedVoyageCells, storedVoyageLaneCells, storedVoyages } from '../helpers/voyage-rows.js';
import { shipCategory } from '../../src/fleet/ship-types.js';
import type { VoyageRow } from '../../src/events/voyages.js';
import { createLanesService } from '../../src/features/routes/lanes/lanes-service.js';
import { createEventsRepo } from '../../src/features/events/events-repo.js';
import { prng } from '../helpers/prng.js';

/**
 * Property test of issue 31 (docs/decisions/123): on random stores (random vessels, sequential calls at
 * a handful of ports, random ship types, open calls, missing departures, calls longer than the 30-day
 * look-back), every lanes operation answers from the store (the voyages kept as calls are written, the
 * counts read from the cells kept per day, decision 138) exactly what it answers over voyages paired in memory from every stored call and
 * counts taken in memory (test/helpers/lanes-memory-repo.ts), after calls are written, rewritten, removed
 * and a range deleted as `events rebuild` does; and the voyage cells (decision 149) summed from the days the
 * writes marked count the stored voyages. SQLite (the default test store); the views themselves were
 * compared with the per-request computation they replaced when the voyages table came in (decision 123).
 */
const NOW = TEST_EPOCH;
const STORES = 8;
const caller: Caller = { kind: 'operator', operator: { tokenPrefix: 'property' } };
const LOCODES = ['NLRTM', 'DEHAM', 'BEANR', 'SGSIN', 'USHOU', 'GBFXT'];

let app: TestApp;
let ports: number[];

/** Calls of `vessels` random vessels over the 120 days before NOW, one after another per vessel. */
function randomCalls(rand: () => number, vessels: number): PortCallWrite[] {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
  const rows: PortCallWrite[] = [];
  let seq = 1;
  for (let v = 0; v < vessels; v++) {
    const shipType = pick([70, 71, 80, 84, 30, 60, null]);
    let t = NOW - 120 * DAY + Math.floor(rand() * 20 * DAY);
    let port = pick(ports);
    while (t < NOW) {
      // mostly short calls, some of several days, one in twenty longer than the 30-day look-back
      const stay = rand() < 0.05 ? (31 + rand() * 10) * DAY : rand() < 0.3 ? rand() * 4 * DAY : HOUR + rand() * 20 * HOUR;
      const end = Math.round(t + stay);
      const open = end >= NOW;
      const noDeparture = !open && rand() < 0.1;
      rows.push({
        vsl_id: `p${v}`,
        port_id: port,
        ship_type: rand() < 0.1 ? pick([70, 80, null]) : shipType,
        arrival: Math.round(t),
        departure: open || noDeparture ? null : end,
        last_fix_at: open ? NOW - HOUR : end,
        anchorage_ms: 0,
        berth_ms: 0,
        stops: '[]',
        first_seq: seq++,
        last_seq: seq++,
        fixes: 5,
        gaps: 0,
        confidence: 0.9,
        simulated: rand() < 0.2 ? 1 : 0,
        updated_at: NOW,
      });
      // a return to the same port now and then (no voyage)
      port = rand() < 0.15 ? port : pick(ports);
      t = end + HOUR + rand() * 3 * DAY;
    }
  }
  return rows;
}

/**
 * The voyage cells (decisions 149, 157 and 164) counted here from the stored voyages, per lane and ship category:
 * per UTC day and per ISO week (Monday 00:00 UTC) of departure, the runs of days that begin or end an ISO week
 * (2 to 6 days), the 28-day blocks from Monday 1970-01-05 and the runs of 2 or 3 weeks that begin or end one;
 * none arrived before departing. Of its voyages, those the lanes' rule `counts` leaves out, and the simulated ones
 * of the others (decision 177).
 */
function cellsCountedFrom(voyages: readonly VoyageRow[], counts: VoyageCounts) {
  type Cell = { period_days: number; period_start: number; from_port: number; to_port: number; category: string; voyages: number; left_out: number; simulated: number; vessels: string[] };
  const cells = new Map<string, Cell>();
  const monday = Date.UTC(1970, 0, 5);
  const week = 7 * DAY;
  const block = 4 * week;
  for (const v of voyages) {
    if (v.arrival < v.departure) continue;
    const category = shipCategory(v.ship_type) ?? 'unknown';
    const weekStart = monday + Math.floor((v.departure - monday) / week) * week;
    const day = Math.floor((v.departure - weekStart) / DAY);
    const blockStart = monday + Math.floor((v.departure - monday) / block) * block;
    const weekOfBlock = Math.floor((v.departure - blockStart) / week);
    const starts: Array<[number, number]> = [
      [1, Math.floor(v.departure / DAY) * DAY],
      [7, weekStart],
      [28, blockStart],
    ];
    for (let n = 2; n <= 6; n++) {
      if (day < n) starts.push([n, weekStart]);
      if (day >= 7 - n) starts.push([n, weekStart + (7 - n) * DAY]);
    }
    for (const n of [2, 3]) {
      if (weekOfBlock < n) starts.push([7 * n, blockStart]);
      if (weekOfBlock >= 4 - n) starts.push([7 * n, blockStart + (4 - n) * week]);
    }
    for (const [period_days, period_start] of starts) {
      const key = [period_days, period_start, v.from_port, v.to_port, category].join('|');
      const cell = cells.get(key) ?? { period_days, period_start, from_port: v.from_port, to_port: v.to_port, category, voyages: 0, left_out: 0, simulated: 0, vessels: [] };
      cell.voyages++;
      if (counts(v.from_port, v.to_port, v.arrival - v.departure)) cell.simulated += v.simulated;
      else cell.left_out++;
      cell.vessels.push(v.vsl_id);
      cells.set(key, cell);
    }
  }
  const byKey = (a: Cell, b: Cell) =>
    a.period_days - b.period_days || a.period_start - b.period_start || a.from_port - b.from_port || a.to_port - b.to_port || (a.category < b.category ? -1 : a.category > b.category ? 1 : 0);
  return [...cells.values()].map((c) => ({ ...c, vessels: c.vessels.sort() })).sort(byKey);
}

/** The window cells (docs/decisions/163) counted from the lane cells: per period, the voyages and simulated voyages of every lane, of those the rule counts (decision 177). */
function windowCellsCountedFrom(voyages: readonly VoyageRow[], counts: VoyageCounts) {
  const periods = new Map<string, { period_days: number; period_start: number; voyages: number; simulated: number }>();
  for (const c of laneCellsCountedFrom(
    voyages.filter((v) => counts(v.from_port, v.to_port, v.arrival - v.departure)),
    counts,
  )) {
    const key = `${c.period_days}|${c.period_start}`;
    const held = periods.get(key) ?? periods.set(key, { period_days: c.period_days, period_start: c.period_start, voyages: 0, simulated: 0 }).get(key)!;
    held.voyages += c.voyages;
    held.simulated += c.simulated;
  }
  return [...periods.values()].sort((a, b) => a.period_days - b.period_days || a.period_start - b.period_start);
}

async function storedWindowCells(db: Db) {
  const rows = await db.selectFrom('voyage_window_cells').select(['period_days', 'period_start', 'voyages', 'simulated']).orderBy('period_days').orderBy('period_start').execute();
  return rows.map((r) => ({ period_days: Number(r.period_days), period_start: Number(r.period_start), voyages: Number(r.voyages), simulated: Number(r.simulated) }));
}

/** The lane cells (decisions 153 and 157) counted here from the stored voyages: the cells above with every ship category together. */
function laneCellsCountedFrom(voyages: readonly VoyageRow[], counts: VoyageCounts) {
  type LaneCell = Omit<ReturnType<typeof cellsCountedFrom>[number], 'category'>;
  const lanes = new Map<string, LaneCell>();
  for (const { category: _category, ...cell } of cellsCountedFrom(voyages, counts)) {
    const key = [cell.period_days, cell.period_start, cell.from_port, cell.to_port].join('|');
    const held = lanes.get(key);
    if (held)
      lanes.set(key, {
        ...held,
        voyages: held.voyages + cell.voyages,
        left_out: held.left_out + cell.left_out,
        simulated: held.simulated + cell.simulated,
        vessels: [...held.vessels, ...cell.vessels].sort(),
      });
    else lanes.set(key, cell);
  }
  const byKey = (a: LaneCell, b: LaneCell) => a.period_days - b.period_days || a.period_start - b.period_start || a.from_port - b.from_port || a.to_port - b.to_port;
  return [...lanes.values()].sort(byKey);
}

type Service = Record<string, (query: any, caller: Caller) => Promise<unknown>>;

async function outcome(fn: () => Promise<unknown>): Promise<unknown> {
  try {
    return { ok: await fn() };
  } catch (err) {
    return { error: (err as { code?: string }).code ?? String(err), message: (err as Error).message };
  }
}

/** Every operation with a spread of queries: windows, ship types, ports, lanes, an earlier until. */
function queriesOf(rand: () => number): Array<[string, Record<string, unknown>]> {
  const p = () => String(ports[Math.floor(rand() * ports.length)]);
  const until = new Date(NOW - Math.floor(rand() * 40) * DAY).toISOString();
  const shipTypes = [undefined, 'cargo', 'tanker', 'fishing'];
  const out: Array<[string, Record<string, unknown>]> = [];
  for (const ship_type of shipTypes) {
    const base = { ship_type };
    out.push(
      ['topLanes', { ...base, days: 30 }],
      ['topLanes', { ...base, days: 90, limit: 50, port: p() }],
      ['topLanes', { ...base, days: 7, until }],
      ['laneDetails', { ...base, from: p(), to: p(), days: 90, limit: 5 }],
      ['laneDetails', { ...base, from: String(ports[0]), to: String(ports[1]), days: 60, offset: 2, limit: 3 }],
      ['laneTrends', { ...base, weeks: 6 }],
      ['laneTrends', { ...base, weeks: 4, port: p(), until }],
      ['laneVolatility', { ...base, days: 56 }],
      ['laneVolatility', { ...base, days: 30, bucket: 'day', min_voyages: 1 }],
      ['topPolylines', { ...base, days: 30 }],
      ['laneHeatmap', { ...base, days: 60, cell_deg: 5 }],
      ['laneHeatmapGeoJson', { ...base, days: 30, cell_deg: 10, limit: 20 }],
      ['hubs', { ...base, days: 90 }],
      ['hubsGeoJson', { ...base, days: 30, until }],
      ['networkOverview', { ...base, days: 90 }],
      ['networkOverview', { ...base, days: 14, until }],
      ['weeklySummary', { ...base, weeks: 8 }],
      ['weeklySummary', { ...base, weeks: 3, until }],
      ['seasonality', { ...base, days: 90 }],
      ['seasonality', { ...base, days: 60, port: p() }],
      ['anomalyDays', { ...base, days: 90 }],
      ['anomalyDays', { ...base, days: 30, port: p(), threshold: 2 }],
      ['portActivityImbalance', { ...base, days: 30 }],
      ['portActivityImbalance', { ...base, days: 90, port: p(), min_calls: 2 }],
      ['destOpportunities', { ...base, from: p(), days: 30 }],
      ['stabilityForecast', { ...base, weeks: 12 }],
      ['stabilityForecast', { ...base, weeks: 10, from: p(), to: p() }],
    );
  }
  out.push(['weeklyTrend', { weeks: 8 }], ['weeklyTrend', { weeks: 12, until }]);
  return out;
}

before(async () => {
  app = await startTestApp({ now: NOW });
  const routes = app.bosun.ctx.services.routes;
  ports = LOCODES.map((l) => routes.resolvePlace(l, 'x').port!.port_id);
});

after(async () => {
  await app?.close();
});

test('every lanes operation answers from the store what it answers over voyages paired in memory from the stored calls, on random stores', async () => {
  const { services, store } = app.bosun.ctx;
  const repo = createEventsRepo(store.db, services.ports);
  // the lanes' rule as the cells apply it (decision 177): which voyages their sketches hold
  const counts = voyageCountsOf(services.ports);
  const current = services.lanes as unknown as Service;
  // the same views over the store reads computed in memory from every stored call (test/helpers/lanes-memory-repo.ts)
  const referenceOver = async () => {
    return createLanesService({
      repo: createMemoryLanesRepo(await storedVoyageCalls(store.db)),
      events: services.events,
      ports: services.ports,
      routes: services.routes,
      clock: app.clock,
      cursors: services.cursors,
    }) as unknown as Service;
  };
  let compared = 0;
  let nonEmpty = 0;
  const compare = async (rand: () => number, label: string) => {
    const reference = await referenceOver();
    for (const [op, query] of queriesOf(rand)) {
      const expected = await outcome(() => reference[op]!(query, caller));
      const actual = await outcome(() => current[op]!(query, caller));
      assert.deepEqual(actual, expected, `${label}: ${op} ${JSON.stringify(query)}`);
      compared++;
      if (JSON.stringify(expected).includes('"voyages":') && !JSON.stringify(expected).includes('no_voyages_in_window')) nonEmpty++;
    }
  };
  for (let s = 0; s < STORES; s++) {
    const rand = prng(0x5eed + s * 7919);
    await store.db.deleteFrom('port_calls').execute();
    await store.db.deleteFrom('voyages').execute();
    await store.db.deleteFrom('port_call_days').execute();
    await store.db.deleteFrom('voyage_cells').execute();
    await store.db.deleteFrom('voyage_lane_cells').execute();
    await store.db.deleteFrom('voyage_window_cells').execute();
    await store.db.deleteFrom('voyage_cell_days_dirty').execute();
    const rows = randomCalls(rand, 1 + Math.floor(rand() * 30));
    // written in shuffled chunks, as the runner writes them (not in order of vessel and arrival)
    const shuffled = [...rows].sort(() => rand() - 0.5);
    for (let i = 0; i < shuffled.length; i += 37) await repo.upsertCalls(shuffled.slice(i, i + 37));
    await compare(rand, `store ${s}`);

    // an ongoing call rewritten with its departure and another port, calls that ended as none, a range rebuilt
    const rewritten = rows.filter(() => rand() < 0.1).map((r) => ({ ...r, port_id: ports[Math.floor(rand() * ports.length)]!, departure: r.departure ?? r.last_fix_at, ship_type: 80 }));
    await repo.upsertCalls(rewritten);
    await repo.deleteCalls(rows.filter(() => rand() < 0.05).map((r) => ({ vslId: r.vsl_id, arrival: r.arrival })));
    await repo.deleteStartedBetween(NOW - 50 * DAY, NOW - 45 * DAY);
    await compare(rand, `store ${s} after rewrites`);

    // every marked day summed (the runner's pass): the cells count the stored voyages
    await repo.sumMarkedVoyageCells();
    assert.deepEqual(await storedVoyageCells(store.db), cellsCountedFrom(await storedVoyages(store.db), counts), `store ${s}: voyage cells summed from marked days = cells counted from the voyages`);
    // every lane cell of these stores is exact (at most EXACT_VOYAGES_PER_LANE_CELL voyages), so the answers compared above are exact
    assert.deepEqual(
      await storedVoyageLaneCells(store.db),
      laneCellsCountedFrom(await storedVoyages(store.db), counts),
      `store ${s}: lane cells summed from marked days = cells counted from the voyages`,
    );
    assert.deepEqual(
      await storedWindowCells(store.db),
      windowCellsCountedFrom(await storedVoyages(store.db), counts),
      `store ${s}: window cells summed from marked days = every lane's cells per period`,
    );

    // what the runner kept is what a rebuild from all calls writes
    const kept = await storedVoyages(store.db);
    const keptCallDays = await storedCallDays(store.db);
    await repo.rebuildVoyages();
    const rebuilt = await storedVoyages(store.db);
    assert.deepEqual(kept, rebuilt, `store ${s}: voyages kept incrementally = voyages rebuilt`);
    assert.deepEqual(keptCallDays, await storedCallDays(store.db), `store ${s}: call counts per day kept incrementally = counted again from all calls`);
    assert.ok(
      keptCallDays.every((c) => c.calls > 0),
      `store ${s}: no empty cell is kept`,
    );
    assert.equal((await store.db.selectFrom('voyage_cells').select('period_start').execute()).length, 0, `store ${s}: a rebuild leaves the cells to be summed again`);
    assert.equal((await store.db.selectFrom('voyage_lane_cells').select('period_start').execute()).length, 0, `store ${s}: a rebuild leaves the lane cells to be summed again`);
    assert.equal((await storedWindowCells(store.db)).length, 0, `store ${s}: a rebuild leaves the window cells to be summed again`);
    await repo.sumMarkedVoyageCells();
    assert.deepEqual(await storedVoyageCells(store.db), cellsCountedFrom(rebuilt, counts), `store ${s}: voyage cells after a rebuild = cells counted from the voyages`);
    assert.deepEqual(await storedVoyageLaneCells(store.db), laneCellsCountedFrom(rebuilt, counts), `store ${s}: lane cells after a rebuild = cells counted from the voyages`);
    assert.deepEqual(await storedWindowCells(store.db), windowCellsCountedFrom(rebuilt, counts), `store ${s}: window cells after a rebuild = every lane's cells per period`);
    assert.ok(kept.length > 0 || rows.length < 3, `store ${s} holds voyages`);
  }
  assert.ok(compared >= STORES * 2 * 100, `compared ${compared} answers`);
  assert.ok(nonEmpty > compared / 3, `most answers counted voyages (${nonEmpty} of ${compared})`);
});
