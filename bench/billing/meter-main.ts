/**
 * Usage metering cost: what the meter adds to recording a request, and a batched ledger flush
 * against writing one ledger row per request (the design it replaces), in the same run.
 * Usage: node dist/bench/billing/meter-main.js [--calls 1000000] [--writes 5000]
 * Store: DATABASE_URL (default an in-memory SQLite store).
 */
import { parseArgs } from 'node:util';
import { ManualClock } from '../../src/platform/clock.js';
import { loadConfig } from '../../src/platform/config.js';
import { withUsageMetering } from '../../src/features/billing/metered-telemetry.js';
import { createUsageMeter, toMilli, utcDay } from '../../src/features/billing/usage-meter.js';
import { createUsageRepo } from '../../src/features/billing/usage-repo.js';
import { createTelemetryService } from '../../src/features/telemetry/telemetry-service.js';
import type { TelemetryRepo } from '../../src/features/telemetry/telemetry-repo.js';
import { migrateToLatest, openStore } from '../../src/store/db.js';

const { values } = parseArgs({ options: { calls: { type: 'string', default: '1000000' }, writes: { type: 'string', default: '5000' } } });
const calls = Number(values.calls);
const writes = Number(values.writes);
const clock = new ManualClock(Date.UTC(2026, 10, 24));
const OPERATIONS = ['getPing', 'getQuality', 'getBillingPricing', 'getVesselsLookup', 'getPortsSearch'];
const row = (i: number) => ({
  ts: clock.now(),
  operation_id: OPERATIONS[i % OPERATIONS.length]!,
  method: 'GET',
  status: 200,
  latency_ms: 1.5,
  cost_units: 0.05,
  caller_kind: 'agent',
  agent_id: `agt_${i % 500}`,
  error_code: null,
  freshness_seconds: 0,
});

const discardRepo = { insertBatch: async () => {}, window: async () => [], deleteOlderThan: async () => 0 } as unknown as TelemetryRepo;
const telemetry = () => createTelemetryService({ repo: discardRepo, clock, enabled: () => true, onFlushError: () => {} });

const store = await openStore(loadConfig({ DATABASE_URL: process.env.DATABASE_URL ?? ':memory:', LOG_LEVEL: 'silent' }).database);
await migrateToLatest(store);
const repo = createUsageRepo(store.db);

function perCallNs(record: (i: number) => void): number {
  const start = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) record(i);
  return Number(process.hrtime.bigint() - start) / calls;
}

const results: Array<{ round: number; baseline: number; metered: number }> = [];
for (let round = 1; round <= 3; round++) {
  const plain = telemetry();
  const baseline = perCallNs((i) => plain.record(row(i)));
  const meter = createUsageMeter({ repo, clock, onFlushError: (err) => console.error(err) });
  const metered = withUsageMetering(telemetry(), meter);
  const meteredNs = perCallNs((i) => metered.record(row(i)));
  await meter.flush();
  results.push({ round, baseline, metered: meteredNs });
}
console.log('| round | telemetry record only, ns/call | with the usage meter, ns/call | ratio |');
console.log('|---|---|---|---|');
for (const r of results) console.log(`| ${r.round} | ${r.baseline.toFixed(0)} | ${r.metered.toFixed(0)} | ${(r.metered / r.baseline).toFixed(2)} |`);

// the same `writes` calls: one upsert per request, against the meter's batch
const t0 = performance.now();
for (let i = 0; i < writes; i++) {
  const r = row(i);
  await repo.addBatch(
    [
      {
        day: utcDay(r.ts),
        caller_kind: r.caller_kind,
        agent_id: r.agent_id,
        operation_id: r.operation_id,
        calls: 1,
        charged_calls: 1,
        cost_milli: toMilli(r.cost_units),
        failed_calls: 0,
        last_call_at: r.ts,
      },
    ],
    clock.now(),
  );
}
const perRequest = performance.now() - t0;
const meter = createUsageMeter({ repo, clock, onFlushError: (err) => console.error(err) });
const t1 = performance.now();
for (let i = 0; i < writes; i++) meter.record(row(i));
await meter.flush();
const batched = performance.now() - t1;
console.log(
  `\n${writes} calls into the ledger (${store.dialect.name}): one upsert per request ${perRequest.toFixed(0)} ms, metered batch ${batched.toFixed(1)} ms, ratio ${(perRequest / batched).toFixed(0)}×`,
);
await store.close();
