import { bearingDeg, distanceM, interpolate, type LatLon } from './distance.js';

/** A path of great-circle legs with cumulative distances, for "where am I after d metres". */
export class Polyline {
  readonly points: readonly LatLon[];
  /** cumulative[i] = metres from the first point to point i. */
  readonly cumulative: Float64Array;

  constructor(points: readonly LatLon[]) {
    const kept: LatLon[] = [];
    for (const p of points) {
      const last = kept[kept.length - 1];
      if (last === undefined || distanceM(last.lat, last.lon, p.lat, p.lon) > 0.5) kept.push(p);
    }
    if (kept.length === 0) throw new Error('a polyline needs at least one point');
    this.points = kept;
    this.cumulative = new Float64Array(kept.length);
    for (let i = 1; i < kept.length; i++) {
      const a = kept[i - 1]!;
      const b = kept[i]!;
      this.cumulative[i] = this.cumulative[i - 1]! + distanceM(a.lat, a.lon, b.lat, b.lon);
    }
  }

  get lengthM(): number {
    return this.cumulative[this.cumulative.length - 1]!;
  }

  get start(): LatLon {
    return this.points[0]!;
  }

  get end(): LatLon {
    return this.points[this.points.length - 1]!;
  }

  /** Index i of the leg [i, i+1] that contains distance d (clamped). */
  private legAt(d: number): number {
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (this.cumulative[mid]! <= d) lo = mid;
      else hi = mid;
    }
    return lo;
  }

  /** Position and course at `d` metres along the line (clamped to its ends). */
  at(d: number): { lat: number; lon: number; bearing: number } {
    const points = this.points;
    if (points.length === 1) return { lat: points[0]!.lat, lon: points[0]!.lon, bearing: 0 };
    const clamped = d < 0 ? 0 : d > this.lengthM ? this.lengthM : d;
    const i = this.legAt(clamped);
    const a = points[i]!;
    const b = points[i + 1]!;
    const legLength = this.cumulative[i + 1]! - this.cumulative[i]!;
    const fraction = legLength > 0 ? (clamped - this.cumulative[i]!) / legLength : 0;
    const p = interpolate(a.lat, a.lon, b.lat, b.lon, fraction);
    return { lat: p.lat, lon: p.lon, bearing: bearingDeg(p.lat, p.lon, b.lat, b.lon) };
  }

  /** The part between two distances along the line. */
  slice(fromM: number, toM: number): Polyline {
    const from = Math.max(0, fromM);
    const to = Math.min(this.lengthM, toM);
    const out: LatLon[] = [this.at(from)];
    for (let i = 0; i < this.points.length; i++) {
      const c = this.cumulative[i]!;
      if (c > from && c < to) out.push(this.points[i]!);
    }
    out.push(this.at(to));
    return new Polyline(out.map(({ lat, lon }) => ({ lat, lon })));
  }

  reversed(): Polyline {
    return new Polyline([...this.points].reverse());
  }
}
