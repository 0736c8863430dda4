import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CATALOG } from '../../src/catalog/entries.js';
import { DAY, HOUR, MINUTE } from '../../src/platform/clock.js';
import { ALL_ROUTES } from '../../src/features/index.js';
import { readPortTableFile } from '../../src/features/ports/port-table-file.js';
import { startTestApp, TEST_EPOCH, type TestApp } from '../helpers/app.js';
import { ingest, position } from '../helpers/fleet.js';
import { REFERENCE_PAIRS } from '../../src/routing/reference-pairs.js';
import { createEventsRepo } from '../../src/features/events/events-repo.js';
import { portCallRow, transitRow } from '../helpers/event-rows.js';
import { telemetryRow } from '../helpers/telemetry-rows.js';

const NOW = TEST_EPOCH;
const ROTTERDAM = readPortTableFile().ports.find((p) => p.locode === 'NLRTM')!;
let app: TestApp;
let key: string;

before(async () => {
  app = await startTestApp({ now: NOW });
  key = (await app.registerAgent('routes-ops-readiness')).apiKey;
});

after(async () => {
  await app?.close();
});

const get = (path: string, token = key) => app.api('GET', path, { token });
const db = () => app.bosun.ctx.store.db;
const ROUTES_ENTRIES = CATALOG.filter((e) => e.section === 'routes');
const BOUND = new Map(ALL_ROUTES.map((r) => [r.operationId, r]));

test('contract-matrix: every routes operation of the catalog, implemented ones with their parameters, errors and examples', async () => {
  const res = await get('/v1/routes/contract-matrix');
  assert.equal(res.status, 200, res.text);
  const d = res.body.data;
  const implemented = ROUTES_ENTRIES.filter((e) => BOUND.has(e.operationId));
  assert.deepEqual(d.counts, { operations: ROUTES_ENTRIES.length, implemented: implemented.length, planned: ROUTES_ENTRIES.length - implemented.length, listed: ROUTES_ENTRIES.length });
  const direct = d.operations.find((o: any) => o.operation_id === 'getRoutesDirect');
  assert.deepEqual(direct, {
    operation_id: 'getRoutesDirect',
    method: 'GET',
    path: '/v1/routes/direct',
    status: 'implemented',
    access: 'K',
    cost: 0.95,
    stability: 'beta',
    parameters: [
      { name: 'from', required: true, type: 'string' },
      { name: 'to', required: true, type: 'string' },
      { name: 'avoid', required: false, type: 'string' },
      { name: 'allow', required: false, type: 'string' },
      { name: 'speed_kn', required: false, type: 'number' },
      { name: 'ship_type', required: false, type: 'union' },
      { name: 'format', required: false, type: 'union' },
      { name: 'ship_class', required: false, type: 'union' },
      { name: 'loa_m', required: false, type: 'number' },
      { name: 'beam_m', required: false, type: 'number' },
      { name: 'draught_m', required: false, type: 'number' },
    ],
    query_schema: true,
    response_schema: true,
    errors: [...BOUND.get('getRoutesDirect')!.errors!],
    examples: BOUND.get('getRoutesDirect')!.examples.length,
  });
  const planned = ROUTES_ENTRIES.find((e) => !BOUND.has(e.operationId));
  if (planned) {
    const row = d.operations.find((o: any) => o.operation_id === planned.operationId);
    assert.deepEqual([row.status, row.parameters, row.errors, row.examples, row.cost], ['planned', null, null, null, planned.cost]);
  }
  const onlyPlanned = (await get('/v1/routes/contract-matrix?status=planned')).body.data;
  assert.equal(onlyPlanned.operations.length, ROUTES_ENTRIES.length - implemented.length);
  assert.ok(onlyPlanned.operations.every((o: any) => o.status === 'planned'));
  const bad = await get('/v1/routes/contract-matrix?status=done');
  assert.deepEqual([bad.status, bad.body.errors[0].code], [400, 'invalid_request']);
});

