/**
 * A ground truth of stops, berth vs anchor and stationary pairs, built from a raw MarineCadastre CSV
 * day on its own terms (issue 26). Written independently of Bosun's detectors: it imports nothing from
 * src/, reads the CSV itself, and uses only the rules the issue states:
 * - a stop: consecutive reports below 0.5 kn lasting at least 30 minutes (a silence over 2 hours
 *   splits it: nothing is known of the vessel then);
 * - a ship at anchor swings: its positions spread over at least 30 m and its heading ranges over at
 *   least 15°; a ship alongside does neither (a stop without headings is judged by spread alone);
 * - a stationary pair: two stopped vessels within 100 m of each other for at least an hour.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';

export const STOP_BELOW_KN = 0.5;
export const MIN_STOP_MS = 30 * 60_000;
export const SPLIT_GAP_MS = 2 * 3_600_000;
export const ANCHOR_SPREAD_M = 30;
export const ANCHOR_HEADING_RANGE_DEG = 15;
export const PAIR_WITHIN_M = 100;
export const PAIR_MIN_MS = 3_600_000;
/** Pairs are compared on a time grid of this step (each vessel's last report in the step). */
export const PAIR_STEP_MS = 5 * 60_000;

export interface TruthRow {
  t: number;
  lat: number;
  lon: number;
  sog: number | null;
  heading: number | null;
}

export interface TruthVessel {
  mmsi: number;
  name: string;
  /** AIS ship type code (VesselType column), or null. */
  type: number | null;
  rows: TruthRow[];
}

export interface TruthStop {
  mmsi: number;
  start: number;
  end: number;
  lat: number;
  lon: number;
  kind: 'anchor' | 'berth';
  spreadM: number;
  /** Null when the stop had no valid heading. */
  headingRangeDeg: number | null;
  /** The stop began with the file (or ended with it): its true start (end) is not known. */
  clippedStart: boolean;
  clippedEnd: boolean;
}

export interface TruthPair {
  a: number;
  b: number;
  start: number;
  end: number;
  medianDistanceM: number;
  lat: number;
  lon: number;
  /** Both at anchor: anchorage; both alongside: port; one of each: mixed. */
  setting: 'anchorage' | 'port' | 'mixed';
}

export interface TruthDay {
  vessels: Map<number, TruthVessel>;
  firstT: number;
  lastT: number;
  rows: number;
}

const RAD = Math.PI / 180;
/** Equirectangular distance in metres: exact enough below a few kilometres. */
export function metres(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const x = (lon2 - lon1) * RAD * Math.cos(((lat1 + lat2) / 2) * RAD);
  const y = (lat2 - lat1) * RAD;
  return Math.sqrt(x * x + y * y) * 6_371_008.8;
}

/** Cargo (70–79) or tanker (80–89). */
export const isCargoOrTanker = (type: number | null) => type !== null && type >= 70 && type <= 89;

function split(line: string): string[] {
  if (!line.includes('"')) return line.split(',');
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if (ch === ',' && !quoted) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

const num = (s: string | undefined): number | null => {
  if (s === undefined || s.trim() === '') return null;
  const n = Number(s);
  return Number.isFinite(n) ? n : null;
};

/** Reads a MarineCadastre CSV (gzip) into vessels with their reports in time order. */
export async function readDay(path: string): Promise<TruthDay> {
  const lines = createInterface({ input: createReadStream(path).pipe(createGunzip()), crlfDelay: Infinity });
  let col: Record<string, number> | null = null;
  const vessels = new Map<number, TruthVessel>();
  let firstT = Infinity;
  let lastT = -Infinity;
  let rows = 0;
  for await (const line of lines) {
    if (line === '') continue;
    const f = split(line);
    if (!col) {
      col = Object.fromEntries(f.map((name, i) => [name.trim(), i]));
      continue;
    }
    const mmsi = Number(f[col.MMSI!]);
    const t = Date.parse(`${f[col.BaseDateTime!]}Z`);
    const lat = num(f[col.LAT!]);
    const lon = num(f[col.LON!]);
    if (!Number.isFinite(t) || lat === null || lon === null) continue;
    const heading = num(f[col.Heading!]);
    rows++;
    let v = vessels.get(mmsi);
    if (!v) vessels.set(mmsi, (v = { mmsi, name: f[col.VesselName!] ?? '', type: num(f[col.VesselType!]), rows: [] }));
    if (v.type === null) v.type = num(f[col.VesselType!]);
    v.rows.push({ t, lat, lon, sog: num(f[col.SOG!]), heading: heading !== null && heading >= 0 && heading < 360 ? heading : null });
    if (t < firstT) firstT = t;
    if (t > lastT) lastT = t;
  }
  for (const v of vessels.values()) v.rows.sort((a, b) => a.t - b.t);
  return { vessels, firstT, lastT, rows };
}

/** Smallest arc (degrees) holding every heading. */
export function headingRange(headings: readonly number[]): number | null {
  if (headings.length === 0) return null;
  const sorted = [...headings].sort((a, b) => a - b);
  let largestGap = 360 - sorted[sorted.length - 1]! + sorted[0]!;
  for (let i = 1; i < sorted.length; i++) largestGap = Math.max(largestGap, sorted[i]! - sorted[i - 1]!);
  return 360 - largestGap;
}

const quantile = (sorted: readonly number[], q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))))]!;

