import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { HOUR, MINUTE } from '../../src/platform/clock.js';
import { corridorRoutes } from '../../src/features/routes/corridors/routes.js';
import { DELAY_SECONDS } from '../../src/features/vessels/entitlements.js';
import { startTestApp, TEST_EPOCH, type TestApp } from '../helpers/app.js';
import { seedCoverage } from '../helpers/fleet.js';
import { createEventsRepo } from '../../src/features/events/events-repo.js';
import { transitRow } from '../helpers/event-rows.js';

const NOW = TEST_EPOCH;
const DAY = 24 * HOUR;

let app: TestApp;
let liveKey: string;
let vessel = 1;

/** A transit of `zone` that left the gate at `exited` after `hours` in it, `stoppedH` of them stopped. */
function transit(zone: string, direction: string, exited: number, speedKn: number, hours: number, stoppedH = 0) {
  return transitRow({ vsl_id: `vsl_w${vessel++}`, zone, direction, entered_at: exited - hours * HOUR, exited_at: exited, mean_speed_kn: speedKn, stopped_ms: stoppedH * HOUR, updated_at: NOW });
}

before(async () => {
  app = await startTestApp({ now: NOW });
  // stored positions from six days back: the four 24 h baseline windows are covered, the 7-day ones are not
  await seedCoverage(app.bosun.ctx.services, 244000911, NOW - 6 * DAY, NOW);
  const rows = [];
  for (let k = 1; k <= 4; k++) {
    const end = NOW - k * DAY;
    // Gibraltar's usual day: 4 transits at 12 kn, 2 h in the gate, never stopped, two each way
    for (let i = 0; i < 4; i++) rows.push(transit('gibraltar', i % 2 ? 'westbound' : 'eastbound', end - (i + 1) * HOUR, 12, 2));
    // Suez: one transit a day at 10 kn; Malacca: two at 14 kn, 6 h each
    rows.push(transit('suez', 'northbound', end - 5 * HOUR, 10, 12));
    for (let i = 0; i < 2; i++) rows.push(transit('malacca', 'northwestbound', end - (i + 6) * HOUR, 14, 6));
  }
  // the last 24 h: Gibraltar two eastbound transits at 9 kn, 4 h in the gate, 2 h of it stopped
  rows.push(transit('gibraltar', 'eastbound', NOW - 3 * HOUR, 9, 4, 2), transit('gibraltar', 'eastbound', NOW - 20 * HOUR, 9, 4, 2));
  // Suez triples; Malacca as usual but one vessel stopped 3 h
  for (let i = 0; i < 3; i++) rows.push(transit('suez', 'southbound', NOW - (i + 1) * HOUR, 10, 12));
  rows.push(transit('malacca', 'southeastbound', NOW - 2 * HOUR, 14, 6, 3), transit('malacca', 'northwestbound', NOW - 4 * HOUR, 14, 6));
  await createEventsRepo(app.bosun.ctx.store.db, app.bosun.ctx.services.ports).upsertTransits(rows);
  liveKey = (await app.registerAgent('corridors-live', ['vessels:live'])).apiKey;
});

after(async () => {
  await app?.close();
});

const get = (path: string) => app.api('GET', path, { token: liveKey });
type Item = { corridor: { key: string; passage: string | null } } & Record<string, any>;
const byKey = (items: Item[]) => Object.fromEntries(items.map((i) => [i.corridor.key, i]));

test('corridors: window figures, baselines, stress index and passage of each corridor', async () => {
  const res = await get('/v1/routes/corridors?range=24H');
  assert.equal(res.status, 200);
  const data = res.body.data;
  assert.deepEqual(data.window, { from: new Date(NOW - DAY).toISOString(), to: new Date(NOW).toISOString() });
  assert.deepEqual(data.baseline, { from: new Date(NOW - 5 * DAY).toISOString(), to: new Date(NOW - DAY).toISOString(), windows: 4 });
  assert.equal(data.items.length, 12);
  const c = byKey(data.items);
  assert.deepEqual(c.gibraltar!.corridor, { key: 'gibraltar', name: 'Strait of Gibraltar', passage: 'gibraltar', directions: ['eastbound', 'westbound'] });
  assert.deepEqual(c.gibraltar!.current, {
    transits: 2,
    by_direction: [
      { direction: 'eastbound', transits: 2 },
      { direction: 'westbound', transits: 0 },
    ],
    vessels: 2,
    median_transit_hours: 4,
    mean_speed_kn: 9,
    stopped_share: 0.5,
    waiting_hours_per_transit: 2,
  });
  assert.deepEqual(c.gibraltar!.baseline, { windows: 4, transits: 4, mean_speed_kn: 12, stopped_share: 0, waiting_hours_per_transit: 0 });
  // (0.3·|2/4 − 1| + 0.15·(12 − 9)/12·2 + 0.2·1 + 0.1·0) / 0.75 (no port calls near the gate)
  assert.deepEqual(c.gibraltar!.stress, { index: 56.7, level: 'high', weight_measured: 0.75 });
  assert.equal(c.bab_el_mandeb!.corridor.passage, 'babelmandeb');
  assert.equal(c.lombok!.corridor.passage, null);
  assert.deepEqual([c.suez!.current.transits, c.suez!.current.vessels, c.suez!.baseline.transits], [3, 3, 1]);
  assert.deepEqual(c.malacca!.current.stopped_share, 0.25);
  assert.deepEqual(c.panama!.current, {
    transits: 0,
    by_direction: [
      { direction: 'northbound', transits: 0 },
      { direction: 'southbound', transits: 0 },
    ],
    vessels: 0,
    median_transit_hours: null,
    mean_speed_kn: null,
    stopped_share: null,
    waiting_hours_per_transit: null,
  });
  assert.equal(data.analysed_up_to, new Date(NOW - 10 * MINUTE).toISOString());
  assert.equal(data.data_from, new Date(NOW - 6 * DAY).toISOString());
  assert.deepEqual(res.body.quality_flags, []);
  assert.equal(res.body.freshness_seconds, 600);
});

