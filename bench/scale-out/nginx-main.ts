/**
 * Usage: DATABASE_URL=postgres://… REDIS_URL=redis://… node dist/bench/scale-out/nginx-main.js [--lease-seconds 5]
 * Three `bosun serve` behind nginx on one PostgreSQL + Redis (nginx-check.ts); prints each check, exits 1 when one fails.
 */
import { parseArgs } from 'node:util';
import { runNginxCheck } from './nginx-check.js';

const { values } = parseArgs({ options: { 'lease-seconds': { type: 'string', default: '5' }, nginx: { type: 'string', default: '/usr/sbin/nginx' } } });
const databaseUrl = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL;
if (!databaseUrl?.startsWith('postgres') || !redisUrl) {
  console.error('set DATABASE_URL (PostgreSQL) and REDIS_URL');
  process.exit(2);
}
const started = Date.now();
const checks = await runNginxCheck({ databaseUrl, redisUrl, nginx: values.nginx, leaseSeconds: Number(values['lease-seconds']), log: (line) => console.log(line) });
console.log(`${checks.filter((c) => c.ok).length}/${checks.length} checks passed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(checks.length > 0 && checks.every((c) => c.ok) ? 0 : 1);
