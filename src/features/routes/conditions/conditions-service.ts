import type { Static } from '@sinclair/typebox';
import { portCallFromRow } from '../../events/event-rows.js';
import { CHOKEPOINT_PASSAGES } from '../chokepoint-passages.js';
import type { Caller } from '../../../access/principals.js';
import { HOUR, iso, type Clock } from '../../../platform/clock.js';
import { CHOKEPOINTS, type Chokepoint } from '../../../events/chokepoints.js';
import { congestion } from '../../../events/congestion.js';
import type { FleetReads } from '../../../fleet/fleet-reads.js';
import { distanceM, distanceToSegmentM, EARTH_RADIUS_M } from '../../../geo/distance.js';
import { AppError } from '../../../platform/errors.js';
import type { EventsService } from '../../events/events-service.js';
import { parseRange } from '../../kit/time-window.js';
import { STRESS_DEFAULT_RANGE_MS, STRESS_MAX_RANGE_MS, type RouteStressService } from '../stress/route-stress-service.js';
import { correctedPortFlags, type PortsService } from '../../ports/ports-service.js';
import { DELAY_SECONDS, DELAYED_POSITION_FLAG } from '../../vessels/entitlements.js';
import { parseVesselRef } from '../../kit/vessel-ids.js';
import type { VesselsService } from '../../vessels/vessels-service.js';
import { FLAG_THRESHOLDS, STS_LISTED_MAX, STS_NEAR_ROUTE_KM, type Conditions, type ForecastLiteData, type RouteAdvisoryData, type RouteRiskFlagsData } from './conditions-schemas.js';
import type { RouteRequest, RoutesService } from '../routes-service.js';
import { DEFAULT_SPEED_KN, type RouteData, type ShipType } from '../schemas.js';
import { round } from '../../../platform/stats.js';

/** Positions up to this long before the vessel's position give its recent speed. */
export const RECENT_SPEED_WINDOW_MS = 6 * HOUR;
/** A position at least this fast counts as moving (for the recent speed). */
export const MOVING_KN = 1;
/** Fewer moving positions than this: the recent speed is not used. */
export const MIN_SPEED_SAMPLES = 3;
/** A vessel this close to its destination port has arrived: nothing left to route. */
export const AT_DESTINATION_KM = 3;

type RouteView = Static<typeof RouteData>;
type ConditionsView = Static<typeof Conditions>;
type Severity = 'elevated' | 'high' | 'severe';
type Flag = Static<typeof RouteRiskFlagsData>['flags'][number];

export interface ConditionsQuery {
  from: string;
  to: string;
  via?: string;
  avoid?: string;
  allow?: string;
  range?: string;
}

const ageOf = (now: number, t: number) => Math.max(0, Math.round((now - t) / 1000));
const SEVERITY_RANK: Record<Severity, number> = { elevated: 1, high: 2, severe: 3 };

function severityOf(value: number, thresholds: { elevated: number; high: number; severe: number }): Severity | null {
  if (value >= thresholds.severe) return 'severe';
  if (value >= thresholds.high) return 'high';
  if (value >= thresholds.elevated) return 'elevated';
  return null;
}

/** The lines of a route geometry as [lon, lat] runs (a MultiLineString is cut at ±180°). */
function linesOf(geometry: RouteView['geometry']): [number, number][][] {
  return geometry.type === 'LineString' ? [geometry.coordinates as [number, number][]] : (geometry.coordinates as [number, number][][]);
}

/** Shortest distance from a point to the route's lines, metres. */
function distanceToRouteM(lines: [number, number][][], lat: number, lon: number): number {
  let best = Infinity;
  for (const line of lines) {
    for (let i = 1; i < line.length; i++) {
      const [aLon, aLat] = line[i - 1]!;
      const [bLon, bLat] = line[i]!;
      best = Math.min(best, distanceToSegmentM({ lat, lon }, { lat: aLat, lon: aLon }, { lat: bLat, lon: bLon }));
    }
    if (line.length === 1) best = Math.min(best, distanceM(lat, lon, line[0]![1], line[0]![0]));
  }
  return best;
}

