import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DAY, HOUR } from '../../src/platform/clock.js';
import { startTestApp, TEST_EPOCH, type TestApp } from '../helpers/app.js';
import { createEventsRepo } from '../../src/features/events/events-repo.js';
import { portCallRow } from '../helpers/event-rows.js';

/**
 * One query vocabulary (issue 29, docs/decisions/119): `range` for every window length, `to` for every
 * window end, one ship_type list, cursor paging everywhere; the operations' own names keep working and
 * answer the same. Over seeded port calls (A = Rotterdam, B = Hamburg, C = Antwerp): ten cargo voyages
 * A→B and three tanker voyages A→C in the 28 days before NOW.
 */
const NOW = TEST_EPOCH;
let app: TestApp;
let key: string;

function call(vslId: string, portId: number, arrival: number, departure: number | null, shipType: number) {
  return portCallRow({ vsl_id: vslId, port_id: portId, ship_type: shipType, arrival, departure, updated_at: NOW });
}

before(async () => {
  app = await startTestApp({ now: NOW });
  const routes = app.bosun.ctx.services.routes;
  const [A, B, C] = ['NLRTM', 'DEHAM', 'BEANR'].map((l) => routes.resolvePlace(l, 'x').port!.port_id) as [number, number, number];
  const rows = [];
  for (let i = 0; i < 10; i++) {
    const departure = NOW - (25 - 2 * i) * DAY;
    rows.push(call(`ab${i}`, A, departure - 10 * HOUR, departure, 70), call(`ab${i}`, B, departure + 20 * HOUR, null, 70));
  }
  for (let i = 0; i < 3; i++) {
    const departure = NOW - (5 - i) * DAY;
    rows.push(call(`ac${i}`, A, departure - 10 * HOUR, departure, 80), call(`ac${i}`, C, departure + 8 * HOUR, null, 80));
  }
  await createEventsRepo(app.bosun.ctx.store.db, app.bosun.ctx.services.ports).upsertCalls(rows);
  key = (await app.registerAgent('vocabulary', ['vessels:live'])).apiKey;
});

after(async () => {
  await app?.close();
});

const get = (path: string) => app.api('GET', path, { token: key });
const ok = async (path: string) => {
  const res = await get(path);
  assert.equal(res.status, 200, `${path}: ${res.text.slice(0, 400)}`);
  return res.body;
};
const refused = async (path: string) => {
  const res = await get(path);
  assert.equal(res.status, 400, `${path}: ${res.text.slice(0, 400)}`);
  return res.body.errors[0] as { code: string; message: string; field: string };
};

test('range stands for days, hours, weeks, window_hours and window, and answers exactly as the own name does', async () => {
  const pairs: Array<[string, string]> = [
    ['/v1/routes/top-lanes?days=14', '/v1/routes/top-lanes?range=14D'],
    ['/v1/routes/weekly-summary?weeks=2', '/v1/routes/weekly-summary?range=14D'],
    ['/v1/quality?window_hours=48', '/v1/quality?range=2D'],
    ['/v1/routes/quality?hours=36', '/v1/routes/quality?range=36H'],
    ['/v1/vessels/popular?window=7d', '/v1/vessels/popular?range=7D'],
  ];
  for (const [own, shared] of pairs) {
    const [a, b] = [(await ok(own)).data, (await ok(shared)).data];
    const span = (w: unknown) => (typeof w === 'string' ? w : Object.fromEntries(Object.entries(w as object).filter(([k]) => ['since', 'until', 'from', 'to', 'days', 'hours'].includes(k))));
    assert.deepEqual(span(b.window), span(a.window), `${shared} has the window of ${own}`);
    if ('items' in a) assert.deepEqual(b.items, a.items);
  }
  const fortnight = (await ok('/v1/routes/top-lanes?range=14D')).data;
  assert.deepEqual([fortnight.window.days, fortnight.sample.voyages], [14, 3 + 4]);
});

test('a range the operation cannot count in its unit, outside its bounds, or given with the own name is refused naming range', async () => {
  const partDay = await refused('/v1/routes/top-lanes?range=36H');
  assert.deepEqual([partDay.code, partDay.field], ['invalid_range', 'query.range']);
  assert.match(partDay.message, /from 1D to 90D in whole days.*same as days/);
  assert.equal((await refused('/v1/routes/top-lanes?range=91D')).code, 'invalid_range');
  const partWeek = await refused('/v1/routes/weekly-summary?range=10D');
  assert.match(partWeek.message, /whole weeks/);
  assert.match((await refused('/v1/vessels/popular?range=3D')).message, /24H or 7D/);
  const both = await refused('/v1/routes/top-lanes?range=7D&days=7');
  assert.deepEqual([both.code, both.message], ['invalid_request', 'give range or days, not both']);
  assert.equal((await refused('/v1/routes/top-lanes?range=7W')).field, 'query.range');
});

