import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Caller } from '../../src/access/principals.js';
import { DAY, HOUR, MINUTE } from '../../src/platform/clock.js';
import { PORT_BOUND_FLOOR, portVisitBoundsOf, visitBoundsOf } from '../../src/events/visit-bounds.js';
import { createEventsRepo, type PortCallWrite } from '../../src/features/events/events-repo.js';
import { startTestApp, TEST_EPOCH, type TestApp } from '../helpers/app.js';
import { BAYTOWN, GALVESTON, HOUSTON, TEXAS_CITY } from '../helpers/houston-ports.js';
import { prng } from '../helpers/prng.js';
import { flagsFor } from '../../src/features/vessels/vessel-views.js';

const [SIMULATED] = flagsFor(true);

/**
 * Property test of issue 31 (docs/decisions/165): on random stores (fleets of 50–120 regular callers with a few busy
 * vessels, arrivals on week and day bounds and anywhere), visit rank by vessel read through the kept bounds
 * answers exactly what the per-request GROUP BY over the window's calls answers (computed here from the stored
 * calls: calls, distinct ports, then vsl_id), for windows of any length up to 30 days, after calls are written in
 * shuffled chunks, rewritten, deleted and a range rebuilt, with the runner's pass run or not; and the bounds kept
 * as calls are written equal those counted again from all calls. Likewise by vessel at one port, read through the
 * per-port bounds kept from a floor of calls (docs/decisions/175), against the GROUP BY over that port's calls.
 */
const NOW = TEST_EPOCH;
const STORES = 2;
const PORTS = [HOUSTON, GALVESTON, TEXAS_CITY, BAYTOWN, 9210];
const caller: Caller = { kind: 'operator', operator: { tokenPrefix: 'property' } };

let app: TestApp;

/** A fleet over the 50 days before NOW: each vessel calls every `gap` (a few busy ones often), at random ports. */
function randomFleet(rand: () => number, vessels: number, seqBase: number): PortCallWrite[] {
  const rows: PortCallWrite[] = [];
  for (let v = 0; v < vessels; v++) {
    const busy = rand() < 0.05;
    let t = NOW - 50 * DAY + Math.floor(rand() * 3 * DAY);
    while (t < NOW) {
      const arrival = rand() < 0.1 ? Math.floor(t / DAY) * DAY : t;
      const departure = rand() < 0.1 ? null : Math.min(NOW, arrival + Math.floor((2 + rand() * 30) * HOUR));
      rows.push({
        vsl_id: `b${v}`,
        port_id: PORTS[Math.floor(rand() * PORTS.length)]!,
        ship_type: 70 + Math.floor(rand() * 3) * 10,
        arrival,
        departure,
        last_fix_at: departure ?? NOW,
        anchorage_ms: 0,
        berth_ms: 0,
        stops: '[]',
        first_seq: seqBase + rows.length * 2,
        last_seq: seqBase + rows.length * 2 + 1,
        fixes: 10,
        gaps: 0,
        confidence: 0.9,
        simulated: rand() < 0.01 ? 1 : 0,
        updated_at: NOW,
      });
      t = arrival + Math.floor((busy ? 6 + rand() * 20 : 30 + rand() * 70) * HOUR) + 1;
    }
  }
  return [...new Map(rows.map((r) => [`${r.vsl_id}|${r.arrival}`, r])).values()];
}

interface StoredCall {
  vsl_id: string;
  port_id: number;
  arrival: number;
  simulated: number;
}

/** Visit rank by vessel as main computed it per request: GROUP BY vessel over the window's calls. */
function referenceByVessel(calls: readonly StoredCall[], w: { from: number; to: number }, limit: number) {
  const vessels = new Map<string, { calls: number; ports: Set<number> }>();
  for (const c of calls) {
    if (c.arrival < w.from || c.arrival >= w.to) continue;
    let v = vessels.get(c.vsl_id);
    if (!v) vessels.set(c.vsl_id, (v = { calls: 0, ports: new Set() }));
    v.calls++;
    v.ports.add(c.port_id);
  }
  return [...vessels]
    .map(([vsl_id, v]) => ({ vsl_id, calls: v.calls, distinct_ports: v.ports.size }))
    .sort((a, b) => b.calls - a.calls || b.distinct_ports - a.distinct_ports || (a.vsl_id < b.vsl_id ? -1 : 1))
    .slice(0, limit);
}

