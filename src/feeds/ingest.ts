import type { Logger } from '../observability/logger.js';
import type { Clock } from '../platform/clock.js';
import type { AisSink } from '../fleet/types.js';
import { FeedManager, reportToJson, type FeedSourceReport } from './feed-manager.js';
import { feedRetryLog } from './retry-log.js';
import { createSource } from './sources/index.js';
import type { FeedSpec } from '../platform/feed-spec.js';
import { iso } from '../platform/clock.js';

export interface IngestOptions {
  specs: FeedSpec[];
  sink: AisSink;
  clock: Clock;
  logger?: Logger;
  stdin?: NodeJS.ReadableStream;
  /** Print progress statistics this often (wall time); 0 = never (the caller prints the returned figures). */
  statsEveryMs: number;
  json: boolean;
  /** Where progress statistics go. */
  print: (line: string) => void;
  /** Aborting stops every source, flushes and returns (Ctrl-C). */
  signal?: AbortSignal;
}

const n = (value: number) => value.toLocaleString('en-US');

/** One line per source, e.g. `file:a.nmea  finished  lines 1,000  messages 990  errors 10 (bad_checksum 10)`. */
export function formatReport(report: FeedSourceReport): string {
  const errorTotal = Object.values(report.errors).reduce((a, b) => a + b, 0);
  const reasons = Object.entries(report.errors).map(([reason, count]) => `${reason} ${n(count)}`);
  const parts = [report.name, report.state, `lines ${n(report.lines)}`, `messages ${n(report.messages)}`, `errors ${n(errorTotal)}${reasons.length ? ` (${reasons.join(', ')})` : ''}`];
  if (report.overlongLines) parts.push(`overlong ${n(report.overlongLines)}`);
  if (report.kind === 'tcp-client') parts.push(`reconnects ${n(report.reconnects)}`);
  if (report.clients !== undefined) parts.push(`clients ${report.clients}`);
  if (report.lastObservedAt !== null) parts.push(`last observed ${iso(report.lastObservedAt)}`);
  if (report.lastError) parts.push(`last error: ${report.lastError}`);
  return parts.join('  ');
}

/**
 * Runs feeds standalone into a sink until every finite source has ended (then flushes) or until
 * `signal` aborts (then stops, flushes). Returns the final per-source figures.
 */
export async function runIngest(options: IngestOptions): Promise<FeedSourceReport[]> {
  const manager = new FeedManager({ sink: options.sink, clock: options.clock, ...(options.logger ? { logger: options.logger } : {}) });
  for (const spec of options.specs)
    manager.add(createSource(spec, { clock: options.clock, ...(options.logger ? { onRetry: feedRetryLog(options.logger) } : {}), ...(options.stdin ? { stdin: options.stdin } : {}) }));
  const printProgress = () => {
    const reports = manager.reports();
    if (options.json) options.print(JSON.stringify({ sources: reports.map(reportToJson) }));
    else for (const report of reports) options.print(formatReport(report));
  };
  await manager.start();
  const timer = options.statsEveryMs > 0 ? setInterval(printProgress, options.statsEveryMs) : null;
  try {
    const aborted = new Promise<void>((resolve) => {
      if (options.signal?.aborted) return resolve();
      options.signal?.addEventListener('abort', () => resolve(), { once: true });
    });
    await Promise.race([manager.done(), aborted]);
  } finally {
    if (timer) clearInterval(timer);
    await manager.stop();
  }
  return manager.reports();
}
