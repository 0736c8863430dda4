import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DAY, HOUR, SECOND } from '../../src/platform/clock.js';
import { CHOKEPOINTS } from '../../src/events/chokepoints.js';
import { passageByName } from '../../src/routing/graph.js';
import { CHOKEPOINT_PASSAGES } from '../../src/features/routes/chokepoint-passages.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { createEventsRepo } from '../../src/features/events/events-repo.js';
import { portCallRow } from '../helpers/event-rows.js';

let app: TestApp;
let apiKey: string;

const get = async (path: string, token = apiKey) => app.api('GET', path, { token });
const repeat = (pair: string, n: number) => Array.from({ length: n }, () => pair).join(';');
const near = (value: number, expected: number, tolerance: number) => assert.ok(Math.abs(value - expected) <= tolerance, `${value} not within ${tolerance} of ${expected}`);
const r1 = (x: number) => Math.round(x * 10) / 10;
const r2 = (x: number) => Math.round(x * 100) / 100;

before(async () => {
  app = await startTestApp();
  apiKey = (await app.registerAgent('planner')).apiKey;
});
after(async () => app.close());

test('chokepoint keys of the event layer map to routing passages, or are declared not closable', () => {
  assert.deepEqual(Object.keys(CHOKEPOINT_PASSAGES).sort(), CHOKEPOINTS.map((c) => c.key).sort());
  for (const [key, id] of Object.entries(CHOKEPOINT_PASSAGES)) if (id !== null) assert.equal(passageByName(id)?.id, id, key);
});

test('what-if: Rotterdam–Singapore with Suez closed goes round the Cape, +3,470 nm; the closures that mattered', async () => {
  const res = await get('/v1/routes/what-if?from=NLRTM&to=SGSIN&closed=suez');
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.cost_units, 0.68);
  const d = res.body.data;
  assert.deepEqual(d.baseline.passages, ['dover', 'gibraltar', 'suez', 'babelmandeb', 'malacca']);
  assert.deepEqual(d.with_closures.passages, ['dover', 'good_hope']);
  near(d.added.distance_nm, 3470, 70);
  assert.equal(d.added.distance_nm, r1(d.with_closures.distance_nm - d.baseline.distance_nm));
  assert.equal(d.added.distance_pct, r1((d.added.distance_nm / d.baseline.distance_nm) * 100));
  assert.deepEqual([d.speed_kn, d.speed_source, d.ship_type], [14, 'ship_type_default', 'other']);
  near(d.added.hours, d.added.distance_nm / 14, 0.1);
  near(d.added.days, d.added.distance_nm / 14 / 24, 0.01);
  assert.deepEqual(d.now_uses, ['good_hope']);
  assert.deepEqual(d.closures, [{ passage: 'suez', name: 'Suez Canal', mattered: true }]);
  assert.match(d.note, /good_hope/);

  const both = (await get('/v1/routes/what-if?from=NLRTM&to=SGSIN&closed=suez,bab_el_mandeb,hormuz&ship_type=container')).body.data;
  assert.deepEqual(both.closed, ['suez', 'babelmandeb', 'hormuz']);
  assert.deepEqual(
    both.closures.map((c: { passage: string; mattered: boolean }) => [c.passage, c.mattered]),
    [
      ['suez', true],
      ['babelmandeb', true],
      ['hormuz', false],
    ],
  );
  assert.equal(both.with_closures.distance_nm, d.with_closures.distance_nm);
  assert.equal(both.speed_kn, 18);
  near(both.added.hours, both.added.distance_nm / 18, 0.1);
  // Fuel for the reference container ship (60,000 kW, 24 kn, 175 g/kWh): (18/24)^3 load, 106.3 t a day at sea.
  const perHour = (60_000 * (18 / 24) ** 3 * 175) / 1e6;
  near(both.baseline.fuel_t, (both.baseline.distance_nm / 18) * perHour, 0.2);
  near(both.added.fuel_t, (both.added.distance_nm / 18) * perHour, 0.2);
  near(both.added.co2_t, both.added.fuel_t * 3.114, 0.3);
  assert.match(both.note, /t more fuel for a reference container ship/);

  const pacific = (await get('/v1/routes/what-if?from=CNSGH&to=USLAX&closed=panama&speed_kn=20')).body.data;
  assert.deepEqual(pacific.added, { distance_nm: 0, distance_pct: 0, hours: 0, days: 0, fuel_t: 0, co2_t: 0 });
  assert.deepEqual(pacific.closures, [{ passage: 'panama', name: 'Panama Canal', mattered: false }]);
  assert.deepEqual(pacific.now_uses, []);

  const viaPiraeus = (await get('/v1/routes/what-if?from=NLRTM&to=SGSIN&via=GRPIR&closed=cape_of_good_hope')).body.data;
  assert.deepEqual(viaPiraeus.via, ['GRPIR']);
  assert.equal(viaPiraeus.closures[0].passage, 'good_hope');
  assert.equal(viaPiraeus.closures[0].mattered, false);
  const tenVias = await get(`/v1/routes/what-if?from=NLRTM&to=SGSIN&closed=panama&via=${Array.from({ length: 10 }, (_, i) => `${i},-30`).join(';')}`);
  assert.equal(tenVias.status, 200, tenVias.text);
  assert.equal(tenVias.body.data.via.length, 10);
});

