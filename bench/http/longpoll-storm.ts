/**
 * Long-poll storm: N clients keep a live /v1/vessels/updates poll open (re-polling with the returned
 * cursor as soon as one answers) while the demo fleet stores positions, which wakes every poll at
 * once. Measured on `bosun serve` (SQLite) in a child process: resident memory (RSS) before and during
 * the storm, and the latency of /v1/ping from one client meanwhile.
 *
 * A ping unanswered within 15 s is recorded as 15,000 ms.
 * Usage: node dist/bench/http/longpoll-storm.js [--polls 2000] [--seconds 10] [--baseline-cli PATH]
 * With --baseline-cli (the dist/src/cli.js of another build, e.g. the commit before a change), that
 * build is measured first and the ratios of the two runs are printed, same machine, same run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, mkdirSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { polls: { type: 'string', default: '2000' }, seconds: { type: 'string', default: '10' }, 'baseline-cli': { type: 'string' }, vessels: { type: 'string', default: '300' } },
});
const POLLS = Number(values.polls);
const MEASURE_MS = Number(values.seconds) * 1000;
const root = resolve(import.meta.dirname, '..', '..', '..');
const out = join(root, 'bench', 'out');
mkdirSync(out, { recursive: true });

interface Measured {
  label: string;
  idleRssMb: number;
  stormRssMb: number;
  idlePing: { p50: number; p99: number; n: number };
  stormPing: { p50: number; p99: number; max: number; n: number };
  pollAnswers: number;
  pollErrors: number;
  openPolls: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;
const round = (n: number) => Math.round(n * 10) / 10;

function serveEnv(dbFile: string): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {
    ...process.env,
    DATABASE_URL: `sqlite:${dbFile}`,
    BOSUN_FEEDS: 'demo',
    BOSUN_DEMO_VESSELS: values.vessels,
    BOSUN_DEMO_BACKFILL_DAYS: '0',
    BOSUN_TRUST_PROXY: '1',
    BOSUN_MAX_CONNECTIONS_PER_ADDRESS: '0',
    LOG_LEVEL: 'error',
    HOST: '127.0.0.1',
    PORT: '0',
  };
  delete env.REDIS_URL;
  return env;
}

function start(cli: string, dbFile: string): Promise<{ child: ChildProcess; port: number }> {
  for (const suffix of ['', '-wal', '-shm']) rmSync(dbFile + suffix, { force: true });
  const env = serveEnv(dbFile);
  const child = spawn(process.execPath, [cli, 'serve'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stderr.on('data', (d) => process.stderr.write(`[serve ${cli}] ${d}`));
  return new Promise((resolveStart, reject) => {
    let text = '';
    child.stdout.on('data', (d) => {
      text += d;
      const match = /https?:\/\/[\d.]+:(\d+)/.exec(text);
      if (match) resolveStart({ child, port: Number(match[1]) });
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${text}`)));
  });
}

function call(agent: Agent, port: number, path: string, headers: Record<string, string> = {}, body?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolveCall, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent, method: body ? 'POST' : 'GET', headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => resolveCall({ status: res.statusCode ?? 0, text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Pings from a process of its own, so the latency measured is the server's and not this load
 * generator's (its event loop is busy reading the polls' answers).
 */
const PINGER = `
const http = require('node:http');
const [port, durationMs] = process.argv.slice(1).map(Number);
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const times = [];
const until = performance.now() + durationMs;
let ip = 1;
const one = () => new Promise((resolve, reject) => {
  const t0 = performance.now();
  const req = http.get({ host: '127.0.0.1', port, path: '/v1/ping', agent, headers: { 'x-forwarded-for': '172.16.' + ((ip >> 8) & 255) + '.' + (ip++ & 255) } }, (res) => {
    res.resume();
    res.on('end', () => (res.statusCode === 200 ? resolve(performance.now() - t0) : reject(new Error('ping ' + res.statusCode))));
  });
  req.on('error', reject);
  // A ping unanswered after 15 s counts as 15 s (the server is starved; waiting longer measures nothing).
  req.setTimeout(15000, () => { req.destroy(); resolve(15000); });
});
(async () => {
  while (performance.now() < until) {
    times.push(await one());
    await new Promise((r) => setTimeout(r, 10));
  }
  process.stdout.write(JSON.stringify(times));
  agent.destroy();
})();
`;