/** A window: a range back from the horizon, or on day bounds, or anywhere; 1 hour to 30 days. */
function randomWindow(rand: () => number): { from: number; to: number } {
  const pick = rand();
  const to = pick < 0.3 ? NOW : pick < 0.6 ? NOW - Math.floor(rand() * 30) * DAY : NOW - Math.floor(rand() * 30 * DAY) - Math.floor(rand() * MINUTE);
  const span = rand() < 0.2 ? HOUR + Math.floor(rand() * 3 * DAY) : rand() < 0.5 ? (1 + Math.floor(rand() * 30)) * DAY : Math.floor(rand() * 30 * DAY) + 1;
  return { from: to - span, to };
}

async function storedCalls(): Promise<StoredCall[]> {
  const rows = await app.bosun.ctx.store.db.selectFrom('port_calls').select(['vsl_id', 'port_id', 'arrival', 'simulated']).execute();
  return rows.map((r) => ({ vsl_id: r.vsl_id, port_id: Number(r.port_id), arrival: Number(r.arrival), simulated: Number(r.simulated) }));
}

async function storedPortBounds() {
  const rows = await app.bosun.ctx.store.db.selectFrom('vessel_port_visit_bounds').selectAll().orderBy('vsl_id').orderBy('port_id').orderBy('week_start').execute();
  return rows.map((r) => ({ vsl_id: r.vsl_id, port_id: Number(r.port_id), week_start: Number(r.week_start), bound: Number(r.bound) }));
}

async function storedBounds() {
  const rows = await app.bosun.ctx.store.db.selectFrom('vessel_visit_bounds').selectAll().orderBy('vsl_id').orderBy('length_days').orderBy('week_start').execute();
  return rows.map((r) => ({ vsl_id: r.vsl_id, length_days: Number(r.length_days), week_start: Number(r.week_start), bound: Number(r.bound) }));
}

before(async () => {
  app = await startTestApp({ now: NOW });
});

after(async () => {
  await app?.close();
});

