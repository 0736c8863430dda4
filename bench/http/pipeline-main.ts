/**
 * In-process request pipeline cost (Fastify inject, no sockets): microseconds per hot read through
 * Bosun's whole pipeline (auth, limits, handler, store, telemetry), next to a bare Fastify handler
 * returning the same bytes, in the same process.
 * Usage: node dist/bench/http/pipeline-main.js [--requests 5000]
 */
import Fastify from 'fastify';
import { parseArgs } from 'node:util';
import { createBosun } from '../../src/app/create.js';
import { ManualClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';

const { values } = parseArgs({ options: { requests: { type: 'string', default: '5000' } } });
const requests = Number(values.requests);
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

async function measure(label: string, run: (i: number) => Promise<number>) {
  for (let i = 0; i < 200; i++) await run(i);
  const start = performance.now();
  let ok = 0;
  for (let i = 0; i < requests; i++) {
    if (i % 500 === 0) clock.advance(61_000);
    if ((await run(i)) === 200) ok++;
  }
  const us = ((performance.now() - start) / requests) * 1000;
  console.log(`${label.padEnd(44)} ${us.toFixed(0).padStart(5)} µs/request  (${ok}/${requests} ok)`);
  return us;
}

const lookupUrl = '/v1/vessels/lookup?id=IMO:9811000';
const previewUrl = '/v1/bootstrap/vessels/last_position?imo=9811000';
const sample = await bosun.http.inject({ method: 'GET', url: lookupUrl, headers: { authorization: `Bearer ${apiKey}` } });
const bare = Fastify();
bare.get('/*', async (_req, reply) => reply.type('application/json').send(sample.body));
const address = (i: number) => `10.0.${i % 250}.${Math.floor(i / 250) % 250}`;
const bareUs = await measure('bare Fastify handler (same bytes)', async () => (await bare.inject({ method: 'GET', url: lookupUrl })).statusCode);
const lookupUs = await measure(
  'Bosun GET /v1/vessels/lookup',
  async (i) => (await bosun.http.inject({ method: 'GET', url: lookupUrl, headers: { authorization: `Bearer ${apiKey}` }, remoteAddress: address(i) })).statusCode,
);
const delayedUs = await measure(
  'Bosun GET /v1/vessels/lookup (delayed)',
  async (i) => (await bosun.http.inject({ method: 'GET', url: lookupUrl, headers: { authorization: `Bearer ${delayedKey}` }, remoteAddress: address(i) })).statusCode,
);
const previewUs = await measure('Bosun GET /v1/bootstrap/vessels/last_position', async (i) => (await bosun.http.inject({ method: 'GET', url: previewUrl, remoteAddress: address(i) })).statusCode);
console.log(`ratio bare/Bosun: lookup ${(bareUs / lookupUs).toFixed(2)}, lookup delayed ${(bareUs / delayedUs).toFixed(2)}, preview ${(bareUs / previewUs).toFixed(2)}`);
await bare.close();
await bosun.close();