async function pingLatencies(port: number, durationMs: number): Promise<number[]> {
  const child = spawn(process.execPath, ['-e', PINGER, String(port), String(durationMs)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let text = '';
  child.stdout.on('data', (d) => (text += d));
  await new Promise((r) => child.once('exit', r));
  if (!text) throw new Error('the pinger got no answers (server gone?)');
  return (JSON.parse(text) as number[]).sort((a, b) => a - b);
}

async function measure(label: string, cli: string, index: number): Promise<Measured> {
  const dbFile = join(out, `longpoll-storm-${index}.sqlite`);
  const { child, port } = await start(cli, dbFile);
  process.stderr.write(`${label}: serving on ${port}\n`);
  try {
    const setup = new Agent({ keepAlive: true, maxSockets: 32 });
    const keys: string[] = [];
    const agentIds: string[] = [];
    const agentsNeeded = Math.ceil(POLLS / 3);
    for (let i = 0; i < agentsNeeded; i += 32) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(32, agentsNeeded - i) }, (_, j) =>
          call(setup, port, '/v1/agents/register', { 'x-forwarded-for': `10.${((i + j) >> 8) & 255}.${(i + j) & 255}.1` }, JSON.stringify({ name: `storm-${i + j}` })),
        ),
      );
      for (const res of batch) {
        if (res.status !== 201) throw new Error(`registration ${res.status} ${res.text.slice(0, 200)}`);
        const registered = JSON.parse(res.text).data;
        keys.push(registered.api_key);
        agentIds.push(registered.agent_id);
      }
    }
    setup.destroy();
    // Positions younger than the preview delay and /updates need the vessels:live scope (docs/decisions/007).
    const grant = spawn(process.execPath, [cli, 'agents', 'grant', ...agentIds, 'vessels:live'], { env: serveEnv(dbFile), stdio: ['ignore', 'ignore', 'inherit'] });
    const granted = await new Promise<number | null>((r) => grant.once('exit', r));
    if (granted !== 0) throw new Error(`${label}: granting vessels:live failed (${granted})`);
    process.stderr.write(`${label}: ${keys.length} agents registered and granted vessels:live\n`);
    await sleep(1000);
    const idleRss = rssMb(child.pid!);
    const idle = await pingLatencies(port, 3000);

    // The storm: every client re-polls with its cursor as soon as it is answered.
    const pollAgent = new Agent({ keepAlive: true, maxSockets: Infinity });
    let stopped = false;
    let answers = 0;
    let errors = 0;
    let open = 0;
    const loop = async (key: string) => {
      let since: string | null = null;
      while (!stopped) {
        open++;
        try {
          const res = await call(pollAgent, port, `/v1/vessels/updates?timeout=20${since ? `&since=${since}` : ''}`, { authorization: `Bearer ${key}` });
          if (res.status === 200) {
            answers++;
            since = /"cursor":"([^"]+)"/.exec(res.text)![1]!;
          } else {
            errors++;
            await sleep(200);
          }
        } catch {
          if (!stopped) {
            errors++;
            await sleep(200);
          }
        } finally {
          open--;
        }
      }
    };
    const loops = Array.from({ length: POLLS }, (_, i) => loop(keys[Math.floor(i / 3)]!));
    let exited = false;
    child.once('exit', () => ((exited = true), (stopped = true), pollAgent.destroy()));
    await sleep(3000); // every poll open, the fleet storing and waking them
    if (exited) throw new Error(`${label}: the server process died during the storm`);
    process.stderr.write(`${label}: ${open} polls open, ${answers} answers, ${errors} errors\n`);
    let peakRss = rssMb(child.pid!);
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMb(child.pid!))), 250);
    const answersBefore = answers;
    const storm = await pingLatencies(port, MEASURE_MS).catch((err: Error) => {
      stopped = true;
      pollAgent.destroy();
      throw err;
    });
    clearInterval(sampler);
    const openNow = open;
    const stormAnswers = answers - answersBefore;
    stopped = true;
    pollAgent.destroy();
    await Promise.allSettled(loops);
    return {
      label,
      idleRssMb: round(idleRss),
      stormRssMb: round(peakRss),
      idlePing: { p50: round(pct(idle, 50)), p99: round(pct(idle, 99)), n: idle.length },
      stormPing: { p50: round(pct(storm, 50)), p99: round(pct(storm, 99)), max: round(storm[storm.length - 1]!), n: storm.length },
      pollAnswers: stormAnswers,
      pollErrors: errors,
      openPolls: openNow,
    };
  } finally {
    child.kill('SIGKILL');
  }
}

const runs: Measured[] = [];
if (values['baseline-cli']) {
  try {
    runs.push(await measure('baseline', resolve(values['baseline-cli']), 0));
  } catch (err) {
    console.log(`baseline failed: ${(err as Error).message}`);
  }
}
runs.push(await measure('this build', join(root, 'dist', 'src', 'cli.js'), 1));

console.log(
  `long-poll storm: ${POLLS} live polls, demo fleet of ${values.vessels} vessels, ${MEASURE_MS / 1000} s measured; load ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`,
);
console.log('| build | RSS idle MB | RSS storm MB | RSS delta MB | ping p50 idle ms | ping p99 idle ms | ping p50 storm ms | ping p99 storm ms | ping max storm ms | poll answers | poll errors |');
console.log('|---|---|---|---|---|---|---|---|---|---|---|');
for (const r of runs) {
  console.log(
    `| ${r.label} | ${r.idleRssMb} | ${r.stormRssMb} | ${round(r.stormRssMb - r.idleRssMb)} | ${r.idlePing.p50} | ${r.idlePing.p99} | ${r.stormPing.p50} | ${r.stormPing.p99} | ${r.stormPing.max} | ${r.pollAnswers} | ${r.pollErrors} |`,
  );
}
if (runs.length === 2) {
  const [a, b] = runs as [Measured, Measured];
  console.log(
    `ratio this/baseline: RSS delta ${round(((b.stormRssMb - b.idleRssMb) / Math.max(0.1, a.stormRssMb - a.idleRssMb)) * 100) / 100}, ping p99 during storm ${round((b.stormPing.p99 / a.stormPing.p99) * 100) / 100}`,
  );
}
