/**
 * Scale-out behind nginx (issue 31): three `bosun serve` processes on one PostgreSQL schema and one Redis
 * prefix behind nginx (Debian's package, run from a private prefix), every process configured with its
 * own AIS feed (a TCP listener). It shows:
 * - exactly one process holds the feed lease and listens on its feed port; the others serve only;
 * - limits are exact across them: the anonymous preview limit (6 a minute) counted once through nginx's
 *   round robin over the three;
 * - long polls waiting on each process, and an SSE stream open on each, are answered with what reaches
 *   the holder (positions) or another process (an exchange message);
 * - the holder killed (SIGKILL): another takes the lease once it lapses, listens on its own feed port,
 *   and a long poll through nginx sees what it ingests.
 * Used by bench/scale-out/nginx-main.ts (prints the steps and exits 1 on a failed check).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { call, cliRun, freePort, samplePositions, sendLines, serve, stop, type Served } from './scale-out-check.js';

export interface NginxCheckOptions {
  databaseUrl: string;
  redisUrl: string;
  nginx?: string;
  /** BOSUN_FEED_LEASE_SECONDS of the three processes (the takeover waits for it to lapse). */
  leaseSeconds?: number;
  log?: (line: string) => void;
}

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

/** The nginx configuration of the README's "Scale out" recipe, with private paths for a check run. */
export function nginxConfig(options: { listen: number; upstreams: readonly number[]; prefix?: string }): string {
  const paths = options.prefix ? `pid ${options.prefix}/nginx.pid;\nerror_log ${options.prefix}/error.log warn;\n` : 'pid /run/nginx.pid;\nerror_log /var/log/nginx/error.log warn;\n';
  const temp = options.prefix ? ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((k) => `  ${k}_temp_path ${options.prefix}/${k};`).join('\n') + '\n' : '';
  return `${paths}worker_processes 1;
events { worker_connections 4096; }
http {
  access_log off;
${temp}  upstream bosun {
${options.upstreams.map((port) => `    server 127.0.0.1:${port} max_fails=1 fail_timeout=5s;`).join('\n')}
    keepalive 32;
  }
  server {
    listen 127.0.0.1:${options.listen};
    location / {
      proxy_pass http://bosun;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      # SSE and long polls: pass bytes as they come, wait as long as a stream lasts
      proxy_buffering off;
      proxy_read_timeout 1h;
      proxy_next_upstream error timeout;
    }
  }
}
`;
}

/** True when something accepts TCP connections on the port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolveProbe) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolveProbe(true);
    });
    socket.once('error', () => resolveProbe(false));
  });
}

/** An open event stream: the bodies of its `message` events so far. */
function openStream(url: string, headers: Record<string, string>): { bodies: string[]; ready: Promise<void>; close: () => void } {
  const controller = new AbortController();
  const bodies: string[] = [];
  let markReady!: () => void;
  const ready = new Promise<void>((r) => (markReady = r));
  void (async () => {
    const res = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: controller.signal });
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end).split('\n');
        buffer = buffer.slice(end + 2);
        const event = block.find((l) => l.startsWith('event: '))?.slice(7);
        const data = block.find((l) => l.startsWith('data: '))?.slice(6);
        if (event === 'ready') markReady();
        if (event === 'message' && data) bodies.push((JSON.parse(data) as { body: string }).body);
      }
    }
  })().catch(() => markReady());
  return { bodies, ready, close: () => controller.abort() };
}

async function until<T>(what: () => Promise<T | null>, timeoutMs: number): Promise<{ value: T | null; ms: number }> {
  const start = Date.now();
  for (;;) {
    const value = await what();
    if (value !== null || Date.now() - start >= timeoutMs) return { value, ms: Date.now() - start };
    await new Promise((r) => setTimeout(r, 200));
  }
}

