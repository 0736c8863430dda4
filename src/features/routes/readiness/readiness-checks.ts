import { iso } from '../../../platform/clock.js';
import type { LoadedSeaNetwork } from '../../../routing/network-file.js';
import type { ReadinessCheck } from './readiness-rules.js';

/** The readiness checks as pure functions of what the service read (network, port table, events, newest position). */

/** The engine check: the loaded network, or why it did not load. */
export function engineCheck(network: LoadedSeaNetwork | Error): ReadinessCheck {
  if (network instanceof Error) {
    return { name: 'engine_loaded', pass: false, value: null, threshold: 1, comparison: 'at_least', unit: 'nodes', detail: `the network did not load: ${network.message}` };
  }
  const nodes = network.engine.graph.nodeCount;
  return {
    name: 'engine_loaded',
    pass: nodes > 0,
    value: nodes,
    threshold: 1,
    comparison: 'at_least',
    unit: 'nodes',
    detail: `Eurostat marnet ${network.resolutionKm} km: ${nodes} nodes, ${network.engine.graph.edgeCount} edges, loaded in ${Math.round(network.loadMs)} ms`,
  };
}

export function portTableCheck(version: number, portCount: number): ReadinessCheck {
  return {
    name: 'port_table',
    pass: portCount > 0,
    value: portCount,
    threshold: 1,
    comparison: 'at_least',
    unit: 'ports',
    detail: `port table version ${version}: ${portCount} ports`,
  };
}

export function eventLayerCheck(events: { port_calls: number; transits: number }, days: number, window: { since: number; until: number }): ReadinessCheck {
  const eventTotal = events.port_calls + events.transits;
  return {
    name: 'event_layer',
    pass: eventTotal > 0,
    value: eventTotal,
    threshold: 1,
    comparison: 'at_least',
    unit: 'events',
    detail: `${events.port_calls} port calls began and ${events.transits} chokepoint transits ended in the last ${days} days (${iso(window.since)} to ${iso(window.until)}; transits as GET /v1/routes/corridors counts them over that range)`,
  };
}

export interface NewestPosition {
  age_seconds: number;
  observed_at: number;
  simulated: boolean;
}

export function freshnessCheck(newest: NewestPosition | null, maxAge: number): ReadinessCheck {
  return {
    name: 'data_freshness',
    pass: newest !== null && newest.age_seconds <= maxAge,
    value: newest?.age_seconds ?? null,
    threshold: maxAge,
    comparison: 'at_most',
    unit: 'seconds',
    detail: newest ? `newest position observed ${iso(newest.observed_at)}${newest.simulated ? ' (simulated)' : ''}` : 'no position is stored',
  };
}

export interface ReadinessFacts {
  now: number;
  ready: boolean;
  passed: number;
  total: number;
  checks: ReadinessCheck[];
  days: number;
  max_age_seconds: number;
  flags: string[];
}

/** Ready when every check passes; a simulated newest position is flagged. */
export function readinessOf(now: number, checks: ReadinessCheck[], days: number, maxAge: number, newest: NewestPosition | null): ReadinessFacts {
  const passed = checks.filter((c) => c.pass).length;
  const flags: string[] = [];
  if (newest?.simulated) flags.push('simulated_source');
  return { now, ready: passed === checks.length, passed, total: checks.length, checks, days, max_age_seconds: maxAge, flags };
}
