/**
 * Usage: DATABASE_URL=postgres://… REDIS_URL=redis://… node dist/bench/scale-out/main.js
 * Runs the scale-out check (scale-out-check.ts) and prints each step; exits 1 when a step fails.
 */
import { runScaleOutCheck } from './scale-out-check.js';

const databaseUrl = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL;
if (!databaseUrl?.startsWith('postgres') || !redisUrl) {
  console.error('set DATABASE_URL (PostgreSQL) and REDIS_URL');
  process.exit(2);
}
const result = await runScaleOutCheck({ databaseUrl, redisUrl, log: (line) => console.log(line) });
const r = result.registration;
const checks: Array<[string, boolean]> = [
  ['registered on A, key works on B', r.registeredOnA === 201 && r.meOnB === 200],
  ['grant by the CLI holds on B at once', r.liveBeforeGrantOnB === 403 && r.liveAfterGrantOnB === 200],
  ['revocation by the CLI holds on B at once', r.afterRevokeOnB.status === 401],
  ['preview limit counted across A and B', result.limits.statuses.slice(0, 6).every((s) => s.status === 200) && result.limits.statuses[6]?.status === 429],
  ['long poll on B sees positions ingested by A', result.longPoll.status === 200 && result.longPoll.items > 0 && result.longPoll.mmsis.every((m) => result.longPoll.sentMmsis.includes(m))],
];
for (const [name, ok] of checks) console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}`);
process.exit(checks.every(([, ok]) => ok) ? 0 : 1);
