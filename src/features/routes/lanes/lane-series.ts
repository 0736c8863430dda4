import { DAY } from '../../../platform/clock.js';
import { laneKey, sameHarbour, tooFast } from './lanes-facts.js';
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

/** The voyages of a set of lanes (none when the key had none). */
export const voyagesOfLanes = (lanes: readonly LaneStats[] | undefined) => (lanes ?? []).reduce((sum, lane) => sum + lane.voyages, 0);

/** A series of n counts: the count of key keyAt(k) for k = 0 … n − 1 (0 when absent). */
export const seriesOf = <K>(perKey: ReadonlyMap<K, number>, n: number, keyAt: (k: number) => K) => Array.from({ length: n }, (_, k) => perKey.get(keyAt(k)) ?? 0);

/**
 * The voyages the lanes count (lanes-facts `plausibleVoyages`: as `sumLanes` counts them) per lane and key of
 * departure and ship category, without their vessels or hours; a voyage whose key is null is not counted, nor
 * is a key none of whose voyages counts. An approximate cell is counted whole in the key of its period (which
 * must lie within one key) as `sumLanes` counts it.
 */
export function voyagesPerLane<K extends number | string>(
  parts: readonly DatedLaneParts[],
  keyOf: (departure: number, category: string) => K | null,
  gcNm: (from: number, to: number) => number | null,
): Map<string, { from: number; to: number; counts: Map<K, number> }> {
  const lanes = new Map<string, { from: number; to: number; counts: Map<K, number> }>();
  for (const part of parts) {
    const nm = gcNm(part.from, part.to);
    if (sameHarbour(nm)) continue;
    let lane = lanes.get(laneKey(part.from, part.to));
    if (!lane) lanes.set(laneKey(part.from, part.to), (lane = { from: part.from, to: part.to, counts: new Map() }));
    const counts = lane.counts;
    const add = (key: K, n: number) => {
      if (n > 0) counts.set(key, (counts.get(key) ?? 0) + n);
    };
    for (const v of part.exact) {
      const key = keyOf(v.departure, v.category);
      if (key !== null && !tooFast(nm, v.hours)) add(key, 1);
    }
    for (const a of part.approximate) {
      const key = keyOf(a.periodStart, a.category);
      if (key === null) continue;
      if (keyOf(a.periodStart + a.periodDays * DAY - 1, a.category) !== key) throw new Error('voyagesPer: an approximate cell spans two keys (read day cells for keys of days)');
      add(key, voyagesOfLanes(sumLanes([{ from: part.from, to: part.to, exact: [], approximate: [a] }], gcNm).lanes));
    }
  }
  return lanes;
}

/** voyagesPerLane summed over the lanes. */
export function voyagesPer<K extends number | string>(
  parts: readonly DatedLaneParts[],
  keyOf: (departure: number, category: string) => K | null,
  gcNm: (from: number, to: number) => number | null,
): Map<K, number> {
  const out = new Map<K, number>();
  for (const lane of voyagesPerLane(parts, keyOf, gcNm).values()) for (const [key, n] of lane.counts) out.set(key, (out.get(key) ?? 0) + n);
  return out;
}
