import { DAY } from '../../../platform/clock.js';
import { sameHarbour, tooFast } from '../../../events/lane-rule.js';
import { laneKey } from './lanes-facts.js';
import { sumLanes, type DatedLaneParts, type LaneStats, type SummedLanes } from './lane-stats.js';

/**
 * The window's lanes per key of departure (docs/decisions/154): a period of departure, a ship category or
 * both; null: left out. The parts read from the cells are split by key (an exact voyage by its departure, an approximate
 * cell by its period, which must lie within one key) and each key's parts summed as the window's are
 * (lane-stats `sumLanes`: the same plausibility rule and lane order), so the keys add up to the window;
 * each key keeps its parts, to be split again (by ship category within a week). Pure: no store, no clock.
 */
export function sumLanesPer<K extends number | string>(
  parts: readonly DatedLaneParts[],
  keyOf: (departure: number, category: string) => K | null,
  gcNm: (from: number, to: number) => number | null,
): Map<K, SummedLanes & { parts: DatedLaneParts[] }> {
  const split = new Map<K, Map<string, DatedLaneParts>>();
  const partOf = (key: K, from: number, to: number) => {
    let lanes = split.get(key);
    if (!lanes) split.set(key, (lanes = new Map()));
    let part = lanes.get(laneKey(from, to));
    if (!part) lanes.set(laneKey(from, to), (part = { from, to, exact: [], approximate: [] }));
    return part;
  };
  for (const part of parts) {
    for (const v of part.exact) {
      const key = keyOf(v.departure, v.category);
      if (key !== null) partOf(key, part.from, part.to).exact.push(v);
    }
    for (const a of part.approximate) {
      const key = keyOf(a.periodStart, a.category);
      if (key === null) continue;
      if (keyOf(a.periodStart + a.periodDays * DAY - 1, a.category) !== key)
        throw new Error('sumLanesPer: an approximate cell spans two keys (read day cells, or exact ones for keys finer than a day)');
      partOf(key, part.from, part.to).approximate.push(a);
    }
  }
  return new Map(
    [...split.entries()].map(([key, lanes]) => {
      const keyParts = [...lanes.values()];
      return [key, { ...sumLanes(keyParts, gcNm), parts: keyParts }];
    }),
  );
}

/**
 * Keys of (period, ship category) for voyagesPer as numbers, no text built per voyage or day counted
 * (docs/decisions/176): `of` a period in [0, periods) and a category (null beyond them), and back.
 */
export function periodCategoryKeys(periods: number) {
  const categories: string[] = [];
  const indexOf = new Map<string, number>();
  return {
    of(period: number, category: string): number | null {
      if (period < 0 || period >= periods) return null;
      let index = indexOf.get(category);
      if (index === undefined) indexOf.set(category, (index = categories.push(category) - 1));
      return index * periods + period;
    },
    period: (key: number) => key % periods,
    category: (key: number) => categories[Math.floor(key / periods)]!,
  };
}

/** The voyages of a set of lanes (none when the key had none). */
export const voyagesOfLanes = (lanes: readonly LaneStats[] | undefined) => (lanes ?? []).reduce((sum, lane) => sum + lane.voyages, 0);

/** A series of n counts: the count of key keyAt(k) for k = 0 … n − 1 (0 when absent). */
export const seriesOf = <K>(perKey: ReadonlyMap<K, number>, n: number, keyAt: (k: number) => K) => Array.from({ length: n }, (_, k) => perKey.get(keyAt(k)) ?? 0);

/**
 * The voyages the lanes count (lanes-facts `plausibleVoyages`: as `sumLanes` counts them) per lane and key of
 * departure and ship category, without their vessels or hours; a voyage whose key is null is not counted, nor
 * is a key none of whose voyages counts. An approximate part is counted whole in the key of its span as `sumLanes`
 * counts it, or, when its span holds several keys (keys of whole days), day by day from its voyages per day.
 */
