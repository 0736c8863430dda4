import type { Static } from '@sinclair/typebox';
import { CHOKEPOINT_PASSAGES } from '../chokepoint-passages.js';
import type { Caller } from '../../../access/principals.js';
import { DAY, iso, type Clock } from '../../../platform/clock.js';
import { AppError } from '../../../platform/errors.js';
import { RoutingError, type Route, type RoutingEngine } from '../../../routing/engine.js';
import { passageByName, PASSAGES } from '../../../routing/graph.js';
import { shippedSeaNetwork, type LoadedSeaNetwork } from '../../../routing/network-file.js';
import type { EventsService } from '../../events/events-service.js';
import { OPERATOR_CORRECTED_FLAG } from '../../kit/override-fields.js';
import {
  PORTFOLIO_MAX_PAIRS,
  SCENARIO_MAX_PAIRS,
  SUMMARY_MAX_PAIRS,
  SUMMARY_MEMORY,
  type ExplainData,
  type PortfolioData,
  type ScenarioData,
  type SummaryData,
  type SummaryLatestData,
  type WhatIfData,
} from './planning-schemas.js';
import { shipSizeOf, type Place, type RoutesService } from '../routes-service.js';
import type { ShipClass } from '../../../routing/ship-size.js';
import { DEFAULT_SPEED_KN, MAX_VIAS, type ShipType } from '../schemas.js';
import { estimateFuel } from '../fuel.js';
import { round } from '../../../platform/stats.js';

/** How far back scenario looks for the busiest port pairs when the caller gives none. */
export const BUSIEST_WINDOW_MS = 30 * DAY;

const passageName = (id: string) => passageByName(id)?.name ?? id;

interface Speed {
  speed_kn: number;
  speed_source: 'speed_kn' | 'ship_type_default';
  ship_type: ShipType;
}

interface PairText {
  from: string;
  to: string;
  index: number;
}

interface SummaryEntry {
  agentId: string;
  computedAt: number;
  item: Static<typeof SummaryData>['summaries'][number];
}

type PairError = { code: string; message: string; field: string };

const speedOf = (request: { speed_kn?: number; ship_type?: ShipType }): Speed => {
  const shipType = request.ship_type ?? 'other';
  return { speed_kn: request.speed_kn ?? DEFAULT_SPEED_KN[shipType], speed_source: request.speed_kn === undefined ? 'ship_type_default' : 'speed_kn', ship_type: shipType };
};

/** A passage's distance, time and estimated fuel (src/features/routes/fuel.ts), unrounded for sums. */
interface Passage {
  distanceNm: number;
  hours: number;
  fuelT: number;
  co2T: number;
}

const passage = (distanceNm: number, speedKn: number, shipType: ShipType): Passage => {
  const hours = distanceNm / speedKn;
  const fuel = estimateFuel(shipType, speedKn, hours);
  return { distanceNm, hours, fuelT: fuel.fuel_t, co2T: fuel.co2_t };
};

const figures = (route: Route, speedKn: number, shipType: ShipType) => {
  const p = passage(route.distanceNm, speedKn, shipType);
  return {
    distance_nm: round(route.distanceNm, 1),
    duration_hours: round(p.hours, 1),
    duration_days: round(p.hours / 24, 2),
    fuel_t: p.fuelT,
    co2_t: p.co2T,
    passages: route.passages.map((x) => x.id),
  };
};

const delta = (base: Passage, other: Passage) => ({
  distance_nm: round(other.distanceNm - base.distanceNm, 1),
  distance_pct: base.distanceNm === 0 ? 0 : round(((other.distanceNm - base.distanceNm) / base.distanceNm) * 100, 1),
  hours: round(other.hours - base.hours, 1),
  days: round((other.hours - base.hours) / 24, 2),
  fuel_t: round(other.fuelT - base.fuelT, 1),
  co2_t: round(other.co2T - base.co2T, 1),
});

