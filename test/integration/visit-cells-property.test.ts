import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Caller } from '../../src/access/principals.js';
import { DAY, HOUR, MINUTE } from '../../src/platform/clock.js';
import { medianHours } from '../../src/events/visit-rank.js';
import { BLOCK_SPANS_DAYS, blockStartOf, EXACT_CALLS_PER_VISIT_CELL, visitBlockOf } from '../../src/events/visit-cells.js';
import { createEventsRepo, type PortCallWrite } from '../../src/features/events/events-repo.js';
import { portRollUp } from '../../src/features/ports/port-rollup.js';
import { startTestApp, TEST_EPOCH, type TestApp } from '../helpers/app.js';
import { BAYTOWN, GALVESTON, HOUSTON, TEXAS_CITY } from '../helpers/houston-ports.js';
import { prng } from '../helpers/prng.js';

/**
 * Property test of issue 31 (docs/decisions/161): on random stores (calls at ports that roll up into one and
 * at ports on their own, arrivals on day bounds and anywhere, calls still open, departures after a window's
 * end, simulated calls), visit rank by port (rolled up and terminals) and by vessel answers from the visit cells
 * exactly what the per-request computation over the calls answers (computed here from the stored calls, as
 * main computed it: GROUP BY per port, distinct vessels, median dwell of the calls that ended by the window's
 * end), after calls are written in shuffled chunks, rewritten (another port, departure, flag), deleted and a
 * range rebuilt; and the cells kept as calls are written equal the cells counted again from all calls.
 */
const NOW = TEST_EPOCH;
const STORES = 4;
const NORSWORTHY = 9210;
const PORTS = [HOUSTON, GALVESTON, TEXAS_CITY, BAYTOWN, NORSWORTHY];
const caller: Caller = { kind: 'operator', operator: { tokenPrefix: 'property' } };

let app: TestApp;

/** Calls over the 40 days before NOW; some arrive exactly on a day bound, some are still open. */
function randomCalls(rand: () => number, count: number, seqBase: number): PortCallWrite[] {
  const rows: PortCallWrite[] = [];
  for (let i = 0; i < count; i++) {
    const arrival = rand() < 0.15 ? NOW - (1 + Math.floor(rand() * 40)) * DAY : NOW - Math.floor(rand() * 40 * DAY);
    const open = rand() < 0.1;
    const departure = open ? null : Math.min(NOW, arrival + (rand() < 0.05 ? 0 : Math.floor(rand() * 60 * HOUR)));
    rows.push({
      vsl_id: `p${Math.floor(rand() * 25)}`,
      port_id: PORTS[Math.floor(rand() * PORTS.length)]!,
      ship_type: 70,
      arrival,
      departure,
      last_fix_at: departure ?? NOW,
      anchorage_ms: 0,
      berth_ms: 0,
      stops: '[]',
      first_seq: seqBase + i * 2,
      last_seq: seqBase + i * 2 + 1,
      fixes: 10,
      gaps: 0,
      confidence: 0.9,
      simulated: rand() < 0.2 ? 1 : 0,
      updated_at: NOW,
    });
  }
  return [...new Map(rows.map((r) => [`${r.vsl_id}|${r.arrival}`, r])).values()];
}

interface StoredCall {
  vsl_id: string;
  port_id: number;
  arrival: number;
  departure: number | null;
}

/** Visit rank by port as main computed it per request, from the calls one by one. */
function referenceByPort(calls: readonly StoredCall[], w: { from: number; to: number }, groupOf: (portId: number) => number, rolledUp: boolean, limit: number) {
  const groups = new Map<number, { calls: number; vessels: Set<string>; dwells: number[]; members: Map<number, number> }>();
  for (const c of calls) {
    if (c.arrival < w.from || c.arrival >= w.to) continue;
    const id = groupOf(c.port_id);
    let g = groups.get(id);
    if (!g) groups.set(id, (g = { calls: 0, vessels: new Set(), dwells: [], members: new Map() }));
    g.calls++;
    g.vessels.add(c.vsl_id);
    g.members.set(c.port_id, (g.members.get(c.port_id) ?? 0) + 1);
    if (c.departure !== null && c.departure <= w.to) g.dwells.push(c.departure - c.arrival);
  }
  return [...groups]
    .sort((a, b) => b[1].calls - a[1].calls || b[1].vessels.size - a[1].vessels.size || a[0] - b[0])
    .slice(0, limit)
    .map(([portId, g]) => ({
      port_id: portId,
      calls: g.calls,
      distinct_vessels: g.vessels.size,
      median_dwell_hours: medianHours(g.dwells),
      includes: rolledUp
        ? [...g.members]
            .filter(([id]) => id !== portId)
            .sort((a, b) => b[1] - a[1] || a[0] - b[0])
            .map(([id, n]) => [id, n])
        : [],
    }));
}

interface RankItem {
  port: { port_id: number };
  calls: number;
  distinct_vessels: number;
  median_dwell_hours: number | null;
  includes: Array<{ port: { port_id: number }; calls: number }>;
}

