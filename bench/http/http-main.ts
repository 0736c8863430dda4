/**
 * HTTP benchmark: Bosun's hot reads (ping, the preview last position, vessel lookup) and a sea route
 * (/v1/routes/direct) against a bare
 * Fastify handler serving the same bytes, in the same run, with the same keep-alive load generator.
 * Bosun runs as `bosun serve` (SQLite, the Houston day imported first) in a child process, the
 * baseline in another; the load generator is this process.
 * Usage: node dist/bench/http/http-main.js [--seconds 5] [--connections 16] [--rounds 3] [--only <target name part>] [--cpu-prof-dir <dir>]
 * (`--cpu-prof-dir` runs `bosun serve` under `node --cpu-prof`, its profile written there when it stops.)
 * Each target is measured in alternating rounds (bare, Bosun, bare, Bosun, …) so that load from
 * other processes on the machine hits both alike; the best round of each is compared, and so is the
 * servers' CPU time per request (from /proc), which a loaded machine disturbs much less.
 *
 * Rate limits are part of the measured path. So that they measure work and not refusals, every
 * request comes from its own client address (BOSUN_TRUST_PROXY=1: one proxy hop, and a fresh X-Forwarded-For)
 * and keyed calls rotate over 512 agents (1,200 calls a minute each), so that no keyed round is refused.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { runLoad, type LoadResult } from './load.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '16' },
    rounds: { type: 'string', default: '3' },
    only: { type: 'string' },
    'cpu-prof-dir': { type: 'string' },
  },
});
const rounds = Number(values.rounds);
const durationMs = Number(values.seconds) * 1000;
const connections = Number(values.connections);
const root = resolve(import.meta.dirname, '..', '..', '..');
const cli = join(root, 'dist', 'src', 'cli.js');
const houston = resolve(root, '..', 'shared', 'data', 'ais', 'tracks', 'AIS_2020_01_01_houston_galveston.csv.gz');
const out = join(root, 'bench', 'out');
mkdirSync(out, { recursive: true });
const dbFile = join(out, 'bosun-http.sqlite');
for (const suffix of ['', '-wal', '-shm']) rmSync(dbFile + suffix, { force: true });
const env = { ...process.env, DATABASE_URL: `sqlite:${dbFile}`, BOSUN_FEEDS: 'none', BOSUN_TRUST_PROXY: '1', LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: '0' };
delete (env as Record<string, string | undefined>).REDIS_URL;

const imported = spawnSync(process.execPath, [cli, 'import', 'ais-csv', houston], { env, encoding: 'utf8' });
if (imported.status !== 0) throw new Error(`import failed: ${imported.stderr}`);
process.stdout.write(imported.stdout);

const children: ChildProcess[] = [];
// a failed run (an exception above the final stop) must not leave servers behind
process.on('exit', () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
});

function start(args: string[], extraEnv: Record<string, string> = {}): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, args, { env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return new Promise((resolveStart, reject) => {
    let text = '';
    child.stdout.on('data', (d) => {
      text += d;
      const match = /(https?:\/\/[\d.]+:\d+)/.exec(text);
      if (match) resolveStart({ child, url: match[1]! });
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${text}`)));
  });
}

const ipOf = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
let ipCounter = 1;
const freshIp = () => ipOf(ipCounter++);

const profileDir = values['cpu-prof-dir'];
const bosun = await start([...(profileDir ? ['--cpu-prof', '--cpu-prof-dir', resolve(profileDir)] : []), cli, 'serve'], { PORT: '0' });
const api = async (path: string, init: RequestInit = {}, retried = false): Promise<{ status: number; text: string }> => {
  try {
    const res = await fetch(bosun.url + path, { ...init, headers: { 'x-forwarded-for': freshIp(), 'content-type': 'application/json', ...(init.headers ?? {}) } });
    return { status: res.status, text: await res.text() };
  } catch (err) {
    // A keep-alive socket the server closed while the grants ran: one retry on a new connection.
    if (retried) throw err;
    return api(path, init, true);
  }
};
const keys: string[] = [];
const agentIds: string[] = [];
// Each agent may make 1,200 calls a minute (agent_default): enough agents that the keyed targets measure answers, not refusals.
const AGENTS = 512;
for (let i = 0; i < AGENTS; i++) {
  const reg = await api('/v1/agents/register', { method: 'POST', body: JSON.stringify({ name: `bench-${i}` }) });
  keys.push(JSON.parse(reg.text).data.api_key);
  agentIds.push(JSON.parse(reg.text).data.agent_id);
}
// Live vessel reads need the operator-granted scope vessels:live (decision 007): the operator CLI grants it.
const grant = (ids: string[]) =>
  new Promise<void>((resolveGrant, reject) => {
    const child = spawn(process.execPath, [cli, 'agents', 'grant', ...ids, 'vessels:live'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.once('exit', (code) => (code === 0 ? resolveGrant() : reject(new Error(`grant failed: ${stderr}`))));
  });
for (let i = 0; i < agentIds.length; i += 128) await grant(agentIds.slice(i, i + 128));

// `serve` runs the event detector over the imported day in the background: measure once it has caught
// up (its cursor stopped moving), so the rounds time the requests and not the catch-up.
let cursor: number | null = -1;
for (;;) {
  await new Promise((resolveWait) => setTimeout(resolveWait, 1000));
  const events = JSON.parse((await api('/v1/status')).text).data.components.events as { cursor_seq: number | null; last_step_at: string | null };
  if (events.last_step_at !== null && events.cursor_seq === cursor) break;
  cursor = events.cursor_seq;
}
console.log(`event detector caught up at position ${cursor}`);

const IMO = 9331505; // AMY C, in the Houston day
const targets = [
  { name: 'ping', path: '/v1/ping', keyed: false },
  { name: 'preview last position', path: `/v1/bootstrap/vessels/last_position?imo=${IMO}`, keyed: false },
  { name: 'vessel lookup', path: `/v1/vessels/lookup?id=IMO:${IMO}`, keyed: true },
  { name: 'route direct (Rotterdam–Singapore)', path: '/v1/routes/direct?from=NLRTM&to=SGSIN', keyed: true },
];
const bodies: Record<string, string> = {};
const available: typeof targets = [];
for (const target of targets) {
  if (values.only !== undefined && !target.name.includes(values.only)) continue;
  const res = await api(target.path, target.keyed ? { headers: { authorization: `Bearer ${keys[0]}` } } : {});
  if (res.status !== 200) {
    console.log(`skipped ${target.name}: ${target.path} answered ${res.status} ${res.text.slice(0, 200)}`);
    continue;
  }
  bodies[target.path.split('?')[0]!] = res.text;
  available.push(target);
}
const bare = await start([join(root, 'dist', 'bench', 'http', 'bare-server.js')], { BENCH_BODIES: JSON.stringify(bodies) });

/**
 * CPU seconds (user + system) a child process has used, from /proc (Linux; null elsewhere). On a machine
 * shared with other work, throughput follows whatever CPU the server was given; CPU per request does not.
 */