/** Spread of a stop's positions: the diagonal of the box holding the middle 90 % of latitudes and longitudes (a stray report does not count). */
export function spreadM(rows: readonly TruthRow[]): number {
  const lats = rows.map((r) => r.lat).sort((a, b) => a - b);
  const lons = rows.map((r) => r.lon).sort((a, b) => a - b);
  return metres(quantile(lats, 0.05), quantile(lons, 0.05), quantile(lats, 0.95), quantile(lons, 0.95));
}

/** Berth or anchor by behaviour alone. */
export function classify(rows: readonly TruthRow[]): Pick<TruthStop, 'kind' | 'spreadM' | 'headingRangeDeg'> {
  const spread = spreadM(rows);
  const headings = rows.map((r) => r.heading).filter((h): h is number => h !== null);
  const range = headingRange(headings);
  const swings = spread >= ANCHOR_SPREAD_M && (range === null || range >= ANCHOR_HEADING_RANGE_DEG);
  return { kind: swings ? 'anchor' : 'berth', spreadM: Math.round(spread), headingRangeDeg: range === null ? null : Math.round(range) };
}

/** Every stop of one vessel. */
export function stopsOf(v: TruthVessel, day: Pick<TruthDay, 'firstT' | 'lastT'>): TruthStop[] {
  const stops: TruthStop[] = [];
  let run: TruthRow[] = [];
  const close = () => {
    if (run.length > 1 && run[run.length - 1]!.t - run[0]!.t >= MIN_STOP_MS) {
      const lats = run.map((r) => r.lat).sort((a, b) => a - b);
      const lons = run.map((r) => r.lon).sort((a, b) => a - b);
      stops.push({
        mmsi: v.mmsi,
        start: run[0]!.t,
        end: run[run.length - 1]!.t,
        lat: quantile(lats, 0.5),
        lon: quantile(lons, 0.5),
        ...classify(run),
        clippedStart: run[0]!.t - day.firstT < 15 * 60_000,
        clippedEnd: day.lastT - run[run.length - 1]!.t < 15 * 60_000,
      });
    }
    run = [];
  };
  for (const row of v.rows) {
    const slow = row.sog !== null && row.sog < STOP_BELOW_KN;
    if (!slow || (run.length > 0 && row.t - run[run.length - 1]!.t > SPLIT_GAP_MS)) close();
    if (slow) run.push(row);
  }
  close();
  return stops;
}

/**
 * The stops holding each vessel at instant `at`: the stop covering it, or — when `at` falls between two stops of the
 * same vessel of the same kind at the same place (medians within 100 m) and every position the vessel reported in
 * between lies within 100 m of that place — the earlier one. A ship moored at one berth all day whose reports show
 * SOG ≥ 0.5 kn for a while (AIS speed noise) has not left. The stops themselves are not changed (recall and
 * precision read them as defined above); only who is where at an instant reads through such a gap.
 */
export const SAME_PLACE_M = 100;
export function stopsAt(stops: readonly TruthStop[], at: number, day: Pick<TruthDay, 'vessels'>): TruthStop[] {
  const byVessel = new Map<number, TruthStop[]>();
  for (const s of stops) byVessel.set(s.mmsi, [...(byVessel.get(s.mmsi) ?? []), s]);
  const out: TruthStop[] = [];
  for (const [mmsi, list] of byVessel) {
    const sorted = [...list].sort((a, b) => a.start - b.start);
    const covering = sorted.find((s) => s.start <= at && s.end >= at);
    if (covering) {
      out.push(covering);
      continue;
    }
    for (let i = 1; i < sorted.length; i++) {
      const [a, b] = [sorted[i - 1]!, sorted[i]!];
      if (!(a.end < at && b.start > at) || a.kind !== b.kind || metres(a.lat, a.lon, b.lat, b.lon) > SAME_PLACE_M) continue;
      const between = (day.vessels.get(mmsi)?.rows ?? []).filter((r) => r.t > a.end && r.t < b.start);
      if (between.every((r) => metres(a.lat, a.lon, r.lat, r.lon) <= SAME_PLACE_M)) out.push(a);
      break;
    }
  }
  return out;
}

