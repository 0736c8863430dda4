import { HoursSketch } from '../../../platform/sketches.js';
import { sameHarbour, tooFast } from '../../../events/lane-rule.js';
import { categoryMix, voyageOrder, weekly, weekOfWindow, type Window } from './lanes-facts.js';
import type { DatedLaneParts, LaneStats } from './lane-stats.js';
import { voyagesPer } from './lane-series.js';

/**
 * One lane's figures over a window (lane-details, docs/decisions/169) from the parts its cells per ship category
 * gave (`lane`: those parts summed by lane-stats `sumLanes`, undefined when no voyage counts): its voyages per
 * ship category and per 7 days ending at until counted as the lanes count them (lane-series `voyagesPer`), and its
 * transit hours — exact while every part lists its voyages (the hours in the order the lane's voyages are listed,
 * as the per-voyage computation took them), from the hours buckets beyond (each figure the middle of its bucket,
 * within ±1 %; the least exact where the speed rule cut no approximate part). Pure: no store, no clock.
 */
export function laneFiguresOf(lane: LaneStats | undefined, laneParts: readonly DatedLaneParts[], nm: number | null, window: Window) {
  // terminals of one harbour: no lane, no voyage counts
  const parts = sameHarbour(nm) ? [] : laneParts;
  const gcNm = () => nm;
  const weeks = weekOfWindow(window.since, window.until);
  const approximate = parts.some((p) => p.approximate.length > 0);
  return {
    voyages: lane?.voyages ?? 0,
    vessels: lane?.vessels.count() ?? 0,
    transitHours: approximate ? transitOfSketch(lane?.hours ?? new HoursSketch(), leastHours(parts, nm)) : transitOfSketch(exactHours(parts, nm), null),
    shipTypes: categoryMix(voyagesPer(parts, (_, category) => category, gcNm)),
    weekly: weekly(voyagesPer(parts, weeks.of, gcNm), window.since, window.until),
  };
}

/** Transit hours min, median, mean, p90 (nearest rank) and max; `least`: the exact minimum when known. */
function transitOfSketch(hours: HoursSketch, least: number | null) {
  return { min: least ?? hours.min(), median: hours.median(), mean: hours.mean(), p90: hours.nearestRank(90), max: hours.max() };
}

/** The hours of the exact parts' voyages that count, in the order lane-details lists them. */
function exactHours(parts: readonly DatedLaneParts[], nm: number | null): HoursSketch {
  const hours = new HoursSketch();
  for (const v of parts.flatMap((p) => p.exact.filter((x) => !tooFast(nm, x.hours))).sort(voyageOrder)) hours.add(v.hours);
  return hours;
}

/** The least hours of the voyages that count when no approximate part had voyages cut by the speed rule (its least hours are then exact), else null. */
function leastHours(parts: readonly DatedLaneParts[], nm: number | null): number | null {
  let least = Infinity;
  for (const part of parts) {
    for (const v of part.exact) if (!tooFast(nm, v.hours)) least = Math.min(least, v.hours);
    for (const a of part.approximate) {
      if (a.leftOut > 0) return null;
      least = Math.min(least, a.minHours);
    }
  }
  return least === Infinity ? null : least;
}