export function voyagesPerLane<K extends number | string>(
  parts: readonly DatedLaneParts[],
  keyOf: (departure: number, category: string) => K | null,
  gcNm: (from: number, to: number) => number | null,
): Map<string, { from: number; to: number; counts: Map<K, number> }> {
  const lanes = new Map<string, { from: number; to: number; counts: Map<K, number> }>();
  countVoyages(parts, keyOf, gcNm, (part) => {
    let lane = lanes.get(laneKey(part.from, part.to));
    if (!lane) lanes.set(laneKey(part.from, part.to), (lane = { from: part.from, to: part.to, counts: new Map() }));
    return lane.counts;
  });
  return lanes;
}

/** voyagesPerLane summed over the lanes (counted into one map: docs/decisions/176). */
export function voyagesPer<K extends number | string>(
  parts: readonly DatedLaneParts[],
  keyOf: (departure: number, category: string) => K | null,
  gcNm: (from: number, to: number) => number | null,
): Map<K, number> {
  const counts = new Map<K, number>();
  countVoyages(parts, keyOf, gcNm, () => counts);
  return counts;
}

/** The counting of voyagesPerLane: each part's counts (above 0) added into the map `countsOf` gives for it (its lane's, or one for all lanes). */
function countVoyages<K extends number | string>(
  parts: readonly DatedLaneParts[],
  keyOf: (departure: number, category: string) => K | null,
  gcNm: (from: number, to: number) => number | null,
  countsOf: (part: DatedLaneParts) => Map<K, number>,
): void {
  for (const part of parts) {
    const nm = gcNm(part.from, part.to);
    if (sameHarbour(nm)) continue;
    const counts = countsOf(part);
    const add = (key: K, n: number) => {
      if (n > 0) counts.set(key, (counts.get(key) ?? 0) + n);
    };
    for (const v of part.exact) {
      const key = keyOf(v.departure, v.category);
      if (key !== null && !tooFast(nm, v.hours)) add(key, 1);
    }
    for (const a of part.approximate) {
      const key = keyOf(a.periodStart, a.category);
      if (key !== null && keyOf(a.periodStart + a.periodDays * DAY - 1, a.category) === key) {
        add(key, a.voyages - a.leftOut);
        continue;
      }
      // cells merged over several keys (keys are whole days): each day of the span in its own key (the voyages
      // per day are those counted, docs/decisions/177)
      for (let d = 0; d < a.days.length; d++) {
        if (a.days[d] === 0) continue;
        const dayKey = keyOf(a.periodStart + d * DAY, a.category);
        if (dayKey !== null) add(dayKey, a.days[d]!);
      }
    }
  }
}

/** Counts per lane (voyagesPerLane) summed over the lanes, for an answer that needs both without counting twice. */
export function overLanes<K extends number | string>(perLane: ReadonlyMap<string, { counts: ReadonlyMap<K, number> }>): Map<K, number> {
  const out = new Map<K, number>();
  for (const lane of perLane.values()) for (const [key, n] of lane.counts) out.set(key, (out.get(key) ?? 0) + n);
  return out;
}

/**
 * The voyages the lanes count (as `voyagesPer`) per UTC day of departure (the day's start) and per UTC hour of
 * departure, for seasonality (docs/decisions/158): an exact voyage by its departure, an approximate part by its
 * counted voyages per day and per hour (docs/decisions/177).
 */
export function departuresPerDayAndHour(parts: readonly DatedLaneParts[], gcNm: (from: number, to: number) => number | null): { perDay: Map<number, number>; perHour: number[] } {
  const perDay = new Map<number, number>();
  const perHour = new Array<number>(24).fill(0);
  const addDay = (day: number, n: number) => {
    if (n > 0) perDay.set(day, (perDay.get(day) ?? 0) + n);
  };
  for (const part of parts) {
    const nm = gcNm(part.from, part.to);
    if (sameHarbour(nm)) continue;
    for (const v of part.exact) {
      if (tooFast(nm, v.hours)) continue;
      addDay(Math.floor(v.departure / DAY) * DAY, 1);
      perHour[Math.floor((v.departure % DAY) / (DAY / 24))]!++;
    }
    for (const a of part.approximate) {
      a.days.forEach((n, d) => addDay(a.periodStart + d * DAY, n));
      a.departureHours.forEach((n, h) => (perHour[h]! += n));
    }
  }
  return { perDay, perHour };
}
