import type { Static } from '@sinclair/typebox';
import type { Caller } from '../../../access/principals.js';
import { iso, type Clock } from '../../../platform/clock.js';
import { AppError } from '../../../platform/errors.js';
import { RoutingError, type Route, type RoutingEngine } from '../../../routing/engine.js';
import { shippedSeaNetwork, type LoadedSeaNetwork } from '../../../routing/network-file.js';
import type { LanesService } from '../lanes/lanes-service.js';
import { OPERATOR_CORRECTED_FLAG } from '../../kit/override-fields.js';
import { PORTFOLIO_MAX_PAIRS, SCENARIO_MAX_PAIRS, SUMMARY_MAX_PAIRS, SUMMARY_MEMORY, type ScenarioData, type SummaryData, type SummaryLatestData } from './planning-schemas.js';
import { closedPassages, figures, inlineError, portRef, speedOf, splitPairs, type PairText, type SummaryEntry } from './planning-kit.js';
import { explainData, portfolioData, scenarioPair, scenarioTotals, whatIfData } from './planning-views.js';
import { shipSizeOf, type Place, type RoutesService } from '../routes-service.js';
import type { ShipClass } from '../../../routing/ship-size.js';
import { DEFAULT_SPEED_KN, MAX_VIAS, type ShipType } from '../schemas.js';
import { round } from '../../../platform/stats.js';

/**
 * The route-planning operations over the engine (docs/decisions/033-route-planning-operations.md):
 * what-if, explain, summary (remembered per agent), portfolio and scenario. The service resolves places,
 * routes and remembers; the figures and answers are pure (planning-kit.ts, planning-views.ts).
 */
export function createPlanningService(deps: {
  routes: RoutesService;
  clock: Clock;
  /** The busiest lanes of top-lanes' default window (lanes service): scenario's pairs when the caller gives none. */
  busiestLanes: LanesService['busiestLanes'];
  network?: () => LoadedSeaNetwork;
}) {
  const network = deps.network ?? shippedSeaNetwork;
  /** Insertion order is recency: a recomputed summary moves to the end, the first one is the least recent. */
  const remembered = new Map<string, SummaryEntry>();

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
      const open = route(places, [], size?.mask);
      return { data: whatIfData(request, vias, speed, closed, size?.view ?? null, closedRoute, open), freshnessSeconds: 0, qualityFlags: correctedFlags(places) };
    },

    explain(request: { from: string; to: string; speed_kn?: number; ship_type?: ShipType }) {
      const places = resolve([
        { input: request.from, field: 'query.from' },
        { input: request.to, field: 'query.to' },
      ]);
      const speed = speedOf(request);
      const { engine } = network();
      const { best, without } = guarded(places, [], (e, mask) => e.alternatives(places, { excludedMask: mask }));
      const data = explainData(request, speed, best, without, engine.maskNames(engine.passageMask([])));
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
      const data = portfolioData(results, speed);
      return { data, freshnessSeconds: 0, qualityFlags: [...(results.some((r) => r.result === null) ? ['some_pairs_failed'] : []), ...correctedFlags(used)] };
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
        const busiest = await deps.busiestLanes(caller, SCENARIO_MAX_PAIRS);
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
          return { ...row, ...scenarioPair(route(places, []), route(places, closed), shipType, baseSpeed, scenarioSpeed) };
        } catch (error) {
          return { ...row, baseline: null, scenario: null, delta: null, error: inlineError(error), raw: null };
        }
      });
      const ok = results.flatMap((r) => (r.raw === null ? [] : [r.raw]));
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
        totals: scenarioTotals(ok, results.length - ok.length),
      };
      return { data, freshnessSeconds: 0, qualityFlags };
    },
  };
}

export type PlanningService = ReturnType<typeof createPlanningService>;
