// The cost of an app's first request in a process that already built one (the request validators compiled
// once per process, src/http/app.ts): N apps started one after another on an in-memory store, the first
// request of each timed; the first app pays the compilation, the others should not.
//   node dist/bench/http/first-request-main.js [--apps 6]
import { createBosun } from '../../src/app/create.js';
import { ManualClock } from '../../src/platform/clock.js';
import { loadConfig } from '../../src/platform/config.js';

const at = process.argv.indexOf('--apps');
const apps = at >= 0 ? Number(process.argv[at + 1]) : 6;
const times: number[] = [];
for (let i = 0; i < apps; i++) {
  const bosun = await createBosun(loadConfig({ LOG_LEVEL: 'silent', DATABASE_URL: ':memory:', PORT: '0' }), { clock: new ManualClock(Date.UTC(2026, 10, 21)), infraLayerFile: null });
  const started = performance.now();
  const res = await bosun.http.inject({ method: 'GET', url: '/v1/ping' });
  times.push(performance.now() - started);
  if (res.statusCode !== 200) throw new Error(`ping answered ${res.statusCode}`);
  await bosun.close();
}
const later = times.slice(1).sort((a, b) => a - b);
const median = later[Math.floor(later.length / 2)]!;
console.log(`first request per app (ms): ${times.map((t) => t.toFixed(0)).join(', ')}`);
console.log(`first app ${times[0]!.toFixed(0)} ms; later apps median ${median.toFixed(0)} ms; ratio ${(times[0]! / median).toFixed(1)}x`);