/** Where along the route (nm from the origin) its line first comes within the gate's radius, or null. */
function gateReachedAtNm(lines: [number, number][][], gate: Chokepoint): number | null {
  let along = 0;
  for (const line of lines) {
    for (let i = 1; i < line.length; i++) {
      const [aLon, aLat] = line[i - 1]!;
      const [bLon, bLat] = line[i]!;
      if (distanceToSegmentM({ lat: gate.lat, lon: gate.lon }, { lat: aLat, lon: aLon }, { lat: bLat, lon: bLon }) <= gate.radiusKm * 1000) return round(along / 1852, 1);
      along += distanceM(aLat, aLon, bLat, bLon);
    }
  }
  return null;
}

/**
 * Boxes covering the route's lines with a margin, each at most BOX_SPAN_DEG wide and high so that a
 * long route reads a corridor, not the ocean; boxes over ±180° are split in two.
 */
const BOX_SPAN_DEG = 8;
function corridorBoxes(lines: [number, number][][], marginKm: number) {
  const boxes: { minLon: number; minLat: number; maxLon: number; maxLat: number }[] = [];
  const marginLat = ((marginKm * 1000) / EARTH_RADIUS_M) * (180 / Math.PI);
  const push = (minLon: number, minLat: number, maxLon: number, maxLat: number) => {
    const marginLon = Math.min(180, marginLat / Math.max(0.05, Math.cos((Math.min(89, Math.max(Math.abs(minLat), Math.abs(maxLat)) + marginLat) * Math.PI) / 180)));
    const box = { minLat: Math.max(-90, minLat - marginLat), maxLat: Math.min(90, maxLat + marginLat), minLon: minLon - marginLon, maxLon: maxLon + marginLon };
    if (box.minLon < -180) boxes.push({ ...box, minLon: box.minLon + 360, maxLon: 180 }, { ...box, minLon: -180 });
    else if (box.maxLon > 180) boxes.push({ ...box, minLon: -180, maxLon: box.maxLon - 360 }, { ...box, maxLon: 180 });
    else boxes.push(box);
  };
  for (const line of lines) {
    let box: [number, number, number, number] | null = null;
    let prev: [number, number] | null = null;
    for (const [lon, lat] of line) {
      if (box === null || prev === null) box = [lon, lat, lon, lat];
      else {
        const next: [number, number, number, number] = [Math.min(box[0], lon), Math.min(box[1], lat), Math.max(box[2], lon), Math.max(box[3], lat)];
        if (next[2] - next[0] > BOX_SPAN_DEG || next[3] - next[1] > BOX_SPAN_DEG) {
          push(...box);
          // the next box starts at the previous point so the segment between them stays covered
          box = [Math.min(prev[0], lon), Math.min(prev[1], lat), Math.max(prev[0], lon), Math.max(prev[1], lat)];
        } else box = next;
      }
      prev = [lon, lat];
    }
    if (box) push(...box);
  }
  return boxes;
}

/** The routing ship type of an AIS ship type code (AIS does not tell container from bulk: cargo is general_cargo). */
export function routingShipType(aisType: number | null): ShipType {
  if (aisType === null) return 'other';
  if (aisType >= 70 && aisType <= 79) return 'general_cargo';
  if (aisType >= 80 && aisType <= 89) return 'tanker';
  if (aisType >= 60 && aisType <= 69) return 'passenger';
  return 'other';
}

/** An AIS destination's port part: after the last '>' of "FROM>TO", trimmed. */
const destinationPart = (text: string) => (text.split('>').pop() ?? '').trim();
const LOCODE_TOKEN = /\b([A-Z]{2}) ?([A-Z2-9]{3})\b/g;

const DESTINATION_FACTOR = { given: 1, locode: 1, name_exact: 0.9, locode_in_text: 0.85, name_ambiguous: 0.6, name_fuzzy: 0.5 } as const;
type Resolution = keyof typeof DESTINATION_FACTOR;

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

/**
 * Conditions along a planned route from the event layer (advisory, risk-flags) and the ETA of a vessel
 * (forecast-lite): docs/decisions/035, docs/routing.md.
 */
