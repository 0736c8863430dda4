/**
 * The detecting side of the global-day benchmark with `--detector process`: a process on the same PostgreSQL
 * schema that runs no feed and follows the stored positions with the live event detector, as a serving
 * process started beside the feed owner (the feed owner with BOSUN_EVENT_DETECTION=false, docs/decisions/156)
 * does. `follow` starts the loop (a follow to head, or for at most a minute, then follow-every-ms of rest once
 * at head); `finish` (sent when the last batch is written) stops it, catches up to head and replies with the positions analysed, the busy time and
 * the CPU spent since `follow` by this process and its PostgreSQL backends.
 * Env: DATABASE_URL, BOSUN_PG_SCHEMA; argv: end of the simulated day (epoch ms), follow-every-ms.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { createBosun } from '../../src/app/create.js';
import type { Clock } from '../../src/platform/clock.js';
import { loadConfig } from '../../src/platform/config.js';
import { createFleetReads } from '../../src/fleet/fleet-reads.js';
import { startCpuCount, type CpuCost } from './cpu-cost.js';

export type DetectorRequest = { kind: 'follow' } | { kind: 'finish' } | { kind: 'close' };
export type DetectorReply =
  { kind: 'ready' } | { kind: 'done'; detected: number; busyMs: number; catchUpMs: number; backlogAtFinish: number; portCallsAtFinish: number; voyagesAtFinish: number; cpu: CpuCost };

const [end, followEveryMs] = process.argv.slice(2).map(Number) as [number, number];
const env: Record<string, string> = { LOG_LEVEL: 'silent', BOSUN_FEEDS: 'none', PORT: '0', BOSUN_TELEMETRY: 'false' };
for (const key of ['DATABASE_URL', 'BOSUN_PG_SCHEMA', 'BOSUN_DATA_DIR']) if (process.env[key]) env[key] = process.env[key]!;
/**
 * The end of the simulated day, moving on with the wall clock: the runner's checkpoint every 30 s, its lease and a
 * follow's budget are wall-clock times, as in a serving process. On a clock that stood still the checkpoint never
 * came due after the first step (the whole-day run of decision 166, whose detector fell behind with 4.2 GB resident).
 */
const startedAt = Date.now();
const movingClock: Clock = { now: () => end + (Date.now() - startedAt) };
const bosun = await createBosun(loadConfig(env), { clock: movingClock });
const runner = bosun.ctx.services.events.runner;
const send = (reply: DetectorReply) => process.send!(reply);
const countOf = async (table: 'port_calls' | 'voyages') =>
  Number(
    (
      await bosun.ctx.store.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

let following: Promise<void> | null = null;
let finishing = false;
let detected = 0;
let busyMs = 0;
let cpuCount: Awaited<ReturnType<typeof startCpuCount>> | null = null;

process.on('message', (request: DetectorRequest) => {
  if (request.kind === 'follow') following = follow();
  else if (request.kind === 'finish') void finish();
  else void bosun.close().then(() => process.disconnect());
});

/** A follow's budget: long enough that a detector behind the feed works on until it is at head (then it waits follow-every-ms). */
const FOLLOW_BUDGET_MS = 60_000;

async function follow() {
  cpuCount = await startCpuCount(bosun.ctx.store.db);
  while (!finishing) {
    const t0 = performance.now();
    detected += await runner.follow(FOLLOW_BUDGET_MS);
    const spent = performance.now() - t0;
    busyMs += spent;
    // a follow that ended before its budget reached head: wait for more; one that used it all is behind: go on at once
    if (!finishing && spent < FOLLOW_BUDGET_MS) await sleep(followEveryMs);
  }
}

async function finish() {
  finishing = true;
  // where the detector stood when the last batch was written (its cursor moves on after every batch it reads)
  const backlogAtFinish = (await createFleetReads(bosun.ctx.store.db).headSeq()) - runner.status().cursorSeq;
  const [portCallsAtFinish, voyagesAtFinish] = [await countOf('port_calls'), await countOf('voyages')];
  await following;
  const t0 = performance.now();
  detected += await runner.catchUp();
  const catchUpMs = performance.now() - t0;
  const cpu = await cpuCount!.stop();
  send({ kind: 'done', detected, busyMs: busyMs + catchUpMs, catchUpMs, backlogAtFinish, portCallsAtFinish, voyagesAtFinish, cpu });
}

send({ kind: 'ready' });
