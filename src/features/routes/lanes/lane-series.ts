import { DAY } from '../../../platform/clock.js';
import { laneKey } from './lanes-facts.js';
import { sumLanes, type LaneParts, type LaneStats, type SummedLanes } from './lane-stats.js';

/**
 * The window's lanes per key of departure (docs/decisions/154): a period of departure, a ship category or
 * both. The parts read from the cells are split by key (an exact voyage by its departure, an approximate
 * cell by its period, which must lie within one key) and each key's parts summed as the window's are
 * (lane-stats `sumLanes`: the same plausibility rule and lane order), so the keys add up to the window;
 * each key keeps its parts, to be split again (by ship category within a week). Pure: no store, no clock.
 */
export function sumLanesPer<K extends number | string>(
  parts: readonly LaneParts[],
  keyOf: (departure: number, category: string) => K,
  gcNm: (from: number, to: number) => number | null,
): Map<K, SummedLanes & { parts: LaneParts[] }> {
  const split = new Map<K, Map<string, LaneParts>>();
  const partOf = (key: K, from: number, to: number) => {
    let lanes = split.get(key);
    if (!lanes) split.set(key, (lanes = new Map()));
    let part = lanes.get(laneKey(from, to));
    if (!part) lanes.set(laneKey(from, to), (part = { from, to, exact: [], approximate: [] }));
    return part;
  };
  for (const part of parts) {
    for (const v of part.exact) partOf(keyOf(v.departure, v.category), part.from, part.to).exact.push(v);
    for (const a of part.approximate) {
      const key = keyOf(a.periodStart, a.category);
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

/** The voyages of a set of lanes (none when the key had none). */
export const voyagesOfLanes = (lanes: readonly LaneStats[] | undefined) => (lanes ?? []).reduce((sum, lane) => sum + lane.voyages, 0);

/** Voyages per bucket 0 … n − 1 of lanes summed per bucket index (as lanes-facts `countPer` over the voyages). */
export const countsPerBucket = (perBucket: ReadonlyMap<number, SummedLanes>, n: number) => Array.from({ length: n }, (_, k) => voyagesOfLanes(perBucket.get(k)?.lanes));

/** Per lane (lanes-facts `laneKey`), its voyages per bucket 0 … n − 1; a lane absent from every bucket has no entry. */
export function laneCountsPerBucket(perBucket: ReadonlyMap<number, SummedLanes>, n: number): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const [k, summed] of perBucket) {
    if (k < 0 || k >= n) continue;
    for (const lane of summed.lanes) {
      const key = laneKey(lane.from, lane.to);
      let counts = out.get(key);
      if (!counts) out.set(key, (counts = new Array<number>(n).fill(0)));
      counts[k] = lane.voyages;
    }
  }
  return out;
}

/** Voyages per key; a key whose voyages the plausibility rule all left out is dropped (as grouping the kept voyages drops it). */
export function voyagesPerKey<K>(perKey: ReadonlyMap<K, SummedLanes>): Map<K, number> {
  const out = new Map<K, number>();
  for (const [key, summed] of perKey) {
    const n = voyagesOfLanes(summed.lanes);
    if (n > 0) out.set(key, n);
  }
  return out;
}
