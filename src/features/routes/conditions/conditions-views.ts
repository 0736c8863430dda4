import type { Static } from '@sinclair/typebox';
import { portCallFromRow, type EncounterRow, type PortCallRow } from '../../events/event-rows.js';
import { iso } from '../../../platform/clock.js';
import { congestion } from '../../../events/congestion.js';
import { round } from '../../../platform/stats.js';
import type { RouteStressService } from '../stress/route-stress-service.js';
import { FLAG_THRESHOLDS, STS_LISTED_MAX, STS_NEAR_ROUTE_KM, type Conditions, type RouteRiskFlagsData } from './conditions-schemas.js';

/**
 * The conditions along a route as pure functions of what the service read (stress indexes, encounters
 * near the line, calls at the destination): each part of the conditions, the risk flags and the sentences.
 */

export type ConditionsView = Static<typeof Conditions>;
type Severity = 'elevated' | 'high' | 'severe';
type Flag = Static<typeof RouteRiskFlagsData>['flags'][number];
type StressIndex = Awaited<ReturnType<RouteStressService['index']>>['data'];
type DestinationPort = ConditionsView['destination']['port'];

/** Seconds from t to now, never negative. */
export const ageOf = (now: number, t: number) => Math.max(0, Math.round((now - t) / 1000));

const SEVERITY_RANK: Record<Severity, number> = { elevated: 1, high: 2, severe: 3 };

function severityOf(value: number, thresholds: { elevated: number; high: number; severe: number }): Severity | null {
  if (value >= thresholds.severe) return 'severe';
  if (value >= thresholds.high) return 'high';
  if (value >= thresholds.elevated) return 'elevated';
  return null;
}

/** Measures are quoted to 2 decimals (counts averaged over baseline windows) or 1 (knots, hours). */
const q1 = (x: number) => round(x, 1);
const q2 = (x: number) => round(x, 2);
const COMPONENT_PHRASE: Record<string, (v: number, b: number) => string> = {
  transit_volume: (v, b) => `transits ${b === 0 ? `${v} against none usually` : `${Math.abs(Math.round((v / b - 1) * 100))} % ${v < b ? 'below' : 'above'} baseline (${v} vs ${q2(b)})`}`,
  gate_speed: (v, b) => `mean speed in the gate ${q1(v)} kn vs ${q1(b)} kn`,
  gate_waiting: (v, b) => `${q1(v)} h stopped per transit vs ${q1(b)} h`,
  port_congestion: (v, b) => `median anchorage wait at nearby ports ${q1(v)} h vs ${q1(b)} h`,
  sts_activity: (v, b) => `${v} encounters near the gate vs ${q2(b)}`,
};

const NOT_ANALYSED = 'the event detector has not analysed any positions yet';

/** A gate the route crosses: its stress index, or none when the detector has analysed nothing yet. */
export function chokepointCondition(base: { zone: string; name: string; passage: string | null; at_nm: number }, stress: StressIndex | null): ConditionsView['chokepoints'][number] {
  if (stress === null) {
    return { ...base, stress_index: null, level: null, weight_measured: 0, components: [], unavailable: [{ name: 'all', note: NOT_ANALYSED }], data_age_seconds: null };
  }
  const available = stress.components.filter((c) => c.available);
  const ages = available.map((c) => c.data_age_seconds).filter((a): a is number => a !== null);
  return {
    ...base,
    stress_index: stress.index,
    level: stress.level,
    weight_measured: stress.weight_measured,
    components: available.map((c) => ({ name: c.name, value: c.value, baseline: c.baseline, stress: c.stress, unit: c.unit })),
    unavailable: stress.components.filter((c) => !c.available).map((c) => ({ name: c.name, note: c.note ?? 'not measured' })),
    data_age_seconds: ages.length ? Math.min(...ages) : null,
  };
}

/** Encounters near the route (each with its distance to the line, km), nearest first; null: not measured. */
export function stsCondition(near: { row: EncounterRow; km: number }[] | null, now: number): ConditionsView['sts'] {
  if (near === null) return { within_km: STS_NEAR_ROUTE_KM, count: null, nearest_km: null, data_age_seconds: null, items: [] };
  const newest = near.length ? Math.max(...near.map((n) => n.row.end_at)) : null;
  return {
    within_km: STS_NEAR_ROUTE_KM,
    count: near.length,
    nearest_km: near.length ? round(near[0]!.km, 1) : null,
    data_age_seconds: newest === null ? null : ageOf(now, newest),
    items: near.slice(0, STS_LISTED_MAX).map(({ row, km }) => ({
      id: row.id,
      end: iso(row.end_at),
      lat: row.lat,
      lon: row.lon,
      distance_km: round(km, 1),
      duration_minutes: Math.round((row.end_at - row.start_at) / 60_000),
      zone: row.zone,
    })),
  };
}

/**
 * Congestion at the destination port from its calls in the window and the one before (`rows`: null when
 * the destination is a position or the detector has analysed nothing yet).
 */
