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

/** The latitude part of a point key is below this (1e-5° steps over 180°). */
const LAT_STEPS = 2 ** 25;
/** A point as one positive number (1e-5° steps, about a metre): the key of the memos below. */
const pointKey = (p: readonly [number, number]) => Math.round((p[0] + 540) * 1e5) * LAT_STEPS + Math.round((p[1] + 90) * 1e5);
/** A 32-bit hash of a point key, from its longitude and latitude parts. */
const keyHash = (key: number) => Math.imul((key / LAT_STEPS) | 0, 0x9e3779b1) ^ Math.imul((key % LAT_STEPS) | 0, 0x85ebca6b);

/** Slots of a table when first used; it doubles while more than half full, up to the slots SEA_MEMO entries need. */
const FIRST_SLOTS = 4096;

/**
 * Answers keyed by one point or by a pair of points, in one typed array with open addressing: a look-up reads one
 * slot or a few neighbours, where nested Maps read several scattered objects (a cold route's look-ups miss the
 * caches: decision 152). A slot holds the key(s), the last negated for a false answer; 0 marks an empty slot.
 */
class AnswerTable {
  private slots = new Float64Array(0);
  private size = 0;

  constructor(private readonly keysPerEntry: 1 | 2) {}

  get(a: number, b = 0): boolean | undefined {
    if (this.size === 0) return undefined;
    const { slots, keysPerEntry } = this;
    const mask = slots.length / keysPerEntry - 1;
    for (let slot = this.hash(a, b) & mask; ; slot = (slot + 1) & mask) {
      const at = slot * keysPerEntry;
      const first = slots[at]!;
      if (first === 0) return undefined;
      const last = slots[at + keysPerEntry - 1]!;
      if (keysPerEntry === 1 ? Math.abs(first) === a : first === a && Math.abs(last) === b) return last > 0;
    }
  }

  /** Adds an answer not in the table (get gave undefined); a full table is emptied first. */
  add(a: number, b: number, answer: boolean): void {
    if (this.size >= SEA_MEMO) {
      this.slots.fill(0);
      this.size = 0;
    }
    if (2 * (this.size + 1) > this.slots.length / this.keysPerEntry) this.grow();
    this.put(this.slots, a, b, answer);
    this.size++;
  }

  private hash(a: number, b: number): number {
    const h = Math.imul(keyHash(a) ^ Math.imul(keyHash(b), 0x27d4eb2f), 0x165667b1);
    return h ^ (h >>> 15);
  }

  private put(slots: Float64Array, a: number, b: number, answer: boolean): void {
    const { keysPerEntry } = this;
    const mask = slots.length / keysPerEntry - 1;
    let slot = this.hash(a, b) & mask;
    while (slots[slot * keysPerEntry] !== 0) slot = (slot + 1) & mask;
    const at = slot * keysPerEntry;
    if (keysPerEntry === 1) slots[at] = answer ? a : -a;
    else {
      slots[at] = a;
      slots[at + 1] = answer ? b : -b;
    }
  }

  private grow(): void {
    const old = this.slots;
    const { keysPerEntry } = this;
    this.slots = new Float64Array(Math.max(FIRST_SLOTS, (2 * old.length) / keysPerEntry) * keysPerEntry);
    for (let at = 0; at < old.length; at += keysPerEntry) {
      if (old[at] === 0) continue;
      const last = old[at + keysPerEntry - 1]!;
      if (keysPerEntry === 1) this.put(this.slots, Math.abs(last), 0, last > 0);
      else this.put(this.slots, old[at]!, Math.abs(last), last > 0);
    }
  }
}

/** The memo of one engine: the sea test over a land index, answers kept across routes. */
export function createSeaTestMemo(): (land: LandIndex) => SeaTest {
  /** Whether a point of a route lies at sea (1:10m), remembered per point. */
  const pointMemo = new AnswerTable(1);
  const atSeaPoint = (land: LandIndex, p: readonly [number, number], key: number) => {
    let sea = pointMemo.get(key);
    if (sea === undefined) {
      const lon = p[0] > 180 ? p[0] - 360 : p[0] < -180 ? p[0] + 360 : p[0];
      sea = !land.isLand(lon, p[1]);
      pointMemo.add(key, 0, sea);
    }
    return sea;
  };
  const seaMemo = new AnswerTable(2);
  const seaTest = (land: LandIndex) => (a: readonly [number, number], b: readonly [number, number]) => {
    const ka = pointKey(a);
    const kb = pointKey(b);
    let answer = seaMemo.get(ka, kb);
    if (answer === undefined) {
      answer = greatCircleAtSea(land, a, b, PULL_END_ALLOWANCE_KM, atSeaPoint(land, a, ka), atSeaPoint(land, b, kb));
      seaMemo.add(ka, kb, answer);
    }
    return answer;
  };

  return seaTest;
}