test('corridors: one corridor by key or routing passage name; no transits said so; an uncovered baseline said so', async () => {
  const one = await get('/v1/routes/corridors?corridor=GOOD_HOPE&range=24H');
  assert.deepEqual(
    one.body.data.items.map((i: Item) => i.corridor.key),
    ['cape_of_good_hope'],
  );
  assert.deepEqual(one.body.quality_flags, ['no_transits_in_window']);
  // the default 7 days: 2 + 16 Gibraltar transits, but the stored positions begin 6 days back: no baseline window
  const week = await get('/v1/routes/corridors?corridor=gibraltar');
  assert.deepEqual(week.body.data.window, { from: new Date(NOW - 7 * DAY).toISOString(), to: new Date(NOW).toISOString() });
  assert.equal(week.body.data.items[0].current.transits, 18);
  assert.deepEqual(week.body.data.items[0].baseline, { windows: 0, transits: null, mean_speed_kn: null, stopped_share: null, waiting_hours_per_transit: null });
  assert.deepEqual(week.body.quality_flags, ['no_baseline']);
});

test('corridors for a caller without live data end at the preview horizon', async () => {
  const res = await app.api('GET', '/v1/routes/corridors?corridor=gibraltar&range=24H', { token: (await app.registerAgent('corridors-plain')).apiKey });
  const to = NOW - DELAY_SECONDS * 1000;
  assert.deepEqual(res.body.data.window, { from: new Date(to - DAY).toISOString(), to: new Date(to).toISOString() });
  // 38 h to 14 h ago: the transit that left 20 h ago and the four of the day before
  assert.equal(res.body.data.items[0].current.transits, 5);
  assert.ok(res.body.quality_flags.includes('delayed_position'));
});

test('corridor-ranking by transits, slowdown, waiting and stress', async () => {
  const rank = async (by: string) => (await get(`/v1/routes/corridor-ranking?by=${by}&range=24H`)).body.data;
  const transits = await rank('transits');
  assert.equal(transits.by, 'transits');
  assert.deepEqual(
    transits.items.map((i: Item) => [i.rank, i.corridor.key, i.value]),
    [
      [1, 'suez', 3],
      [2, 'gibraltar', 2],
      [3, 'malacca', 2],
      [4, 'bab_el_mandeb', 0],
      [5, 'bosporus', 0],
      [6, 'cape_of_good_hope', 0],
      [7, 'dover', 0],
      [8, 'hormuz', 0],
      [9, 'lombok', 0],
      [10, 'oresund', 0],
      [11, 'panama', 0],
      [12, 'taiwan_strait', 0],
    ],
  );
  const slowdown = await rank('slowdown');
  // (12 − 9) / 12 at Gibraltar; Malacca and Suez at their usual speed
  assert.deepEqual(
    slowdown.items.map((i: Item) => [i.corridor.key, i.value, i.transits]),
    [
      ['gibraltar', 25, 2],
      ['malacca', 0, 2],
      ['suez', 0, 3],
    ],
  );
  assert.equal(slowdown.unranked.length, 9);
  assert.equal(slowdown.unranked[0].reason, 'no transit speeds in the window');
  const waiting = await rank('waiting');
  assert.deepEqual(
    waiting.items.map((i: Item) => [i.corridor.key, i.value]),
    [
      ['gibraltar', 2],
      ['malacca', 1.5],
      ['suez', 0],
    ],
  );
  const stress = await rank('stress');
  // Suez: volume |3/1 − 1| clamped to 1 → 0.3/0.75; Malacca: waiting 1.5 h over 0 → 0.2/0.75; the others: only sts_activity (0)
  assert.deepEqual(
    stress.items.slice(0, 4).map((i: Item) => [i.corridor.key, i.value]),
    [
      ['gibraltar', 56.7],
      ['suez', 40],
      ['malacca', 26.7],
      ['bab_el_mandeb', 0],
    ],
  );
  assert.equal((await rank('transits')).unit, 'transits');
});

