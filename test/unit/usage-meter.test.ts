import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ManualClock } from '../../src/platform/clock.js';
import { periodStarts } from '../../src/features/billing/billing-service.js';
import { createUsageMeter, fromMilli, toMilli, USAGE_BUFFER_LINES, utcDay } from '../../src/features/billing/usage-meter.js';
import type { UsageRepo, UsageRow } from '../../src/features/billing/usage-repo.js';

function fakeRepo(options: { failTimes?: number } = {}) {
  const batches: UsageRow[][] = [];
  let failures = options.failTimes ?? 0;
  const repo = {
    async addBatch(rows: readonly UsageRow[]) {
      if (failures > 0) {
        failures--;
        throw new Error('store down');
      }
      batches.push(rows.map((r) => ({ ...r })));
    },
  } as unknown as UsageRepo;
  return { repo, batches };
}

const T12 = Date.UTC(2026, 10, 21, 12);
const call = (over: Partial<{ ts: number; operation_id: string; caller_kind: string; agent_id: string | null; cost_units: number; status: number }> = {}) => ({
  ts: Date.UTC(2026, 10, 21, 12),
  operation_id: 'getQuality',
  caller_kind: 'agent',
  agent_id: 'agt_a',
  cost_units: 0.2,
  status: 200,
  ...over,
});

test('milli-units make decimal cost sums exact', () => {
  let float = 0;
  let milli = 0;
  for (let i = 0; i < 10; i++) {
    float += 0.1;
    milli += toMilli(0.1);
  }
  assert.notEqual(float, 1, 'floating point drifts');
  assert.equal(fromMilli(milli), 1);
  assert.equal(toMilli(0.07) * 3, 210);
  assert.equal(fromMilli(toMilli(0.65) + toMilli(1.1) + toMilli(0.05)), 1.8);
});

test('calls are summed per line in memory and written as one batch', async () => {
  const { repo, batches } = fakeRepo();
  const meter = createUsageMeter({ repo, clock: new ManualClock(0), onFlushError: () => assert.fail('no error expected') });
  for (let i = 0; i < 1000; i++) meter.record(call());
  meter.record(call({ cost_units: 0, operation_id: 'getPing' }));
  meter.record(call({ ts: Date.UTC(2026, 10, 22, 0, 0, 0) }));
  meter.record(call({ caller_kind: 'anonymous', agent_id: null, cost_units: 0.05, operation_id: 'getBillingPricing' }));
  meter.record(call({ operation_id: 'unmatched', cost_units: 0 }));
  assert.equal(batches.length, 0, 'nothing is written on the request path');
  assert.equal(meter.pending(), 4);
  await meter.flush();
  assert.equal(batches.length, 1);
  assert.deepEqual(
    [...batches[0]!].sort((a, b) => (a.day + a.operation_id).localeCompare(b.day + b.operation_id)),
    [
      { day: '2026-11-21', caller_kind: 'anonymous', agent_id: '', operation_id: 'getBillingPricing', calls: 1, charged_calls: 1, cost_milli: 50, failed_calls: 0, last_call_at: T12 },
      { day: '2026-11-21', caller_kind: 'agent', agent_id: 'agt_a', operation_id: 'getPing', calls: 1, charged_calls: 0, cost_milli: 0, failed_calls: 0, last_call_at: T12 },
      { day: '2026-11-21', caller_kind: 'agent', agent_id: 'agt_a', operation_id: 'getQuality', calls: 1000, charged_calls: 1000, cost_milli: 200_000, failed_calls: 0, last_call_at: T12 },
      {
        day: '2026-11-22',
        caller_kind: 'agent',
        agent_id: 'agt_a',
        operation_id: 'getQuality',
        calls: 1,
        charged_calls: 1,
        cost_milli: 200,
        failed_calls: 0,
        last_call_at: Date.UTC(2026, 10, 22, 0, 0, 0),
      },
    ],
  );
  assert.equal(meter.pending(), 0);
});

test('a full buffer starts a flush without waiting for the timer', async () => {
  const { repo, batches } = fakeRepo();
  const meter = createUsageMeter({ repo, clock: new ManualClock(0), onFlushError: () => {} });
  for (let i = 0; i < USAGE_BUFFER_LINES; i++) meter.record(call({ agent_id: `agt_${i}` }));
  assert.equal(meter.pending(), 0, 'the full buffer was handed to a flush');
  await meter.flush();
  assert.equal(batches[0]!.length, USAGE_BUFFER_LINES);
});

test('a failed flush keeps the counts for the next one', async () => {
  const { repo, batches } = fakeRepo({ failTimes: 1 });
  const errors: unknown[] = [];
  const meter = createUsageMeter({ repo, clock: new ManualClock(0), onFlushError: (err) => errors.push(err) });
  meter.record(call());
  await meter.flush();
  assert.equal(errors.length, 1);
  meter.record(call());
  await meter.stop();
  assert.deepEqual(
    batches.map((b) => b.map((r) => [r.calls, r.cost_milli])),
    [[[2, 400]]],
  );
});

test('periods: today, the week from Monday and the month from the 1st, in UTC', () => {
  assert.equal(utcDay(Date.UTC(2026, 10, 21, 23, 59, 59)), '2026-11-21');
  assert.deepEqual(periodStarts(Date.UTC(2026, 10, 21, 12)), { today: '2026-11-21', week: '2026-11-16', month: '2026-11-01' });
  assert.deepEqual(periodStarts(Date.UTC(2026, 10, 16, 0, 0, 0)), { today: '2026-11-16', week: '2026-11-16', month: '2026-11-01' });
  assert.deepEqual(periodStarts(Date.UTC(2026, 11, 1, 1)), { today: '2026-12-01', week: '2026-11-30', month: '2026-12-01' });
  assert.deepEqual(periodStarts(Date.UTC(2026, 10, 22, 23)), { today: '2026-11-22', week: '2026-11-16', month: '2026-11-01' }, 'Sunday belongs to the week begun Monday');
});

test('a line counts its failed calls (4xx and 5xx) and keeps the time of its latest call, whatever the order they arrive in', async () => {
  const { repo, batches } = fakeRepo();
  const meter = createUsageMeter({ repo, clock: new ManualClock(0), onFlushError: () => assert.fail('no error expected') });
  meter.record(call({ ts: T12 + 5_000, status: 404 }));
  meter.record(call({ ts: T12 + 9_000, status: 200 }));
  meter.record(call({ ts: T12 + 1_000, status: 503 }));
  meter.record(call({ ts: T12 + 2_000, status: 429 }));
  await meter.flush();
  assert.deepEqual(
    batches[0]!.map((l) => [l.calls, l.failed_calls, l.last_call_at]),
    [[4, 3, T12 + 9_000]],
  );
});
