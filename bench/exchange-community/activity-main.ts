/**
 * Exchange community reads at community scale, in process on SQLite (no HTTP): skill listing with
 * tag and word filters, and the activity views over 30 days of request telemetry. Baseline in the
 * same run: the unfiltered skill listing (one indexed page read).
 * Usage: node dist/bench/exchange-community/activity-main.js [--agents 2000] [--skills 20000] [--telemetry 200000] [--rounds 30]
 */
import { parseArgs } from 'node:util';
import { createCore } from '../../src/app/create.js';
import { DAY, ManualClock } from '../../src/platform/clock.js';
import { loadConfig } from '../../src/platform/config.js';
import type { ExchangeMember } from '../../src/features/exchange/gate/exchange-gate.js';

const { values } = parseArgs({
  options: { agents: { type: 'string', default: '2000' }, skills: { type: 'string', default: '20000' }, telemetry: { type: 'string', default: '200000' }, rounds: { type: 'string', default: '30' } },
});
const AGENTS = Number(values.agents);
const SKILLS = Number(values.skills);
const TELEMETRY = Number(values.telemetry);
const ROUNDS = Number(values.rounds);

const now = Date.UTC(2026, 10, 24, 12, 0, 0);
const clock = new ManualClock(now);
const core = await createCore(loadConfig({ LOG_LEVEL: 'silent', DATABASE_URL: ':memory:', BOSUN_TELEMETRY: 'false' }), { clock });
const db = core.store.db;
const services = core.services;

// deterministic pseudo-random numbers, so runs compare
let seed = 42;
const rand = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
const pick = <T>(items: readonly T[]) => items[Math.floor(rand() * items.length)]!;

const t0 = performance.now();
const agentIds = Array.from({ length: AGENTS }, (_, i) => `agt_bench${String(i).padStart(15, '0')}`);
for (let i = 0; i < AGENTS; i += 500) {
  await db
    .insertInto('agents')
    .values(
      agentIds.slice(i, i + 500).map((agent_id, k) => ({
        agent_id,
        name: k % 10 === 0 ? `test-runner-${i + k}` : `agent-${i + k}`,
        vendor: pick(['acme', 'blue ocean', 'ci', null]),
        description: null,
        state: pick(['sandbox', 'sandbox', 'trial', 'trusted']),
        key_hash: `hash${i + k}`,
        key_prefix: 'bsk_x',
        created_at: now - 40 * DAY + (i + k) * 1000,
        sandbox_expires_at: now + DAY,
        trial_expires_at: null,
        revoked_at: null,
        key_rotated_at: null,
        registration_ip: `10.0.${(i + k) % 250}.0/24`,
      })),
    )
    .execute();
}
const TAGS = ['ais', 'eta', 'ports', 'congestion', 'sts', 'routes', 'weather', 'decoding', 'sanctions', 'bunkering'];
const WORDS = ['brief', 'decoder', 'model', 'forecast', 'monitor', 'report', 'tracker', 'summary', 'audit', 'alert'];
for (let i = 0; i < SKILLS; i += 500) {
  const rows = Array.from({ length: Math.min(500, SKILLS - i) }, (_, k) => {
    const n = i + k;
    const title = `${pick(TAGS)} ${pick(WORDS)} ${n}`;
    return {
      skill_id: `skl_bench${String(n).padStart(15, '0')}`,
      owner_id: agentIds[n % AGENTS]!,
      slug: `skill-${n}`,
      title,
      description: `${title}: ${pick(WORDS)} ${pick(WORDS)} from Bosun data for ${pick(TAGS)} work.`,
      tags: JSON.stringify([pick(TAGS), pick(TAGS)]),
      inputs: '',
      outputs: '',
      version: 1,
      hidden: 0,
      hidden_reason: null,
      created_at: now - SKILLS * 1000 + n * 1000,
      updated_at: now,
    };
  });
  await db.insertInto('exchange_skills').values(rows).execute();
}
const OPERATIONS = ['getPortsSearch', 'getExchangeSkills', 'getAgentsMe', 'getHarborProfiles', 'getVesselsByIdLatest'];
const telemetry = Array.from({ length: TELEMETRY }, () => ({
  ts: now - Math.floor(rand() * 30 * DAY),
  operation_id: pick(OPERATIONS),
  method: 'GET',
  status: rand() < 0.9 ? 200 : 404,
  latency_ms: 1,
  cost_units: 0.2,
  caller_kind: 'agent',
  agent_id: agentIds[Math.floor(rand() * rand() * AGENTS)]!,
  error_code: null,
  freshness_seconds: null,
}));
await services.telemetry.flush();
for (let i = 0; i < telemetry.length; i += 500)
  await db
    .insertInto('request_telemetry')
    .values(telemetry.slice(i, i + 500))
    .execute();
console.log(`seeded ${AGENTS} agents, ${SKILLS} skills, ${TELEMETRY} telemetry rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

const member: ExchangeMember = { agentId: agentIds[1]!, state: 'sandbox', scopes: new Set() };
const cases: Array<[string, () => Promise<unknown>]> = [
  ['skills, first page of 20 (baseline)', () => services.exchangeSkills.list(member, { limit: 20 })],
  ['skills, tag=ais', () => services.exchangeSkills.list(member, { limit: 20, tag: 'ais' })],
  ['skills, q="forecast ports"', () => services.exchangeSkills.list(member, { limit: 20, q: 'forecast ports' })],
  ['skills, q with no hit (full scan)', () => services.exchangeSkills.list(member, { limit: 20, q: 'zzzz-nothing' })],
  ['agents/active, 60 min', () => services.exchangeActivity.active(member, 60)],
  ['swarm_stats', () => services.exchangeActivity.swarmStats(member)],
  ['real_agents_history, 30 days', () => services.exchangeActivity.realAgentsHistory(member, 30)],
  ['external_agents_audit, page of 50', () => services.exchangeActivity.externalAgentsAudit({ limit: 50 })],
];
const results: Array<[string, number, number]> = [];
for (const [label, run] of cases) {
  await run();
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  results.push([label, times[Math.floor(times.length / 2)]!, times[Math.min(times.length - 1, Math.floor(times.length * 0.99))]!]);
}
const baseline = results[0]![1];
console.log('| read | p50 ms | p99 ms | p50 / baseline |');
console.log('|---|---|---|---|');
for (const [label, p50, p99] of results) console.log(`| ${label} | ${p50.toFixed(2)} | ${p99.toFixed(2)} | ${(p50 / baseline).toFixed(1)} |`);
await core.close();