export async function runNginxCheck(options: NginxCheckOptions): Promise<Check[]> {
  const log = options.log ?? (() => {});
  const leaseSeconds = options.leaseSeconds ?? 5;
  const suffix = randomBytes(5).toString('hex');
  const schema = `scale3_${suffix}`;
  const prefix = mkdtempSync(join(tmpdir(), 'bosun-nginx-'));
  chmodSync(prefix, 0o777);
  const checks: Check[] = [];
  const began = Date.now();
  const check = (name: string, ok: boolean, detail: string) => {
    checks.push({ name, ok, detail });
    log(`${ok ? 'ok  ' : 'FAIL'} ${name}: ${detail} [${((Date.now() - began) / 1000).toFixed(1)} s]`);
  };
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: options.databaseUrl,
    BOSUN_PG_SCHEMA: schema,
    REDIS_URL: options.redisUrl,
    BOSUN_REDIS_PREFIX: `bosun-scale3-${suffix}:`,
    BOSUN_TRUST_PROXY: '1',
    BOSUN_FEED_LEASE_SECONDS: String(leaseSeconds),
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
  };
  const served: Array<Served | undefined> = [];
  let nginx: ChildProcess | undefined;
  try {
    const ports = [await freePort(), await freePort(), await freePort()];
    const feedPorts = [await freePort(), await freePort(), await freePort()];
    const proxyPort = await freePort();
    // the first migrates the fresh schema; the two others start at once after it
    served.push(await serve({ ...env, PORT: String(ports[0]), BOSUN_FEEDS: `tcp-listen://127.0.0.1:${feedPorts[0]}` }));
    const rest = await Promise.all([1, 2].map((i) => serve({ ...env, PORT: String(ports[i]), BOSUN_FEEDS: `tcp-listen://127.0.0.1:${feedPorts[i]}` })));
    served.push(...rest);
    for (const k of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(prefix, k), { mode: 0o777 });
    writeFileSync(join(prefix, 'nginx.conf'), nginxConfig({ listen: proxyPort, upstreams: ports, prefix }));
    nginx = spawn(options.nginx ?? '/usr/sbin/nginx', ['-p', prefix, '-c', join(prefix, 'nginx.conf'), '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
    const proxy = `http://127.0.0.1:${proxyPort}`;
    const up = await until(async () => ((await listening(proxyPort)) ? true : null), 10_000);
    if (!up.value) throw new Error(`nginx did not start (see ${prefix}/error.log)`);
    log(`[${((Date.now() - began) / 1000).toFixed(1)} s] 3 serve processes on ${ports.join(', ')} (feeds on ${feedPorts.join(', ')}), nginx on ${proxyPort}, schema ${schema}`);

    // exactly one holds the lease and listens on its feed port
    const owners = async (alive: number[]) => {
      const out: Array<{ i: number; holds: boolean }> = [];
      for (const i of alive) out.push({ i, holds: (await call(`${served[i]!.url}/v1/status`)).body.data?.components?.feed_owner?.holds_lease === true });
      return out;
    };
    const first = await owners([0, 1, 2]);
    const holders = first.filter((o) => o.holds).map((o) => o.i);
    const open = await Promise.all(feedPorts.map(listening));
    check('exactly one process holds the feed lease', holders.length === 1, `holders: ${holders.join(', ') || 'none'}`);
    check('only the holder listens on its feed port', open.filter(Boolean).length === 1 && open[holders[0]!] === true, `feed ports open: ${open.map((o, i) => `${feedPorts[i]} ${o}`).join(', ')}`);
    const holder = holders[0] ?? 0;

    // limits: 7 anonymous preview calls through nginx's round robin
    let statuses: number[] = [];
    for (let attempt = 0; attempt < 2; attempt++) {
      const minute = Math.floor(Date.now() / 60_000);
      statuses = [];
      for (let i = 0; i < 7; i++) statuses.push((await call(`${proxy}/v1/bootstrap/vessels/search?q=ZZ`)).status);
      if (Math.floor(Date.now() / 60_000) === minute) break;
    }
    check('preview limit exact across the three (6 a minute)', statuses.slice(0, 6).every((s) => s === 200) && statuses[6] === 429, statuses.join(' '));

    // an agent with live data, registered through nginx, granted by the CLI
    const registered = await call(`${proxy}/v1/agents/register`, { method: 'POST', body: JSON.stringify({ name: 'scale-out-3' }) });
    const { api_key: apiKey, agent_id: agentId } = registered.body.data ?? {};
    const auth = { authorization: `Bearer ${apiKey}` };
    cliRun(env, ['agents', 'grant', agentId, 'vessels:live']);
    const head = await call(`${proxy}/v1/vessels/updates?timeout=0`, { headers: auth });
    const cursor = encodeURIComponent(head.body.data?.cursor ?? '');

    // long polls waiting on each process and SSE streams open on each
    const streams = served.map((s) => openStream(`${s!.url}/v1/exchange/messages/stream?channel=general`, auth));
    await Promise.race([Promise.all(streams.map((s) => s.ready)), new Promise((r) => setTimeout(r, 10_000))]);
    const polls = served.map((s) => call(`${s!.url}/v1/vessels/updates?since=${cursor}&timeout=25`, { headers: auth }));
    const sample = samplePositions(100);
    await sendLines(feedPorts[holder]!, sample.lines);
    const answered = await Promise.all(polls);
    const items = answered.map((r) => (r.body.data?.items ?? []).length as number);
    check('long polls on every process answered with positions ingested by the holder', answered.every((r) => r.status === 200) && items.every((n) => n > 0), `items per process: ${items.join(', ')}`);
    const text = `scale-out message ${suffix}`;
    const posted = await call(`${proxy}/v1/exchange/messages`, { method: 'POST', headers: auth, body: JSON.stringify({ channel: 'general', body: text }) });
    const seen = await until(async () => (streams.every((s) => s.bodies.includes(text)) ? true : null), 10_000);
    check(
      'an SSE stream on every process receives a message posted through nginx',
      posted.status === 201 && seen.value === true,
      `post ${posted.status}; received on ${streams.filter((s) => s.bodies.includes(text)).length} of 3 in ${seen.ms} ms`,
    );
    for (const s of streams) s.close();

    // the holder killed: another takes over once its lease lapses
    const killedAt = Date.now();
    const killed = served[holder]!;
    const exited = new Promise((r) => killed.child.once('exit', r));
    killed.child.kill('SIGKILL');
    await exited;
    served[holder] = undefined;
    const alive = [0, 1, 2].filter((i) => i !== holder);
    const takeover = await until(
      async () => {
        const now = (await owners(alive)).filter((o) => o.holds);
        return now.length > 0 ? now.map((o) => o.i) : null;
      },
      (leaseSeconds + 10) * 1000,
    );
    const next = takeover.value?.[0];
    check(
      'after the holder is killed exactly one other process takes the lease',
      takeover.value?.length === 1,
      `new holder ${next ?? 'none'} ${Date.now() - killedAt} ms after the kill (lease ${leaseSeconds} s)`,
    );
    if (next !== undefined) {
      const again = await call(`${proxy}/v1/vessels/updates?timeout=0`, { headers: auth });
      const pending = call(`${proxy}/v1/vessels/updates?since=${encodeURIComponent(again.body.data?.cursor ?? '')}&timeout=25`, { headers: auth });
      const more = samplePositions(300);
      await sendLines(feedPorts[next]!, more.lines.slice(100));
      const polled = await pending;
      const n = (polled.body.data?.items ?? []).length as number;
      check('a long poll through nginx sees what the new holder ingests', polled.status === 200 && n > 0, `${polled.status}, ${n} positions`);
    }
    return checks;
  } finally {
    nginx?.kill('SIGTERM');
    await Promise.all(served.map((s) => stop(s)));
    rmSync(prefix, { recursive: true, force: true });
    const pg = (await import('pg')).default;
    const client = new pg.Client({ connectionString: options.databaseUrl });
    await client.connect();
    await client.query(`drop schema if exists "${schema}" cascade`);
    await client.end();
  }
}
