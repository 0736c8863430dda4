import { distanceM, METRES_PER_NM } from '../geo/distance.js';

/**
 * Loitering and AIS gaps (docs/decisions/114-loitering-and-ais-gaps.md), with the definitions Global
 * Fishing Watch publishes for its events as defaults. Loitering: a vessel slower than 2 kn for at
 * least 4 hours, at least 20 nm from shore. AIS gap: no position for at least 6 hours from a vessel
 * that was transmitting; a gap that begins and ends within 50 nm of shore (GFW's limit for a gap that
 * may be a deliberate switch-off) lies where reception is patchy and is flagged `near_shore`, not
 * dropped. Distance to shore is a function handed in (the Natural Earth 1:10m land in production).
 */
export interface LoiteringParameters {
  maxSpeedKn: number;
  minDurationMs: number;
  minShoreNm: number;
  /** A silence this long between two fixes ends a loitering run (it is an AIS gap instead). */
  maxSilenceMs: number;
}

export const GFW_LOITERING_PARAMETERS: LoiteringParameters = {
  maxSpeedKn: 2,
  minDurationMs: 4 * 3_600_000,
  minShoreNm: 20,
  maxSilenceMs: 6 * 3_600_000,
};

export interface GapParameters {
  minGapMs: number;
  /** Both ends within this distance of shore: flagged near_shore (a coverage hole more likely than a switch-off). */
  nearShoreNm: number;
}

export const GFW_GAP_PARAMETERS: GapParameters = { minGapMs: 6 * 3_600_000, nearShoreNm: 50 };

/** Distance from a position to the nearest shore in nm, or Infinity beyond `maxNm`. */
export type ShoreDistanceNm = (lat: number, lon: number, maxNm: number) => number;

export interface TrackFix {
  seq: number;
  t: number;
  lat: number;
  lon: number;
  sog: number | null;
}

export interface Loitering {
  start: number;
  end: number;
  /** Mean position of the run's fixes. */
  lat: number;
  lon: number;
  /** Time-weighted mean speed over ground, knots. */
  meanSpeedKn: number;
  /** Track length over the run, nm. */
  distanceNm: number;
  /** Nearest the run came to shore, nm (capped: Infinity is stored as the cap). */
  minShoreNm: number;
  fixes: number;
  firstSeq: number;
  lastSeq: number;
}

/** A loitering run under way for one vessel: plain data, saved with the detector's checkpoint. */
export interface LoiterRun {
  start: number;
  lastT: number;
  lastLat: number;
  lastLon: number;
  lastKn: number;
  latSum: number;
  lonSum: number;
  /** Σ speed × time, knot·ms. */
  speedTime: number;
  distanceM: number;
  minShoreNm: number;
  fixes: number;
  firstSeq: number;
  lastSeq: number;
}

export interface AisGap {
  start: number;
  end: number;
  startLat: number;
  startLon: number;
  endLat: number;
  endLon: number;
  distanceNm: number;
  impliedSpeedKn: number;
  /** Distance to shore at each end, nm, capped at SHORE_CAP_NM. */
  startShoreNm: number;
  endShoreNm: number;
  nearShore: boolean;
  firstSeq: number;
  lastSeq: number;
}

/** Distances to shore are looked up to here; farther reads as this (the thresholds lie well inside). */
export const SHORE_CAP_NM = 100;

const KN_PER_M_PER_MS = 3_600_000 / METRES_PER_NM;
const capped = (nm: number) => Math.min(SHORE_CAP_NM, nm);

function speedOf(fix: TrackFix, previous: { t: number; lat: number; lon: number } | null): number | null {
  if (fix.sog !== null) return fix.sog;
  if (!previous || fix.t <= previous.t) return null;
  return (distanceM(previous.lat, previous.lon, fix.lat, fix.lon) / (fix.t - previous.t)) * KN_PER_M_PER_MS;
}

function endRun(run: LoiterRun, params: LoiteringParameters): Loitering | null {
  const duration = run.lastT - run.start;
  if (duration < params.minDurationMs) return null;
  const meanSpeedKn = run.speedTime / duration;
  if (!(meanSpeedKn < params.maxSpeedKn)) return null;
  return {
    start: run.start,
    end: run.lastT,
    lat: run.latSum / run.fixes,
    lon: run.lonSum / run.fixes,
    meanSpeedKn,
    distanceNm: run.distanceM / METRES_PER_NM,
    minShoreNm: run.minShoreNm,
    fixes: run.fixes,
    firstSeq: run.firstSeq,
    lastSeq: run.lastSeq,
  };
}