test('explain: Rotterdam–Singapore through Suez, its segments and the alternatives without each passage', async () => {
  const res = await get('/v1/routes/explain?from=NLRTM&to=SGSIN');
  assert.equal(res.status, 200, res.text);
  const d = res.body.data;
  assert.deepEqual(d.passages, ['dover', 'gibraltar', 'suez', 'babelmandeb', 'malacca']);
  assert.deepEqual(
    d.segments.map((s: { from: string; to: string }) => `${s.from}>${s.to}`),
    ['origin>dover', 'dover>gibraltar', 'gibraltar>suez', 'suez>babelmandeb', 'babelmandeb>malacca', 'malacca>destination'],
  );
  near(
    d.segments.reduce((s: number, x: { distance_nm: number }) => s + x.distance_nm, 0),
    d.distance_nm,
    0.5,
  );
  assert.deepEqual(d.alternatives.map((a: { without: string }) => a.without).sort(), ['babelmandeb', 'dover', 'gibraltar', 'malacca', 'suez']);
  const withoutSuez = d.alternatives.find((a: { without: string }) => a.without === 'suez');
  assert.deepEqual(withoutSuez.passages, ['dover', 'good_hope']);
  near(withoutSuez.extra_nm, 3470, 70);
  assert.equal(withoutSuez.extra_nm, r1(withoutSuez.distance_nm - d.distance_nm));
  for (const a of d.alternatives) assert.ok(a.extra_nm > 0, a.without);
  const extras = d.alternatives.map((a: { extra_nm: number }) => a.extra_nm);
  assert.deepEqual(
    extras,
    [...extras].sort((a, b) => a - b),
  );
  assert.deepEqual(d.unavoidable, []);
  assert.deepEqual(d.avoided_by_default, ['corinth', 'northwest', 'northeast']);
  assert.match(d.reason, /avoiding suez costs 3\d{3}\.\d nm more/);

  const open = (await get('/v1/routes/explain?from=CNSGH&to=USLAX')).body.data;
  assert.deepEqual([open.passages, open.alternatives, open.segments.length], [[], [], 1]);
  assert.match(open.reason, /No passage/);
});

