/**
 * The serving side of the global-day benchmark (issue 31's scale-out shape): a second process on the same
 * PostgreSQL schema that runs no feed and no detector, only answers. Forked by global-day-main.ts; it times a
 * keyed lookup (newest usable position of one vessel) and a port congestion answer (Rotterdam) in turn:
 * `quiet` rounds when asked (before the ingest, and after it on the same data), and from `busy` until `stop`
 * while the ingest runs, sending each set back; `close` ends it.
 * Env: DATABASE_URL, BOSUN_PG_SCHEMA; argv: vessels, end of the simulated day (epoch ms), read-every-ms.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { createBosun } from '../../src/app/create.js';
import { ManualClock } from '../../src/platform/clock.js';
import { loadConfig } from '../../src/platform/config.js';
import { createFleetReads } from '../../src/fleet/fleet-reads.js';
import { readPortTableFile } from '../../src/features/ports/port-table-file.js';
import { Rng } from '../../src/sim/random.js';

export type ReaderRequest = { kind: 'quiet'; rounds: number } | { kind: 'busy' } | { kind: 'stop' } | { kind: 'close' };
export type ReaderReply = { kind: 'ready' } | { kind: 'timings'; phase: 'quiet' | 'busy'; lookups: number[]; congestion: number[] };

const [vessels, end, readEveryMs] = process.argv.slice(2).map(Number) as [number, number, number];
const env: Record<string, string> = { LOG_LEVEL: 'silent', BOSUN_FEEDS: 'none', PORT: '0', BOSUN_TELEMETRY: 'false' };
for (const key of ['DATABASE_URL', 'BOSUN_PG_SCHEMA', 'BOSUN_DATA_DIR']) if (process.env[key]) env[key] = process.env[key]!;
const bosun = await createBosun(loadConfig(env), { clock: new ManualClock(end) });
const reads = createFleetReads(bosun.ctx.store.db);
const rotterdam = readPortTableFile().ports.find((port) => port.locode === 'NLRTM')!;
const pick = new Rng(7);
const send = (reply: ReaderReply) => process.send!(reply);

const timed = async (work: () => Promise<unknown>) => {
  const t0 = performance.now();
  await work();
  return performance.now() - t0;
};
const lookup = () => timed(() => reads.newestUsableAtOrBefore(`sim_${Math.floor(pick.next() * vessels)}`, end));
const congestion = () => timed(() => bosun.ctx.services.congestion.congestion(rotterdam.port_id, {}, { kind: 'anonymous' }));

let stopped = false;
process.on('message', (request: ReaderRequest) => {
  if (request.kind === 'stop') stopped = true;
  else if (request.kind === 'close') void bosun.close().then(() => process.disconnect());
  else if (request.kind === 'quiet') void quiet(request.rounds);
  else void busy();
});

async function quiet(rounds: number) {
  const lookups: number[] = [];
  const answers: number[] = [];
  for (let i = 0; i < rounds; i++) {
    lookups.push(await lookup());
    answers.push(await congestion());
    // paced as busy() is: a lookup that follows an idle pause pays the wake-up of the process and its connection
    await sleep(readEveryMs);
  }
  send({ kind: 'timings', phase: 'quiet', lookups, congestion: answers });
}

async function busy() {
  const lookups: number[] = [];
  const answers: number[] = [];
  while (!stopped) {
    lookups.push(await lookup());
    answers.push(await congestion());
    await sleep(readEveryMs);
  }
  send({ kind: 'timings', phase: 'busy', lookups, congestion: answers });
}

send({ kind: 'ready' });