test('schema-coverage: shares of implemented routes operations with schemas, examples and declared errors', async () => {
  const res = await get('/v1/routes/schema-coverage');
  const d = res.body.data;
  const implemented = ROUTES_ENTRIES.filter((e) => BOUND.has(e.operationId)).map((e) => BOUND.get(e.operationId)!);
  const share = (n: number) => Math.round((n / implemented.length) * 10_000) / 10_000;
  const withErrors = implemented.filter((r) => (r.errors?.length ?? 0) > 0).length;
  const withQuery = implemented.filter((r) => r.query !== undefined).length;
  const complete = implemented.filter((r) => r.query !== undefined && (r.errors?.length ?? 0) > 0 && r.examples.length > 0).length;
  assert.deepEqual([d.operations, d.implemented, d.planned], [ROUTES_ENTRIES.length, implemented.length, ROUTES_ENTRIES.length - implemented.length]);
  assert.deepEqual(d.with_declared_errors, { count: withErrors, share: share(withErrors) });
  assert.deepEqual(d.with_query_schema, { count: withQuery, share: share(withQuery) });
  assert.deepEqual(d.complete, { count: complete, share: share(complete) });
  assert.equal(d.gaps.length, implemented.length - complete);
  // the data views of this feature are all complete
  assert.ok(!d.gaps.some((g: any) => g.operation_id === 'getRoutesDataFreshness'));
  const bad = await get('/v1/routes/schema-coverage?x=1');
  assert.deepEqual([bad.status, bad.body.errors[0].code], [400, 'invalid_request']);
});

test('benchmark: the reference pairs routed now, the same distances as routes/direct, cached five minutes', async () => {
  const res = await get('/v1/routes/benchmark?runs=1');
  assert.equal(res.status, 200, res.text);
  const d = res.body.data;
  assert.deepEqual([d.cached, d.age_seconds, d.runs_per_pair, d.tolerance_pct], [false, 0, 1, 4]);
  // the references are distances published by others (issue 28), never the engine's own figures
  assert.deepEqual(
    d.pairs.map((p: any) => [p.from, p.to, p.avoid, p.reference_nm, p.source]),
    REFERENCE_PAIRS.map((r) => [r.from, r.to, r.avoid, r.published_nm, r.source]),
  );
  assert.ok(!d.pairs.some((p: any) => p.from === 'CNSGH' && p.to === 'USLAX'), "Shanghai–Los Angeles had only the network's own figure");
  for (const p of d.pairs) {
    const direct = (await get(`/v1/routes/direct?from=${p.from}&to=${p.to}${p.avoid ? `&avoid=${p.avoid}` : ''}`)).body.data;
    assert.equal(p.distance_nm, direct.distance_nm, `${p.from}-${p.to}`);
    assert.deepEqual(
      p.passages,
      direct.passages.map((x: any) => x.id),
    );
    assert.deepEqual([p.time_ms.runs, p.error], [1, null]);
    const { min, max } = p.reference_nm;
    const dev = p.distance_nm < min ? (p.distance_nm - min) / min : p.distance_nm > max ? (p.distance_nm - max) / max : 0;
    assert.equal(p.deviation_pct, Math.round(dev * 100 * 100) / 100);
    const limit = REFERENCE_PAIRS.find((r) => r.from === p.from && r.to === p.to && r.avoid === p.avoid)!.short_sea ? 0.05 : 0.04;
    assert.equal(p.within_tolerance, Math.abs(dev) <= limit, `${p.from}-${p.to}`);
  }
  const within = d.pairs.filter((p: any) => p.within_tolerance).length;
  assert.deepEqual([d.summary.pairs, d.summary.with_reference, d.summary.within_tolerance], [REFERENCE_PAIRS.length, REFERENCE_PAIRS.length, within]);

  app.clock.advance(MINUTE);
  const again = (await get('/v1/routes/benchmark?runs=1')).body.data;
  assert.deepEqual([again.cached, again.age_seconds, again.computed_at], [true, 60, d.computed_at]);
  app.clock.advance(5 * MINUTE);
  const fresh = (await get('/v1/routes/benchmark?runs=1')).body.data;
  assert.deepEqual([fresh.cached, fresh.age_seconds], [false, 0]);
  for (const bad of ['runs=0', 'runs=6']) {
    const r = await get(`/v1/routes/benchmark?${bad}`);
    assert.deepEqual([r.status, r.body.errors[0].code], [400, 'invalid_request'], bad);
  }
  app.clock.set(NOW);
});