const projected = (items: RankItem[]) =>
  items.map((i) => ({
    port_id: i.port.port_id,
    calls: i.calls,
    distinct_vessels: i.distinct_vessels,
    median_dwell_hours: i.median_dwell_hours,
    includes: i.includes.map((m) => [m.port.port_id, m.calls]),
  }));

/** A window: a range back from the horizon, or from/to on day bounds, or anywhere (some ending in the past, before calls departed). */
function randomWindow(rand: () => number): { from: number; to: number } {
  const pick = rand();
  const to = pick < 0.3 ? NOW : pick < 0.6 ? NOW - Math.floor(rand() * 10) * DAY : NOW - Math.floor(rand() * 10 * DAY) - Math.floor(rand() * MINUTE);
  const span = rand() < 0.2 ? Math.floor(rand() * 2 * DAY) : rand() < 0.5 ? (1 + Math.floor(rand() * 30)) * DAY : Math.floor(rand() * 30 * DAY);
  return { from: to - span, to };
}

async function storedCalls(): Promise<StoredCall[]> {
  const rows = await app.bosun.ctx.store.db.selectFrom('port_calls').select(['vsl_id', 'port_id', 'arrival', 'departure']).execute();
  return rows.map((r) => ({ vsl_id: r.vsl_id, port_id: Number(r.port_id), arrival: Number(r.arrival), departure: r.departure === null ? null : Number(r.departure) }));
}

async function storedCells() {
  const rows = await app.bosun.ctx.store.db.selectFrom('port_visit_cells').selectAll().orderBy('arrival_day').orderBy('port_id').execute();
  return rows.map((r) => ({ ...r, arrival_day: Number(r.arrival_day), last_departure: r.last_departure === null ? null : Number(r.last_departure) }));
}

async function storedBlocks() {
  const rows = await app.bosun.ctx.store.db.selectFrom('port_visit_blocks').selectAll().orderBy('span_days').orderBy('arrival_day').orderBy('port_id').execute();
  return rows.map((r) => ({ ...r, span_days: Number(r.span_days), arrival_day: Number(r.arrival_day), last_departure: r.last_departure === null ? null : Number(r.last_departure) }));
}

/** The blocks of these day cells (decision 170), in the table's order. */
function blocksOf(cells: Awaited<ReturnType<typeof storedCells>>) {
  const groups = new Map<string, { span: number; start: number; portId: number; cells: typeof cells }>();
  for (const span of BLOCK_SPANS_DAYS)
    for (const c of cells) {
      const start = blockStartOf(c.arrival_day, span);
      const key = `${span}|${start}|${c.port_id}`;
      if (!groups.has(key)) groups.set(key, { span, start, portId: Number(c.port_id), cells: [] });
      groups.get(key)!.cells.push(c);
    }
  return [...groups.values()]
    .map((g) => ({ ...visitBlockOf(g.start, g.portId, g.cells)!, span_days: g.span }))
    .sort((a, b) => a.span_days - b.span_days || a.arrival_day - b.arrival_day || a.port_id - b.port_id);
}

before(async () => {
  app = await startTestApp({ now: NOW });
});

after(async () => {
  await app?.close();
});