/** Stationary pairs: both vessels inside a stop, within 100 m, over at least an hour of the time grid (one missed step is bridged). */
export function stationaryPairs(day: TruthDay, stops: readonly TruthStop[], involve: (a: TruthVessel, b: TruthVessel) => boolean): TruthPair[] {
  const stopsByVessel = new Map<number, TruthStop[]>();
  for (const s of stops) stopsByVessel.set(s.mmsi, [...(stopsByVessel.get(s.mmsi) ?? []), s]);
  // each stopped vessel's last report per step
  const steps = new Map<number, Map<number, TruthRow>>();
  for (const [mmsi, list] of stopsByVessel) {
    const v = day.vessels.get(mmsi)!;
    for (const row of v.rows) {
      if (!list.some((s) => row.t >= s.start && row.t <= s.end)) continue;
      const step = Math.floor(row.t / PAIR_STEP_MS);
      let at = steps.get(step);
      if (!at) steps.set(step, (at = new Map()));
      at.set(mmsi, row);
    }
  }
  const kindAt = (mmsi: number, t: number) => stopsByVessel.get(mmsi)?.find((s) => t >= s.start - PAIR_STEP_MS && t <= s.end + PAIR_STEP_MS)?.kind ?? 'berth';
  const open = new Map<string, { start: number; last: number; lastStep: number; d: number[]; lat: number; lon: number }>();
  const done: TruthPair[] = [];
  const finish = (key: string) => {
    const p = open.get(key)!;
    open.delete(key);
    if (p.last - p.start < PAIR_MIN_MS) return;
    const [a, b] = key.split('|').map(Number) as [number, number];
    const d = [...p.d].sort((x, y) => x - y);
    const ka = kindAt(a, (p.start + p.last) / 2);
    const kb = kindAt(b, (p.start + p.last) / 2);
    done.push({
      a,
      b,
      start: p.start,
      end: p.last,
      medianDistanceM: Math.round(quantile(d, 0.5)),
      lat: p.lat,
      lon: p.lon,
      setting: ka === 'anchor' && kb === 'anchor' ? 'anchorage' : ka === 'berth' && kb === 'berth' ? 'port' : 'mixed',
    });
  };
  const CELL = 0.002; // about 200 m: neighbours within 100 m are in this cell or the next
  for (const step of [...steps.keys()].sort((x, y) => x - y)) {
    const at = steps.get(step)!;
    const grid = new Map<string, number[]>();
    for (const [mmsi, row] of at) {
      const key = `${Math.floor(row.lat / CELL)}:${Math.floor(row.lon / CELL)}`;
      grid.set(key, [...(grid.get(key) ?? []), mmsi]);
    }
    for (const [mmsi, row] of at) {
      const r = Math.floor(row.lat / CELL);
      const c = Math.floor(row.lon / CELL);
      for (let dr = -1; dr <= 1; dr++) {
        for (let dc = -1; dc <= 1; dc++) {
          for (const other of grid.get(`${r + dr}:${c + dc}`) ?? []) {
            if (other <= mmsi) continue;
            const o = at.get(other)!;
            const d = metres(row.lat, row.lon, o.lat, o.lon);
            if (d > PAIR_WITHIN_M || !involve(day.vessels.get(mmsi)!, day.vessels.get(other)!)) continue;
            const key = `${mmsi}|${other}`;
            const t = Math.max(row.t, o.t);
            const p = open.get(key);
            if (p && step - p.lastStep <= 2) {
              p.last = t;
              p.lastStep = step;
              p.d.push(d);
            } else {
              if (p) finish(key);
              open.set(key, { start: t, last: t, lastStep: step, d: [d], lat: (row.lat + o.lat) / 2, lon: (row.lon + o.lon) / 2 });
            }
          }
        }
      }
    }
    for (const [key, p] of open) if (step - p.lastStep > 2) finish(key);
  }
  for (const key of [...open.keys()]) finish(key);
  return done;
}

/** A charted point of a port (its position or an anchorage point), as plain data. */
export interface ChartedPoint {
  portId: number;
  lat: number;
  lon: number;
}

/** Ports are attributed within this distance of their nearest charted point. */
export const PORT_WITHIN_M = 30_000;

/**
 * The port a stop belongs to in the truth: the port with the charted point nearest to the stop's
 * position, within 30 km (null beyond). Geography only: it knows nothing of a vessel's call history.
 */
export function portAttribution(stops: readonly TruthStop[], points: readonly ChartedPoint[]): Map<TruthStop, number | null> {
  const out = new Map<TruthStop, number | null>();
  if (stops.length === 0) return out;
  const margin = PORT_WITHIN_M / 100_000;
  const lats = stops.map((s) => s.lat);
  const lons = stops.map((s) => s.lon);
  const [s0, n0] = [Math.min(...lats) - margin, Math.max(...lats) + margin];
  const [w0, e0] = [Math.min(...lons) - 2 * margin, Math.max(...lons) + 2 * margin];
  const near = points.filter((p) => p.lat >= s0 && p.lat <= n0 && p.lon >= w0 && p.lon <= e0);
  for (const stop of stops) {
    let best: number | null = null;
    let bestM = PORT_WITHIN_M;
    for (const p of near) {
      const d = metres(stop.lat, stop.lon, p.lat, p.lon);
      if (d <= bestM) {
        best = p.portId;
        bestM = d;
      }
    }
    out.set(stop, best);
  }
  return out;
}
