import assert from 'node:assert/strict';
import test from 'node:test';
import { budgetView } from '../../../src/features/routes/readiness/budget-guard.js';
import { engineCheck, freshnessCheck, readinessOf } from '../../../src/features/routes/readiness/readiness-checks.js';
import { schemaCoverageFacts, type ContractRow } from '../../../src/features/routes/readiness/readiness-contracts.js';
import { errorRateOf, operationRegressions, releaseFactsOf, rolloutView, regressionFactsOf } from '../../../src/features/routes/readiness/readiness-gates.js';
import { judge } from '../../../src/features/routes/readiness/readiness-rules.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;

test('judge: no value is no data; at_least and at_most compare with the threshold included', () => {
  assert.equal(judge(null, 1, 'at_least'), 'no_data');
  assert.equal(judge(1, 1, 'at_least'), 'pass');
  assert.equal(judge(0.5, 1, 'at_least'), 'fail');
  assert.equal(judge(0.01, 0.01, 'at_most'), 'pass');
  assert.equal(judge(0.02, 0.01, 'at_most'), 'fail');
});

test('readiness checks: a network that did not load fails with its message; ready only when every check passes', () => {
  const engine = engineCheck(new Error('no file'));
  assert.deepEqual([engine.pass, engine.value, engine.detail], [false, null, 'the network did not load: no file']);
  const stale = freshnessCheck({ age_seconds: 7200, observed_at: 0, simulated: true }, 3600);
  assert.equal(stale.pass, false);
  const facts = readinessOf(5, [engine, stale], 7, 3600, { age_seconds: 7200, observed_at: 0, simulated: true });
  assert.deepEqual([facts.ready, facts.passed, facts.total, facts.flags], [false, 0, 2, ['simulated_source']]);
});

function row(operationId: string, parts: Partial<ContractRow>): ContractRow {
  return {
    operation_id: operationId,
    method: 'GET',
    path: `/v1/routes/${operationId}`,
    status: 'implemented',
    access: 'public',
    cost: 1,
    stability: 'stable',
    parameters: [],
    query_schema: true,
    response_schema: true,
    errors: ['bad_request'],
    examples: 1,
    ...parts,
  } as ContractRow;
}

test('schema coverage: shares of the implemented operations and the gaps of each', () => {
  const facts = schemaCoverageFacts([row('a', {}), row('b', { examples: 0, errors: [] }), row('c', { status: 'planned', query_schema: null, response_schema: null, errors: null, examples: null })]);
  assert.deepEqual([facts.operations, facts.implemented, facts.planned], [3, 2, 1]);
  assert.deepEqual(facts.with_examples, { count: 1, share: 0.5 });
  assert.deepEqual(facts.complete, { count: 1, share: 0.5 });
  assert.deepEqual(facts.gaps, [{ operation_id: 'b', missing: ['examples', 'declared_errors'] }]);
});

test('regressions: compared only with enough requests in both windows; a p95 1.5× and 50 ms slower regresses', () => {
  const split = 1000;
  const records = [
    ...Array.from({ length: 10 }, (_, i) => ({ operation_id: 'slow', ts: split + i, status: 200, latency_ms: 200 })),
    ...Array.from({ length: 10 }, (_, i) => ({ operation_id: 'slow', ts: split - 1 - i, status: 200, latency_ms: 100 })),
    ...Array.from({ length: 9 }, (_, i) => ({ operation_id: 'few', ts: split + i, status: 500, latency_ms: 900 })),
    ...Array.from({ length: 10 }, (_, i) => ({ operation_id: 'few', ts: split - 1 - i, status: 200, latency_ms: 10 })),
  ];
  const [slow, few] = operationRegressions(records, split);
  assert.deepEqual([slow!.operation_id, slow!.compared, slow!.regressions, slow!.latency_p95_change_ms], ['slow', true, ['latency_p95'], 100]);
  assert.deepEqual([few!.operation_id, few!.compared, few!.regressions], ['few', false, []]);
});

