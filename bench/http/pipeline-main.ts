/**
 * In-process request pipeline cost (Fastify inject, no sockets): microseconds per hot read through
 * Bosun's whole pipeline (auth, limits, handler, store, telemetry), next to a bare Fastify handler
 * returning the same bytes, in the same process.
 * Usage: node dist/bench/http/pipeline-main.js [--requests 5000] [--only lookup|delayed|preview|ping|direct] [--skip-bare] [--count-promises]
 * (`--only` measures one target after the bare handler, e.g. under `node --cpu-prof`; with `--skip-bare`
 * only that target runs, e.g. to count instructions under `valgrind --tool=callgrind` at two request counts;
 * `--count-promises` also counts the promises created per request, a figure machine load does not change.)
 */
import Fastify from 'fastify';
import { createHook } from 'node:async_hooks';
import { parseArgs } from 'node:util';
import { createBosun } from '../../src/app/create.js';
import { ManualClock } from '../../src/platform/clock.js';
import { loadConfig } from '../../src/platform/config.js';

const { values } = parseArgs({
  options: { requests: { type: 'string', default: '5000' }, only: { type: 'string' }, 'skip-bare': { type: 'boolean', default: false }, 'count-promises': { type: 'boolean', default: false } },
});
const requests = Number(values.requests);
const wanted = (name: string) => values.only === undefined || values.only === name;
const clock = new ManualClock(Date.UTC(2026, 10, 21));
const bosun = await createBosun(loadConfig({ DATABASE_URL: ':memory:', LOG_LEVEL: 'silent' }), { clock });
const fleet = bosun.ctx.services.fleet;
const seen = clock.now() - 100_000_000;
const meta = { observedAt: seen, receivedAt: seen, source: 'bench', simulated: false };
fleet.acceptStatic({ ...meta, mmsi: 563033300, imo: 9811000, name: 'BENCH', callsign: 'B', shipType: 70, lengthM: 1, beamM: 1, draughtM: 1, destination: null, eta: null });
fleet.acceptPosition({ ...meta, mmsi: 563033300, lat: 1, lon: 2, sog: 1, cog: 1, heading: 1, navStatus: 0, msgType: 1 });
// A fix younger than the 50,400 s delay, so a key without vessels:live reads the older one from the store.
const fresh = clock.now() - 60_000;
fleet.acceptPosition({ ...meta, observedAt: fresh, receivedAt: fresh, mmsi: 563033300, lat: 1.001, lon: 2, sog: 1, cog: 1, heading: 1, navStatus: 0, msgType: 1 });
await fleet.flush();
// Live reads need the operator-granted vessels:live (decision 007); the second key reads delayed positions.
const { row, apiKey } = await bosun.ctx.services.agents.register({ name: 'bench' }, null);
await bosun.ctx.services.agents.grantScope(row.agent_id, 'vessels:live', { kind: 'cli' });
const { apiKey: delayedKey } = await bosun.ctx.services.agents.register({ name: 'bench-delayed' }, null);

/** Wall time and CPU time (user + system of this process, which load from other processes disturbs much less) per request. */
async function measure(label: string, run: (i: number) => Promise<number>) {
  for (let i = 0; i < 200; i++) await run(i);
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  let ok = 0;
  let promises = 0;
  const counter = values['count-promises']
    ? createHook({
        init(_id, type) {
          if (type === 'PROMISE') promises++;
        },
      }).enable()
    : null;
  for (let i = 0; i < requests; i++) {
    if (i % 500 === 0) clock.advance(61_000);
    if ((await run(i)) === 200) ok++;
  }
  counter?.disable();
  const cpu = process.cpuUsage(cpuStart);
  const us = ((performance.now() - start) / requests) * 1000;
  const cpuUs = (cpu.user + cpu.system) / requests;
  console.log(
    `${label.padEnd(48)} ${us.toFixed(0).padStart(5)} µs/request wall, ${cpuUs.toFixed(1).padStart(6)} µs CPU  (${ok}/${requests} ok)${counter ? `  ${(promises / requests).toFixed(1)} promises/request` : ''}`,
  );
  return cpuUs;
}

const lookupUrl = '/v1/vessels/lookup?id=IMO:9811000';
const previewUrl = '/v1/bootstrap/vessels/last_position?imo=9811000';
const sample = await bosun.http.inject({ method: 'GET', url: lookupUrl, headers: { authorization: `Bearer ${apiKey}` } });
const bare = Fastify();
bare.get('/*', async (_req, reply) => reply.type('application/json').send(sample.body));
const address = (i: number) => `10.0.${i % 250}.${Math.floor(i / 250) % 250}`;
const bareUs = values['skip-bare'] ? Number.NaN : await measure('bare Fastify handler (same bytes)', async () => (await bare.inject({ method: 'GET', url: lookupUrl })).statusCode);
const ratios: string[] = [];
async function target(name: string, label: string, url: string, key: string | null) {
  if (!wanted(name)) return;
  const headers = key === null ? {} : { authorization: `Bearer ${key}` };
  const first = await bosun.http.inject({ method: 'GET', url, headers });
  if (first.statusCode !== 200) throw new Error(`${url} answered ${first.statusCode}: ${first.body.slice(0, 200)}`);
  const us = await measure(label, async (i) => (await bosun.http.inject({ method: 'GET', url, headers, remoteAddress: address(i) })).statusCode);
  ratios.push(`${name} ${(bareUs / us).toFixed(2)}`);
}
await target('ping', 'Bosun GET /v1/ping', '/v1/ping', null);
await target('lookup', 'Bosun GET /v1/vessels/lookup', lookupUrl, apiKey);
await target('delayed', 'Bosun GET /v1/vessels/lookup (delayed)', lookupUrl, delayedKey);
await target('preview', 'Bosun GET /v1/bootstrap/vessels/last_position', previewUrl, null);
await target('direct', 'Bosun GET /v1/routes/direct (cached answer)', '/v1/routes/direct?from=NLRTM&to=SGSIN', apiKey);
console.log(`CPU ratio bare/Bosun: ${ratios.join(', ')} (the bare handler serves the lookup's bytes)`);
await bare.close();
await bosun.close();
