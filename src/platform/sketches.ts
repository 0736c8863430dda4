import { mean, median, percentile } from './stats.js';

/**
 * Distinct vessels and voyage hours of a part of the voyages (docs/decisions/149): exact while a cell is small,
 * beyond it a HyperLogLog of the vessels (p = 10: about 3.3 % standard error on a distinct count) and a
 * histogram of hours on log buckets of ratio 1.02 (a median within ±1 % relative). Merged per lane, per port
 * and per answer; an exact part stays exact until an approximate one is merged in.
 */

const HLL_P = 10;
const HLL_M = 1 << HLL_P;
/** Registers of a vessel sketch. */
export const HLL_REGISTERS = HLL_M;
/** Ratio of consecutive hours buckets. */
const HOURS_RATIO = 1.02;
const LOG_RATIO = Math.log(HOURS_RATIO);
/** The bucket of voyages of no time at all (hours ≤ 0 have no logarithm). */
const ZERO_HOURS_BUCKET = -100_000;

/** A 32-bit hash of a vessel id (FNV-1a, then murmur3's finaliser to spread the low bits into the high ones). */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function addToRegisters(registers: Uint8Array, vslId: string): void {
  const h = hash32(vslId);
  const index = h >>> (32 - HLL_P);
  const rest = (h << HLL_P) >>> 0;
  const rank = rest === 0 ? 32 - HLL_P + 1 : Math.clz32(rest) + 1;
  if (rank > registers[index]!) registers[index] = rank;
}

/** 2^-rank for every rank a register can hold (at most 32 - HLL_P + 1): a table read instead of a power per register. */
const INVERSE_POWERS = Float64Array.from({ length: 64 }, (_, r) => 2 ** -r);

/** Flajolet et al.'s estimate with the linear-counting correction for small counts. */
function estimateOf(registers: Uint8Array): number {
  let sum = 0;
  let zeros = 0;
  for (let i = 0; i < registers.length; i++) {
    const r = registers[i]!;
    sum += INVERSE_POWERS[r]!;
    if (r === 0) zeros++;
  }
  const alpha = 0.7213 / (1 + 1.079 / HLL_M);
  const raw = (alpha * HLL_M * HLL_M) / sum;
  return Math.round(raw <= 2.5 * HLL_M && zeros > 0 ? HLL_M * Math.log(HLL_M / zeros) : raw);
}

/**
 * Distinct vessels: a set of ids, or HyperLogLog registers once an approximate part is merged in. What an
 * approximate sketch is given (ids, registers as text from `mergeEncoded`, other sketches by `take`) is kept as it
 * comes until the sketch is counted or merged into another one (docs/decisions/163): an answer that counts a few
 * lanes hashes and decodes only theirs. Registers merge by a maximum per register, so when they are is no matter.
 */
export class VesselSketch {
  private approximate = false;
  /** The vessels while exact; once approximate, the ids added and not hashed into the registers yet. */
  private ids = new Set<string>();
  private registers: Uint8Array | null = null;
  /** Encoded registers merged in and not decoded yet. */
  private encoded: string[] = [];

  static ofRegisters(registers: Uint8Array): VesselSketch {
    const s = VesselSketch.approximate();
    s.registers = Uint8Array.from(registers);
    return s;
  }

  /** An approximate sketch of no vessel yet (what encoded registers are merged into). */
  static approximate(): VesselSketch {
    const s = new VesselSketch();
    s.approximate = true;
    return s;
  }

  get exact(): boolean {
    return !this.approximate;
  }

  add(vslId: string): void {
    this.ids.add(vslId);
  }

  merge(other: VesselSketch): void {
    if (!other.approximate) {
      for (const id of other.ids) this.ids.add(id);
      return;
    }
    this.approximate = true;
    maxInto((this.registers ??= new Uint8Array(HLL_M)), other.toRegisters());
  }

  /** As `merge`, for a sketch not read again: what it holds not hashed or decoded yet is handed on as it is. */
  take(other: VesselSketch): void {
    if (!other.approximate) {
      this.merge(other);
      return;
    }
    this.approximate = true;
    for (const id of other.ids) this.ids.add(id);
    for (const text of other.encoded) this.encoded.push(text);
    if (other.registers !== null) maxInto((this.registers ??= new Uint8Array(HLL_M)), other.registers);
  }

  count(): number {
    return this.approximate ? estimateOf(this.toRegisters()) : this.ids.size;
  }

  /** Merges registers as `encodeRegisters` wrote them: kept as text, decoded when the sketch is read (`count`, `toRegisters`, merged into another). */
  mergeEncoded(encoded: string): void {
    this.approximate = true;
    this.encoded.push(encoded);
  }

  /** The registers, with every id and text given so far in them; the sketch is approximate from then on. */
  toRegisters(): Uint8Array {
    this.approximate = true;
    const registers = (this.registers ??= new Uint8Array(HLL_M));
    for (const id of this.ids) addToRegisters(registers, id);
    this.ids.clear();
    for (const text of this.encoded) mergeEncodedRegisters(registers, text);
    this.encoded = [];
    return registers;
  }
}

