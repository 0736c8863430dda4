import type { Static } from '@sinclair/typebox';
import type { Caller } from '../../../access/principals.js';
import { DAY, HOUR, iso, type Clock } from '../../../platform/clock.js';
import type { FleetReads } from '../../../fleet/fleet-reads.js';
import { distanceM } from '../../../geo/distance.js';
import { AppError } from '../../../platform/errors.js';
import type { EncounterRow } from '../../events/event-rows.js';
import type { EventsService } from '../../events/events-service.js';
import { coverageOf, parseRange } from '../../kit/time-window.js';
import { STRESS_DEFAULT_RANGE_MS, STRESS_MAX_RANGE_MS, type RouteStressService } from '../stress/route-stress-service.js';
import { correctedPortFlags, type PortsService } from '../../ports/ports-service.js';
import { DELAYED_POSITION_FLAG } from '../../vessels/entitlements.js';
import { parseVesselRef } from '../../kit/vessel-ids.js';
import type { VesselsService } from '../../vessels/vessels-service.js';
import { FLAG_THRESHOLDS, STS_NEAR_ROUTE_KM, type ForecastLiteData, type RouteAdvisoryData, type RouteRiskFlagsData } from './conditions-schemas.js';
import { advisorySummary, ageOf, chokepointCondition, destinationCondition, flagsOf, stsCondition, type ConditionsView } from './conditions-views.js';
import { aisDestination, AT_DESTINATION_KM, forecastConfidence, RECENT_SPEED_WINDOW_MS, routingShipType, speedOf, type ForecastDestination } from './forecast-lite.js';
import { corridorBoxes, crossedGates, distanceToRouteM, linesOf } from './route-geometry.js';
import type { RouteRequest, RoutesService } from '../routes-service.js';
import type { RouteData } from '../schemas.js';
import { round } from '../../../platform/stats.js';

type RouteView = Static<typeof RouteData>;

export interface ConditionsQuery {
  from: string;
  to: string;
  via?: string;
  avoid?: string;
  allow?: string;
  range?: string;
}

const routeQuery = (request: Record<string, string | undefined>) =>
  Object.entries(request)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${encodeURIComponent(v!)}`)
    .join('&');

/**
 * Conditions along a planned route from the event layer (advisory, risk-flags) and the ETA of a vessel
 * (forecast-lite): docs/decisions/035, docs/routing.md. The service plans routes and reads the event layer;
 * the conditions, flags and sentences are pure functions of what it read (conditions-views.ts,
 * route-geometry.ts, forecast-lite.ts).
 */
export function createRouteConditionsService(deps: {
  routes: RoutesService;
  routeStress: RouteStressService;
  events: EventsService;
  ports: PortsService;
  vessels: VesselsService;
  fleetReads: Pick<FleetReads, 'track' | 'usableByTime'>;
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

  /**
   * The range when the caller gives none: 7 days, or on a store younger than two of them half its days with data
   * (at least one), so the stress indexes have a baseline window before the range (issue 28, decision 133).
   */
  async function defaultRange(horizon: number): Promise<{ ms: number; shortened: boolean }> {
    const oldest = (await deps.fleetReads.usableByTime(0, horizon, null, 1))[0]?.observed_at ?? null;
    const days = coverageOf({ since: horizon - 2 * STRESS_DEFAULT_RANGE_MS, until: horizon }, oldest).periods;
    // an empty store has nothing to shorten to
    if (oldest === null || days * DAY >= 2 * STRESS_DEFAULT_RANGE_MS) return { ms: STRESS_DEFAULT_RANGE_MS, shortened: false };
    return { ms: Math.max(1, Math.floor(days / 2)) * DAY, shortened: true };
  }

  async function assess(caller: Caller, query: ConditionsQuery) {
    const chosen = query.range !== undefined ? { ms: parseRange(query.range, 'range', STRESS_MAX_RANGE_MS), shortened: false } : await defaultRange(deps.events.horizon(caller));
    const rangeMs = chosen.ms;
    const stressRange = query.range !== undefined ? { range: query.range } : chosen.shortened ? { range: `${rangeMs / DAY}D` } : {};
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
    if (chosen.shortened) qualityFlags.push('range_shortened_to_store');

    const chokepoints: ConditionsView['chokepoints'] = [];
    for (const { gate, passage, atNm } of crossedGates(route, lines)) {
      const base = { zone: gate.key, name: gate.name, passage, at_nm: atNm };
      const stress = seenUpTo === null ? null : (await deps.routeStress.index(caller, { zone_key: gate.key, ...stressRange })).data;
      chokepoints.push(chokepointCondition(base, stress));
      if (stress !== null && stress.index === null) qualityFlags.push(`stress_unavailable:${gate.key}`);
    }

    // encounters near the route's line
    let near: { row: EncounterRow; km: number }[] | null = null;
    if (seenUpTo !== null) {
      const seen = new Map<number, { row: EncounterRow; km: number }>();
      for (const box of corridorBoxes(lines, STS_NEAR_ROUTE_KM)) {
        for (const row of await events.reads.encountersInBox(box, window.from, window.to)) {
          if (seen.has(row.id) || row.end_at <= window.from) continue;
          const km = distanceToRouteM(lines, row.lat, row.lon) / 1000;
          if (km <= STS_NEAR_ROUTE_KM) seen.set(row.id, { row, km });
        }
      }
      near = [...seen.values()].sort((a, b) => a.km - b.km);
    }
    const sts = stsCondition(near, now);

    // congestion at the destination port
    const port = route.to.port;
    const destinationPort = port ? { port_id: port.port_id, name: port.name, locode: port.locode } : null;
    const rows = port !== null && seenUpTo !== null ? await events.reads.callsAtPort(port.port_id, horizon - 2 * rangeMs, horizon) : null;
    const destination = destinationCondition(destinationPort, seenUpTo !== null, rows, { horizon, rangeMs, now });
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

  return {
    async advisory(caller: Caller, query: ConditionsQuery) {
      const a = await assess(caller, query);
      const flags = flagsOf(a.conditions);
      const summary = advisorySummary(a.seenUpTo !== null, a.conditions);
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
          flags: flagsOf(a.conditions),
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

      // destination: the one given, else the port the AIS destination names
      let destination: ForecastDestination;
      if (query.to !== undefined) {
        const place = deps.routes.resolvePlace(query.to, 'query.to');
        destination = { text: query.to, resolution: 'given', candidates: 1, target: { port: place.port, lat: place.lat, lon: place.lon } };
      } else destination = await aisDestination(deps.ports, query.vessel, presence);
      const { text, resolution, candidates, target } = destination;

      // speed: the caller's, the mean SOG of recent moving positions (none newer than the position served), or the type default
      const shipType = routingShipType(vessel.shipType);
      const recent = await deps.fleetReads.track(vessel.vslId, { from: fix.observedAt - RECENT_SPEED_WINDOW_MS, to: fix.observedAt, after: null }, false, 1000);
      const speed = speedOf(
        query.speed_kn,
        recent.map((r) => r.sog),
        shipType,
      );

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
      const confidence = forecastConfidence(ageSeconds, speed, resolution);
      const value = confidence.value;
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
        confidence,
        route: { geometry, attribution },
      };
      return { data, freshnessSeconds: ageSeconds, confidence: value, qualityFlags };
    },
  };
}

export type RouteConditionsService = ReturnType<typeof createRouteConditionsService>;