export function createRouteConditionsService(deps: {
  routes: RoutesService;
  routeStress: RouteStressService;
  events: EventsService;
  ports: PortsService;
  vessels: VesselsService;
  fleetReads: Pick<FleetReads, 'track'>;
  clock: Clock;
}) {
  function plan(request: RouteRequest & { via?: string }): RouteView {
    const result = request.via !== undefined ? deps.routes.withVia({ ...request, via: request.via, format: 'json' }) : deps.routes.direct({ ...request, format: 'json' });
    const data = result.data;
    if ('type' in data) throw new Error('a json route was asked for');
    return data;
  }

  /** `operator_corrected` when one of these ports is served with an operator correction (docs/feedback.md). */
  const correctedFlags = (...ports: Array<{ port_id: number } | null>) => correctedPortFlags(ports.map((p) => (p === null ? undefined : deps.ports.byId(p.port_id))));

  async function assess(caller: Caller, query: ConditionsQuery) {
    const rangeMs = query.range !== undefined ? parseRange(query.range, 'range', STRESS_MAX_RANGE_MS) : STRESS_DEFAULT_RANGE_MS;
    const request = { from: query.from, to: query.to, ...(query.avoid !== undefined ? { avoid: query.avoid } : {}), ...(query.allow !== undefined ? { allow: query.allow } : {}) };
    const route = plan({ ...request, ...(query.via !== undefined ? { via: query.via } : {}) });
    const now = deps.clock.now();
    const events = deps.events;
    const horizon = events.horizon(caller);
    const window = { from: horizon - rangeMs, to: horizon };
    const analysed = await events.analysedUpTo();
    const seenUpTo = analysed === null ? null : Math.min(analysed, horizon);
    const lines = linesOf(route.geometry);
    const qualityFlags: string[] = correctedFlags(route.from.port, route.to.port, ...route.via.map((v) => v.port));
    if (horizon < now) qualityFlags.push(DELAYED_POSITION_FLAG);
    if (seenUpTo === null) qualityFlags.push('no_event_data');

    // chokepoints crossed, in route order
    const crossed: { gate: Chokepoint; passage: string | null; atNm: number }[] = [];
    for (const gate of CHOKEPOINTS) {
      const passage = CHOKEPOINT_PASSAGES[gate.key] ?? null;
      const atNm = passage !== null ? (route.passages.find((p) => p.id === passage)?.at_nm ?? null) : gateReachedAtNm(lines, gate);
      if (atNm !== null) crossed.push({ gate, passage, atNm });
    }
    crossed.sort((a, b) => a.atNm - b.atNm);

    const chokepoints: ConditionsView['chokepoints'] = [];
    for (const { gate, passage, atNm } of crossed) {
      const base = { zone: gate.key, name: gate.name, passage, at_nm: atNm };
      if (seenUpTo === null) {
        chokepoints.push({
          ...base,
          stress_index: null,
          level: null,
          weight_measured: 0,
          components: [],
          unavailable: [{ name: 'all', note: 'the event detector has not analysed any positions yet' }],
          data_age_seconds: null,
        });
        continue;
      }
      const stress = (await deps.routeStress.index(caller, { zone_key: gate.key, ...(query.range !== undefined ? { range: query.range } : {}) })).data;
      const available = stress.components.filter((c) => c.available);
      const ages = available.map((c) => c.data_age_seconds).filter((a): a is number => a !== null);
      chokepoints.push({
        ...base,
        stress_index: stress.index,
        level: stress.level,
        weight_measured: stress.weight_measured,
        components: available.map((c) => ({ name: c.name, value: c.value, baseline: c.baseline, stress: c.stress, unit: c.unit })),
        unavailable: stress.components.filter((c) => !c.available).map((c) => ({ name: c.name, note: c.note ?? 'not measured' })),
        data_age_seconds: ages.length ? Math.min(...ages) : null,
      });
      if (stress.index === null) qualityFlags.push(`stress_unavailable:${gate.key}`);
    }

    // encounters near the route's line
    let sts: ConditionsView['sts'] = { within_km: STS_NEAR_ROUTE_KM, count: null, nearest_km: null, data_age_seconds: null, items: [] };
    if (seenUpTo !== null) {
      const seen = new Map<number, { row: Awaited<ReturnType<EventsService['reads']['encountersInBox']>>[number]; km: number }>();
      for (const box of corridorBoxes(lines, STS_NEAR_ROUTE_KM)) {
        for (const row of await events.reads.encountersInBox(box, window.from, window.to)) {
          if (seen.has(row.id) || row.end_at <= window.from) continue;
          const km = distanceToRouteM(lines, row.lat, row.lon) / 1000;
          if (km <= STS_NEAR_ROUTE_KM) seen.set(row.id, { row, km });
        }
      }
      const near = [...seen.values()].sort((a, b) => a.km - b.km);
      const newest = near.length ? Math.max(...near.map((n) => n.row.end_at)) : null;
      sts = {
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

    // congestion at the destination port
    const port = route.to.port;
    const destinationPort = port ? { port_id: port.port_id, name: port.name, locode: port.locode } : null;
    let destination: ConditionsView['destination'] = {
      port: destinationPort,
      available: false,
      note: null,
      waiting_now: null,
      at_berth_now: null,
      window: null,
      previous_window: null,
      trend: null,
      data_age_seconds: null,
    };
    if (port === null) destination.note = 'the destination is a position, not a port: no congestion to measure';
    else if (seenUpTo === null) destination.note = 'the event detector has not analysed any positions yet';
    else {
      const rows = await events.reads.callsAtPort(port.port_id, horizon - 2 * rangeMs, horizon);
      if (rows.length === 0) destination.note = `no port calls detected at ${port.name} in the window or the one before (no coverage, or no traffic)`;
      else {
        const c = congestion(rows.map(portCallFromRow), { at: horizon, rangeMs });
        const times = rows.flatMap((r) => [r.arrival, ...(r.departure !== null && r.departure <= horizon ? [r.departure] : [])]).filter((t) => t <= horizon);
        const pick = (s: typeof c.window) => ({
          arrivals: s.arrivals,
          departures: s.departures,
          calls_with_wait: s.calls_with_wait,
          median_wait_hours: s.median_wait_hours,
          p90_wait_hours: s.p90_wait_hours,
        });
        destination = {
          port: destinationPort,
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
    }
    if (port !== null && !destination.available && seenUpTo !== null) qualityFlags.push('destination_congestion_unavailable');

    return {
      route,
      request,
      window,
      seenUpTo,
      conditions: { chokepoints, sts, destination } satisfies ConditionsView,
      qualityFlags,
      freshnessSeconds: seenUpTo === null ? 0 : ageOf(now, seenUpTo),
      common: {
        route: {
          from: query.from,
          to: query.to,
          via: route.via.map((v) => v.input),
          destination_port: destinationPort,
          distance_nm: route.distance_nm,
          passages: route.passages.map((p) => p.id),
          geometry: route.geometry,
        },
        window: { from: iso(window.from), to: iso(window.to) },
        analysed_up_to: seenUpTo === null ? null : iso(seenUpTo),
      },
    };
  }

  type Assessment = Awaited<ReturnType<typeof assess>>;

  function flagsOf(a: Assessment): Flag[] {
    const flags: Flag[] = [];
    for (const c of a.conditions.chokepoints) {
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
    const sts = a.conditions.sts;
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
    const d = a.conditions.destination;
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

  function chokepointSentence(c: ConditionsView['chokepoints'][number]): string {
    if (c.stress_index === null) return `${c.name}: no stress index (${c.unavailable.map((u) => `${u.name}: ${u.note}`).join('; ')})`;
    const parts = c.components
      .filter((x) => x.value !== null && x.baseline !== null && (x.stress ?? 0) > 0)
      .map((x) => COMPONENT_PHRASE[x.name]?.(x.value!, x.baseline!) ?? `${x.name} ${x.value} vs ${x.baseline}`);
    return `${c.name} stress ${c.level} (${c.stress_index}/100)${parts.length ? `: ${parts.join('; ')}` : ''}`;
  }

  function stsSentence(s: ConditionsView['sts']): string {
    if (s.count === null) return 'STS activity near the route: not measured (the event detector has not analysed any positions yet)';
    if (s.count === 0) return `No encounters (possible STS transfers) ended within ${s.within_km} km of the route in the window`;
    const hours = s.data_age_seconds === null ? null : round(s.data_age_seconds / 3600, 1);
    return `${s.count} encounter${s.count === 1 ? '' : 's'} (possible STS transfers) ended within ${s.within_km} km of the route in the window; nearest ${s.nearest_km} km from the track${hours === null ? '' : `, newest ended ${hours} h ago`}`;
  }

  function destinationSentence(d: ConditionsView['destination']): string {
    const name = d.port?.name ?? 'Destination';
    if (!d.available || d.window === null) return `${name}: congestion not measured (${d.note})`;
    const wait =
      d.window.median_wait_hours === null
        ? `no completed calls in the window`
        : `median anchorage wait ${d.window.median_wait_hours} h over ${d.window.departures} completed call${d.window.departures === 1 ? '' : 's'}`;
    const before = d.previous_window?.median_wait_hours ?? null;
    return `${name}: ${d.waiting_now} waiting at anchor and ${d.at_berth_now} at berth at the end of the window; ${wait}${before === null ? '' : ` (window before: ${before} h)`}; trend ${d.trend}`;
  }

  const routeQuery = (request: Record<string, string | undefined>) =>
    Object.entries(request)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${k}=${encodeURIComponent(v!)}`)
      .join('&');

  return {
    async advisory(caller: Caller, query: ConditionsQuery) {
      const a = await assess(caller, query);
      const flags = flagsOf(a);
      const summary: string[] = [];
      if (a.seenUpTo === null) summary.push('No event data: the event detector has not analysed any positions yet, so the conditions along this route cannot be assessed.');
      else {
        for (const c of a.conditions.chokepoints) summary.push(chokepointSentence(c));
        summary.push(stsSentence(a.conditions.sts));
        summary.push(destinationSentence(a.conditions.destination));
      }
      const recommendations: string[] = [];
      const alternatives: Static<typeof RouteAdvisoryData>['alternatives'] = [];
      for (const flag of flags) {
        if (flag.code === 'chokepoint_stress') {
          const c = a.conditions.chokepoints.find((x) => x.zone === flag.subject)!;
          if (flag.severity === 'elevated' || c.passage === null) {
            recommendations.push(`Monitor ${c.name}: stress ${c.level} (${c.stress_index}/100); details: GET /v1/metrics/route_stress_index?zone_key=${c.zone}`);
            continue;
          }
          const avoid = [...(query.avoid ? [query.avoid] : []), c.passage].join(',');
          try {
            const other = plan({ ...a.request, avoid, ...(query.via !== undefined ? { via: query.via } : {}) });
            const added = round(other.distance_nm - a.route.distance_nm, 1);
            alternatives.push({ avoid: c.passage, distance_nm: other.distance_nm, added_nm: added, passages: other.passages.map((p) => p.id), note: null });
            const path = query.via !== undefined ? 'with-via' : 'direct';
            recommendations.push(
              `${c.name} stress ${c.level} (${c.stress_index}/100): avoiding it adds ${added} nm (+${round((added / a.route.distance_nm) * 100, 1)} %) by ${other.passages.map((p) => p.id).join(', ') || 'open sea'}; GET /v1/routes/${path}?${routeQuery({ ...a.request, avoid, via: query.via })}`,
            );
          } catch (error) {
            if (!(error instanceof AppError) || error.code !== 'route_unreachable') throw error;
            alternatives.push({ avoid: c.passage, distance_nm: null, added_nm: null, passages: [], note: 'no sea route avoids it with the given closures' });
            recommendations.push(`${c.name} stress ${c.level} (${c.stress_index}/100) and no sea route avoids it with the given closures: allow for delays there`);
          }
        } else if (flag.code === 'sts_near_route') {
          const items = a.conditions.sts.items;
          const box = [Math.min(...items.map((i) => i.lon)), Math.min(...items.map((i) => i.lat)), Math.max(...items.map((i) => i.lon)), Math.max(...items.map((i) => i.lat))].map((x) => round(x, 2));
          recommendations.push(`Review the ${a.conditions.sts.count} encounters near the route: GET /v1/sts/events?zone=${box.join(',')}`);
        } else {
          const d = a.conditions.destination;
          recommendations.push(`Allow for waiting at anchor at ${d.port!.name}: median ${d.window!.median_wait_hours} h over the last window (${d.waiting_now} waiting now)`);
        }
      }
      return {
        data: { ...a.common, conditions: a.conditions, summary, recommendations, alternatives } satisfies Static<typeof RouteAdvisoryData>,
        freshnessSeconds: a.freshnessSeconds,
        qualityFlags: a.qualityFlags,
      };
    },

    async riskFlags(caller: Caller, query: ConditionsQuery) {
      const a = await assess(caller, query);
      const measured = a.seenUpTo !== null;
      return {
        data: {
          ...a.common,
          flags: flagsOf(a),
          thresholds: FLAG_THRESHOLDS,
          checked: {
            chokepoints: a.conditions.chokepoints.filter((c) => c.stress_index !== null).map((c) => c.zone),
            sts: measured,
            destination_congestion: a.conditions.destination.available,
          },
        } satisfies Static<typeof RouteRiskFlagsData>,
        freshnessSeconds: a.freshnessSeconds,
        qualityFlags: a.qualityFlags,
      };
    },

    async forecastLite(caller: Caller, agent: Parameters<VesselsService['access']>[0], query: { vessel: string; to?: string; speed_kn?: number; avoid?: string }) {
      const ref = parseVesselRef(query.vessel, 'query.vessel');
      const access = await deps.vessels.access(agent);
      const { vessel, fix, delayed, presence } = await deps.vessels.visibleWithPresence(ref, access);
      const now = deps.clock.now();
      if (fix === null) {
        throw new AppError(
          'position_unavailable',
          delayed
            ? `${query.vessel} has no position you may see: without vessels:live only positions at least 14 h old are served, and it has none that old`
            : `${query.vessel} has no usable position`,
          { field: 'query.vessel' },
        );
      }

      // destination
      let resolution: Resolution;
      let text: string;
      let candidates = 1;
      let target: { port: { port_id: number; name: string; locode: string | null; country: string | null } | null; lat: number; lon: number };
      if (query.to !== undefined) {
        text = query.to;
        const place = deps.routes.resolvePlace(query.to, 'query.to');
        target = { port: place.port, lat: place.lat, lon: place.lon };
        resolution = 'given';
      } else {
        if (presence.voyageWithheld) {
          throw new AppError(
            'destination_unknown',
            `${query.vessel} was first heard less than ${DELAY_SECONDS / 3600} h ago, so its AIS destination is live data: give to (a port_id, UN/LOCODE or lat,lon), or ask for vessels:live`,
            { field: 'query.to' },
          );
        }
        text = presence.destination?.trim() ?? '';
        if (text === '') throw new AppError('destination_unknown', `${query.vessel} reports no AIS destination; give to (a port_id, UN/LOCODE or lat,lon)`, { field: 'query.to' });
        const found = await resolveDestination(text);
        if (found === null) {
          throw new AppError('destination_unresolved', `the AIS destination "${text}" of ${query.vessel} matches no port (no UN/LOCODE or port name in it); give to`, { field: 'query.to' });
        }
        ({ resolution, candidates } = found);
        const p = found.port;
        target = { port: { port_id: p.port_id, name: p.name, locode: p.locode, country: p.country }, lat: p.lat, lon: p.lon };
      }

      // speed: the caller's, the mean SOG of recent moving positions (none newer than the position served), or the type default
      const shipType = routingShipType(vessel.shipType);
      let speed: { kn: number; source: 'speed_kn' | 'recent_sog' | 'ship_type_default'; samples: number };
      const recent = await deps.fleetReads.track(vessel.vslId, { from: fix.observedAt - RECENT_SPEED_WINDOW_MS, to: fix.observedAt, after: null }, false, 1000);
      const moving = recent.map((r) => r.sog).filter((s): s is number => s !== null && s >= MOVING_KN);
      if (query.speed_kn !== undefined) speed = { kn: query.speed_kn, source: 'speed_kn', samples: moving.length };
      else if (moving.length >= MIN_SPEED_SAMPLES) speed = { kn: round(moving.reduce((x, y) => x + y, 0) / moving.length, 1), source: 'recent_sog', samples: moving.length };
      else speed = { kn: DEFAULT_SPEED_KN[shipType], source: 'ship_type_default', samples: moving.length };

      let remainingNm = 0;
      let passages: string[] = [];
      let geometry: RouteView['geometry'] = { type: 'LineString', coordinates: [[round(fix.lon, 5), round(fix.lat, 5)]] };
      let attribution: string[] = [];
      if (distanceM(fix.lat, fix.lon, target.lat, target.lon) > AT_DESTINATION_KM * 1000) {
        const route = plan({
          from: `${round(fix.lat, 5)},${round(fix.lon, 5)}`,
          to: target.port ? String(target.port.port_id) : `${target.lat},${target.lon}`,
          ...(query.avoid !== undefined ? { avoid: query.avoid } : {}),
        });
        remainingNm = route.distance_nm;
        passages = route.passages.map((p) => p.id);
        geometry = route.geometry;
        attribution = route.attribution;
      }
      const hours = remainingNm / speed.kn;
      const eta = fix.observedAt + hours * HOUR;
      const ageSeconds = ageOf(now, fix.observedAt);
      const positionFactor = round(Math.max(0.3, 1 - ageSeconds / 3600 / 48), 3);
      const speedFactor = speed.source === 'speed_kn' ? 0.8 : speed.source === 'recent_sog' ? (speed.samples >= 5 ? 0.9 : 0.75) : 0.5;
      const destinationFactor = DESTINATION_FACTOR[resolution];
      const value = round(positionFactor * speedFactor * destinationFactor, 2);
      const qualityFlags = [...(vessel.simulated || fix.simulated ? ['simulated_source'] : []), ...(delayed ? [DELAYED_POSITION_FLAG] : [])];
      if (eta < now) qualityFlags.push('eta_passed');
      if (remainingNm === 0) qualityFlags.push('at_destination');
      qualityFlags.push(...correctedFlags(target.port));
      const data: Static<typeof ForecastLiteData> = {
        vessel: { vsl_id: vessel.vslId, name: vessel.name, imo: vessel.imo, mmsi: vessel.mmsi, ship_type: vessel.shipType },
        position: { lat: fix.lat, lon: fix.lon, sog_kn: fix.sog, observed_at: iso(fix.observedAt), age_seconds: Math.floor((now - fix.observedAt) / 1000), delayed },
        destination: { source: query.to !== undefined ? 'to' : 'ais', text, resolution, port: target.port, lat: target.lat, lon: target.lon, candidates },
        speed: { ...speed, ship_type: shipType },
        remaining_nm: remainingNm,
        passages,
        duration_hours: round(hours, 1),
        eta: iso(Math.round(eta / 1000) * 1000),
        eta_in_hours: round((eta - now) / HOUR, 1),
        ais_eta: vessel.eta,
        confidence: { value, position_age: positionFactor, speed_source: speedFactor, destination: destinationFactor },
        route: { geometry, attribution },
      };
      return { data, freshnessSeconds: ageSeconds, confidence: value, qualityFlags };
    },
  };

  /** The port an AIS destination names: a UN/LOCODE (whole, then within the text), else a port name. */
  async function resolveDestination(raw: string) {
    const text = destinationPart(raw);
    if (text === '') return null;
    const search = async (q: { q?: string; locode?: string }) => (await deps.ports.search({ ...q, limit: 20 })).data.items;
    const tableRecord = (portId: number) => deps.ports.byId(portId);
    const hits = await search({ q: text });
    const top = hits[0];
    if (top && top.match.kind === 'locode') return { port: tableRecord(top.port_id)!, resolution: 'locode' as const, candidates: hits.filter((h) => h.match.kind === 'locode').length };
    const exact = hits.filter((h) => h.match.kind === 'exact');
    if (exact.length > 0) return { port: tableRecord(exact[0]!.port_id)!, resolution: exact.length === 1 ? ('name_exact' as const) : ('name_ambiguous' as const), candidates: exact.length };
    for (const match of text.toUpperCase().matchAll(LOCODE_TOKEN)) {
      const [hit] = await search({ locode: `${match[1]}${match[2]}` });
      if (hit) return { port: tableRecord(hit.port_id)!, resolution: 'locode_in_text' as const, candidates: 1 };
    }
    if (top && top.match.score >= 0.6) return { port: tableRecord(top.port_id)!, resolution: 'name_fuzzy' as const, candidates: hits.filter((h) => h.match.score === top.match.score).length };
    return null;
  }
}

export type RouteConditionsService = ReturnType<typeof createRouteConditionsService>;