test('release gate and rollout: a failing criterion is no_go; the score weighs the parts with data', () => {
  const ready = readinessOf(0, [engineCheck(new Error('x'))], 7, 3600, null);
  const schema = schemaCoverageFacts([row('a', {})]);
  const bench = { summary: { pairs: 1, with_reference: 1, within_tolerance: 1, share_within: 1, median_time_ms: 1 } };
  const release = releaseFactsOf(24, ready, schema, bench, errorRateOf([]));
  assert.equal(release.verdict, 'no_go');
  assert.deepEqual(
    release.criteria.map((c) => c.status),
    ['fail', 'pass', 'pass', 'no_data'],
  );
  assert.deepEqual(release.flags, ['no_telemetry_in_window']);
  const regression = regressionFactsOf(24, 10 * DAY, [], [], 100);
  const rollout = rolloutView(release, regression, 10 * DAY);
  // readiness 0 (weight 40), release 2 of 3 with data (weight 30), regression: nothing watched
  assert.equal(rollout.data.score, 28.6);
  assert.equal(rollout.data.grade, 'hold');
  assert.deepEqual(rollout.qualityFlags, ['no_telemetry_in_window', 'partial_score']);
});

test('budget guard: spend per operation and day, the rate and when the budget runs out', () => {
  const now = 10 * DAY + 12 * HOUR;
  const start = 9 * DAY;
  const lines = [
    { operation_id: 'getRoutesDirect', day: '1970-01-10', calls: 10, cost_milli: 10_000 },
    { operation_id: 'getRoutesSummary', day: '1970-01-11', calls: 2, cost_milli: 20_000 },
  ];
  const allowance = { cost_units_per_day: null, cost_units_per_month: null, enforced: false, note: '' };
  const view = budgetView({ agentId: 'a1', days: 2, now, start, budget: 60, agentSince: 0 }, lines, allowance).data;
  assert.deepEqual(view.spend, { calls: 12, cost_units: 30, cost_milli_units: 30_000 });
  assert.deepEqual(view.rate, { cost_units_per_day: 20, calls_per_day: 8 });
  assert.deepEqual(view.projection, { remaining_units: 30, reached: false, days_to_budget: 1.5, reach_at: '1970-01-13T00:00:00.000Z' });
  assert.deepEqual(
    view.operations.map((o) => o.operation_id),
    ['getRoutesSummary', 'getRoutesDirect'],
  );
  const none = budgetView({ agentId: 'a1', days: 2, now, start, budget: null, agentSince: 0 }, [], allowance);
  assert.deepEqual(none.qualityFlags, ['no_spend_in_window', 'no_budget_limit']);
});

test('budget guard: an agent registered 10 minutes ago that spent 5.88 units runs at its pace of minutes, not diluted over the window (issue 28)', () => {
  const now = 20 * DAY + 10 * HOUR;
  const start = 14 * DAY;
  const agentSince = now - 10 * 60_000;
  const lines = [{ operation_id: 'getRoutesScenario', day: '1970-01-21', calls: 13, cost_milli: 5880 }];
  const allowance = { cost_units_per_day: null, cost_units_per_month: null, enforced: false, note: '' };
  const view = budgetView({ agentId: 'a1', days: 7, now, start, budget: 10, agentSince }, lines, allowance).data;
  const rateDays = 10 / (24 * 60);
  assert.deepEqual([view.window.rate_since, view.window.rate_days, view.window.elapsed_days], [new Date(agentSince).toISOString(), Math.round(rateDays * 10_000) / 10_000, 6.4167]);
  assert.equal(view.rate.cost_units_per_day, Math.round((5.88 / rateDays) * 10_000) / 10_000);
  // 4.12 units left at 0.588 a minute: 7 minutes (days_to_budget to 4 places, never rounded to 0)
  const msTo = (4.12 / 5.88) * 10 * 60_000;
  assert.deepEqual([view.projection!.reached, view.projection!.days_to_budget], [false, Math.round((msTo / DAY) * 10_000) / 10_000]);
  assert.equal(view.projection!.reach_at, new Date(now + Math.round(msTo)).toISOString());
});
