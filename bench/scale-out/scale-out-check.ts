/**
 * Scale-out check (issue 9): two `bosun serve` processes started at the same moment on one fresh
 * PostgreSQL schema and one Redis prefix, A reading an AIS feed (a TCP listener this check writes
 * real AISHub sentences to), B serving only. It shows that what one process does holds on the other:
 * - start: both migrate the fresh schema at once without an error (docs/decisions/016);
 * - registrations: a key registered on A works on B, and a grant or revocation made by a third process
 *   (the CLI) holds on B's next request although B had the key cached;
 * - limits: the anonymous preview limit (6 a minute per identity and address) is one count across both;
 * - long polls: a poll waiting on B is answered with positions A ingests.
 * Used by bench/scale-out/main.ts (prints the steps) and test/e2e/scale-out.test.ts (asserts them).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..', '..', '..');
const cli = join(root, 'dist', 'src', 'cli.js');
const SAMPLE = resolve(root, '..', 'shared', 'data', 'ais', 'volume', 'ais-nmea-sample.log');

export interface ScaleOutOptions {
  databaseUrl: string;
  redisUrl: string;
  log?: (line: string) => void;
}

export interface ScaleOutResult {
  started: { a: string; b: string };
  registration: { registeredOnA: number; meOnB: number; liveBeforeGrantOnB: number; liveAfterGrantOnB: number; afterRevokeOnB: { status: number; code: string | undefined } };
  limits: { statuses: Array<{ side: 'A' | 'B'; status: number; remaining: string | undefined }>; refusedCode: string | undefined };
  longPoll: { sentLines: number; status: number; items: number; mmsis: number[]; sentMmsis: number[] };
}

export interface Served {
  child: ChildProcess;
  url: string;
  stderr: () => string;
}

export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });
}

export function serve(env: NodeJS.ProcessEnv): Promise<Served> {
  const child = spawn(process.execPath, [cli, 'serve'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  return new Promise((resolveStart, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      const match = /listening on (https?:\/\/[\d.]+:\d+)/.exec(out);
      if (match) resolveStart({ child, url: match[1]!, stderr: () => err });
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${out}\n${err}`)));
  });
}

export async function stop(served: Served | undefined): Promise<void> {
  if (!served || served.child.exitCode !== null) return;
  const exited = new Promise((r) => served.child.once('exit', r));
  served.child.kill('SIGINT');
  const timer = setTimeout(() => served.child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

export async function call(url: string, init: RequestInit = {}): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(url, { ...init, headers: { 'content-type': 'application/json', ...(init.headers ?? {}) } });
  const text = await res.text();
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: res.status, body, headers: res.headers };
}

export function cliRun(env: NodeJS.ProcessEnv, args: string[]): void {
  const run = spawnSync(process.execPath, [cli, ...args], { env, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`bosun ${args.join(' ')} failed: ${run.stderr}`);
}

/** Position reports (types 1-3) of the sample, with their MMSIs (bits 8-37 of the payload). */
export function samplePositions(count: number): { lines: string[]; mmsis: number[] } {
  const lines: string[] = [];
  const mmsis = new Set<number>();
  for (const line of readFileSync(SAMPLE, 'utf8').split('\n')) {
    const fields = line.trim().split(',');
    if (fields[0] !== '!AIVDM' || fields[1] !== '1') continue;
    const payload = fields[5] ?? '';
    const bits = [...payload.slice(0, 7)].map((ch) => {
      let v = ch.charCodeAt(0) - 48;
      if (v > 40) v -= 8;
      return v.toString(2).padStart(6, '0');
    });
    const text = bits.join('');
    const type = parseInt(text.slice(0, 6), 2);
    if (type < 1 || type > 3) continue;
    lines.push(line.trim());
    mmsis.add(parseInt(text.slice(8, 38), 2));
    if (lines.length >= count) break;
  }
  return { lines, mmsis: [...mmsis].sort((a, b) => a - b) };
}

export function sendLines(port: number, lines: string[]): Promise<void> {
  return new Promise((resolveSend, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(lines.join('\r\n') + '\r\n'));
    socket.once('error', reject);
    socket.once('close', () => resolveSend());
  });
}