test('readiness, readiness-history: checks with values, snapshots at most once a minute from requests, the job, then ready', async () => {
  const first = await get('/v1/routes/readiness');
  assert.equal(first.status, 200, first.text);
  const r = first.body.data;
  const byName = Object.fromEntries(r.checks.map((c: any) => [c.name, c]));
  assert.deepEqual([r.ready, r.passed, r.total, r.snapshot_recorded], [false, 2, 4, true]);
  assert.equal(byName.engine_loaded.pass, true);
  assert.equal(byName.port_table.value, app.bosun.ctx.services.ports.table().length);
  assert.deepEqual([byName.event_layer.pass, byName.event_layer.value], [false, 0]);
  assert.deepEqual([byName.data_freshness.pass, byName.data_freshness.value, byName.data_freshness.detail], [false, null, 'no position is stored']);
  assert.equal((await get('/v1/routes/readiness')).body.data.snapshot_recorded, false, 'a second request within the minute records nothing');

  // state that passes: a position 10 min old, a port call 2 days ago, a transit 1 day ago
  app.clock.advance(2 * MINUTE);
  const now = app.clock.now();
  await ingest(app.bosun.ctx.services.fleet, position(244000111, now - 10 * MINUTE, 51.95, 3.6));
  await createEventsRepo(app.bosun.ctx.store.db, app.bosun.ctx.services.ports).upsertCalls([
    portCallRow({ vsl_id: 'vsl_call', port_id: ROTTERDAM.port_id, arrival: now - 2 * DAY, departure: now - 2 * DAY + 6 * HOUR, berth_ms: 6 * HOUR, fixes: 40, updated_at: now }),
  ]);
  await createEventsRepo(app.bosun.ctx.store.db, app.bosun.ctx.services.ports).upsertTransits([
    transitRow({ vsl_id: 'vsl_tr', zone: 'dover', direction: 'northeastbound', entered_at: now - DAY - HOUR, exited_at: now - DAY, fixes: 20, updated_at: now }),
  ]);
  const ready = (await get('/v1/routes/readiness?days=3&max_age_seconds=900')).body.data;
  assert.deepEqual([ready.ready, ready.passed, ready.snapshot_recorded], [true, 4, true]);
  const names = Object.fromEntries(ready.checks.map((c: any) => [c.name, c]));
  assert.deepEqual([names.event_layer.value, names.data_freshness.value, names.data_freshness.threshold], [2, 600, 900]);
  assert.equal(
    names.event_layer.detail,
    `1 port calls began and 1 chokepoint transits ended in the last 3 days (${new Date(now - 3 * DAY).toISOString()} to ${new Date(now).toISOString()}; transits as GET /v1/routes/corridors counts them over that range)`,
  );
  const short = (await get('/v1/routes/readiness?days=1&max_age_seconds=300')).body.data;
  assert.deepEqual(
    short.checks.map((c: any) => c.pass),
    [true, true, false, false],
    'the call began 2 days ago (outside), the transit ended exactly 1 day ago (outside: the corridors count transits that ended in (since, until]); data 600 s old > 300',
  );

  app.clock.advance(MINUTE);
  assert.deepEqual(await app.bosun.ctx.services.routesReadiness.snapshotJob(), { recorded: false, deleted: 0 }, 'the request snapshot is a minute old');
  app.clock.advance(7 * MINUTE);
  assert.equal((await app.bosun.ctx.services.routesReadiness.snapshotJob()).recorded, true);
  const hist = await get('/v1/routes/readiness-history?hours=1');
  const h = hist.body.data;
  assert.deepEqual([h.snapshots_in_window, h.ready_snapshots, h.ready_share, h.listed], [3, 2, 0.6667, 3]);
  assert.deepEqual(
    h.snapshots.map((s: any) => [s.origin, s.ready, s.passed]),
    [
      ['job', true, 4],
      ['request', true, 4],
      ['request', false, 2],
    ],
  );
  assert.equal(h.snapshots[0].checks.length, 4);
  const one = (await get('/v1/routes/readiness-history?limit=1')).body.data;
  assert.deepEqual([one.listed, one.snapshots_in_window], [1, 3]);
  app.clock.advance(2 * HOUR);
  const none = await get('/v1/routes/readiness-history?hours=1');
  assert.deepEqual([none.body.data.snapshots_in_window, none.body.data.ready_share, none.body.quality_flags], [0, null, ['no_snapshots_in_window']]);
  for (const bad of ['/v1/routes/readiness?days=0', '/v1/routes/readiness?max_age_seconds=10', '/v1/routes/readiness-history?limit=501', '/v1/routes/readiness-history?hours=721']) {
    const res = await get(bad);
    assert.deepEqual([res.status, res.body.errors[0].code], [400, 'invalid_request'], bad);
  }
});