test('summary: pairs answered and remembered; summary/latest gives the calling agent its own, newest first, with exact ages', async () => {
  const agent = await app.registerAgent('summariser');
  const t0 = app.clock.now();
  const first = await get('/v1/routes/summary?pairs=NLRTM:SGSIN;USHOU:NLRTM&ship_type=tanker', agent.apiKey);
  assert.equal(first.status, 200, first.text);
  const s = first.body.data.summaries;
  assert.deepEqual(
    s.map((x: { from_port: { locode: string }; to_port: { locode: string } }) => `${x.from_port.locode}>${x.to_port.locode}`),
    ['NLRTM>SGSIN', 'USHOU>NLRTM'],
  );
  assert.equal(s[0].speed_kn, 13);
  assert.equal(s[0].duration_hours, r1(s[0].distance_nm / 13));
  assert.equal(s[0].computed_at, new Date(t0).toISOString());
  assert.equal(first.body.data.max_pairs, 10);

  app.clock.advance(90 * SECOND);
  const second = await get('/v1/routes/summary?pairs=BRSSZ:CNQIN', agent.apiKey);
  assert.deepEqual(second.body.data.summaries[0].passages.includes('good_hope'), true);
  app.clock.advance(30 * SECOND);

  const latest = await get('/v1/routes/summary/latest', agent.apiKey);
  assert.equal(latest.status, 200, latest.text);
  const l = latest.body.data;
  assert.equal(l.kept, 3);
  assert.deepEqual(
    l.summaries.map((x: { from: string; to: string; age_seconds: number }) => [x.from, x.to, x.age_seconds]),
    [
      ['BRSSZ', 'CNQIN', 30],
      ['USHOU', 'NLRTM', 120],
      ['NLRTM', 'SGSIN', 120],
    ],
  );
  assert.equal(l.summaries[2].distance_nm, s[0].distance_nm);
  const one = await get('/v1/routes/summary/latest?limit=1', agent.apiKey);
  assert.equal(one.body.data.summaries.length, 1);

  // recomputing a pair refreshes it rather than adding a second one
  app.clock.advance(10 * SECOND);
  await get('/v1/routes/summary?pairs=NLRTM:SGSIN&ship_type=tanker', agent.apiKey);
  const again = (await get('/v1/routes/summary/latest', agent.apiKey)).body.data;
  assert.equal(again.kept, 3);
  assert.deepEqual(
    again.summaries.map((x: { from: string; age_seconds: number }) => [x.from, x.age_seconds]),
    [
      ['NLRTM', 0],
      ['BRSSZ', 40],
      ['USHOU', 130],
    ],
  );

  // another agent sees none of them
  const other = await app.registerAgent('stranger');
  const theirs = await get('/v1/routes/summary/latest', other.apiKey);
  assert.deepEqual(theirs.body.data, { summaries: [], kept: 0 });
  assert.deepEqual(theirs.body.quality_flags, ['no_summaries_computed']);
});

test('portfolio: per-pair results, a bad pair inline, totals over the routed pairs', async () => {
  const res = await get('/v1/routes/portfolio?pairs=NLRTM:SGSIN;NLXXX:SGSIN;CNSGH:USLAX;CNQIN:CNQIN;NLRTM:USDLH&ship_type=container');
  assert.equal(res.status, 200, res.text);
  const d = res.body.data;
  assert.deepEqual(
    d.pairs.map((p: { error: { code: string; field: string } | null }) => (p.error === null ? 'ok' : `${p.error.code}@${p.error.field}`)),
    ['ok', 'port_not_found@query.pairs[1].from', 'ok', 'same_origin_destination@query.pairs[3].to', 'point_off_network@query.pairs[4].to'],
  );
  assert.deepEqual(res.body.quality_flags, ['some_pairs_failed']);
  const [rs, , sl] = d.pairs;
  near(sl.result.distance_nm, 5900, 120);
  assert.deepEqual([d.totals.pairs, d.totals.routed, d.totals.failed], [5, 2, 3]);
  assert.equal(d.totals.distance_nm, r1(rs.result.distance_nm + sl.result.distance_nm));
  assert.equal(d.totals.duration_days, r2(d.totals.distance_nm / 18 / 24));
  assert.deepEqual(
    d.totals.passages.map((p: { id: string; pairs: number }) => [p.id, p.pairs]),
    [
      ['babelmandeb', 1],
      ['dover', 1],
      ['gibraltar', 1],
      ['malacca', 1],
      ['suez', 1],
    ],
  );
  const counted = (await get('/v1/routes/portfolio?pairs=NLRTM:SGSIN;SGSIN:NLRTM;USHOU:NLRTM')).body.data.totals.passages;
  assert.deepEqual(counted[0], { id: 'dover', name: 'Strait of Dover', pairs: 3 });
  assert.equal(counted.find((p: { id: string }) => p.id === 'suez').pairs, 2);
});

