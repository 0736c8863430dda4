import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DAY } from '../../src/platform/clock.js';
import { startTestApp, TEST_EPOCH, type ApiResponse, type TestApp } from '../helpers/app.js';
import { seedDemoDays } from '../helpers/fleet.js';

/**
 * Two operations over the same window count the same events (issue 27): 4 days of a 60-vessel demo
 * fleet (seed 27: one STS area, two labelled vessels of each kind) detected by the live runner, then
 * read through GET /v1/events and through GET /v1/sts/events, and loitering / gaps by vessel against
 * the whole listing.
 */
const FROM = TEST_EPOCH - 4 * DAY;
let app: TestApp;
let operator: string;

before(async () => {
  app = await startTestApp({ now: TEST_EPOCH });
  await seedDemoDays(app.bosun.ctx.services, app.clock, { seed: 27, vessels: 60, days: 4, until: TEST_EPOCH });
  operator = await app.operatorToken();
});

after(async () => {
  await app?.close();
});

async function all(url: string, items: (body: any) => Array<Record<string, any>>): Promise<Array<Record<string, any>>> {
  const out: Array<Record<string, any>> = [];
  let cursor: string | null = null;
  do {
    const res: ApiResponse = await app.api('GET', url + (cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''), { token: operator });
    assert.equal(res.status, 200, res.text);
    out.push(...items(res.body));
    cursor = res.body.data.next_cursor;
  } while (cursor);
  return out;
}

test('encounters: GET /v1/events and GET /v1/sts/events list the same encounters over the same window', async () => {
  const window = `from=${new Date(FROM).toISOString()}&to=${new Date(TEST_EPOCH).toISOString()}`;
  const viaEvents = await all(`/v1/events?type=encounter&limit=7&${window}`, (b) => b.data.items);
  const viaSts = await all(`/v1/sts/events?setting=all&limit=7&${window}`, (b) => b.data.items);
  assert.ok(viaEvents.length >= 3, `${viaEvents.length} encounters: the STS shuttles meet their storage tanker every 16 h`);
  assert.equal(viaSts.length, viaEvents.length);
  const key = (start: string, a: string, b: string) => `${start}|${[a, b].sort().join('|')}`;
  assert.deepEqual(viaSts.map((e) => key(e.start, e.vessels[0].vsl_id, e.vessels[1].vsl_id)).sort(), viaEvents.map((e) => key(e.start_at, e.vessel.vsl_id, e.other_vessel.vsl_id)).sort());
});

test('loitering and gaps: by vessel, the per-vessel listings add up to the whole listing, and the labelled vessels have them', async () => {
  const window = `from=${new Date(FROM).toISOString()}&to=${new Date(TEST_EPOCH).toISOString()}`;
  const whole = await all(`/v1/events?type=loitering,ais_gap&limit=1000&${window}`, (b) => b.data.items);
  assert.ok(whole.some((e) => e.type === 'loitering') && whole.some((e) => e.type === 'ais_gap'), JSON.stringify(whole.map((e) => e.type)));
  assert.ok(whole.every((e) => e.simulated === true));
  const byVessel = new Map<string, number>();
  for (const e of whole) byVessel.set(e.vessel.vsl_id, (byVessel.get(e.vessel.vsl_id) ?? 0) + 1);
  for (const [vslId, n] of byVessel) assert.equal((await all(`/v1/events?type=loitering,ais_gap&vessel=${vslId}&limit=1000&${window}`, (b) => b.data.items)).length, n, vslId);
});

test('port calls: visit rank counts, by vessel and by port, the calls GET /v1/events lists as beginning in the same window', async () => {
  const from = new Date(TEST_EPOCH - 3 * DAY).toISOString();
  const to = new Date(TEST_EPOCH).toISOString();
  const calls = (await all(`/v1/events?type=port_call&from=${from}&to=${to}&limit=50`, (b) => b.data.items)).filter((c) => c.start_at >= from && c.start_at < to);
  const count = (key: (c: Record<string, any>) => string) => calls.reduce((m, c) => m.set(key(c), (m.get(key(c)) ?? 0) + 1), new Map<string, number>());
  const byVessel = count((c) => c.vessel.vsl_id);
  const byPort = count((c) => String(c.port.port_id));

  const vessels: ApiResponse = await app.api('GET', `/v1/vessels/visit_rank?by=vessel&from=${from}&to=${to}&limit=50`, { token: operator });
  assert.equal(vessels.status, 200, vessels.text);
  assert.ok(calls.length > 20, `${calls.length} calls began in the window`);
  assert.equal(vessels.body.data.total_calls, calls.length);
  assert.deepEqual(
    vessels.body.data.items.map((i: { vessel: { vsl_id: string }; calls: number }) => [i.vessel.vsl_id, i.calls]),
    vessels.body.data.items.map((i: { vessel: { vsl_id: string } }) => [i.vessel.vsl_id, byVessel.get(i.vessel.vsl_id) ?? 0]),
  );
  const ports: ApiResponse = await app.api('GET', `/v1/vessels/visit_rank?by=port&terminals=true&from=${from}&to=${to}&limit=50`, { token: operator });
  assert.equal(ports.status, 200, ports.text);
  const ranked = ports.body.data.items.map((i: { port: { port_id: number }; calls: number }) => [String(i.port.port_id), i.calls]);
  assert.deepEqual(new Map(ranked), byPort);
});
