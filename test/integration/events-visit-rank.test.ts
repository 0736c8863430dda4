import assert from 'node:assert/strict';
import test from 'node:test';
import { DAY, HOUR } from '../../src/platform/clock.js';
import { callRow, completedCall, type CallSpec } from '../helpers/events-congestion.js';
import { identity, imo, ingest, position } from '../helpers/fleet.js';
import { startTestApp, TEST_EPOCH, withApp, type TestApp } from '../helpers/app.js';
import { createEventsRepo } from '../../src/features/events/events-repo.js';
import { BAYTOWN, GALVESTON, HOUSTON, TEXAS_CITY } from '../helpers/houston-ports.js';

const NORSWORTHY = 9210;
/** The day ranked: [T, T + 24 h), two days before the test clock's now. */
const T = TEST_EPOCH - 2 * DAY;
const t = (hours: number) => T + hours * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();

const VESSELS = {
  A: { mmsi: 244100001, imo: imo(941001), name: 'ALPHA TANKER', shipType: 80 },
  B: { mmsi: 244100002, imo: imo(941002), name: 'BRAVO BOX', shipType: 70 },
  C: { mmsi: 244100003, imo: null, name: 'CHARLIE TUG', shipType: 31 },
};
type Key = keyof typeof VESSELS;

/** A call of `key` arriving `arrivalH` hours after T and leaving `dwellH` hours later (still in port if null). */
function call(id: string, portId: number, arrivalH: number, dwellH: number | null): CallSpec {
  if (dwellH === null) return { vslId: id, portId, arrival: t(arrivalH), departure: null, stops: [{ kind: 'berth', start: t(arrivalH + 0.5), end: t(arrivalH + 2) }] };
  return completedCall(id, portId, null, t(arrivalH + dwellH), 0, dwellH - 1);
}

/**
 * Houston 4 calls of 3 vessels (dwell 5, 10, 3, 4 h: median 4.5); Texas City 3 of 3 (C's leaves after
 * the day: its dwell is not known at the day's end); Galveston 3 of 2; Baytown and Norsworthy 1 each.
 * A: 4 calls at 3 ports, B: 4 at 4, C: 4 at 3. Outside the day: A at Norsworthy before it and after it,
 * and A at Houston 2 h before now.
 */
async function seeded(): Promise<{ app: TestApp; ids: Record<Key, string> }> {
  const app = await startTestApp();
  const fleet = app.bosun.ctx.services.fleet;
  for (const v of Object.values(VESSELS)) await ingest(fleet, identity(v.mmsi, T - DAY, { imo: v.imo, name: v.name, shipType: v.shipType }), position(v.mmsi, T - DAY, 10, -40));
  const ids = Object.fromEntries(Object.entries(VESSELS).map(([key, v]) => [key, fleet.byMmsiNumber(v.mmsi)!.vslId])) as Record<Key, string>;
  const { A, B, C } = ids;
  const calls = [
    call(A, HOUSTON, 1, 5),
    call(B, HOUSTON, 2, 10),
    call(C, HOUSTON, 3, 3),
    call(A, HOUSTON, 10, 4),
    call(B, GALVESTON, 5, 2),
    call(C, GALVESTON, 6, 2),
    call(C, GALVESTON, 12, null),
    call(A, TEXAS_CITY, 7, 2),
    call(B, TEXAS_CITY, 8, 4),
    call(C, TEXAS_CITY, 9, 21),
    call(A, BAYTOWN, 14, 2),
    call(B, NORSWORTHY, 15, 2),
    call(A, NORSWORTHY, -1, 2),
    call(A, NORSWORTHY, 25, 2),
    { ...call(A, HOUSTON, 46, null), arrival: TEST_EPOCH - 2 * HOUR },
  ];
  await createEventsRepo(app.bosun.ctx.store.db, app.bosun.ctx.services.ports).upsertCalls(calls.map(callRow));
  return { app, ids };
}

const day = `from=${iso(T)}&to=${iso(t(24))}`;