test('scenario: Suez closed and slow steaming on given pairs, per pair and total deltas', async () => {
  const res = await get('/v1/routes/scenario?pairs=NLRTM:SGSIN;CNSGH:USLAX;NLXXX:SGSIN&closed=suez&speed_factor=0.8&ship_type=container');
  assert.equal(res.status, 200, res.text);
  const d = res.body.data;
  assert.deepEqual([d.pairs_source, d.window, d.closed, d.baseline_speed_kn, d.scenario_speed_kn], ['query', null, ['suez'], 18, 14.4]);
  const [rs, sl, bad] = d.pairs;
  assert.deepEqual(rs.scenario.passages, ['dover', 'good_hope']);
  near(rs.delta.distance_nm, 3470, 70);
  near(rs.delta.hours, rs.scenario.distance_nm / 14.4 - rs.baseline.distance_nm / 18, 0.1);
  assert.equal(sl.delta.distance_nm, 0);
  near(sl.delta.hours, sl.baseline.distance_nm / 14.4 - sl.baseline.distance_nm / 18, 0.1);
  // Same distance at 0.8 of the speed: power ~ speed^3, time ~ 1/speed, so fuel ~ speed^2 = 0.64 of the baseline.
  near(sl.scenario.fuel_t / sl.baseline.fuel_t, 0.64, 0.002);
  near(sl.delta.fuel_t, sl.scenario.fuel_t - sl.baseline.fuel_t, 0.1);
  assert.ok(sl.delta.co2_t < 0, 'slow steaming saves CO2');
  near(d.totals.baseline_fuel_t, rs.baseline.fuel_t + sl.baseline.fuel_t, 0.2);
  near(d.totals.delta.fuel_t, d.totals.scenario_fuel_t - d.totals.baseline_fuel_t, 0.2);
  assert.equal(bad.error.code, 'port_not_found');
  assert.deepEqual([d.totals.routed, d.totals.failed], [2, 1]);
  near(d.totals.baseline_nm, rs.baseline.distance_nm + sl.baseline.distance_nm, 0.1);
  near(d.totals.delta.distance_nm, rs.delta.distance_nm, 0.1);
  near(d.totals.delta.hours, rs.delta.hours + sl.delta.hours, 0.2);
  assert.deepEqual(res.body.quality_flags, ['some_pairs_failed']);

  const kn = (await get('/v1/routes/scenario?pairs=NLRTM:SGSIN&speed_kn=10')).body.data;
  assert.deepEqual([kn.closed, kn.baseline_speed_kn, kn.scenario_speed_kn, kn.pairs[0].delta.distance_nm], [[], 14, 10, 0]);
  near(kn.pairs[0].delta.hours, kn.pairs[0].baseline.distance_nm / 10 - kn.pairs[0].baseline.distance_nm / 14, 0.1);
  const stuck = (await get('/v1/routes/scenario?pairs=TRIST:UAODS&closed=bosporus')).body.data.pairs[0];
  assert.deepEqual([stuck.error.code, stuck.baseline], ['route_unreachable', null]);
});