const CLOCK_TICKS = 100;
function cpuSeconds(child: ChildProcess): number | null {
  try {
    const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return null;
  }
}
type Measured = LoadResult & { cpuUsPerRequest: number | null };
async function measure(child: ChildProcess, run: () => Promise<LoadResult>): Promise<Measured> {
  const before = cpuSeconds(child);
  const result = await run();
  const after = cpuSeconds(child);
  return { ...result, cpuUsPerRequest: before === null || after === null ? null : ((after - before) * 1e6) / result.requests };
}
const cpuText = (r: Measured) => (r.cpuUsPerRequest === null ? '' : `  server CPU ${r.cpuUsPerRequest.toFixed(0)} µs/request`);

const show = (r: LoadResult) => `${Math.round(r.perSecond).toLocaleString('en-US').padStart(7)} req/s  p50 ${r.p50Ms.toFixed(2)} ms  p99 ${r.p99Ms.toFixed(2)} ms  ${JSON.stringify(r.statuses)}`;
console.log(`node ${process.version}, ${connections} keep-alive connections, ${rounds} alternating rounds of ${values.seconds} s, best round shown`);
for (const target of available) {
  const load = (baseUrl: string) =>
    runLoad({
      baseUrl,
      connections,
      durationMs,
      next: (i) => ({
        path: target.path,
        headers: { 'x-forwarded-for': freshIp(), ...(target.keyed ? { authorization: `Bearer ${keys[i % keys.length]}` } : {}) },
      }),
    });
  await load(bosun.url); // warm-up
  await load(bare.url);
  const bareRounds: Measured[] = [];
  const bosunRounds: Measured[] = [];
  for (let round = 0; round < rounds; round++) {
    bareRounds.push(await measure(bare.child, () => load(bare.url)));
    bosunRounds.push(await measure(bosun.child, () => load(bosun.url)));
  }
  const best = (results: Measured[]) => results.reduce((a, b) => (b.perSecond > a.perSecond ? b : a));
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const baseline = best(bareRounds);
  const measured = best(bosunRounds);
  const perRound = bosunRounds.map((r, i) => (r.perSecond / bareRounds[i]!.perSecond).toFixed(2)).join(', ');
  console.log(`${target.name} (${target.path})`);
  console.log(`  bare Fastify  ${show(baseline)}${cpuText(baseline)}`);
  console.log(`  Bosun         ${show(measured)}${cpuText(measured)}`);
  console.log(`  ratio         ${(measured.perSecond / baseline.perSecond).toFixed(2)} (best vs best; per round ${perRound})`);
  if (bareRounds.every((r) => r.cpuUsPerRequest !== null) && bosunRounds.every((r) => r.cpuUsPerRequest !== null)) {
    const bareCpu = median(bareRounds.map((r) => r.cpuUsPerRequest!));
    const bosunCpu = median(bosunRounds.map((r) => r.cpuUsPerRequest!));
    const cpuPerRound = bosunRounds.map((r, i) => (bareRounds[i]!.cpuUsPerRequest! / r.cpuUsPerRequest!).toFixed(2)).join(', ');
    console.log(`  CPU ratio     ${(bareCpu / bosunCpu).toFixed(2)} (bare/Bosun server CPU per request, medians ${bareCpu.toFixed(0)} / ${bosunCpu.toFixed(0)} µs; per round ${cpuPerRound})`);
  }
}
// Wait for both children to exit: a child still writing to its stdout pipe after this process has
// gone got EPIPE and could hang there, holding its port (and the SQLite file).
const stop = (child: ChildProcess) =>
  new Promise<void>((resolveStop) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolveStop();
    const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolveStop();
    });
    child.kill('SIGINT');
  });
await Promise.all([stop(bosun.child), stop(bare.child)]);