export interface LoiteringDetector {
  /**
   * Feeds one vessel's fix (in time order for the vessel; older ones are ignored) with the run under
   * way and the vessel's previous fix (for the speed a fix without SOG implies); returns the run to
   * keep (null: none) and the loitering it completed, if any.
   */
  push(run: LoiterRun | null, fix: TrackFix, previous?: TrackFix | null): { run: LoiterRun | null; done: Loitering | null };
  /** The run as an event if it ended now (end of a replay). */
  close(run: LoiterRun): Loitering | null;
}

/**
 * A run is a sequence of fixes each slower than `maxSpeedKn` and at least `minShoreNm` from shore,
 * no two further apart than `maxSilenceMs`; it is loitering when it lasts `minDurationMs` (its
 * time-weighted mean speed is then below the limit too). Shore distance is asked for slow fixes
 * only, and remembered per 0.01° cell (about 1 km: a stopped vessel asks again and again).
 */
export function createLoiteringDetector(shoreNm: ShoreDistanceNm, params: LoiteringParameters = GFW_LOITERING_PARAMETERS): LoiteringDetector {
  const cells = new Map<number, number>();
  const shore = (lat: number, lon: number) => {
    const key = Math.round((lat + 90) * 100) * 36_001 + Math.round((lon + 180) * 100);
    let nm = cells.get(key);
    if (nm === undefined) {
      if (cells.size > 500_000) cells.clear();
      nm = capped(shoreNm(lat, lon, SHORE_CAP_NM));
      cells.set(key, nm);
    }
    return nm;
  };

  return {
    push(run, fix, previous = null) {
      if (run && fix.t < run.lastT) return { run, done: null };
      const kn = speedOf(fix, previous ?? (run ? { t: run.lastT, lat: run.lastLat, lon: run.lastLon } : null));
      const offshore = kn !== null && kn < params.maxSpeedKn ? shore(fix.lat, fix.lon) : -1;
      const qualifies = kn !== null && offshore >= params.minShoreNm;
      let done: Loitering | null = null;
      if (run && (!qualifies || fix.t - run.lastT > params.maxSilenceMs)) {
        done = endRun(run, params);
        run = null;
      }
      if (!qualifies) return { run: null, done };
      if (!run) {
        return {
          run: {
            start: fix.t,
            lastT: fix.t,
            lastLat: fix.lat,
            lastLon: fix.lon,
            lastKn: kn,
            latSum: fix.lat,
            lonSum: fix.lon,
            speedTime: 0,
            distanceM: 0,
            minShoreNm: offshore,
            fixes: 1,
            firstSeq: fix.seq,
            lastSeq: fix.seq,
          },
          done,
        };
      }
      const dt = fix.t - run.lastT;
      run.speedTime += ((run.lastKn + kn) / 2) * dt;
      run.distanceM += distanceM(run.lastLat, run.lastLon, fix.lat, fix.lon);
      run.lastT = fix.t;
      run.lastLat = fix.lat;
      run.lastLon = fix.lon;
      run.lastKn = kn;
      run.latSum += fix.lat;
      run.lonSum += fix.lon;
      run.minShoreNm = Math.min(run.minShoreNm, offshore);
      run.fixes++;
      run.lastSeq = fix.seq;
      return { run, done };
    },
    close: (run) => endRun(run, params),
  };
}

/** The gap between a vessel's previous fix and this one, if the silence lasted `minGapMs`. */
export function createGapDetector(shoreNm: ShoreDistanceNm, params: GapParameters = GFW_GAP_PARAMETERS) {
  return {
    between(previous: TrackFix | null, fix: TrackFix): AisGap | null {
      if (!previous || fix.t - previous.t < params.minGapMs) return null;
      const distance = distanceM(previous.lat, previous.lon, fix.lat, fix.lon);
      const startShoreNm = capped(shoreNm(previous.lat, previous.lon, SHORE_CAP_NM));
      const endShoreNm = capped(shoreNm(fix.lat, fix.lon, SHORE_CAP_NM));
      return {
        start: previous.t,
        end: fix.t,
        startLat: previous.lat,
        startLon: previous.lon,
        endLat: fix.lat,
        endLon: fix.lon,
        distanceNm: distance / METRES_PER_NM,
        impliedSpeedKn: (distance / (fix.t - previous.t)) * KN_PER_M_PER_MS,
        startShoreNm,
        endShoreNm,
        nearShore: startShoreNm < params.nearShoreNm && endShoreNm < params.nearShoreNm,
        firstSeq: previous.seq,
        lastSeq: fix.seq,
      };
    },
  };
}

/** Distance to shore from the Natural Earth land index (coastDistanceKm), in nm. */
export function shoreFromLand(land: { coastDistanceKm(lon: number, lat: number, maxKm: number): number; isLand(lon: number, lat: number): boolean }): ShoreDistanceNm {
  return (lat, lon, maxNm) => (land.isLand(lon, lat) ? 0 : land.coastDistanceKm(lon, lat, (maxNm * METRES_PER_NM) / 1000) / (METRES_PER_NM / 1000));
}