test('release-readiness, regression-watch and rollout-score over request telemetry', async () => {
  // a fresh position and the events above keep readiness passing
  const now = app.clock.now();
  await ingest(app.bosun.ctx.services.fleet, position(244000111, now - MINUTE, 51.96, 3.61));
  const row = (operation_id: string, ts: number, status: number, latency_ms: number) => telemetryRow({ ts, operation_id, status, latency_ms, agent_id: 'agt_x', freshness_seconds: null });
  const rows = [];
  // previous window (24-48 h ago): direct 10 requests at 100 ms; explain 5
  for (let i = 0; i < 10; i++) rows.push(row('getRoutesDirect', now - 30 * HOUR - i * MINUTE, 200, 100));
  for (let i = 0; i < 5; i++) rows.push(row('getRoutesExplain', now - 30 * HOUR - i * MINUTE, 200, 40));
  // latest window: direct 10 requests at 200 ms, one a 500; explain 5 at 400 ms (too few to compare); a non-routes operation
  for (let i = 0; i < 10; i++) rows.push(row('getRoutesDirect', now - 2 * HOUR - i * MINUTE, i === 0 ? 500 : 200, 200));
  for (let i = 0; i < 5; i++) rows.push(row('getRoutesExplain', now - 2 * HOUR - i * MINUTE, 200, 400));
  rows.push(row('getVesselsLookup', now - HOUR, 500, 5));
  // the telemetry of this file's own requests is dropped: the windows hold only the rows below
  await app.bosun.ctx.services.telemetry.flush();
  await db().deleteFrom('request_telemetry').execute();
  await db().insertInto('request_telemetry').values(rows).execute();

  const rel = await get('/v1/routes/release-readiness?hours=24');
  assert.equal(rel.status, 200, rel.text);
  const g = rel.body.data;
  const c = Object.fromEntries(g.criteria.map((x: any) => [x.name, x]));
  const bench = (await get('/v1/routes/benchmark')).body.data;
  const share = bench.summary.share_within;
  assert.deepEqual([c.readiness.status, c.benchmark_accuracy.status, c.benchmark_accuracy.value], ['pass', share === 1 ? 'pass' : 'fail', share]);
  assert.deepEqual([c.server_error_rate.status, c.server_error_rate.value, g.window.routes_requests], ['fail', 0.0667, 15]);
  assert.equal(c.server_error_rate.detail, '1 server errors (5xx) in 15 routes requests in the last 24 h');
  assert.equal(c.schema_coverage.status, c.schema_coverage.value >= 0.9 ? 'pass' : 'fail');
  assert.equal(g.verdict, 'no_go');

  const reg = (await get('/v1/routes/regression-watch?hours=24')).body.data;
  // 30 rows, the release-readiness and benchmark requests just made
  assert.ok(reg.windows.telemetry_records >= 30 && reg.windows.telemetry_records <= 32, String(reg.windows.telemetry_records));
  const direct = reg.operations.find((o: any) => o.operation_id === 'getRoutesDirect');
  assert.deepEqual(direct, {
    operation_id: 'getRoutesDirect',
    latest: { requests: 10, server_error_rate: 0.1, latency_p95_ms: 200 },
    previous: { requests: 10, server_error_rate: 0, latency_p95_ms: 100 },
    compared: true,
    latency_p95_change_ms: 100,
    server_error_rate_change: 0.1,
    regressions: ['latency_p95', 'server_error_rate'],
  });
  const explain = reg.operations.find((o: any) => o.operation_id === 'getRoutesExplain');
  assert.deepEqual([explain.compared, explain.regressions, explain.latency_p95_change_ms], [false, [], 360]);
  assert.deepEqual(
    reg.regressions.filter((r: any) => r.kind !== 'benchmark_distance'),
    [
      { kind: 'latency_p95', subject: 'getRoutesDirect' },
      { kind: 'server_error_rate', subject: 'getRoutesDirect' },
    ],
  );
  assert.equal(reg.regressions.filter((r: any) => r.kind === 'benchmark_distance').length, reg.benchmark.filter((b: any) => b.regressed).length);
  assert.equal(reg.benchmark.length, REFERENCE_PAIRS.length);
  const regressedPairs = reg.benchmark.filter((b: any) => b.regressed).length;
  assert.equal(regressedPairs, REFERENCE_PAIRS.length - bench.summary.within_tolerance);

  const roll = await get('/v1/routes/rollout-score?hours=24');
  const s = roll.body.data;
  const schemaPass = c.schema_coverage.status === 'pass' ? 1 : 0;
  const release = (1 + (c.benchmark_accuracy.status === 'pass' ? 1 : 0) + schemaPass) / 4;
  // watched: getRoutesDirect (compared) and the reference pairs; getRoutesDirect and the pairs outside tolerance regressed
  const regression = 1 - (1 + regressedPairs) / (1 + REFERENCE_PAIRS.length);
  assert.deepEqual(
    s.components.map((x: any) => [x.name, x.weight, x.score]),
    [
      ['readiness', 40, 100],
      ['release', 30, Math.round(release * 1000) / 10],
      ['regression', 30, Math.round(regression * 1000) / 10],
    ],
  );
  assert.equal(s.score, Math.round((40 + 30 * release + 30 * regression) * 10) / 10);
  assert.equal(s.weight_measured, 100);
  assert.equal(s.release_verdict, 'no_go');
  for (const bad of ['/v1/routes/release-readiness?hours=0', '/v1/routes/regression-watch?hours=169', '/v1/routes/rollout-score?hours=x']) {
    const res = await get(bad);
    assert.deepEqual([res.status, res.body.errors[0].code], [400, 'invalid_request'], bad);
  }
});