test('to stands for until where an operation ends its window at until', async () => {
  const end = new Date(NOW - 10 * DAY).toISOString();
  const [a, b] = [(await ok(`/v1/routes/top-lanes?days=14&until=${end}`)).data, (await ok(`/v1/routes/top-lanes?range=14D&to=${end}`)).data];
  assert.deepEqual(b.window, a.window);
  assert.equal(b.window.until, end);
  assert.equal(b.sample.voyages, 7, 'the cargo voyages that left between 24 and 10 days ago');
  assert.equal((await refused(`/v1/routes/top-lanes?to=${end}&until=${end}`)).message, 'give to or until, not both');
});

test('one ship_type list: route types count by their AIS category, categories plan with their route type', async () => {
  const container = (await ok('/v1/routes/top-lanes?range=28D&ship_type=container')).data;
  const cargo = (await ok('/v1/routes/top-lanes?range=28D&ship_type=cargo')).data;
  assert.equal(container.ship_type, 'cargo');
  assert.deepEqual(container.items, cargo.items);
  assert.equal(cargo.sample.voyages, 10);
  assert.equal((await ok('/v1/routes/top-lanes?range=28D&ship_type=lng')).data.sample.voyages, 3);

  const planned = (await ok('/v1/routes/direct?from=NLRTM&to=DEHAM&ship_type=cargo')).data;
  const general = (await ok('/v1/routes/direct?from=NLRTM&to=DEHAM&ship_type=general_cargo')).data;
  assert.equal(planned.ship_type ?? planned.speed?.ship_type, 'general_cargo');
  assert.equal(planned.duration_hours, general.duration_hours);
  assert.equal(((await ok('/v1/routes/direct?from=NLRTM&to=DEHAM&ship_type=tug')).data as { speed_kn: number }).speed_kn, 14, 'a tug plans at the other speed');

  const bad = await refused('/v1/routes/top-lanes?ship_type=boat');
  assert.match(bad.message, /cargo, tanker.*container, bulk, general_cargo, ro_ro, lng/);
});

test('lane details pages by cursor (offset still works, the same pages); a changed cursor is refused', async () => {
  const base = '/v1/routes/lane-details?from=NLRTM&to=DEHAM&range=28D&limit=4';
  const seen: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const d: { voyages: Array<{ vsl_id: string }>; next_cursor: string | null } = (await ok(cursor ? `${base}&cursor=${encodeURIComponent(cursor)}` : base)).data;
    seen.push(...d.voyages.map((v) => v.vsl_id));
    cursor = d.next_cursor;
    pages++;
  } while (cursor);
  assert.equal(pages, 3);
  assert.deepEqual(
    seen,
    Array.from({ length: 10 }, (_, i) => `ab${i}`),
  );
  const byOffset = (await ok(`${base}&offset=8`)).data;
  assert.deepEqual([byOffset.voyages.map((v: { vsl_id: string }) => v.vsl_id), byOffset.next_offset, byOffset.next_cursor], [['ab8', 'ab9'], null, null]);

  const first = (await ok(base)).data;
  const forged = first.next_cursor.replace(/^./, (c: string) => (c === 'A' ? 'B' : 'A'));
  assert.equal((await refused(`${base}&cursor=${encodeURIComponent(forged)}`)).code, 'cursor_invalid');
  // a cursor of another lane is not one of this lane
  const other = (await ok('/v1/routes/lane-details?from=NLRTM&to=BEANR&range=28D&limit=1')).data.next_cursor;
  assert.equal((await refused(`${base}&cursor=${encodeURIComponent(other)}`)).code, 'cursor_invalid');
  assert.equal((await refused(`${base}&cursor=${encodeURIComponent(first.next_cursor)}&offset=4`)).message, 'give cursor or offset, not both');
});

test('over MCP the shared names work as tool arguments', async () => {
  const res = await app.api('POST', '/mcp', {
    token: key,
    headers: { accept: 'application/json, text/event-stream' },
    body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'getRoutesTopLanes', arguments: { range: '14D', ship_type: 'container' } } },
  });
  assert.equal(res.status, 200, res.text);
  const text = res.body.result?.content?.[0]?.text ?? '';
  const answer = JSON.parse(text);
  assert.equal(answer.data.window.days, 14);
  assert.equal(answer.data.ship_type, 'cargo');
});

test('the whole catalog: every window length takes range, every window end at until takes to, no operation pages by offset alone', async () => {
  const doc = (await app.api('GET', '/openapi.json')).body as { paths: Record<string, Record<string, { operationId: string; parameters?: Array<{ name: string; in: string }> }>> };
  const missing: string[] = [];
  for (const item of Object.values(doc.paths))
    for (const op of Object.values(item)) {
      const names = new Set((op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name));
      if (['days', 'hours', 'weeks', 'window_hours', 'window'].some((n) => names.has(n)) && !names.has('range')) missing.push(`${op.operationId}: range`);
      if (names.has('until') && !names.has('to')) missing.push(`${op.operationId}: to`);
      if (names.has('offset') && !names.has('cursor')) missing.push(`${op.operationId}: cursor`);
    }
  assert.deepEqual(missing, []);
});
