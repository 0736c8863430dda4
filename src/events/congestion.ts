import type { PortCall } from './port-calls.js';
import { percentile } from '../platform/stats.js';

/**
 * Port congestion from port calls (docs/decisions/022-congestion.md): who is waiting at anchor and
 * who is at berth at a moment, arrivals and departures in a window, waiting and berth time
 * percentiles, and the same figures for the window before it (the trend).
 */
export interface CongestionWindow {
  /** The moment analysed (epoch ms): "now" by default, or a past time. */
  at: number;
  rangeMs: number;
}

export interface CallsSummary {
  arrivals: number;
  departures: number;
  /** Completed calls in the window with a wait at anchor / all completed calls. */
  calls_with_wait: number;
  median_wait_hours: number | null;
  p90_wait_hours: number | null;
  median_berth_hours: number | null;
  p90_berth_hours: number | null;
}

export interface Congestion {
  at: number;
  waiting_now: number;
  at_berth_now: number;
  in_port_moving_now: number;
  window: CallsSummary;
  previous_window: CallsSummary;
  /** The window against the one before it: median wait where both have one, else arrivals; ±10 % is steady. */
  trend: { arrivals_change_pct: number | null; median_wait_change_pct: number | null; direction: 'rising' | 'falling' | 'steady' | 'unknown' };
}

const HOUR = 3_600_000;

/** Nearest-rank percentile of sorted values. */

const hours = (ms: number | null) => (ms === null ? null : Math.round((ms / HOUR) * 10) / 10);

function summarise(calls: readonly PortCall[], from: number, to: number): CallsSummary {
  const arrivals = calls.filter((c) => c.arrival > from && c.arrival <= to).length;
  const completed = calls.filter((c) => c.departure !== null && c.departure > from && c.departure <= to);
  const waits = completed.map((c) => c.anchorageMs).sort((a, b) => a - b);
  const berths = completed
    .filter((c) => c.berthMs > 0)
    .map((c) => c.berthMs)
    .sort((a, b) => a - b);
  return {
    arrivals,
    departures: completed.length,
    calls_with_wait: completed.filter((c) => c.anchorageMs > 0).length,
    median_wait_hours: hours(percentile(waits, 50)),
    p90_wait_hours: hours(percentile(waits, 90)),
    median_berth_hours: hours(percentile(berths, 50)),
    p90_berth_hours: hours(percentile(berths, 90)),
  };
}

const change = (now: number | null, before: number | null) => (now === null || before === null || before === 0 ? null : Math.round(((now - before) / before) * 1000) / 10);

/**
 * A call as congestion reads it; `lastFixAt` (an open call's newest fix) tells whether its last stop
 * was still under way then (its end reaches the fix) or the vessel has moved on since.
 */
export type CongestionCall = PortCall & { lastFixAt?: number };

/**
 * `calls`: the port's calls overlapping the two windows, completed ones with their departure and
 * ongoing ones as they stood at `at` (departure null, stops up to then).
 */
export function congestion(calls: readonly CongestionCall[], window: CongestionWindow): Congestion {
  const { at, rangeMs } = window;
  const asOf = calls.filter((c) => c.arrival <= at);
  let waiting = 0;
  let atBerth = 0;
  let moving = 0;
  for (const call of asOf) {
    if (call.departure !== null && call.departure <= at) continue;
    // the stop under way at `at`, if any: a stop covering `at`, or an open call's last stop if it lasted to the call's last fix
    const last = call.stops[call.stops.length - 1];
    const open = call.departure === null && (call.lastFixAt === undefined || (last !== undefined && last.end >= call.lastFixAt));
    const stop = call.stops.find((s) => s.start <= at && (s.end >= at || (open && s === last)));
    if (!stop) moving++;
    else if (stop.kind === 'anchorage') waiting++;
    else atBerth++;
  }
  const current = summarise(asOf, at - rangeMs, at);
  const previous = summarise(asOf, at - 2 * rangeMs, at - rangeMs);
  const arrivalsChange = change(current.arrivals, previous.arrivals);
  const waitChange = change(current.median_wait_hours, previous.median_wait_hours);
  const signal = waitChange ?? arrivalsChange;
  return {
    at,
    waiting_now: waiting,
    at_berth_now: atBerth,
    in_port_moving_now: moving,
    window: current,
    previous_window: previous,
    trend: {
      arrivals_change_pct: arrivalsChange,
      median_wait_change_pct: waitChange,
      direction: signal === null ? 'unknown' : signal > 10 ? 'rising' : signal < -10 ? 'falling' : 'steady',
    },
  };
}
