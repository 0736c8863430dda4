import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HOUR, MINUTE, iso } from '../../../src/platform/clock.js';
import { createScheduler, neverRun, type JobStatus } from '../../../src/jobs/scheduler.js';
import { createLogger } from '../../../src/observability/logger.js';
import { evaluateAlerts, jobHealth, overallState } from '../../../src/features/exchange/community/automation-rules.js';
import { isTestMarked, PRODUCTION_OPERATIONS } from '../../../src/features/exchange/community/activity-service.js';
import { effectiveTransferState, normalizeTags } from '../../../src/features/exchange/community/community-rules.js';

const T0 = Date.UTC(2026, 10, 24, 3, 0, 0);

function status(patch: Partial<JobStatus>): JobStatus {
  return { ...neverRun({ name: 'job', everyMs: 60_000 }), ...patch };
}

test('the scheduler records start, duration, failures and the next run of each job', async () => {
  let now = T0;
  const scheduler = createScheduler(createLogger('silent'), () => now);
  let fail = true;
  scheduler.add({
    name: 'hourly',
    everyMs: HOUR,
    run: async () => {
      now += 1500;
      if (fail) throw new Error('no store');
      return 'done';
    },
  });
  const [fresh] = scheduler.statuses();
  assert.deepEqual([fresh!.runs, fresh!.next_run_at, fresh!.scheduled_since, scheduler.started()], [0, null, null, false]);

  scheduler.start();
  try {
    assert.equal(scheduler.started(), true);
    now += 10 * MINUTE;
    assert.equal(scheduler.statuses()[0]!.next_run_at, iso(T0 + HOUR));
    await scheduler.runNow('hourly');
    let s = scheduler.statuses()[0]!;
    assert.deepEqual(
      [s.runs, s.failures, s.consecutive_failures, s.last_error, s.last_duration_ms, s.last_started_at, s.last_failure_at, s.last_success_at, s.running],
      [1, 1, 1, 'no store', 1500, iso(T0 + 10 * MINUTE), iso(T0 + 10 * MINUTE + 1500), null, false],
    );
    fail = false;
    now = T0 + HOUR + 5 * MINUTE;
    await scheduler.runNow('hourly');
    s = scheduler.statuses()[0]!;
    assert.deepEqual([s.runs, s.failures, s.consecutive_failures, s.last_error, s.last_result, s.next_run_at], [2, 1, 0, null, 'done', iso(T0 + 2 * HOUR)]);
  } finally {
    await scheduler.stop();
  }
  assert.equal(scheduler.statuses()[0]!.next_run_at, null);
});

test('alert rules: failing (warning, then critical from 3), stuck and late at their edges', () => {
  const scheduled = { scheduled_since: iso(T0) };
  // late: more than 2 intervals (at least a minute) without a start while scheduled
  const lateEdge = T0 + 2 * MINUTE;
  assert.deepEqual(evaluateAlerts([status(scheduled)], lateEdge), []);
  const late = evaluateAlerts([status(scheduled)], lateEdge + 1);
  assert.deepEqual(
    late.map((a) => [a.id, a.severity, a.since]),
    [['job_late:job', 'warning', iso(lateEdge)]],
  );
  assert.equal(jobHealth(status(scheduled), lateEdge + 1), 'late');
  assert.equal(jobHealth(status({}), lateEdge + HOUR), 'never_run', 'not scheduled: never late');
  const started = status({ ...scheduled, last_started_at: iso(T0 + MINUTE), runs: 1 });
  assert.equal(jobHealth(started, T0 + 3 * MINUTE), 'ok');
  assert.equal(jobHealth(started, T0 + 3 * MINUTE + 1), 'late');

  // stuck: running for more than 2 intervals
  const running = status({ running: true, last_started_at: iso(T0) });
  assert.deepEqual(evaluateAlerts([running], T0 + 2 * MINUTE), []);
  assert.deepEqual(
    evaluateAlerts([running], T0 + 2 * MINUTE + 1).map((a) => [a.condition, a.severity]),
    [['job_stuck', 'critical']],
  );

  const failing = (n: number) => status({ name: `f${n}`, consecutive_failures: n, failures: n, last_error: 'boom', last_failure_at: iso(T0) });
  assert.deepEqual(
    evaluateAlerts([failing(2), failing(3)], T0).map((a) => [a.id, a.severity]),
    [
      ['job_failing:f3', 'critical'],
      ['job_failing:f2', 'warning'],
    ],
  );
  assert.equal(overallState(evaluateAlerts([failing(2)], T0)), 'warning');
  assert.equal(overallState(evaluateAlerts([failing(3)], T0)), 'critical');
  assert.equal(overallState([]), 'ok');
});

test('community rules: test markers, production operations, tags and transfer expiry', () => {
  for (const [name, vendor, marked] of [
    ['harbour-pilot', 'acme', false],
    ['contest-bot', 'acme', false],
    ['smoke', 'ci-bot', true],
    ['Bench Runner', null, true],
    ['eta_test', 'acme', true],
    ['latest', 'attestation corp', false],
  ] as const) {
    assert.equal(isTestMarked({ name, vendor }), marked, `${name} / ${vendor}`);
  }
  assert.ok(PRODUCTION_OPERATIONS.includes('getPortsSearch'));
  assert.ok(PRODUCTION_OPERATIONS.includes('getExchangeSkills'));
  assert.ok(!PRODUCTION_OPERATIONS.includes('postAgentsRegister'));
  assert.ok(!PRODUCTION_OPERATIONS.includes('getHarborProfiles'));

  assert.deepEqual(normalizeTags([' AIS ', 'ais', 'eta.v2'], 'body.tags'), ['ais', 'eta.v2']);
  assert.throws(() => normalizeTags(['a'], 'body.tags'), /must match/);
  assert.equal(effectiveTransferState({ state: 'pending', expires_at: T0 }, T0 - 1), 'pending');
  assert.equal(effectiveTransferState({ state: 'pending', expires_at: T0 }, T0), 'expired');
  assert.equal(effectiveTransferState({ state: 'declined', expires_at: T0 }, T0 + HOUR), 'declined');
});
