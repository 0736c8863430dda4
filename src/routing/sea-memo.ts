/**
 * Great-circle land tests of the pull (decision 126), remembered: routes share most of their network
 * points, so a server answers the same question many times. Bounded; cleared when full.
 */
import type { LandIndex } from '../geo/land.js';
import { greatCircleAtSea, PULL_END_ALLOWANCE_KM } from './pull.js';

/** Great-circle land tests remembered (decision 126). */
const SEA_MEMO = 200_000;

/** Whether the great circle from a to b stays at sea. */
export type SeaTest = (a: readonly [number, number], b: readonly [number, number]) => boolean;

/** A point as one number (1e-5° steps, about a metre): the key of the memos below. */
const pointKey = (p: readonly [number, number]) => Math.round((p[0] + 540) * 1e5) * 2 ** 25 + Math.round((p[1] + 90) * 1e5);

/** The memo of one engine: the sea test over a land index, answers kept across routes. */
export function createSeaTestMemo(): (land: LandIndex) => SeaTest {
  /** Whether a point of a route lies at sea (1:10m), remembered per point. */
  const pointMemo = new Map<number, boolean>();
  const atSeaPoint = (land: LandIndex, p: readonly [number, number], key: number) => {
    let sea = pointMemo.get(key);
    if (sea === undefined) {
      const lon = p[0] > 180 ? p[0] - 360 : p[0] < -180 ? p[0] + 360 : p[0];
      sea = !land.isLand(lon, p[1]);
      if (pointMemo.size >= SEA_MEMO) pointMemo.clear();
      pointMemo.set(key, sea);
    }
    return sea;
  };
  const seaMemo = new Map<number, Map<number, boolean>>();
  let seaMemoSize = 0;
  const seaTest = (land: LandIndex) => (a: readonly [number, number], b: readonly [number, number]) => {
    const ka = pointKey(a);
    const kb = pointKey(b);
    let row = seaMemo.get(ka);
    let answer = row?.get(kb);
    if (answer === undefined) {
      answer = greatCircleAtSea(land, a, b, PULL_END_ALLOWANCE_KM, atSeaPoint(land, a, ka), atSeaPoint(land, b, kb));
      if (seaMemoSize >= SEA_MEMO) {
        seaMemo.clear();
        seaMemoSize = 0;
        row = undefined;
      }
      if (row === undefined) {
        row = new Map();
        seaMemo.set(ka, row);
      }
      row.set(kb, answer);
      seaMemoSize++;
    }
    return answer;
  };

  return seaTest;
}