function maxInto(registers: Uint8Array, theirs: Uint8Array): void {
  for (let i = 0; i < HLL_M; i++) if (theirs[i]! > registers[i]!) registers[i] = theirs[i]!;
}

export const hoursBucketOf = (hours: number) => (hours <= 0 ? ZERO_HOURS_BUCKET : Math.floor(Math.log(hours) / LOG_RATIO));
/** The geometric middle of a bucket (0 for the bucket of no time). */
const hoursOfBucket = (bucket: number) => (bucket === ZERO_HOURS_BUCKET ? 0 : HOURS_RATIO ** (bucket + 0.5));

/** The buckets `mergeEncoded` counts in an array: from 1.02^-350 h (4 s) to 1.02^674 h (70 years). */
const FIRST_PENDING_BUCKET = -350;
const PENDING_BUCKETS = 1024;

/** Voyage hours: the values, or counts per log bucket once an approximate part is merged in. */
export class HoursSketch {
  private values: number[] | null = [];
  private buckets: Map<number, number> | null = null;
  /** Counts merged by `mergeEncoded` not yet in `buckets`, from FIRST_PENDING_BUCKET on. */
  private pending: Float64Array | null = null;
  /** Buckets merged by `mergeEncoded` as text, not decoded yet. */
  private encoded: string[] = [];

  static ofBuckets(buckets: Iterable<readonly [number, number]>): HoursSketch {
    const s = new HoursSketch();
    s.values = null;
    s.buckets = new Map(buckets);
    return s;
  }

  get exact(): boolean {
    return this.values !== null;
  }

  add(hours: number): void {
    if (this.values) this.values.push(hours);
    else this.buckets!.set(hoursBucketOf(hours), (this.buckets!.get(hoursBucketOf(hours)) ?? 0) + 1);
  }

  merge(other: HoursSketch): void {
    if (other.values) {
      for (const h of other.values) this.add(h);
      return;
    }
    const buckets = this.bucketsWithoutPending();
    for (const [bucket, n] of other.toBuckets()) buckets.set(bucket, (buckets.get(bucket) ?? 0) + n);
  }

  /** As `merge`, for a sketch not read again: its buckets not decoded yet are handed on as text, undecoded (docs/decisions/163). */
  take(other: HoursSketch): void {
    if (other.values) {
      this.merge(other);
      return;
    }
    const buckets = this.bucketsWithoutPending();
    for (const text of other.encoded) this.encoded.push(text);
    if (other.pending !== null) {
      const pending = (this.pending ??= new Float64Array(PENDING_BUCKETS));
      for (let at = 0; at < PENDING_BUCKETS; at++) pending[at]! += other.pending[at]!;
    }
    for (const [bucket, n] of other.buckets!) buckets.set(bucket, (buckets.get(bucket) ?? 0) + n);
  }

  /** The median (as platform/stats `median` on the values while exact; the middle of the middle bucket(s) beyond). */
  median(): number | null {
    if (this.values) return median(this.values);
    const { total, at } = this.ranked();
    if (total === 0) return null;
    const mid = total >> 1;
    return total % 2 === 1 ? at(mid) : (at(mid - 1) + at(mid)) / 2;
  }

  /** Percentile p (0–100) by nearest rank (as platform/stats `percentile` while exact; the middle of its bucket beyond). */
  nearestRank(p: number): number | null {
    if (this.values)
      return percentile(
        [...this.values].sort((a, b) => a - b),
        p,
      );
    const { total, at } = this.ranked();
    return total === 0 ? null : at(Math.min(total - 1, Math.max(0, Math.ceil((p / 100) * total) - 1)));
  }

  /** The mean (of the buckets' middles beyond exact: within their ±1 %). */
  mean(): number | null {
    if (this.values) return mean(this.values);
    let total = 0;
    let sum = 0;
    for (const [bucket, n] of this.toBuckets()) {
      total += n;
      sum += n * hoursOfBucket(bucket);
    }
    return total === 0 ? null : sum / total;
  }

  /** The smallest value (the middle of the lowest bucket beyond exact). */
  min(): number | null {
    if (this.values) return this.values.length === 0 ? null : Math.min(...this.values);
    const { total, at } = this.ranked();
    return total === 0 ? null : at(0);
  }

  /** The largest value (the middle of the highest bucket beyond exact). */
  max(): number | null {
    if (this.values) return this.values.length === 0 ? null : Math.max(...this.values);
    const { total, at } = this.ranked();
    return total === 0 ? null : at(total - 1);
  }