test("scenario without pairs: the busiest lanes of top-lanes' window (30 whole days), the same pairs and counts as top-lanes, or an empty set said so", async () => {
  const empty = await get('/v1/routes/scenario?closed=suez');
  assert.equal(empty.status, 200, empty.text);
  assert.deepEqual([empty.body.data.pairs_source, empty.body.data.pairs, empty.body.data.totals.routed], ['busiest_port_pairs', [], 0]);
  assert.ok(empty.body.quality_flags.includes('no_port_pairs_in_window'));

  const routes = app.bosun.ctx.services.routes;
  const id = (locode: string) => routes.resolvePlace(locode, 'test').port!.port_id;
  const [rtm, sin, hou] = [id('NLRTM'), id('SGSIN'), id('USHOU')];
  const now = app.clock.now();
  const call = (vslId: string, portId: number, arrival: number) =>
    portCallRow({ vsl_id: vslId, port_id: portId, arrival, departure: arrival + 12 * HOUR, berth_ms: 12 * HOUR, fixes: 50, updated_at: now });
  await createEventsRepo(app.bosun.ctx.store.db, app.bosun.ctx.services.ports).upsertCalls([
    call('vsl_p1', rtm, now - 20 * DAY),
    call('vsl_p1', sin, now - 5 * DAY),
    call('vsl_p2', rtm, now - 25 * DAY),
    call('vsl_p2', sin, now - 3 * DAY),
    call('vsl_p3', hou, now - 12 * DAY),
    call('vsl_p3', rtm, now - 2 * DAY),
    // outside the window (older than 30 days before the caller's horizon) and inside the preview delay
    call('vsl_p4', hou, now - 40 * DAY),
    call('vsl_p4', sin, now - 35 * DAY),
    call('vsl_p5', hou, now - 4 * DAY),
    call('vsl_p5', sin, now - 1 * HOUR),
  ]);
  const res = await get('/v1/routes/scenario?closed=suez');
  const d = res.body.data;
  // top-lanes' default window: 30 whole UTC days ending at the caller's horizon (now − 14 h) rounded down to 00:00 (issue 28)
  const until = Math.floor((now - 14 * HOUR) / DAY) * DAY;
  assert.deepEqual(d.window, {
    since: new Date(until - 30 * DAY).toISOString(),
    until: new Date(until).toISOString(),
    days: 30,
    coverage_start: new Date(until - 30 * DAY).toISOString(),
    days_with_data: 30,
  });
  const lanes = (await get('/v1/routes/top-lanes')).body.data;
  assert.deepEqual(lanes.window, d.window);
  assert.deepEqual(
    lanes.items.map((l: { from: { port_id: number }; to: { port_id: number }; voyages: number }) => [l.from.port_id, l.to.port_id, l.voyages]),
    d.pairs.map((p: { from: string; to: string; voyages: number }) => [Number(p.from), Number(p.to), p.voyages]),
  );
  assert.deepEqual(
    d.pairs.map((p: { from: string; to: string; voyages: number }) => [Number(p.from), Number(p.to), p.voyages]),
    [
      [rtm, sin, 2],
      [hou, rtm, 1],
    ],
  );
  near(d.pairs[0].delta.distance_nm, 3470, 70);
  assert.equal(d.pairs[1].delta.distance_nm, 0);
  assert.ok(!res.body.quality_flags.includes('no_port_pairs_in_window'));
});

test('pair limits at their edge: summary 10, portfolio 25, scenario 10', async () => {
  const cases: [string, number][] = [
    ['summary', 10],
    ['portfolio', 25],
    ['scenario', 10],
  ];
  for (const [op, max] of cases) {
    const ok = await get(`/v1/routes/${op}?pairs=${repeat('NLRTM:SGSIN', max)}`);
    assert.equal(ok.status, 200, `${op}: ${ok.text}`);
    assert.equal(ok.body.data.pairs?.length ?? ok.body.data.summaries.length, max);
    const over = await get(`/v1/routes/${op}?pairs=${repeat('NLRTM:SGSIN', max + 1)}`);
    assert.equal(over.status, 400, op);
    assert.deepEqual([over.body.errors[0].code, over.body.errors[0].field], ['too_many_pairs', 'query.pairs']);
  }
});

