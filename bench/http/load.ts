import { Agent, request } from 'node:http';

export interface LoadResult {
  requests: number;
  seconds: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  statuses: Record<string, number>;
}

export interface LoadOptions {
  baseUrl: string;
  /** Path (with query) and headers of the i-th request. */
  next: (i: number) => { path: string; headers?: Record<string, string> };
  connections: number;
  durationMs: number;
}

/** A keep-alive HTTP load generator: `connections` loops, each sending its next request when the last answer is read. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const url = new URL(options.baseUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections });
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let issued = 0;
  const deadline = performance.now() + options.durationMs;
  const one = (i: number) =>
    new Promise<void>((resolve, reject) => {
      const { path, headers } = options.next(i);
      const start = performance.now();
      const req = request({ host: url.hostname, port: url.port, path, agent, headers: headers ?? {} }, (res) => {
        res.on('data', () => {});
        res.on('end', () => {
          latencies.push(performance.now() - start);
          statuses[res.statusCode!] = (statuses[res.statusCode!] ?? 0) + 1;
          resolve();
        });
      });
      req.on('error', reject);
      req.end();
    });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: options.connections }, async () => {
      while (performance.now() < deadline) await one(issued++);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const pick = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { requests: latencies.length, seconds, perSecond: latencies.length / seconds, p50Ms: pick(0.5), p99Ms: pick(0.99), statuses };
}