  /** The value of each rank (0 … total − 1) from the buckets in order: the middle of the bucket that holds it. */
  private ranked(): { total: number; at: (rank: number) => number } {
    const sorted = [...this.toBuckets().entries()].filter(([, n]) => n > 0).sort((a, b) => a[0] - b[0]);
    const total = sorted.reduce((sum, [, n]) => sum + n, 0);
    const at = (rank: number) => {
      let seen = 0;
      for (const [bucket, n] of sorted) {
        seen += n;
        if (seen > rank) return hoursOfBucket(bucket);
      }
      return hoursOfBucket(sorted[sorted.length - 1]![0]);
    };
    return { total, at };
  }

  /**
   * Merges buckets as `encodeHours` wrote them: kept as text until the sketch is read (docs/decisions/163), then
   * counted in an array over the usual buckets (an update of the Map per pair would cost more than the rest of a
   * cell's read), moved into the Map.
   */
  mergeEncoded(encoded: string): void {
    this.bucketsWithoutPending();
    this.encoded.push(encoded);
  }

  /** The text merged in, counted into the pending array (or the Map, for a bucket beyond it). */
  private decodeEncoded(): void {
    if (this.encoded.length === 0) return;
    const buckets = this.bucketsWithoutPending();
    const pending = (this.pending ??= new Float64Array(PENDING_BUCKETS));
    for (const text of this.encoded)
      eachEncodedBucket(text, (bucket, n) => {
        const at = bucket - FIRST_PENDING_BUCKET;
        if (at >= 0 && at < PENDING_BUCKETS) pending[at]! += n;
        else buckets.set(bucket, (buckets.get(bucket) ?? 0) + n);
      });
    this.encoded = [];
  }

  /** The buckets (the values counted into them first while exact), without the pending counts: a merge adds to those. */
  private bucketsWithoutPending(): Map<number, number> {
    if (this.buckets === null) {
      const values = this.values!;
      this.values = null;
      this.buckets = new Map();
      for (const h of values) this.add(h);
    }
    return this.buckets;
  }

  toBuckets(): Map<number, number> {
    this.decodeEncoded();
    const buckets = this.bucketsWithoutPending();
    if (this.pending !== null) {
      const pending = this.pending;
      this.pending = null;
      for (let at = 0; at < PENDING_BUCKETS; at++) if (pending[at]! > 0) buckets.set(at + FIRST_PENDING_BUCKET, (buckets.get(at + FIRST_PENDING_BUCKET) ?? 0) + pending[at]!);
    }
    return buckets;
  }
}

/** The (bucket, count) pairs of hours buckets as `encodeHours` wrote them. */
function eachEncodedBucket(text: string, visit: (bucket: number, count: number) => void): void {
  const bytes = Buffer.from(text, 'base64');
  for (let i = 0; i + 8 <= bytes.length; i += 8) visit(bytes.readInt32LE(i), bytes.readInt32LE(i + 4));
}

export const registersToText = (registers: Uint8Array) => Buffer.from(registers).toString('base64');
export const registersOfText = (text: string) => new Uint8Array(Buffer.from(text, 'base64'));

/**
 * Registers as text a cell can hold (docs/decisions/153): base64 of the 1,024 register bytes, or, while fewer
 * than SPARSE_LIMIT registers are set, of 16-bit words `index << 5 | rank` (a rank is at most 23) for the set
 * ones only. A reader tells them apart by length (a sparse list is shorter than the dense registers).
 */
const SPARSE_LIMIT = HLL_M / 4;
const RANK_BITS = 5;

export function encodeRegisters(registers: Uint8Array): string {
  let set = 0;
  for (const r of registers) if (r > 0) set++;
  if (set >= SPARSE_LIMIT) return Buffer.from(registers.buffer, registers.byteOffset, registers.byteLength).toString('base64');
  const words = Buffer.alloc(set * 2);
  let at = 0;
  for (let i = 0; i < HLL_M; i++) if (registers[i]! > 0) at = words.writeUInt16LE((i << RANK_BITS) | registers[i]!, at);
  return words.toString('base64');
}

export function mergeEncodedRegisters(into: Uint8Array, encoded: string): void {
  const bytes = Buffer.from(encoded, 'base64');
  if (bytes.length === HLL_M) {
    for (let i = 0; i < HLL_M; i++) if (bytes[i]! > into[i]!) into[i] = bytes[i]!;
    return;
  }
  const rankMask = (1 << RANK_BITS) - 1;
  for (let i = 0; i + 1 < bytes.length; i += 2) {
    const word = bytes[i]! | (bytes[i + 1]! << 8);
    const index = word >>> RANK_BITS;
    const rank = word & rankMask;
    if (rank > into[index]!) into[index] = rank;
  }
}

/** Hours buckets as text a cell can hold: base64 of 32-bit little-endian (bucket, count) pairs. */
export function encodeHours(buckets: ReadonlyMap<number, number>): string {
  const pairs = Buffer.alloc(buckets.size * 8);
  let at = 0;
  for (const [bucket, n] of buckets) at = pairs.writeInt32LE(n, pairs.writeInt32LE(bucket, at));
  return pairs.toString('base64');
}