export async function runScaleOutCheck(options: ScaleOutOptions): Promise<ScaleOutResult> {
  const log = options.log ?? (() => {});
  const suffix = randomBytes(5).toString('hex');
  const schema = `scale_${suffix}`;
  const feedPort = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: options.databaseUrl,
    BOSUN_PG_SCHEMA: schema,
    REDIS_URL: options.redisUrl,
    BOSUN_REDIS_PREFIX: `bosun-scale-${suffix}:`,
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    PORT: '0',
  };
  let a: Served | undefined;
  let b: Served | undefined;
  try {
    // both start at once on the fresh schema: the migration lock makes one wait for the other
    const startA = serve({ ...env, BOSUN_FEEDS: `tcp-listen://127.0.0.1:${feedPort}` });
    const startB = serve({ ...env, BOSUN_FEEDS: 'none' });
    const [startedA, startedB] = await Promise.allSettled([startA, startB]);
    if (startedA.status === 'fulfilled') a = startedA.value;
    if (startedB.status === 'fulfilled') b = startedB.value;
    if (!a || !b) throw (startedA.status === 'rejected' ? startedA.reason : (startedB as PromiseRejectedResult).reason) as Error;
    log(`A ${a.url} (feed tcp-listen 127.0.0.1:${feedPort}), B ${b.url}, schema ${schema}`);

    // registrations: register on A, use on B; grant and revoke from a third process (the CLI)
    const registered = await call(`${a.url}/v1/agents/register`, { method: 'POST', body: JSON.stringify({ name: 'scale-out' }) });
    const { api_key: apiKey, agent_id: agentId } = registered.body.data ?? {};
    const auth = { authorization: `Bearer ${apiKey}` };
    const me = await call(`${b.url}/v1/agents/me`, { headers: auth });
    const liveBefore = await call(`${b.url}/v1/vessels/updates?timeout=0`, { headers: auth });
    cliRun(env, ['agents', 'grant', agentId, 'vessels:live']);
    const liveAfter = await call(`${b.url}/v1/vessels/updates?timeout=0`, { headers: auth });
    log(`registered on A: ${registered.status}; /v1/agents/me on B: ${me.status}; updates on B before grant ${liveBefore.status}, after grant (CLI) ${liveAfter.status}`);

    // long poll: waiting on B, answered by what A ingests
    const sample = samplePositions(200);
    const pending = call(`${b.url}/v1/vessels/updates?since=${encodeURIComponent(liveAfter.body.data.cursor)}&timeout=20`, { headers: auth });
    await sendLines(feedPort, sample.lines);
    const polled = await pending;
    const items: Array<{ mmsi: number }> = polled.body.data?.items ?? [];
    const polledMmsis = [...new Set(items.map((i) => i.mmsi))].sort((x, y) => x - y);
    log(`long poll on B: ${polled.status}, ${items.length} positions of ${polledMmsis.length} vessels after ${sample.lines.length} sentences sent to A`);

    // limits: one anonymous preview count across both processes (6 a minute per identity and address)
    let statuses: ScaleOutResult['limits']['statuses'] = [];
    let refusedCode: string | undefined;
    for (let attempt = 0; attempt < 2; attempt++) {
      statuses = [];
      const startMinute = Math.floor(Date.now() / 60_000);
      for (let i = 0; i < 7; i++) {
        const side = i % 2 === 0 ? 'A' : 'B';
        const res = await call(`${(side === 'A' ? a : b).url}/v1/bootstrap/vessels/search?q=ZZ`);
        statuses.push({ side, status: res.status, remaining: res.headers.get('ratelimit-remaining') ?? undefined });
        refusedCode = res.status === 429 ? res.body.errors?.[0]?.code : undefined;
      }
      // a minute boundary in the middle resets the window: run the seven calls again in the next one
      if (Math.floor(Date.now() / 60_000) === startMinute) break;
    }
    log(`preview calls alternating A/B: ${statuses.map((s) => `${s.side} ${s.status} (remaining ${s.remaining})`).join(', ')}`);

    cliRun(env, ['agents', 'revoke', agentId]);
    const revoked = await call(`${b.url}/v1/agents/me`, { headers: auth });
    log(`after revocation (CLI): /v1/agents/me on B ${revoked.status} ${revoked.body.errors?.[0]?.code ?? ''}`);

    return {
      started: { a: a.url, b: b.url },
      registration: {
        registeredOnA: registered.status,
        meOnB: me.status,
        liveBeforeGrantOnB: liveBefore.status,
        liveAfterGrantOnB: liveAfter.status,
        afterRevokeOnB: { status: revoked.status, code: revoked.body.errors?.[0]?.code },
      },
      limits: { statuses, refusedCode },
      longPoll: { sentLines: sample.lines.length, status: polled.status, items: items.length, mmsis: polledMmsis, sentMmsis: sample.mmsis },
    };
  } finally {
    await Promise.all([stop(a), stop(b)]);
    const pg = (await import('pg')).default;
    const client = new pg.Client({ connectionString: options.databaseUrl });
    await client.connect();
    await client.query(`drop schema if exists "${schema}" cascade`);
    await client.end();
  }
}