const sumPassages = (items: readonly Passage[]): Passage => ({
  distanceNm: items.reduce((s, x) => s + x.distanceNm, 0),
  hours: items.reduce((s, x) => s + x.hours, 0),
  fuelT: items.reduce((s, x) => s + x.fuelT, 0),
  co2T: items.reduce((s, x) => s + x.co2T, 0),
});

const portRef = (place: Place) => (place.port === null ? null : { port_id: place.port.port_id, name: place.port.name, locode: place.port.locode });

const inlineError = (error: unknown): PairError => {
  if (!(error instanceof AppError)) throw error;
  return { code: error.code, message: error.message, field: error.options.field ?? '' };
};

/**
 * The route-planning operations over the engine (docs/decisions/033-route-planning-operations.md):
 * what-if, explain, summary (remembered per agent), portfolio and scenario.
 */
export function createPlanningService(deps: { routes: RoutesService; events: EventsService; clock: Clock; network?: () => LoadedSeaNetwork }) {
  const network = deps.network ?? shippedSeaNetwork;
  /** Insertion order is recency: a recomputed summary moves to the end, the first one is the least recent. */
  const remembered = new Map<string, SummaryEntry>();

  const closedPassages = (text: string | undefined, field: string): string[] => {
    const ids: string[] = [];
    for (const raw of (text ?? '').split(',')) {
      const name = raw.trim().toLowerCase();
      if (name === '') continue;
      const mapped = CHOKEPOINT_PASSAGES[name];
      if (mapped === null) throw new AppError('unknown_passage', `${field}: ${name} is a chokepoint of the event layer but not a passage of the sea network; it cannot be closed`, { field });
      const passage = passageByName(mapped ?? name);
      if (passage === undefined) throw new AppError('unknown_passage', `${field}: unknown passage "${raw.trim()}"; known: ${PASSAGES.map((p) => p.id).join(', ')}`, { field });
      if (!ids.includes(passage.id)) ids.push(passage.id);
    }
    return ids;
  };

  const splitPairs = (text: string, max: number): PairText[] => {
    const items = text
      .split(';')
      .map((s) => s.trim())
      .filter((s) => s !== '');
    if (items.length === 0) throw new AppError('invalid_request', 'pairs must list at least one origin:destination pair (separated by ;)', { field: 'query.pairs' });
    if (items.length > max) throw new AppError('too_many_pairs', `at most ${max} pairs (got ${items.length})`, { field: 'query.pairs' });
    return items.map((item, index) => {
      const parts = item.split(':');
      if (parts.length !== 2 || parts[0]!.trim() === '' || parts[1]!.trim() === '') {
        throw new AppError('invalid_request', `pairs[${index}]: "${item}" is not origin:destination (e.g. NLRTM:SGSIN)`, { field: `query.pairs[${index}]` });
      }
      return { from: parts[0]!.trim(), to: parts[1]!.trim(), index };
    });
  };

  const resolve = (places: readonly { input: string; field: string }[]): Place[] => {
    const resolved = places.map((p) => deps.routes.resolvePlace(p.input, p.field));
    for (let i = 1; i < resolved.length; i++) {
      const a = resolved[i - 1]!;
      const b = resolved[i]!;
      if ((a.port !== null && a.port.port_id === b.port?.port_id) || (a.lat === b.lat && a.lon === b.lon)) {
        throw new AppError('same_origin_destination', `${a.field} and ${b.field} are the same place (${b.input}): there is no route to plan`, { field: b.field });
      }
    }
    return resolved;
  };

  /** `operator_corrected` when a place is a port whose record carries an operator correction (docs/feedback.md). */
  const correctedFlags = (places: readonly Place[]): string[] => (places.some((p) => p.corrected) ? [OPERATOR_CORRECTED_FLAG] : []);

  const route = (places: readonly Place[], closed: readonly string[], sizeMask = 0): Route => guarded(places, closed, (engine, mask) => engine.route(places, { excludedMask: mask | sizeMask }));

  /** Runs a search, its RoutingError turned into the API error of the place at fault. */
  function guarded<T>(places: readonly Place[], closed: readonly string[], search: (engine: RoutingEngine, mask: number) => T): T {
    const { engine } = network();
    try {
      return search(engine, engine.passageMask(closed));
    } catch (error) {
      if (!(error instanceof RoutingError)) throw error;
      const place = error.pointIndex === undefined ? undefined : places[error.pointIndex];
      const under = closed.length > 0 && error.code === 'route_unreachable' ? ` (closed: ${closed.join(', ')})` : '';
      throw new AppError(error.code, `${place ? `${place.field}: ` : ''}${error.message}${under}`, place ? { field: place.field } : {});
    }
  }

  const pairPlaces = (pair: PairText) =>
    resolve([
      { input: pair.from, field: `query.pairs[${pair.index}].from` },
      { input: pair.to, field: `query.pairs[${pair.index}].to` },
    ]);

  const remember = (agentId: string, item: SummaryEntry['item'], computedAt: number) => {
    const key = [agentId, item.from_port?.port_id ?? item.from, item.to_port?.port_id ?? item.to, item.speed_kn, item.ship_type].join('\u0000');
    remembered.delete(key);
    remembered.set(key, { agentId, computedAt, item });
    if (remembered.size > SUMMARY_MEMORY) remembered.delete(remembered.keys().next().value!);
  };

  /** The most frequent consecutive port calls of one vessel, origin → destination, in the window. */
  const busiestPairs = async (caller: Caller) => {
    const events = deps.events;
    const to = events.horizon(caller);
    const from = to - BUSIEST_WINDOW_MS;
    const calls = await events.reads.callsArrivedBetween(from, to);
    const lastPort = new Map<string, number>();
    const counts = new Map<string, { from: number; to: number; voyages: number }>();
    let simulated = false;
    for (const call of calls) {
      const previous = lastPort.get(call.vsl_id);
      lastPort.set(call.vsl_id, call.port_id);
      if (previous === undefined || previous === call.port_id) continue;
      if (call.simulated) simulated = true;
      const key = `${previous}>${call.port_id}`;
      const held = counts.get(key);
      if (held) held.voyages++;
      else counts.set(key, { from: previous, to: call.port_id, voyages: 1 });
    }
    const ranked = [...counts.values()].sort((a, b) => b.voyages - a.voyages || a.from - b.from || a.to - b.to).slice(0, SCENARIO_MAX_PAIRS);
    return { window: { from: iso(from), to: iso(to) }, pairs: ranked, simulated, analysedUpTo: await events.analysedUpTo() };
  };

  return {
    whatIf(request: { from: string; to: string; via?: string; closed: string; speed_kn?: number; ship_type?: ShipType; ship_class?: ShipClass; loa_m?: number; beam_m?: number; draught_m?: number }) {
      const closed = closedPassages(request.closed, 'query.closed');
      if (closed.length === 0) throw new AppError('invalid_request', 'closed must name at least one passage', { field: 'query.closed' });
      const vias = (request.via ?? '')
        .split(';')
        .map((s) => s.trim())
        .filter((s) => s !== '');
      if (vias.length > MAX_VIAS) throw new AppError('too_many_vias', `at most ${MAX_VIAS} vias (got ${vias.length})`, { field: 'query.via' });
      const places = resolve([{ input: request.from, field: 'query.from' }, ...vias.map((v, i) => ({ input: v, field: `query.via[${i}]` })), { input: request.to, field: 'query.to' }]);
      const speed = speedOf(request);
      const size = shipSizeOf(request);
      const closedRoute = route(places, closed, size?.mask);
      // a route that avoids the closed passages is a route without the closure too: the baseline is never the longer one
      const open = route(places, [], size?.mask);
      const baseline = closedRoute.distanceNm < open.distanceNm ? closedRoute : open;
      const basePassages = new Set(baseline.passages.map((p) => p.id));
      const added = delta(passage(baseline.distanceNm, speed.speed_kn, speed.ship_type), passage(closedRoute.distanceNm, speed.speed_kn, speed.ship_type));
      const nowUses = [...new Set(closedRoute.passages.map((p) => p.id))].filter((id) => !basePassages.has(id));
      const closures = closed.map((id) => ({ passage: id, name: passageName(id), mattered: basePassages.has(id) }));
      const mattering = closures.filter((c) => c.mattered).map((c) => c.passage);
      const note =
        mattering.length === 0
          ? `The baseline route crosses none of the closed passages: the route is unchanged.`
          : `Closing ${mattering.join(', ')} adds ${added.distance_nm} nm (${added.distance_pct} %, ${added.days} days at ${speed.speed_kn} kn, about ${added.fuel_t} t more fuel for a reference ${speed.ship_type} ship)${nowUses.length > 0 ? `; the route now uses ${nowUses.join(', ')}` : ''}.`;
      const data: Static<typeof WhatIfData> = {
        from: request.from,
        to: request.to,
        via: vias,
        ...speed,
        closed,
        ship_size: size?.view ?? null,
        baseline: figures(baseline, speed.speed_kn, speed.ship_type),
        with_closures: figures(closedRoute, speed.speed_kn, speed.ship_type),
        added,
        now_uses: nowUses,
        closures,
        note,
      };
      return { data, freshnessSeconds: 0, qualityFlags: correctedFlags(places) };
    },

    explain(request: { from: string; to: string; speed_kn?: number; ship_type?: ShipType }) {
      const places = resolve([
        { input: request.from, field: 'query.from' },
        { input: request.to, field: 'query.to' },
      ]);
      const speed = speedOf(request);
      const { engine } = network();
      const { best, without } = guarded(places, [], (e, mask) => e.alternatives(places, { excludedMask: mask }));
      const total = best.distanceNm;
      const alternatives = without
        .map(({ passage, route: alt }) => ({
          without: passage,
          distance_nm: round(alt.distanceNm, 1),
          extra_nm: round(alt.distanceNm - total, 1),
          extra_pct: round(((alt.distanceNm - total) / total) * 100, 1),
          extra_hours: round((alt.distanceNm - total) / speed.speed_kn, 1),
          passages: alt.passages.map((p) => p.id),
        }))
        .sort((a, b) => a.distance_nm - b.distance_nm);
      const crossed = [...new Set(best.passages.map((p) => p.id))];
      const unavoidable = crossed.filter((id) => !without.some((w) => w.passage === id));
      const bounds = [0, ...best.passages.map((p) => p.at_nm), total];
      const labels = ['origin', ...best.passages.map((p) => p.id), 'destination'];
      const segments = bounds.slice(1).map((end, i) => ({
        from: labels[i]!,
        to: labels[i + 1]!,
        start_nm: round(bounds[i]!, 1),
        end_nm: round(end, 1),
        distance_nm: round(end - bounds[i]!, 1),
      }));
      const parts = alternatives.map((a) => {
        const via = a.passages.filter((p) => !crossed.includes(p));
        return `avoiding ${a.without} costs ${a.extra_nm} nm more (${round(a.extra_hours / 24, 2)} days${via.length > 0 ? `, by ${via.join(', ')}` : ''})`;
      });
      if (unavoidable.length > 0) parts.push(`${unavoidable.join(', ')} cannot be avoided (no route without)`);
      const reason =
        crossed.length === 0
          ? `No passage lies on the shortest route (${round(total, 1)} nm over open sea and coastal lanes): there is no passage whose closure would change it.`
          : `Shortest route over the network (${round(total, 1)} nm through ${crossed.join(', ')}): ${parts.join('; ')}.`;
      const data: Static<typeof ExplainData> = {
        from: request.from,
        to: request.to,
        ...speed,
        ...figures(best, speed.speed_kn, speed.ship_type),
        passages_detail: best.passages.map((p) => ({ id: p.id, name: p.name, kind: p.kind, at_nm: p.at_nm, lat: round(p.lat, 4), lon: round(p.lon, 4) })),
        segments,
        alternatives,
        unavoidable,
        avoided_by_default: engine.maskNames(engine.passageMask([])),
        reason,
      };
      return { data, freshnessSeconds: 0, qualityFlags: correctedFlags(places) };
    },

    summary(agentId: string, request: { pairs: string; speed_kn?: number; ship_type?: ShipType }) {
      const pairs = splitPairs(request.pairs, SUMMARY_MAX_PAIRS);
      const speed = speedOf(request);
      const now = deps.clock.now();
      const used: Place[] = [];
      const summaries = pairs.map((pair) => {
        const places = pairPlaces(pair);
        used.push(...places);
        return {
          from: pair.from,
          to: pair.to,
          from_port: portRef(places[0]!),
          to_port: portRef(places[1]!),
          ...speed,
          ...figures(route(places, []), speed.speed_kn, speed.ship_type),
          computed_at: iso(now),
        };
      });
      for (const item of summaries) remember(agentId, item, now);
      const data: Static<typeof SummaryData> = { summaries, max_pairs: SUMMARY_MAX_PAIRS };
      return { data, freshnessSeconds: 0, qualityFlags: correctedFlags(used) };
    },

    latest(agentId: string, limit: number) {
      const now = deps.clock.now();
      const own = [...remembered.values()].filter((e) => e.agentId === agentId);
      const newest = own
        .slice(-limit)
        .reverse()
        .map((e) => ({ ...e.item, age_seconds: round((now - e.computedAt) / 1000, 3) }));
      const data: Static<typeof SummaryLatestData> = { summaries: newest, kept: own.length };
      return { data, freshnessSeconds: newest.length > 0 ? Math.floor(newest[0]!.age_seconds) : 0, qualityFlags: own.length === 0 ? ['no_summaries_computed'] : ([] as string[]) };
    },

    portfolio(request: { pairs: string; speed_kn?: number; ship_type?: ShipType }) {
      const pairs = splitPairs(request.pairs, PORTFOLIO_MAX_PAIRS);
      const speed = speedOf(request);
      const used: Place[] = [];
      const results = pairs.map((pair) => {
        try {
          const places = pairPlaces(pair);
          used.push(...places);
          const result = { from_port: portRef(places[0]!), to_port: portRef(places[1]!), ...figures(route(places, []), speed.speed_kn, speed.ship_type) };
          return { index: pair.index, from: pair.from, to: pair.to, result, error: null };
        } catch (error) {
          return { index: pair.index, from: pair.from, to: pair.to, result: null, error: inlineError(error) };
        }
      });
      const routed = results.flatMap((r) => (r.result === null ? [] : [r.result]));
      const passageCounts = new Map<string, number>();
      for (const r of routed) for (const id of new Set(r.passages)) passageCounts.set(id, (passageCounts.get(id) ?? 0) + 1);
      const distance = routed.reduce((s, r) => s + r.distance_nm, 0);
      const fuelT = routed.reduce((s, r) => s + r.fuel_t, 0);
      const co2T = routed.reduce((s, r) => s + r.co2_t, 0);
      const data: Static<typeof PortfolioData> = {
        pairs: results,
        ...speed,
        totals: {
          pairs: results.length,
          routed: routed.length,
          failed: results.length - routed.length,
          distance_nm: round(distance, 1),
          duration_hours: round(distance / speed.speed_kn, 1),
          duration_days: round(distance / speed.speed_kn / 24, 2),
          fuel_t: round(fuelT, 1),
          co2_t: round(co2T, 1),
          passages: [...passageCounts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([id, count]) => ({ id, name: passageName(id), pairs: count })),
        },
        max_pairs: PORTFOLIO_MAX_PAIRS,
      };
      return { data, freshnessSeconds: 0, qualityFlags: [...(routed.length < results.length ? ['some_pairs_failed'] : []), ...correctedFlags(used)] };
    },

    async scenario(caller: Caller, request: { pairs?: string; closed?: string; speed_kn?: number; speed_factor?: number; ship_type?: ShipType }) {
      if (request.speed_kn !== undefined && request.speed_factor !== undefined) {
        throw new AppError('invalid_request', 'give speed_kn or speed_factor, not both', { field: 'query.speed_factor' });
      }
      const closed = closedPassages(request.closed, 'query.closed');
      const shipType = request.ship_type ?? 'other';
      const baseSpeed = DEFAULT_SPEED_KN[shipType];
      const scenarioSpeed = request.speed_kn ?? round(baseSpeed * (request.speed_factor ?? 1), 2);
      const qualityFlags: string[] = [];
      let pairs: (PairText & { voyages: number | null })[];
      let window: Static<typeof ScenarioData>['window'] = null;
      if (request.pairs !== undefined) {
        pairs = splitPairs(request.pairs, SCENARIO_MAX_PAIRS).map((p) => ({ ...p, voyages: null }));
      } else {
        const busiest = await busiestPairs(caller);
        window = busiest.window;
        pairs = busiest.pairs.map((p, index) => ({ from: String(p.from), to: String(p.to), index, voyages: p.voyages }));
        if (pairs.length === 0) qualityFlags.push('no_port_pairs_in_window');
        if (busiest.simulated) qualityFlags.push('includes_simulated_calls');
        if (busiest.analysedUpTo === null) qualityFlags.push('events_not_analysed');
      }
      const used: Place[] = [];
      const results = pairs.map((pair) => {
        const row = { index: pair.index, from: pair.from, to: pair.to, voyages: pair.voyages };
        try {
          const places = pairPlaces(pair);
          used.push(...places);
          const base = route(places, []);
          const changed = route(places, closed);
          const basePassage = passage(base.distanceNm, baseSpeed, shipType);
          const changedPassage = passage(changed.distanceNm, scenarioSpeed, shipType);
          return {
            ...row,
            baseline: { ...figures(base, baseSpeed, shipType), speed_kn: baseSpeed },
            scenario: { ...figures(changed, scenarioSpeed, shipType), speed_kn: scenarioSpeed },
            delta: delta(basePassage, changedPassage),
            error: null,
            raw: { base: basePassage, changed: changedPassage },
          };
        } catch (error) {
          return { ...row, baseline: null, scenario: null, delta: null, error: inlineError(error), raw: null };
        }
      });
      const ok = results.flatMap((r) => (r.raw === null ? [] : [r.raw]));
      const base = sumPassages(ok.map((r) => r.base));
      const changed = sumPassages(ok.map((r) => r.changed));
      if (ok.length < results.length) qualityFlags.push('some_pairs_failed');
      qualityFlags.push(...correctedFlags(used));
      const data: Static<typeof ScenarioData> = {
        pairs_source: request.pairs === undefined ? 'busiest_port_pairs' : 'query',
        window,
        closed,
        ship_type: shipType,
        baseline_speed_kn: baseSpeed,
        scenario_speed_kn: scenarioSpeed,
        pairs: results.map(({ raw: _raw, ...rest }) => rest),
        totals: {
          routed: ok.length,
          failed: results.length - ok.length,
          baseline_nm: round(base.distanceNm, 1),
          scenario_nm: round(changed.distanceNm, 1),
          baseline_hours: round(base.hours, 1),
          scenario_hours: round(changed.hours, 1),
          baseline_fuel_t: round(base.fuelT, 1),
          scenario_fuel_t: round(changed.fuelT, 1),
          delta: delta(base, changed),
        },
      };
      return { data, freshnessSeconds: 0, qualityFlags };
    },
  };
}

export type PlanningService = ReturnType<typeof createPlanningService>;