test('visit_rank by port: calls, distinct vessels, median dwell of calls ended by the window end; ties by distinct vessels then id', async () => {
  const { app } = await seeded();
  try {
    const { apiKey } = await app.registerAgent('live', ['vessels:live']);
    const res = await app.api('GET', `/v1/vessels/visit_rank?${day}&terminals=true`, { token: apiKey });
    assert.equal(res.status, 200, res.text);
    const d = res.body.data;
    assert.deepEqual([d.by, d.from, d.to, d.port, d.total_calls], ['port', iso(T), iso(t(24)), null, 12]);
    assert.deepEqual(
      d.items.map((r: { rank: number; port: { port_id: number }; calls: number; distinct_vessels: number; median_dwell_hours: number | null }) => [
        r.rank,
        r.port.port_id,
        r.calls,
        r.distinct_vessels,
        r.median_dwell_hours,
      ]),
      [
        [1, HOUSTON, 4, 3, 4.5],
        [2, TEXAS_CITY, 3, 3, 3],
        [3, GALVESTON, 3, 2, 2],
        [4, BAYTOWN, 1, 1, 2],
        [5, NORSWORTHY, 1, 1, 2],
      ],
    );
    assert.deepEqual(d.items[0].port, { port_id: HOUSTON, name: 'Houston', locode: 'USHOU', country: 'US' });
    assert.equal(res.body.cost_units, 0.3);

    const top2 = await app.api('GET', `/v1/vessels/visit_rank?${day}&limit=2&terminals=true`, { token: apiKey });
    assert.deepEqual(
      top2.body.data.items.map((r: { port: { port_id: number } }) => r.port.port_id),
      [HOUSTON, TEXAS_CITY],
    );

    // by default entries roll up to their port (decision 079): Baytown and Norsworthy into Houston, Texas City into Galveston
    const rolled = await app.api('GET', `/v1/vessels/visit_rank?${day}`, { token: apiKey });
    assert.equal(rolled.status, 200, rolled.text);
    assert.deepEqual(
      rolled.body.data.items.map(
        (r: { rank: number; port: { port_id: number }; calls: number; distinct_vessels: number; median_dwell_hours: number | null; includes: Array<{ port: { port_id: number }; calls: number }> }) => [
          r.rank,
          r.port.port_id,
          r.calls,
          r.distinct_vessels,
          r.median_dwell_hours,
          r.includes.map((i) => [i.port.port_id, i.calls]),
        ],
      ),
      [
        [1, GALVESTON, 6, 3, 2, [[TEXAS_CITY, 3]]],
        [
          2,
          HOUSTON,
          6,
          3,
          3.5,
          [
            [BAYTOWN, 1],
            [NORSWORTHY, 1],
          ],
        ],
      ],
      'Galveston 3 + Texas City 3; Houston 4 + Baytown 1 + Norsworthy 1; a tie of calls and vessels goes to the lower id',
    );
    assert.equal(rolled.body.data.total_calls, 12);
  } finally {
    await app.close();
  }
});

test('visit_rank by vessel: names and identities, never positions; ties by distinct ports then id; port_id ranks the vessels calling at one port', async () => {
  const { app, ids } = await seeded();
  try {
    const { apiKey } = await app.registerAgent('live', ['vessels:live']);
    const res = await app.api('GET', `/v1/vessels/visit_rank?by=vessel&${day}`, { token: apiKey });
    assert.equal(res.status, 200, res.text);
    const items = res.body.data.items as Array<{ rank: number; vessel: Record<string, unknown>; calls: number; distinct_ports: number }>;
    // B has 4 calls at 4 ports; A and C 4 calls at 3 ports each, ordered by vsl_id
    const tied = [ids.A, ids.C].sort((a, b) => a.localeCompare(b));
    assert.deepEqual(
      items.map((r) => [r.rank, r.vessel.vsl_id, r.calls, r.distinct_ports]),
      [
        [1, ids.B, 4, 4],
        [2, tied[0], 4, 3],
        [3, tied[1], 4, 3],
      ],
    );
    assert.deepEqual(items[0]!.vessel, { vsl_id: ids.B, name: 'BRAVO BOX', imo: VESSELS.B.imo, mmsi: VESSELS.B.mmsi, ship_category: 'cargo' });
    const tug = items.find((r) => r.vessel.vsl_id === ids.C)!;
    assert.deepEqual(tug.vessel, { vsl_id: ids.C, name: 'CHARLIE TUG', imo: null, mmsi: VESSELS.C.mmsi, ship_category: 'tug' });
    assert.ok(!/"lat"|"lon"/.test(res.text), 'no position in a visit rank');

    const galveston = await app.api('GET', `/v1/vessels/visit_rank?by=vessel&port_id=${GALVESTON}&${day}`, { token: apiKey });
    assert.deepEqual(galveston.body.data.port, { port_id: GALVESTON, name: 'Galveston', locode: 'USGLS', country: 'US' });
    assert.equal(galveston.body.data.total_calls, 3);
    assert.deepEqual(
      galveston.body.data.items.map((r: { vessel: { vsl_id: string }; calls: number; distinct_ports: number }) => [r.vessel.vsl_id, r.calls, r.distinct_ports]),
      [
        [ids.C, 2, 1],
        [ids.B, 1, 1],
      ],
    );
  } finally {
    await app.close();
  }
});