export function destinationCondition(port: DestinationPort, analysed: boolean, rows: PortCallRow[] | null, at: { horizon: number; rangeMs: number; now: number }): ConditionsView['destination'] {
  const unavailable = (note: string): ConditionsView['destination'] => ({
    port,
    available: false,
    note,
    waiting_now: null,
    at_berth_now: null,
    window: null,
    previous_window: null,
    trend: null,
    data_age_seconds: null,
  });
  if (port === null) return unavailable('the destination is a position, not a port: no congestion to measure');
  if (!analysed || rows === null) return unavailable(NOT_ANALYSED);
  if (rows.length === 0) return unavailable(`no port calls detected at ${port.name} in the window or the one before (no coverage, or no traffic)`);
  const { horizon, rangeMs, now } = at;
  const c = congestion(rows.map(portCallFromRow), { at: horizon, rangeMs });
  const times = rows.flatMap((r) => [r.arrival, ...(r.departure !== null && r.departure <= horizon ? [r.departure] : [])]).filter((t) => t <= horizon);
  const pick = (s: typeof c.window) => ({
    arrivals: s.arrivals,
    departures: s.departures,
    calls_with_wait: s.calls_with_wait,
    median_wait_hours: s.median_wait_hours,
    p90_wait_hours: s.p90_wait_hours,
  });
  return {
    port,
    available: true,
    note: null,
    waiting_now: c.waiting_now,
    at_berth_now: c.at_berth_now,
    window: pick(c.window),
    previous_window: pick(c.previous_window),
    trend: c.trend.direction,
    data_age_seconds: times.length ? ageOf(now, Math.max(...times)) : null,
  };
}

/** The risk flags of the conditions, most severe first. */
export function flagsOf(conditions: ConditionsView): Flag[] {
  const flags: Flag[] = [];
  for (const c of conditions.chokepoints) {
    if (c.stress_index === null) continue;
    const severity = severityOf(c.stress_index, FLAG_THRESHOLDS.chokepoint_stress);
    if (severity === null) continue;
    flags.push({
      code: 'chokepoint_stress',
      severity,
      subject: c.zone,
      message: chokepointSentence(c),
      evidence: { stress_index: c.stress_index, level: c.level, weight_measured: c.weight_measured, components: c.components },
      threshold: FLAG_THRESHOLDS.chokepoint_stress[severity],
      data_age_seconds: c.data_age_seconds,
    });
  }
  const sts = conditions.sts;
  if (sts.count !== null) {
    const severity = severityOf(sts.count, FLAG_THRESHOLDS.sts_near_route);
    if (severity !== null) {
      flags.push({
        code: 'sts_near_route',
        severity,
        subject: 'route',
        message: stsSentence(sts),
        evidence: { count: sts.count, within_km: sts.within_km, nearest_km: sts.nearest_km, encounter_ids: sts.items.map((i) => i.id) },
        threshold: FLAG_THRESHOLDS.sts_near_route[severity],
        data_age_seconds: sts.data_age_seconds,
      });
    }
  }
  const d = conditions.destination;
  const wait = d.window?.median_wait_hours ?? null;
  if (d.available && d.port !== null && wait !== null) {
    const severity = severityOf(wait, FLAG_THRESHOLDS.destination_congestion);
    if (severity !== null) {
      flags.push({
        code: 'destination_congestion',
        severity,
        subject: String(d.port.port_id),
        message: destinationSentence(d),
        evidence: {
          median_wait_hours: wait,
          previous_median_wait_hours: d.previous_window?.median_wait_hours ?? null,
          waiting_now: d.waiting_now,
          completed_calls: d.window!.departures,
          trend: d.trend,
        },
        threshold: FLAG_THRESHOLDS.destination_congestion[severity],
        data_age_seconds: d.data_age_seconds,
      });
    }
  }
  return flags.sort((x, y) => SEVERITY_RANK[y.severity] - SEVERITY_RANK[x.severity]);
}

export function chokepointSentence(c: ConditionsView['chokepoints'][number]): string {
  if (c.stress_index === null) return `${c.name}: no stress index (${c.unavailable.map((u) => `${u.name}: ${u.note}`).join('; ')})`;
  const parts = c.components
    .filter((x) => x.value !== null && x.baseline !== null && (x.stress ?? 0) > 0)
    .map((x) => COMPONENT_PHRASE[x.name]?.(x.value!, x.baseline!) ?? `${x.name} ${x.value} vs ${x.baseline}`);
  return `${c.name} stress ${c.level} (${c.stress_index}/100)${parts.length ? `: ${parts.join('; ')}` : ''}`;
}

export function stsSentence(s: ConditionsView['sts']): string {
  if (s.count === null) return 'STS activity near the route: not measured (the event detector has not analysed any positions yet)';
  if (s.count === 0) return `No encounters (possible STS transfers) ended within ${s.within_km} km of the route in the window`;
  const hours = s.data_age_seconds === null ? null : round(s.data_age_seconds / 3600, 1);
  return `${s.count} encounter${s.count === 1 ? '' : 's'} (possible STS transfers) ended within ${s.within_km} km of the route in the window; nearest ${s.nearest_km} km from the track${hours === null ? '' : `, newest ended ${hours} h ago`}`;
}

export function destinationSentence(d: ConditionsView['destination']): string {
  const name = d.port?.name ?? 'Destination';
  if (!d.available || d.window === null) return `${name}: congestion not measured (${d.note})`;
  const wait =
    d.window.median_wait_hours === null
      ? `no completed calls in the window`
      : `median anchorage wait ${d.window.median_wait_hours} h over ${d.window.departures} completed call${d.window.departures === 1 ? '' : 's'}`;
  const before = d.previous_window?.median_wait_hours ?? null;
  return `${name}: ${d.waiting_now} waiting at anchor and ${d.at_berth_now} at berth at the end of the window; ${wait}${before === null ? '' : ` (window before: ${before} h)`}; trend ${d.trend}`;
}

/** The advisory's sentences: one per gate crossed, the encounters near the route, the destination. */
export function advisorySummary(analysed: boolean, conditions: ConditionsView): string[] {
  if (!analysed) return ['No event data: the event detector has not analysed any positions yet, so the conditions along this route cannot be assessed.'];
  return [...conditions.chokepoints.map((c) => chokepointSentence(c)), stsSentence(conditions.sts), destinationSentence(conditions.destination)];
}