test('route planning: every refusal is a clear 4xx with its code and field', async () => {
  const cases: [string, number, string, string | undefined][] = [
    ['/v1/routes/what-if?from=NLRTM&to=SGSIN&closed=atlantis', 400, 'unknown_passage', 'query.closed'],
    ['/v1/routes/what-if?from=NLRTM&to=SGSIN&closed=oresund', 400, 'unknown_passage', 'query.closed'],
    ['/v1/routes/what-if?from=NLRTM&to=SGSIN&closed=,', 400, 'invalid_request', 'query.closed'],
    ['/v1/routes/what-if?from=NLRTM&to=SGSIN', 400, 'invalid_request', undefined],
    ['/v1/routes/what-if?from=NLRTM&to=SGSIN&closed=suez,good_hope,cape_horn,magellan,panama', 422, 'route_unreachable', undefined],
    ['/v1/routes/what-if?from=NLXXX&to=SGSIN&closed=suez', 404, 'port_not_found', 'query.from'],
    ['/v1/routes/what-if?from=NLRTM&to=USDLH&closed=suez', 422, 'point_off_network', 'query.to'],
    ['/v1/routes/what-if?from=NLRTM&to=NLRTM&closed=suez', 400, 'same_origin_destination', 'query.to'],
    ['/v1/routes/what-if?from=Rotterdam&to=SGSIN&closed=suez', 400, 'invalid_request', 'query.from'],
    ['/v1/routes/what-if?from=NLRTM&to=SGSIN&closed=suez&via=GRPIR;GRPIR', 400, 'same_origin_destination', 'query.via[1]'],
    [`/v1/routes/what-if?from=NLRTM&to=SGSIN&closed=suez&via=${Array.from({ length: 11 }, (_, i) => `${i},-30`).join(';')}`, 400, 'too_many_vias', 'query.via'],
    ['/v1/routes/explain?from=NLRTM&to=SGSIN&speed_kn=0', 400, 'invalid_request', undefined],
    ['/v1/routes/explain?from=NLRTM&to=31140', 400, 'same_origin_destination', 'query.to'],
    ['/v1/routes/explain?from=USDLH&to=SGSIN', 422, 'point_off_network', 'query.from'],
    ['/v1/routes/explain?from=99999999&to=SGSIN', 404, 'port_not_found', 'query.from'],
    ['/v1/routes/explain?from=TRIST&to=UAODS&closed=suez', 400, 'invalid_request', undefined],
    ['/v1/routes/summary?pairs=NLRTM-SGSIN', 400, 'invalid_request', 'query.pairs[0]'],
    ['/v1/routes/summary?pairs=;;', 400, 'invalid_request', 'query.pairs'],
    ['/v1/routes/summary?pairs=NLRTM:SGSIN;NLXXX:SGSIN', 404, 'port_not_found', 'query.pairs[1].from'],
    ['/v1/routes/summary?pairs=NLRTM:USDLH', 422, 'point_off_network', 'query.pairs[0].to'],
    ['/v1/routes/summary?pairs=SGSIN:SGSIN', 400, 'same_origin_destination', 'query.pairs[0].to'],
    ['/v1/routes/summary/latest?limit=0', 400, 'invalid_request', undefined],
    ['/v1/routes/summary/latest?limit=51', 400, 'invalid_request', undefined],
    ['/v1/routes/portfolio?pairs=NLRTM:SGSIN:USHOU', 400, 'invalid_request', 'query.pairs[0]'],
    ['/v1/routes/scenario?pairs=NLRTM:SGSIN&speed_kn=10&speed_factor=0.8', 400, 'invalid_request', 'query.speed_factor'],
    ['/v1/routes/scenario?pairs=NLRTM:SGSIN&closed=taiwan_strait', 400, 'unknown_passage', 'query.closed'],
    ['/v1/routes/scenario?pairs=NLRTM:SGSIN&speed_factor=3', 400, 'invalid_request', undefined],
  ];
  for (const [path, status, code, field] of cases) {
    const res = await get(path);
    assert.equal(res.status, status, `${path}: ${res.text}`);
    assert.equal(res.body.errors[0].code, code, path);
    if (field !== undefined) assert.equal(res.body.errors[0].field, field, path);
  }
  // summary/latest is unaffected by refused summaries
  const fresh = await app.registerAgent('refused');
  await get('/v1/routes/summary?pairs=NLRTM:SGSIN;NLXXX:SGSIN', fresh.apiKey);
  assert.equal((await get('/v1/routes/summary/latest', fresh.apiKey)).body.data.kept, 0);
  for (const op of ['what-if?from=NLRTM&to=SGSIN&closed=suez', 'explain?from=NLRTM&to=SGSIN', 'summary?pairs=NLRTM:SGSIN', 'summary/latest', 'portfolio?pairs=NLRTM:SGSIN', 'scenario']) {
    assert.equal((await app.api('GET', `/v1/routes/${op}`)).status, 401, op);
  }
});