test('visit rank answers from the visit cells what the per-request computation over the calls answers, on random stores', async () => {
  const { services, store } = app.bosun.ctx;
  const repo = createEventsRepo(store.db, services.ports);
  const root = portRollUp(services.ports.table());
  const rootOf = (portId: number) => root.get(portId) ?? portId;
  assert.equal(rootOf(BAYTOWN), HOUSTON, 'the store rolls an entry up (decision 079)');
  let compared = 0;
  let ranked = 0;
  const compare = async (rand: () => number, label: string) => {
    const calls = await storedCalls();
    for (let round = 0; round < 12; round++) {
      const w = randomWindow(rand);
      const limit = 1 + Math.floor(rand() * 8);
      const window = { from: new Date(w.from).toISOString(), to: new Date(w.to).toISOString() };
      const where = `${label}: ${window.from} – ${window.to}`;
      const rolled = await services.congestion.visitRank({ ...window, limit }, caller);
      const inWindow = calls.filter((c) => c.arrival >= w.from && c.arrival < w.to);
      assert.deepEqual(projected(rolled.data.items as RankItem[]), referenceByPort(calls, w, rootOf, true, limit), `${where}: by port`);
      assert.equal(rolled.data.total_calls, inWindow.length, `${where}: total calls`);
      const terminals = await services.congestion.visitRank({ ...window, terminals: true, limit }, caller);
      assert.deepEqual(
        projected(terminals.data.items as RankItem[]),
        referenceByPort(calls, w, (id) => id, false, limit),
        `${where}: terminals`,
      );
      const port = PORTS[Math.floor(rand() * PORTS.length)]!;
      const atPort = await services.congestion.visitRank({ ...window, by: 'vessel', port_id: port, limit }, caller);
      assert.equal(atPort.data.total_calls, inWindow.filter((c) => c.port_id === port).length, `${where}: total calls at ${port}`);
      assert.ok(!rolled.qualityFlags.includes('approximate_distinct_counts'), `${where}: small cells are exact`);
      compared += 3;
      if (rolled.data.items.length > 0) ranked++;
    }
  };
  for (let s = 0; s < STORES; s++) {
    const rand = prng(0x7151 + s * 7919);
    await store.db.deleteFrom('port_calls').execute();
    await repo.rebuildVoyages();
    await repo.countMarkedVisitCells();
    const rows = randomCalls(rand, 60 + Math.floor(rand() * 300), 1 + s * 10_000);
    // written in shuffled chunks, as the runner writes them (not in order of arrival)
    const shuffled = [...rows].sort(() => rand() - 0.5);
    for (let i = 0; i < shuffled.length; i += 29) await repo.upsertCalls(shuffled.slice(i, i + 29));
    await compare(rand, `store ${s}`);

    // calls rewritten (same vessel and arrival: another port, departure, flag), some removed, a range rebuilt
    const rewritten = rows
      .filter(() => rand() < 0.2)
      .map((r) => ({
        ...r,
        port_id: rand() < 0.5 ? r.port_id : PORTS[Math.floor(rand() * PORTS.length)]!,
        departure: rand() < 0.3 ? null : Math.min(NOW, r.arrival + Math.floor(rand() * 30 * HOUR)),
        simulated: 1 - r.simulated,
      }));
    await repo.upsertCalls(rewritten);
    await repo.deleteCalls(rows.filter(() => rand() < 0.05).map((r) => ({ vslId: r.vsl_id, arrival: r.arrival })));
    await repo.deleteStartedBetween(NOW - 20 * DAY - 7 * HOUR, NOW - 16 * DAY);
    // the runner's pass after its writes counts the marked cells (here only some: reads count the rest)
    if (rand() < 0.5) await repo.sumMarkedVoyageCells();
    await compare(rand, `store ${s} after rewrites`);

    // the cells kept as calls were written are the cells counted again from all calls
    await repo.countMarkedVisitCells();
    const kept = await storedCells();
    const keptBlocks = await storedBlocks();
    await repo.rebuildVoyages();
    await repo.countMarkedVisitCells();
    assert.deepEqual(kept, await storedCells(), `store ${s}: visit cells kept = counted again from all calls`);
    assert.deepEqual(keptBlocks, await storedBlocks(), `store ${s}: visit blocks kept = merged again from all cells`);
    assert.deepEqual(keptBlocks, blocksOf(kept), `store ${s}: every block is its day cells merged, and only those`);
    assert.ok(
      kept.every((c) => Number(c.calls) > 0 && Number(c.calls) <= EXACT_CALLS_PER_VISIT_CELL),
      `store ${s}: no empty cell, every cell exact`,
    );
  }
  assert.ok(compared >= STORES * 2 * 12 * 3, `compared ${compared} answers`);
  assert.ok(ranked > STORES * 12, `most windows ranked ports (${ranked})`);
});

test('a sketched cell gives distinct vessels and the median dwell within their stated bounds, and the answer says it is approximate', async () => {
  const { services, store } = app.bosun.ctx;
  const repo = createEventsRepo(store.db, services.ports);
  await store.db.deleteFrom('port_calls').execute();
  await repo.rebuildVoyages();
  const day = NOW - 3 * DAY;
  // 400 calls of 300 vessels at one port in one day (a sketched cell), dwells 1..400 minutes apart
  const rows: PortCallWrite[] = Array.from({ length: 400 }, (_, i) => ({
    ...randomCalls(prng(1), 1, 900_000 + i * 2)[0]!,
    vsl_id: `s${i % 300}`,
    port_id: GALVESTON,
    arrival: day + i * 60_000,
    departure: day + i * 60_000 + (2 * HOUR + i * MINUTE),
    simulated: 0,
  }));
  await repo.upsertCalls(rows);
  const answer = await services.congestion.visitRank({ from: new Date(day).toISOString(), to: new Date(day + DAY).toISOString(), terminals: true, limit: 1 }, caller);
  const item = (answer.data.items as RankItem[])[0]!;
  assert.equal(item.port.port_id, GALVESTON);
  assert.equal(item.calls, 400, 'calls are counted exactly');
  assert.equal(answer.data.total_calls, 400);
  // HyperLogLog p = 10: 3.3 % standard error; 4 standard errors
  assert.ok(Math.abs(item.distinct_vessels - 300) <= 300 * 0.033 * 4, `distinct vessels ${item.distinct_vessels} ≈ 300`);
  const exactMedian = medianHours(rows.map((r) => r.departure! - r.arrival));
  // buckets of ratio 1.02: the middle of the median's bucket is within 1 % of it, then rounded to 0.1 h
  assert.ok(Math.abs(item.median_dwell_hours! - exactMedian!) <= exactMedian! * 0.01 + 0.05, `median dwell ${item.median_dwell_hours} h ≈ ${exactMedian} h`);
  assert.ok(answer.qualityFlags.includes('approximate_distinct_counts'), 'the answer says its figures are approximate');
});