test('visit rank by vessel read by the kept bounds answers what the GROUP BY over the window answers, on random stores', async () => {
  const { services, store } = app.bosun.ctx;
  const repo = createEventsRepo(store.db, services.ports);
  let compared = 0;
  let deep = 0;
  let byBounds = 0;
  const compare = async (rand: () => number, label: string) => {
    const calls = await storedCalls();
    for (let round = 0; round < 14; round++) {
      const w = randomWindow(rand);
      const limit = rand() < 0.3 ? 100 : 1 + Math.floor(rand() * 20);
      const window = { from: new Date(w.from).toISOString(), to: new Date(w.to).toISOString() };
      const answer = await services.congestion.visitRank({ ...window, by: 'vessel', limit }, caller);
      const items = (answer.data.items as Array<{ vessel: { vsl_id: string }; calls: number; distinct_ports: number }>).map((i) => ({
        vsl_id: i.vessel.vsl_id,
        calls: i.calls,
        distinct_ports: i.distinct_ports,
      }));
      const expected = referenceByVessel(calls, w, limit);
      assert.deepEqual(items, expected, `${label}: ${window.from} – ${window.to}, limit ${limit}`);
      const inWindow = calls.filter((c) => c.arrival >= w.from && c.arrival < w.to);
      assert.equal(answer.data.total_calls, inWindow.length);
      assert.equal(
        answer.qualityFlags.includes(SIMULATED!),
        inWindow.some((c) => c.simulated === 1),
        `${label}: simulated flag`,
      );
      compared++;
      if (expected.length === limit) deep++;

      // the same window at one port: the vessels calling there, by their calls there
      const port = PORTS[round % 4]!;
      const atPort = await services.congestion.visitRank({ ...window, by: 'vessel', port_id: port, limit }, caller);
      const portItems = (atPort.data.items as Array<{ vessel: { vsl_id: string }; calls: number; distinct_ports: number }>).map((i) => ({
        vsl_id: i.vessel.vsl_id,
        calls: i.calls,
        distinct_ports: i.distinct_ports,
      }));
      const portCalls = calls.filter((c) => c.port_id === port);
      const expectedAtPort = referenceByVessel(portCalls, w, limit);
      assert.deepEqual(portItems, expectedAtPort, `${label}: at port ${port}, ${window.from} – ${window.to}, limit ${limit}`);
      assert.equal(atPort.data.total_calls, portCalls.filter((c) => c.arrival >= w.from && c.arrival < w.to).length);
      // a full page whose last count reaches the floor is decided by the per-port bounds
      if (expectedAtPort.length === limit && expectedAtPort[limit - 1]!.calls >= PORT_BOUND_FLOOR) byBounds++;
    }
  };
  for (let s = 0; s < STORES; s++) {
    const rand = prng(0x1650 + s * 7919);
    await store.db.deleteFrom('port_calls').execute();
    await repo.rebuildVoyages();
    await repo.sumMarkedVoyageCells();
    const rows = randomFleet(rand, 50 + Math.floor(rand() * 70), 1 + s * 100_000);
    // written in shuffled chunks, as the runner writes them (not in order of arrival)
    const shuffled = [...rows].sort(() => rand() - 0.5);
    for (let i = 0; i < shuffled.length; i += 97) await repo.upsertCalls(shuffled.slice(i, i + 97));
    if (rand() < 0.5) await repo.sumMarkedVoyageCells();
    await compare(rand, `store ${s}`);

    // calls rewritten (another port, departure), some removed, some added to busy vessels, a range rebuilt
    await repo.upsertCalls(rows.filter(() => rand() < 0.2).map((r) => ({ ...r, port_id: PORTS[Math.floor(rand() * PORTS.length)]!, departure: null })));
    await repo.deleteCalls(rows.filter(() => rand() < 0.1).map((r) => ({ vslId: r.vsl_id, arrival: r.arrival })));
    await repo.upsertCalls([...new Map(rows.filter(() => rand() < 0.1).map((r) => [r.arrival, { ...r, vsl_id: 'b0', arrival: r.arrival + 1 }])).values()]);
    await repo.deleteStartedBetween(NOW - 20 * DAY - 7 * HOUR, NOW - 16 * DAY);
    // the runner's pass after its writes counts the marked bounds (here only some: reads count the rest)
    if (rand() < 0.5) await repo.sumMarkedVoyageCells();
    await compare(rand, `store ${s} after rewrites`);

    // the bounds kept as calls were written are the bounds counted again from all calls, and visitBoundsOf's
    await repo.countMarkedVisitBounds();
    const kept = await storedBounds();
    const keptAtPorts = await storedPortBounds();
    await repo.rebuildVoyages();
    await repo.countMarkedVisitBounds();
    assert.deepEqual(kept, await storedBounds(), `store ${s}: bounds kept = counted again from all calls`);
    assert.deepEqual(keptAtPorts, await storedPortBounds(), `store ${s}: per-port bounds kept = counted again from all calls`);
    const byVessel = new Map<string, number[]>();
    for (const c of await storedCalls()) byVessel.set(c.vsl_id, [...(byVessel.get(c.vsl_id) ?? []), c.arrival]);
    const expected = [...byVessel]
      .flatMap(([id, arrivals]) => visitBoundsOf(id, arrivals, Math.min(...kept.map((b) => b.week_start))))
      .sort((a, b) => (a.vsl_id < b.vsl_id ? -1 : a.vsl_id > b.vsl_id ? 1 : a.length_days - b.length_days || a.week_start - b.week_start));
    assert.deepEqual(kept, expected, `store ${s}: bounds = visitBoundsOf over the calls`);
    const callsByVessel = new Map<string, StoredCall[]>();
    for (const c of await storedCalls()) callsByVessel.set(c.vsl_id, [...(callsByVessel.get(c.vsl_id) ?? []), c]);
    const expectedAtPorts = [...callsByVessel]
      .flatMap(([id, list]) => portVisitBoundsOf(id, list, Math.min(...kept.map((b) => b.week_start))))
      .sort((a, b) => (a.vsl_id < b.vsl_id ? -1 : a.vsl_id > b.vsl_id ? 1 : a.port_id - b.port_id || a.week_start - b.week_start));
    assert.deepEqual(keptAtPorts, expectedAtPorts, `store ${s}: per-port bounds = portVisitBoundsOf over the calls`);
    assert.ok(keptAtPorts.length > 0 && keptAtPorts.every((b) => b.bound >= PORT_BOUND_FLOOR), `store ${s}: per-port bounds kept from the floor up`);
  }
  assert.ok(compared >= STORES * 2 * 14, `compared ${compared} answers`);
  assert.ok(deep > STORES * 4, `windows ranking a full page of vessels: ${deep}`);
  assert.ok(byBounds > STORES * 2, `windows at one port decided by the per-port bounds: ${byBounds}`);
});
