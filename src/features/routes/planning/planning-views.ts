import type { Static } from '@sinclair/typebox';
import type { Route } from '../../../routing/engine.js';
import { round } from '../../../platform/stats.js';
import { PORTFOLIO_MAX_PAIRS, type ExplainData, type PortfolioData, type WhatIfData } from './planning-schemas.js';
import type { shipSizeOf } from '../routes-service.js';
import type { ShipType } from '../schemas.js';
import { delta, figures, passage, passageName, sumPassages, type Passage, type Speed } from './planning-kit.js';

/** The answers of what-if, explain, portfolio and scenario as pure functions of the routes the engine found. */

type ShipSizeView = NonNullable<ReturnType<typeof shipSizeOf>>['view'];

/**
 * What closing passages does to a route: `open` is the route without the closures; a route that avoids
 * the closed passages is a route without the closure too, so the baseline is never the longer one.
 */
export function whatIfData(
  request: { from: string; to: string },
  vias: string[],
  speed: Speed,
  closed: string[],
  shipSize: ShipSizeView | null,
  closedRoute: Route,
  open: Route,
): Static<typeof WhatIfData> {
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
  return {
    from: request.from,
    to: request.to,
    via: vias,
    ...speed,
    closed,
    ship_size: shipSize,
    baseline: figures(baseline, speed.speed_kn, speed.ship_type),
    with_closures: figures(closedRoute, speed.speed_kn, speed.ship_type),
    added,
    now_uses: nowUses,
    closures,
    note,
  };
}

/** The best route, the segments between its passages, and what avoiding each passage costs. */
export function explainData(request: { from: string; to: string }, speed: Speed, best: Route, without: { passage: string; route: Route }[], avoidedByDefault: string[]): Static<typeof ExplainData> {
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
  return {
    from: request.from,
    to: request.to,
    ...speed,
    ...figures(best, speed.speed_kn, speed.ship_type),
    passages_detail: best.passages.map((p) => ({ id: p.id, name: p.name, kind: p.kind, at_nm: p.at_nm, lat: round(p.lat, 4), lon: round(p.lon, 4) })),
    segments,
    alternatives,
    unavoidable,
    avoided_by_default: avoidedByDefault,
    reason,
  };
}

type PortfolioRow = Static<typeof PortfolioData>['pairs'][number];

/** The portfolio's pairs with their totals and the passages most pairs cross. */
export function portfolioData(results: PortfolioRow[], speed: Speed): Static<typeof PortfolioData> {
  const routed = results.flatMap((r) => (r.result === null ? [] : [r.result]));
  const passageCounts = new Map<string, number>();
  for (const r of routed) for (const id of new Set(r.passages)) passageCounts.set(id, (passageCounts.get(id) ?? 0) + 1);
  const distance = routed.reduce((s, r) => s + r.distance_nm, 0);
  const fuelT = routed.reduce((s, r) => s + r.fuel_t, 0);
  const co2T = routed.reduce((s, r) => s + r.co2_t, 0);
  return {
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
}

/** Scenario totals over the pairs routed both ways (baseline and scenario passages, unrounded). */
export function scenarioTotals(ok: { base: Passage; changed: Passage }[], failed: number) {
  const base = sumPassages(ok.map((r) => r.base));
  const changed = sumPassages(ok.map((r) => r.changed));
  return {
    routed: ok.length,
    failed,
    baseline_nm: round(base.distanceNm, 1),
    scenario_nm: round(changed.distanceNm, 1),
    baseline_hours: round(base.hours, 1),
    scenario_hours: round(changed.hours, 1),
    baseline_fuel_t: round(base.fuelT, 1),
    scenario_fuel_t: round(changed.fuelT, 1),
    delta: delta(base, changed),
  };
}

/** One scenario pair: the route at the base speed against the route under the closures at the scenario speed. */
export function scenarioPair(base: Route, changed: Route, shipType: ShipType, baseSpeed: number, scenarioSpeed: number) {
  const basePassage = passage(base.distanceNm, baseSpeed, shipType);
  const changedPassage = passage(changed.distanceNm, scenarioSpeed, shipType);
  return {
    baseline: { ...figures(base, baseSpeed, shipType), speed_kn: baseSpeed },
    scenario: { ...figures(changed, scenarioSpeed, shipType), speed_kn: scenarioSpeed },
    delta: delta(basePassage, changedPassage),
    error: null,
    raw: { base: basePassage, changed: changedPassage },
  };
}