test('budget-guard: the agent spend on routes operations from the usage ledger, its rate and when it reaches the budget', async () => {
  app.clock.set(NOW - 2 * DAY); // the agent registers on 2026-11-19, before its first spend
  const agent = await app.registerAgent('routes-ops-budget');
  app.clock.set(NOW + 12 * HOUR); // 2026-11-21 12:00: a 7-day window from 2026-11-15 00:00 has 6.5 days elapsed, 1.5 since the first spend
  const line = (day: string, operation_id: string, calls: number, cost_milli: number, agentId = agent.agentId) => ({
    day,
    caller_kind: 'agent',
    agent_id: agentId,
    operation_id,
    calls,
    charged_calls: calls,
    cost_milli,
    updated_at: NOW,
    last_call_at: NOW,
  });
  await db()
    .insertInto('usage_ledger')
    .values([
      line('2026-11-20', 'getRoutesDirect', 2, 1900),
      line('2026-11-21', 'getRoutesExplain', 1, 550),
      line('2026-11-20', 'getVesselsLookup', 1, 600), // not a routes operation
      line('2026-11-10', 'getRoutesDirect', 5, 4750), // before the window
      line('2026-11-20', 'getRoutesDirect', 9, 8550, 'agt_someone_else'),
    ])
    .execute();
  const res = await get('/v1/routes/budget-guard?days=7&budget_units=10', agent.apiKey);
  assert.equal(res.status, 200, res.text);
  const d = res.body.data;
  // the pace runs from the first day with spend (2026-11-20), not from the window start
  assert.deepEqual(d.window, { days: 7, since: '2026-11-15T00:00:00.000Z', until: '2026-11-21T12:00:00.000Z', elapsed_days: 6.5, rate_since: '2026-11-20T00:00:00.000Z', rate_days: 1.5 });
  assert.deepEqual(d.spend, { calls: 3, cost_units: 2.45, cost_milli_units: 2450 });
  const rate = 2.45 / 1.5;
  assert.deepEqual(d.rate, { cost_units_per_day: Math.round(rate * 10_000) / 10_000, calls_per_day: 2 });
  const days = 7.55 / rate;
  assert.deepEqual(d.projection, {
    remaining_units: 7.55,
    reached: false,
    days_to_budget: Math.round(days * 10_000) / 10_000,
    reach_at: new Date(NOW + 12 * HOUR + Math.round(days * DAY)).toISOString(),
  });
  assert.deepEqual(
    d.operations.map((o: any) => [o.operation_id, o.calls, o.cost_units]),
    [
      ['getRoutesDirect', 2, 1.9],
      ['getRoutesExplain', 1, 0.55],
    ],
  );
  assert.deepEqual(
    d.days.map((x: any) => [x.day, x.calls, x.cost_units]),
    [
      ['2026-11-20', 2, 1.9],
      ['2026-11-21', 1, 0.55],
    ],
  );
  assert.deepEqual([d.budget.source, d.budget.allowance.enforced, res.body.quality_flags], ['budget_units', false, []]);

  const reached = (await get('/v1/routes/budget-guard?days=2&budget_units=2', agent.apiKey)).body.data;
  assert.deepEqual(reached.projection.reached, true);
  const noBudget = await get('/v1/routes/budget-guard?days=1', agent.apiKey);
  assert.equal(noBudget.body.data.projection, null);
  assert.ok(noBudget.body.quality_flags.includes('no_budget_limit'));
  const fresh = await app.registerAgent('routes-ops-idle');
  const idle = await get('/v1/routes/budget-guard?budget_units=5', fresh.apiKey);
  assert.deepEqual([idle.body.data.spend.calls, idle.body.data.rate.cost_units_per_day, idle.body.data.projection.days_to_budget, idle.body.quality_flags], [0, 0, null, ['no_spend_in_window']]);
  for (const bad of ['budget_units=0', 'budget_units=-3', 'days=32', 'days=0']) {
    const r = await get(`/v1/routes/budget-guard?${bad}`, agent.apiKey);
    assert.deepEqual([r.status, r.body.errors[0].code], [400, 'invalid_request'], bad);
  }
  const operator = await app.api('GET', '/v1/routes/budget-guard', { token: await app.operatorToken() });
  assert.deepEqual([operator.status, operator.body.errors[0].code], [403, 'agent_key_required']);
  const anonymous = await app.api('GET', '/v1/routes/budget-guard');
  assert.equal(anonymous.status, 401);
});
