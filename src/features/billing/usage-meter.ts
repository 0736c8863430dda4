import { DAY, type Clock } from '../../platform/clock.js';
import type { UsageRepo, UsageRow } from './usage-repo.js';

export const USAGE_FLUSH_MS = 1000;
/** Distinct ledger lines buffered before a flush is started without waiting for the timer. */
export const USAGE_BUFFER_LINES = 2000;

/** A cost in cost units (decimal, as the catalog and the envelope give it) as integer milli-units. */
export const toMilli = (costUnits: number): number => Math.round(costUnits * 1000);
/** Integer milli-units back to cost units; exact for every sum below 2^53 milli-units. */
export const fromMilli = (milli: number): number => milli / 1000;

/** The UTC day (YYYY-MM-DD) of an instant. */
export const utcDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** What the meter needs of one answered request (the fields of a telemetry record). */
export interface MeteredCall {
  ts: number;
  operation_id: string;
  caller_kind: string;
  agent_id: string | null;
  cost_units: number;
  status: number;
}

/**
 * Meters every answered request into the usage ledger: calls are summed in memory per
 * (caller, operation, day) line and written as one upsert batch every second, when the buffer
 * holds many lines, before a read, and on close. Nothing is written on the request path.
 */
export function createUsageMeter(deps: { repo: UsageRepo; clock: Clock; onFlushError: (err: unknown) => void }) {
  let lines = new Map<string, UsageRow>();
  let flushing: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | null = null;

  const keyOf = (row: UsageRow) => `${row.agent_id}\u0000${row.day}\u0000${row.operation_id}\u0000${row.caller_kind}`;

  function add(target: Map<string, UsageRow>, row: UsageRow) {
    const key = keyOf(row);
    const line = target.get(key);
    if (line) {
      line.calls += row.calls;
      line.charged_calls += row.charged_calls;
      line.cost_milli += row.cost_milli;
      line.failed_calls += row.failed_calls;
      line.last_call_at = Math.max(line.last_call_at ?? 0, row.last_call_at ?? 0);
    } else target.set(key, { ...row });
  }

  function flush(): Promise<void> {
    if (lines.size === 0) return flushing;
    const batch = lines;
    lines = new Map();
    flushing = flushing.then(async () => {
      try {
        await deps.repo.addBatch([...batch.values()], deps.clock.now());
      } catch (err) {
        // keep the counts for the next flush rather than lose charges
        for (const row of batch.values()) add(lines, row);
        deps.onFlushError(err);
      }
    });
    return flushing;
  }

  // the UTC day of the calls being recorded, recomputed only when a call falls outside it
  let dayStart = 0;
  let dayEnd = -1;
  let day = '';

  return {
    record(call: MeteredCall): void {
      if (call.operation_id === 'unmatched') return;
      if (call.ts < dayStart || call.ts > dayEnd) {
        day = utcDay(call.ts);
        dayStart = Date.parse(`${day}T00:00:00.000Z`);
        dayEnd = dayStart + DAY - 1;
      }
      const agentId = call.agent_id ?? '';
      const milli = toMilli(call.cost_units);
      const key = `${agentId}\u0000${day}\u0000${call.operation_id}\u0000${call.caller_kind}`;
      const failed = call.status >= 400 ? 1 : 0;
      const line = lines.get(key);
      if (line) {
        line.calls++;
        if (milli > 0) line.charged_calls++;
        line.cost_milli += milli;
        line.failed_calls += failed;
        if (call.ts > line.last_call_at!) line.last_call_at = call.ts;
        return;
      }
      lines.set(key, {
        day,
        caller_kind: call.caller_kind,
        agent_id: agentId,
        operation_id: call.operation_id,
        calls: 1,
        charged_calls: milli > 0 ? 1 : 0,
        cost_milli: milli,
        failed_calls: failed,
        last_call_at: call.ts,
      });
      if (lines.size >= USAGE_BUFFER_LINES) void flush();
    },
    flush,
    /** Ledger lines waiting for the next flush. */
    pending: () => lines.size,
    start(): void {
      if (!timer) {
        timer = setInterval(() => void flush(), USAGE_FLUSH_MS);
        timer.unref();
      }
    },
    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = null;
      await flush();
    },
  };
}
export type UsageMeter = ReturnType<typeof createUsageMeter>;
