/**
 * Exchange message fan-out to N SSE subscribers (issue 12): latency from the post to each
 * subscriber's receipt (p50/p99) and resident memory, for Bosun (POST /v1/exchange/messages → store →
 * bus → stream hub → every open GET /v1/exchange/messages/stream) and, as the baseline in the same
 * run, a bare Node http server writing the same event bytes to the same number of open responses.
 * Both servers run in this process with the clients (a lower bound on what a separate client adds).
 *
 * Usage: node dist/bench/exchange/sse-fanout-main.js [--subscribers 1000] [--messages 20]
 */
import { createServer, request, Agent, type ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createBosun } from '../../src/app/create.js';
import { loadConfig } from '../../src/platform/config.js';

const { values } = parseArgs({ options: { subscribers: { type: 'string', default: '1000' }, messages: { type: 'string', default: '20' } } });
const SUBSCRIBERS = Number(values.subscribers);
const MESSAGES = Number(values.messages);
const STREAMS_PER_AGENT = 3;

const rssMb = () => Math.round((Number(/VmRSS:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))![1]) / 1024) * 10) / 10;
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;
const round = (n: number) => Math.round(n * 100) / 100;
const agent = new Agent({ keepAlive: true, maxSockets: Infinity });

interface Subscriber {
  close(): void;
}

/** Opens one event stream and calls `onMessage(body)` for each message event. */
function subscribe(url: string, headers: Record<string, string>, onMessage: (body: string) => void, onReady: () => void): Promise<Subscriber> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers: { accept: 'text/event-stream', ...headers } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`stream answered ${res.statusCode}`));
      res.setEncoding('utf8');
      let buffer = '';
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (block.includes('event: ready')) onReady();
          if (!block.includes('event: message')) continue;
          const data = block.split('\n').find((l) => l.startsWith('data: '));
          if (data) onMessage(JSON.parse(data.slice(6)).body);
        }
      });
      resolve({ close: () => req.destroy() });
    });
    req.on('error', reject);
    req.end();
  });
}

/** Posts MESSAGES messages one after the other, each once every subscriber has the previous one; latencies per receipt. */
async function measure(label: string, base: string, streamUrl: string, tokens: string[], post: (i: number, body: string) => Promise<void>) {
  const rssBefore = rssMb();
  const sentAt = new Map<string, number>();
  const latencies: number[] = [];
  let received = 0;
  let ready = 0;
  const subs: Subscriber[] = [];
  for (let i = 0; i < SUBSCRIBERS; i++) {
    subs.push(
      await subscribe(
        `${base}${streamUrl}`,
        tokens.length ? { authorization: `Bearer ${tokens[Math.floor(i / STREAMS_PER_AGENT)]}` } : {},
        (body) => {
          const t = sentAt.get(body);
          if (t !== undefined) latencies.push(performance.now() - t);
          received++;
        },
        () => ready++,
      ),
    );
  }
  while (ready < SUBSCRIBERS) await new Promise((r) => setTimeout(r, 10));
  const rssOpen = rssMb();
  for (let m = 0; m < MESSAGES; m++) {
    const body = `bench message ${m}`;
    const target = received + SUBSCRIBERS;
    sentAt.set(body, performance.now());
    await post(m, body);
    const deadline = performance.now() + 15_000;
    while (received < target && performance.now() < deadline) await new Promise((r) => setImmediate(r));
  }
  const rssAfter = rssMb();
  for (const s of subs) s.close();
  latencies.sort((a, b) => a - b);
  return {
    label,
    receipts: latencies.length,
    expected: SUBSCRIBERS * MESSAGES,
    p50: round(pct(latencies, 50)),
    p99: round(pct(latencies, 99)),
    max: round(latencies.at(-1) ?? NaN),
    rssBefore,
    rssOpen,
    rssAfter,
  };
}

async function bare() {
  const open = new Set<ServerResponse>();
  let seq = 0;
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store' });
    res.write(`retry: 3000\n\nid: ${seq}\nevent: ready\ndata: {}\n\n`);
    open.add(res);
    req.on('close', () => open.delete(res));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as { port: number }).port;
  const result = await measure('bare node http (baseline)', `http://127.0.0.1:${port}`, '/', [], async (_i, body) => {
    seq++;
    const text = `id: ${seq}\nevent: message\ndata: ${JSON.stringify({ message_id: 'msg_x', seq, body })}\n\n`;
    for (const res of open) res.write(text);
  });
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  return result;
}

async function bosun() {
  const config = loadConfig({ DATABASE_URL: ':memory:', LOG_LEVEL: 'error', HOST: '127.0.0.1', PORT: '0', BOSUN_MAX_CONNECTIONS_PER_ADDRESS: '0' });
  const app = await createBosun(config);
  const base = await app.listen();
  const agents = app.ctx.services.agents;
  const tokens: string[] = [];
  for (let i = 0; i < Math.ceil(SUBSCRIBERS / STREAMS_PER_AGENT); i++) tokens.push((await agents.register({ name: `listener ${i}` }, `10.${(i >> 8) & 255}.${i & 255}.1`)).apiKey);
  const posters: string[] = [];
  for (let i = 0; i < MESSAGES; i++) posters.push((await agents.register({ name: `poster ${i}` }, `10.200.${i & 255}.1`)).apiKey);
  const result = await measure('Bosun exchange stream', base, '/v1/exchange/messages/stream?channel=general', tokens, async (i, body) => {
    const res = await fetch(`${base}/v1/exchange/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${posters[i]}`, 'content-type': 'application/json' },
      body: JSON.stringify({ channel: 'general', body }),
    });
    if (res.status !== 201) throw new Error(`post answered ${res.status}: ${await res.text()}`);
  });
  await app.close();
  return result;
}

const load = readFileSync('/proc/loadavg', 'utf8').trim();
const baseline = await bare();
const measured = await bosun();
console.log(`subscribers ${SUBSCRIBERS}, messages ${MESSAGES}, load before: ${load}, after: ${readFileSync('/proc/loadavg', 'utf8').trim()}`);
for (const r of [baseline, measured]) {
  console.log(
    `${r.label}: receipts ${r.receipts}/${r.expected}, latency p50 ${r.p50} ms, p99 ${r.p99} ms, max ${r.max} ms; RSS ${r.rssBefore} MB before, ${r.rssOpen} MB with the streams open, ${r.rssAfter} MB after the messages`,
  );
}
console.log(
  `ratio Bosun / baseline: p50 ${round(measured.p50 / baseline.p50)}, p99 ${round(measured.p99 / baseline.p99)}, RSS growth for the open streams ${round(measured.rssOpen - measured.rssBefore)} MB vs ${round(baseline.rssOpen - baseline.rssBefore)} MB`,
);
process.exit(0);