test('visit_rank horizon and defaults: the 7-day window ends at now for vessels:live, at now minus the preview delay for others', async () => {
  const { app } = await seeded();
  try {
    const { apiKey } = await app.registerAgent('live', ['vessels:live']);
    const houston = (body: { data: { items: Array<{ port: { port_id: number }; calls: number }> } }) => body.data.items.find((r) => r.port.port_id === HOUSTON)!.calls;
    const live = await app.api('GET', '/v1/vessels/visit_rank?terminals=true', { token: apiKey });
    assert.equal(live.body.data.to, iso(TEST_EPOCH));
    assert.equal(live.body.data.from, iso(TEST_EPOCH - 7 * DAY));
    assert.equal(houston(live.body), 5, "A's call 2 h ago is visible");
    assert.equal(live.body.data.items.find((r: { port: { port_id: number } }) => r.port.port_id === NORSWORTHY).calls, 3);

    const anonymous = await app.api('GET', `/v1/vessels/visit_rank?to=${iso(TEST_EPOCH)}&terminals=true`);
    assert.equal(anonymous.status, 200, anonymous.text);
    assert.equal(anonymous.body.data.to, iso(TEST_EPOCH - 14 * HOUR), 'clamped to the horizon');
    assert.equal(houston(anonymous.body), 4, 'a call that began within the preview delay is not shown');
  } finally {
    await app.close();
  }
});

test('visit_rank refuses bad windows, limits and filters with clear codes', async () => {
  await withApp(async (app) => {
    const cases: Array<[string, string, number]> = [
      ['range=8X', 'invalid_range', 400],
      ['range=31D', 'invalid_range', 400],
      [`from=${iso(TEST_EPOCH - DAY)}&to=${iso(TEST_EPOCH - 2 * DAY)}`, 'invalid_range', 400],
      [`from=${iso(TEST_EPOCH - 40 * DAY)}`, 'invalid_range', 400],
      [`range=7D&from=${iso(TEST_EPOCH - DAY)}`, 'invalid_request', 400],
      ['limit=0', 'invalid_request', 400],
      ['limit=101', 'invalid_request', 400],
      ['by=ship', 'invalid_request', 400],
      ['by=vessel&terminals=true', 'invalid_request', 400],
      ['terminals=maybe', 'invalid_request', 400],
      [`port_id=${HOUSTON}`, 'invalid_request', 400],
      ['by=vessel&port_id=999999', 'port_not_found', 404],
      ['by=vessel&port_id=abc', 'invalid_request', 400],
      ['from=yesterday', 'invalid_request', 400],
    ];
    for (const [query, code, status] of cases) {
      const res = await app.api('GET', `/v1/vessels/visit_rank?${query}`);
      assert.equal(res.status, status, query);
      assert.equal(res.body.errors[0].code, code, query);
    }
    const limit = await app.api('GET', '/v1/vessels/visit_rank?limit=100');
    assert.equal(limit.status, 200, 'limit 100 is the edge');
    assert.deepEqual(limit.body.data.items, []);
  });
});