test('corridor-health: components against the baseline and the weighted score', async () => {
  const res = await get('/v1/routes/corridor-health?range=24H');
  const c = byKey(res.body.data.items);
  const scores = (i: Item) => i.components.map((x: { name: string; score: number | null }) => [x.name, x.score]);
  // speed 100·9/12, stopped 100·(1 − 0.5), volume 100·(1 − |2/4 − 1|): 0.4·75 + 0.3·50 + 0.3·50
  assert.deepEqual(scores(c.gibraltar!), [
    ['speed', 75],
    ['stopped', 50],
    ['volume', 50],
  ]);
  assert.deepEqual([c.gibraltar!.score, c.gibraltar!.level, c.gibraltar!.weight_measured], [60, 'strained', 1]);
  // Suez: volume 1 − |3 − 1| floored at 0: 0.4·100 + 0.3·100 + 0
  assert.deepEqual([c.suez!.score, c.suez!.level], [70, 'strained']);
  // Malacca: stopped share 0.25 → 75: 40 + 22.5 + 30
  assert.deepEqual([c.malacca!.score, c.malacca!.level], [92.5, 'healthy']);
  // Panama: nothing measured
  assert.deepEqual([c.panama!.score, c.panama!.level, c.panama!.weight_measured], [null, null, 0]);
  assert.deepEqual(
    c.panama!.components.map((x: { note: string }) => x.note),
    ['no transit speeds in the window', 'no transits in the window', 'no transits in the baseline windows'],
  );
});

test('corridor-watch: the corridors departing from their baseline, with reasons and numbers', async () => {
  const res = await get('/v1/routes/corridor-watch?range=24H');
  assert.equal(res.body.data.checked, 12);
  const c = byKey(res.body.data.items);
  assert.deepEqual(Object.keys(c).sort(), ['gibraltar', 'malacca', 'suez']);
  assert.deepEqual(
    c.gibraltar!.alerts.map((a: any) => [a.reason, a.value, a.baseline, a.change_pct]),
    [
      ['volume_drop', 2, 4, -50],
      ['slowdown', 9, 12, -25],
      ['waiting', 2, 0, null],
    ],
  );
  assert.deepEqual(
    c.suez!.alerts.map((a: any) => [a.reason, a.value, a.baseline, a.change_pct]),
    [['volume_surge', 3, 1, 200]],
  );
  assert.deepEqual(
    c.malacca!.alerts.map((a: any) => [a.reason, a.metric, a.value, a.threshold]),
    [['waiting', 'waiting_hours_per_transit', 1.5, '≥ baseline + 1 h']],
  );
  const one = await get('/v1/routes/corridor-watch?range=24H&corridor=malacca');
  assert.deepEqual([one.body.data.checked, one.body.data.items.length], [1, 1]);
  const quiet = await get('/v1/routes/corridor-watch?range=24H&corridor=dover');
  assert.deepEqual([quiet.body.data.checked, quiet.body.data.items.length], [1, 0]);
  assert.deepEqual(quiet.body.quality_flags, ['no_transits_in_window']);
});

test('corridor window operations: errors', async () => {
  for (const path of ['corridors', 'corridor-health', 'corridor-watch']) {
    const unknown = await get(`/v1/routes/${path}?corridor=atlantis`);
    assert.equal(unknown.status, 400, path);
    assert.equal(unknown.body.errors[0].code, 'unknown_zone');
    assert.equal(unknown.body.errors[0].field, 'query.corridor');
    assert.match(unknown.body.errors[0].message, /suez, panama/);
    const long = await get(`/v1/routes/${path}?range=31D`);
    assert.deepEqual([long.status, long.body.errors[0].code], [400, 'invalid_range'], path);
    assert.equal((await get(`/v1/routes/${path}?range=1W`)).body.errors[0].code, 'invalid_request');
    assert.equal((await get(`/v1/routes/${path}?zone=suez`)).body.errors[0].code, 'invalid_request');
  }
  const by = await get('/v1/routes/corridor-ranking?by=speed');
  assert.deepEqual([by.status, by.body.errors[0].code], [400, 'invalid_request']);
  assert.equal((await get('/v1/routes/corridor-ranking?range=0H')).body.errors[0].code, 'invalid_range');
});

test('corridor window operations: the published examples answer 200', async () => {
  for (const route of corridorRoutes.slice(0, 4)) {
    for (const example of route.examples) {
      const qs = new URLSearchParams(Object.entries(example.query ?? {}).map(([k, v]) => [k, String(v)])).toString();
      const res = await get(`/v1/routes/${pathOf(route.operationId)}?${qs}`);
      assert.equal(res.status, 200, `${route.operationId} ${example.summary}`);
    }
  }
});

const pathOf = (operationId: string) =>
  operationId
    .replace(/^getRoutes/, '')
    .replace(/([a-z])([A-Z])/g, '$1-$2')
    .toLowerCase();
