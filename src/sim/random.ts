/** Deterministic pseudo-random numbers: the same seed always gives the same fleet and the same sentences. */

function mix(h: number, value: number): number {
  h ^= Math.imul(value | 0, 0x85ebca6b) ^ ((value / 4294967296) | 0);
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  return h ^ (h >>> 16);
}

/** 32-bit hash of up to four integers (each up to ±2^53). */
export function hashInts(a: number, b = 0, c = 0, d = 0): number {
  return mix(mix(mix(mix(0x9e3779b9, a), b), c), d) >>> 0;
}

/** A uniform float in [0, 1) determined by the integers. */
export function hashUnit(a: number, b = 0, c = 0, d = 0): number {
  return hashInts(a, b, c, d) / 4294967296;
}

/** Seed text (e.g. from configuration) → 32-bit seed. */
export function seedFromText(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** Small fast generator (mulberry32). */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  float(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** An item with probability proportional to its weight. */
  weighted<T>(items: readonly T[], weight: (item: T) => number): T {
    let total = 0;
    for (const item of items) total += weight(item);
    let r = this.next() * total;
    for (const item of items) {
      r -= weight(item);
      if (r < 0) return item;
    }
    return items[items.length - 1]!;
  }
}
