import { distanceM } from '../geo/distance.js';
import type { PortAreaIndex } from './port-areas.js';

/**
 * Port calls detected from one vessel's positions, incrementally (docs/decisions/019-port-calls.md).
 * Global Fishing Watch's published parameters are the defaults: a visit begins within 3 km of one of
 * a port's points (its reference position or an anchorage point) and ends beyond 4 km of all of
 * them; a vessel is stopped below 0.2 kn and moving again above 0.5 kn.
 *
 * Port areas (docs/decisions/075-port-areas-and-calls-on-areas.md): a vessel that stops within
 * `nearPortM` of a port's points, outside its known areas, also begins a call there (an area the
 * point table does not know yet: an offshore anchorage, a terminal up a channel); while the call
 * lasts, its stop positions count as points of the port.
 *
 * Stored port areas (docs/decisions/120): when given, a fix in an area of a port is in that port (it
 * enters it, before any point), one next to it has not left it, and a stop in an area begins a call at
 * the area's port; the port's points and the on-the-fly rule above still hold where no area lies (a
 * fresh install before the first rebuild has none).
 *
 * Each stop is `berth` or `anchorage`: the AIS navigation status decides where the vessel gives it
 * ("at anchor" 1, "moored" 5); otherwise its behaviour, when headings were reported: a ship at anchor
 * swings (positions spread over `swingSpreadM` and headings over `swingHeadingDeg`), alongside it
 * does not. Without headings, a stop far offshore or followed by another stop is waiting, the last
 * stop the berth.
 */
export interface PortCallParameters {
  enterM: number;
  exitM: number;
  stopBelowKn: number;
  moveAboveKn: number;
  /** Stops shorter than this are pauses in traffic, not anchorage or berth time. */
  minStopMs: number;
  /** A silence longer than this inside a call is recorded (and lowers its confidence); it also ends the stop under way. */
  gapMs: number;
  /**
   * A departure stands once the vessel has stayed beyond the exit distance this long (or entered
   * another port); coming back sooner continues the call. Bosun's addition: without it a vessel
   * moving along a channel between sparse port points makes a string of short calls.
   */
  departureConfirmMs: number;
  /** The same when the call so far is only a wait at anchor (the vessel may be on its way up a long channel to its berth). */
  waitingDepartureConfirmMs: number;
  /** A stop further than this from the port's own position is a wait at an offshore anchorage. */
  offshoreAnchorageM: number;
  /** A stop within this distance of a port's points (but beyond `enterM`) begins a call at the nearest port. */
  nearPortM: number;
  /** A stop whose positions spread over at least this much… */
  swingSpreadM: number;
  /** …and whose headings range over at least this much is a ship swinging at anchor. */
  swingHeadingDeg: number;
  /** A report further than this from the stop's first position is a position jump, not a swing. */
  jumpM: number;
}

export const GFW_PORT_CALL_PARAMETERS: PortCallParameters = {
  enterM: 3_000,
  exitM: 4_000,
  stopBelowKn: 0.5,
  moveAboveKn: 0.5,
  minStopMs: 15 * 60_000,
  gapMs: 6 * 3_600_000,
  departureConfirmMs: 3_600_000,
  waitingDepartureConfirmMs: 12 * 3_600_000,
  offshoreAnchorageM: 15_000,
  nearPortM: 30_000,
  swingSpreadM: 30,
  swingHeadingDeg: 15,
  jumpM: 1_000,
};

export interface PortPoint {
  portId: number;
  lat: number;
  lon: number;
}

export interface Fix {
  /** Store sequence number (evidence). */
  seq: number;
  t: number;
  lat: number;
  lon: number;
  sog: number | null;
  navStatus: number | null;
  /** True heading (degrees), when reported. */
  heading?: number | null;
}

/** How a vessel behaved during a stop: the box its positions spread over and the range of its headings. */
export interface StopMotion {
  spreadM: number;
  /** Null when no heading was reported. */
  headingRangeDeg: number | null;
}

export interface Stop {
  kind: 'anchorage' | 'berth';
  /** AIS navigation status last reported during the stop (1 at anchor, 5 moored), or null. */
  navStatus: number | null;
  start: number;
  end: number;
  lat: number;
  lon: number;
  /** Spread of positions (m) and range of headings (degrees) during the stop. */
  motion?: StopMotion;
}

export interface PortCall {
  portId: number;
  arrival: number;
  /** Null while the vessel is still in port. */
  departure: number | null;
  stops: Stop[];
  anchorageMs: number;
  berthMs: number;
  firstSeq: number;
  lastSeq: number;
  fixes: number;
  gaps: number;
  confidence: number;
}

/** Nearest port points within a radius: a grid of cells about 5.5 km high. */
export class PortPointIndex {
  private static readonly CELL_DEG = 0.05;
  /** Cells of the grid per block of the coarse occupancy map (1° × 1°): most fixes lie at sea, blocks away from every port. */
  private static readonly CELLS_PER_BLOCK = 20;
  private static readonly BLOCK_ROWS = 180;
  private static readonly BLOCK_COLS = 360;
  private readonly cells = new Map<number, PortPoint[]>();
  private readonly occupiedBlocks = new Uint8Array(PortPointIndex.BLOCK_ROWS * PortPointIndex.BLOCK_COLS);

  constructor(points: readonly PortPoint[]) {
    for (const point of points) {
      const row = Math.floor(point.lat / PortPointIndex.CELL_DEG);
      const col = Math.floor(point.lon / PortPointIndex.CELL_DEG);
      const key = this.key(row, col);
      const cell = this.cells.get(key);
      if (cell) cell.push(point);
      else this.cells.set(key, [point]);
      this.occupiedBlocks[this.block(row, col)] = 1;
    }
  }

  /** The coarse block of a grid cell (columns wrapped round the antimeridian, rows clamped to the poles). */
  private block(row: number, col: number): number {
    const { CELLS_PER_BLOCK, BLOCK_ROWS, BLOCK_COLS } = PortPointIndex;
    const blockRow = Math.min(BLOCK_ROWS - 1, Math.max(0, Math.floor(row / CELLS_PER_BLOCK) + BLOCK_ROWS / 2));
    const blockCol = ((Math.floor(col / CELLS_PER_BLOCK) % BLOCK_COLS) + BLOCK_COLS) % BLOCK_COLS;
    return blockRow * BLOCK_COLS + blockCol;
  }

  /** True when some port point may lie in the cells rows × cols (a block holding a point covers them). */
  private anyPointIn(rowFrom: number, rowTo: number, colFrom: number, colTo: number): boolean {
    const { CELLS_PER_BLOCK } = PortPointIndex;
    for (let row = rowFrom; row <= rowTo + CELLS_PER_BLOCK - 1; row += CELLS_PER_BLOCK) {
      const r = Math.min(row, rowTo);
      for (let col = colFrom; col <= colTo + CELLS_PER_BLOCK - 1; col += CELLS_PER_BLOCK) {
        if (this.occupiedBlocks[this.block(r, Math.min(col, colTo))] === 1) return true;
      }
    }
    return false;
  }

  private key(row: number, col: number): number {
    const cols = Math.round(360 / PortPointIndex.CELL_DEG);
    return row * cols + (((col % cols) + cols) % cols);
  }

  /** Distance in metres to the nearest point of each port within `radiusM`. */
  portsWithin(lat: number, lon: number, radiusM: number): Map<number, number> {
    const size = PortPointIndex.CELL_DEG;
    const row = Math.floor(lat / size);
    const col = Math.floor(lon / size);
    // a cell is narrower east–west away from the equator
    const colSpan = Math.min(40, Math.ceil(radiusM / (111_320 * size * Math.max(0.05, Math.cos((lat * Math.PI) / 180)))));
    const latSpan = radiusM / 111_000;
    const rowSpan = Math.ceil(latSpan / size);
    const out = new Map<number, number>();
    if (!this.anyPointIn(row - rowSpan, row + rowSpan, col - colSpan, col + colSpan)) return out;
    for (let r = row - rowSpan; r <= row + rowSpan; r++) {
      for (let c = col - colSpan; c <= col + colSpan; c++) {
        const points = this.cells.get(this.key(r, c));
        if (points === undefined) continue;
        for (const point of points) {
          if (Math.abs(point.lat - lat) > latSpan) continue;
          const d = distanceM(lat, lon, point.lat, point.lon);
          if (d <= radiusM && d < (out.get(point.portId) ?? Infinity)) out.set(point.portId, d);
        }
      }
    }
    return out;
  }
}

/** What the detector remembers of one vessel between fixes (plain data: it can be stored and restored). */
export interface VesselCallState {
  last: Fix | null;
  call: PortCall | null;
  moving: boolean;
  /** The stop under way in the current call. */
  stop: OpenStop | null;
  /** Stop positions of the current call beyond the entry distance of the port's points (an area they do not know): count as the port's. */
  near?: Array<[number, number]>;
  /** Time of the last fix inside the call's port before the vessel went beyond the exit distance (departure if it stays out). */
  leftAt: number | null;
  /** Another port the vessel entered after leaving the call's port: where the next call begins if the departure stands. */
  pending: { portId: number; arrival: number; seq: number } | null;
}

/**
 * A stop under way: where it began, a sample of its positions (flat lat, lon pairs: every `every`-th
 * report, thinned by half when full, so a stray report cannot make a swing), and its headings relative
 * to the first one (unwrapped).
 */
interface OpenStop {
  start: number;
  lat: number;
  lon: number;
  navStatus: number | null;
  lastT: number;
  sample?: number[];
  every?: number;
  seen?: number;
  firstHeading?: number | null;
  turn?: [number, number];
}

/** Positions kept per stop for its spread. */
const SAMPLE_POSITIONS = 64;

export const emptyCallState = (): VesselCallState => ({ last: null, call: null, moving: true, stop: null, leftAt: null, pending: null });

const KN_PER_MS = 3_600_000 / 1852;

function speedKn(fix: Fix, previous: Fix | null): number | null {
  if (fix.sog !== null) return fix.sog;
  if (!previous || fix.t <= previous.t) return null;
  return (distanceM(previous.lat, previous.lon, fix.lat, fix.lon) / (fix.t - previous.t)) * KN_PER_MS;
}

function openStop(fix: Fix): OpenStop {
  const heading = validHeading(fix.heading);
  return { start: fix.t, lat: fix.lat, lon: fix.lon, navStatus: fix.navStatus, lastT: fix.t, sample: [fix.lat, fix.lon], every: 1, seen: 1, firstHeading: heading, turn: [0, 0] };
}

const validHeading = (h: number | null | undefined) => (h === null || h === undefined || !(h >= 0 && h < 360) ? null : h);

/** Adds one report of a stopped vessel to its stop's box and heading range. */
function extendStop(stop: OpenStop, fix: Fix, params: PortCallParameters): void {
  stop.lastT = fix.t;
  if (fix.navStatus !== null) stop.navStatus = fix.navStatus;
  if (stop.sample && distanceM(stop.lat, stop.lon, fix.lat, fix.lon) <= params.jumpM) {
    stop.seen = (stop.seen ?? 0) + 1;
    if (stop.seen % (stop.every ?? 1) === 0) stop.sample.push(fix.lat, fix.lon);
    if (stop.sample.length >= 2 * SAMPLE_POSITIONS) {
      stop.sample = stop.sample.filter((_, i) => i % 4 < 2);
      stop.every = (stop.every ?? 1) * 2;
    }
  }
  const heading = validHeading(fix.heading);
  if (heading === null) return;
  if (stop.firstHeading === null || stop.firstHeading === undefined) {
    stop.firstHeading = heading;
    stop.turn = [0, 0];
    return;
  }
  const delta = ((heading - stop.firstHeading + 540) % 360) - 180;
  const turn = (stop.turn ??= [0, 0]);
  turn[0] = Math.min(turn[0], delta);
  turn[1] = Math.max(turn[1], delta);
}

const quantile = (sorted: readonly number[], q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))))]!;

function motionOf(stop: OpenStop): StopMotion | undefined {
  if (!stop.sample) return undefined;
  // the box of the middle 90 % of latitudes and longitudes
  const lats = stop.sample.filter((_, i) => i % 2 === 0).sort((a, b) => a - b);
  const lons = stop.sample.filter((_, i) => i % 2 === 1).sort((a, b) => a - b);
  const [s, w, n, e] = [quantile(lats, 0.05), quantile(lons, 0.05), quantile(lats, 0.95), quantile(lons, 0.95)];
  const heading = stop.firstHeading === null || stop.firstHeading === undefined ? null : Math.round(stop.turn![1] - stop.turn![0]);
  return { spreadM: Math.round(distanceM(s, w, n, e)), headingRangeDeg: heading };
}

function stopOf(stop: OpenStop, end: number): Stop {
  const motion = motionOf(stop);
  return { kind: 'berth', navStatus: stop.navStatus, start: stop.start, end, lat: stop.lat, lon: stop.lon, ...(motion ? { motion } : {}) };
}

function closeStop(state: VesselCallState, end: number, params: PortCallParameters): void {
  const { call, stop } = state;
  state.stop = null;
  if (!call || !stop || end - stop.start < params.minStopMs) return;
  call.stops.push(stopOf(stop, end));
}

/** Totals and classification of a call's stops: any berth-by-default stop followed by another stop was a wait. */
/** Where a port's own position is: stops far from it (offshore anchorages) are waits. */
export type PortPositions = ReadonlyMap<number, { lat: number; lon: number }>;

/** A stop's kind by the AIS status, else by how the ship behaved (null: no status and no headings). */
function behaviourKind(navStatus: number | null, motion: StopMotion | undefined, params: PortCallParameters): Stop['kind'] | null {
  if (navStatus === 5) return 'berth';
  if (navStatus === 1) return 'anchorage';
  if (!motion || motion.headingRangeDeg === null) return null;
  return motion.spreadM >= params.swingSpreadM && motion.headingRangeDeg >= params.swingHeadingDeg ? 'anchorage' : 'berth';
}

/**
 * A stop's kind (decision 120): the AIS status where sent; an operator's area kind (a correction
 * outranks inference); the ship's behaviour; the kind of a stored area holding the stop, when learnt
 * from stops there; else the former rules (offshore, or followed by another stop: a wait).
 */
function stopKind(call: PortCall, stop: Stop, isLast: boolean, positions: PortPositions, params: PortCallParameters, areas: PortAreaIndex | null): Stop['kind'] {
  if (stop.navStatus === 5) return 'berth';
  if (stop.navStatus === 1) return 'anchorage';
  const area = areas?.at(stop.lat, stop.lon) ?? null;
  if (area?.provenance === 'operator') return area.kind;
  const byBehaviour = behaviourKind(stop.navStatus, stop.motion, params);
  if (byBehaviour) return byBehaviour;
  if (area?.evidence) return area.kind;
  const port = positions.get(call.portId);
  if (port && distanceM(port.lat, port.lon, stop.lat, stop.lon) > params.offshoreAnchorageM) return 'anchorage';
  return isLast ? 'berth' : 'anchorage';
}

/** Totals and classification of a call's stops: any berth-by-default stop followed by another stop was a wait. */
function settle(call: PortCall, positions: PortPositions, params: PortCallParameters, areas: PortAreaIndex | null): void {
  call.stops.forEach((stop, i) => (stop.kind = stopKind(call, stop, i === call.stops.length - 1, positions, params, areas)));
  call.anchorageMs = call.stops.filter((s) => s.kind === 'anchorage').reduce((sum, s) => sum + (s.end - s.start), 0);
  call.berthMs = call.stops.filter((s) => s.kind === 'berth').reduce((sum, s) => sum + (s.end - s.start), 0);
  // fewer fixes and silences inside the call make it less certain
  call.confidence = Math.round(Math.max(0.3, Math.min(1, 0.5 + call.fixes / 40) - 0.15 * call.gaps) * 100) / 100;
}

export interface PortCallDetector {
  /** Feeds one fix (in time order for the vessel); returns calls that ended with it (a pass through a port area without a stop is no call). */
  push(state: VesselCallState, fix: Fix): PortCall[];
  /** The call under way, as it stands (departure null), for "in port now" questions. */
  current(state: VesselCallState): PortCall | null;
  /** Where the vessel lies now, if stopped in a call: by its status, else its behaviour so far (null without headings). */
  stoppedAs(state: VesselCallState): Stop['kind'] | null;
  /**
   * Where the vessel lay from `from` to `to`, as known now: the kind (status, else behaviour) of the
   * stop of the current call that covers most of that time, the stop under way included. A swing shows
   * only as a stop goes on, so this can know more than `stoppedAs` did at the time.
   */
  stoppedDuring(state: VesselCallState, from: number, to: number): Stop['kind'] | null;
  /** Whether the vessel is still in the stop (of a call) it was in at `t`. */
  stillStoppedSince(state: VesselCallState, t: number): boolean;
}

export function createPortCallDetector(
  index: PortPointIndex,
  params: PortCallParameters = GFW_PORT_CALL_PARAMETERS,
  positions: PortPositions = new Map(),
  /** The stored port areas (null or empty: the points and the on-the-fly rule alone). */
  areaIndex: PortAreaIndex | null = null,
): PortCallDetector {
  const areas = areaIndex && areaIndex.size > 0 ? areaIndex : null;
  /** So far only waiting: the vessel is on its way in from an offshore anchorage, however long the channel. */
  const onlyWaited = (state: VesselCallState) =>
    state.call!.stops.length > 0 && state.call!.stops.every((stop, i) => stopKind(state.call!, stop, i === state.call!.stops.length - 1, positions, params, areas) === 'anchorage');

  /**
   * Further from the port's own position than every stop of the call: the vessel is leaving to sea, not
   * on its way up the channel from an offshore anchorage (false where the port's position is unknown).
   */
  function headingAway(call: PortCall, fix: Fix): boolean {
    const port = positions.get(call.portId);
    if (!port || call.stops.length === 0) return false;
    const fromPort = distanceM(port.lat, port.lon, fix.lat, fix.lon);
    return call.stops.every((stop) => distanceM(port.lat, port.lon, stop.lat, stop.lon) + params.exitM < fromPort);
  }

  /** A fix within the call's port area: counts it, and starts, extends or ends the stop under way. */
  function inside(state: VesselCallState, fix: Fix, kn: number | null, previous: Fix | null): void {
    const call = state.call!;
    if (previous && fix.t - previous.t > params.gapMs) {
      call.gaps++;
      // nothing is known of the vessel through a silence this long: the stop ends where it was last heard (a new one begins if it is still stopped)
      if (state.stop) closeStop(state, state.stop.lastT, params);
    }
    call.fixes++;
    call.lastSeq = fix.seq;
    if (kn !== null && kn < params.stopBelowKn) state.moving = false;
    else if (kn !== null && kn > params.moveAboveKn) state.moving = true;
    if (!state.moving && !state.stop) {
      state.stop = openStop(fix);
      // a stop where the port's points do not reach: its position is the port's while the call lasts
      if (index.portsWithin(fix.lat, fix.lon, params.enterM).get(call.portId) === undefined) (state.near ??= []).push([fix.lat, fix.lon]);
    } else if (!state.moving && state.stop) extendStop(state.stop, fix, params);
    else if (state.moving && state.stop) closeStop(state, fix.t, params);
  }

  /** The nearest port within `nearPortM` (looked up once per cell of about 100 m: stopped vessels ask again and again). */
  const nearCache = new Map<string, number | null>();
  function nearestPort(lat: number, lon: number): number | null {
    const key = `${Math.round(lat * 1000)}:${Math.round(lon * 1000)}`;
    const cached = nearCache.get(key);
    if (cached !== undefined) return cached;
    let nearest: number | null = null;
    let nearestM = Infinity;
    for (const [portId, d] of index.portsWithin(lat, lon, params.nearPortM)) {
      if (d < nearestM) {
        nearest = portId;
        nearestM = d;
      }
    }
    if (nearCache.size >= 100_000) nearCache.clear();
    nearCache.set(key, nearest);
    return nearest;
  }

  /** The nearest port, other than `except`, within the entry distance. */
  function nearestEntered(ports: Map<number, number>, except: number | null): number | null {
    let nearest: number | null = null;
    let nearestM = params.enterM;
    for (const [portId, d] of ports) {
      if (portId !== except && d <= nearestM) {
        nearest = portId;
        nearestM = d;
      }
    }
    return nearest;
  }

  function endCall(state: VesselCallState, departure: number): PortCall {
    const call = state.call!;
    closeStop(state, departure, params);
    call.departure = departure;
    settle(call, positions, params, areas);
    state.call = null;
    state.near = [];
    state.moving = true;
    return call;
  }

  return {
    push(state, fix) {
      const ended: PortCall[] = [];
      const previous = state.last;
      if (previous && fix.t < previous.t) return ended; // out of order for this vessel: ignored
      const ports = index.portsWithin(fix.lat, fix.lon, params.exitM);
      const kn = speedKn(fix, previous);
      // in a stored area of a port: entered (nearer than any point); next to an area of the call's port: not left
      const area = areas?.at(fix.lat, fix.lon) ?? null;
      if (area) ports.set(area.portId, 0);
      // (only once the call has a stop: a vessel that merely passed through an area is not held by it)
      if (areas && state.call && (state.call.stops.length > 0 || state.stop) && !ports.has(state.call.portId) && areas.near(fix.lat, fix.lon, state.call.portId))
        ports.set(state.call.portId, params.exitM);
      // within the exit distance of the call's own stops beyond the port's points: inside its port
      if (state.call && !ports.has(state.call.portId) && state.near?.some(([lat, lon]) => distanceM(lat, lon, fix.lat, fix.lon) <= params.exitM)) ports.set(state.call.portId, params.exitM);

      // a stop beginning in an area of another port than the call's: that port's call (decision 120). A call without a stop yet
      // (the vessel passed through the call port's area on its way) becomes that port's; one with stops ends, and a call there begins
      if (state.call && area && area.portId !== state.call.portId && !state.stop && kn !== null && kn < params.stopBelowKn) {
        if (state.call.stops.length === 0) state.call.portId = area.portId;
        else ports.delete(state.call.portId);
      }

      // stopped beyond the points of the call's port: in an area they do not know, of that port or the nearest other one
      let stoppedNear: number | null = null;
      if (state.call && !ports.has(state.call.portId) && !state.pending && kn !== null && kn < params.stopBelowKn) {
        stoppedNear = area?.portId ?? nearestPort(fix.lat, fix.lon);
        if (stoppedNear === state.call.portId) ports.set(stoppedNear, params.exitM);
        else if (stoppedNear !== null) state.pending = { portId: stoppedNear, arrival: fix.t, seq: fix.seq };
      }

      if (state.call) {
        const call = state.call;
        if (ports.has(call.portId)) {
          state.leftAt = null;
          state.pending = null;
          inside(state, fix, kn, previous);
        } else {
          state.leftAt ??= previous!.t;
          // time outside the port area is neither waiting nor berth time
          if (state.stop) closeStop(state, fix.t, params);
          state.moving = true;
          // stopped near another port (beyond its points): that port's area, before the pending check below drops it
          if (state.pending && stoppedNear === state.pending.portId) ports.set(stoppedNear, params.exitM);
          if (state.pending && !ports.has(state.pending.portId)) state.pending = null;
          const other = nearestEntered(ports, call.portId);
          if (other !== null && !state.pending) state.pending = { portId: other, arrival: fix.t, seq: fix.seq };
          // the departure stands after an hour outside, or at once when the vessel stops in another port
          const stoppedElsewhere = state.pending !== null && kn !== null && kn < params.stopBelowKn;
          const confirmMs = onlyWaited(state) && !headingAway(state.call, fix) ? params.waitingDepartureConfirmMs : params.departureConfirmMs;
          if (stoppedElsewhere || fix.t - state.leftAt >= confirmMs) {
            const departure = state.leftAt;
            state.leftAt = null;
            const call = endCall(state, departure);
            if (call.stops.length > 0) ended.push(call);
          }
        }
      }

      if (!state.call) {
        let enteredPort = nearestEntered(ports, null);
        // stopped near a port, outside the areas its points mark: a call there begins with this stop
        if (enteredPort === null && !state.pending && kn !== null && kn < params.stopBelowKn) {
          enteredPort = nearestPort(fix.lat, fix.lon);
          if (enteredPort !== null) ports.set(enteredPort, params.exitM);
        }
        const start = state.pending ?? (enteredPort === null ? null : { portId: enteredPort, arrival: fix.t, seq: fix.seq });
        state.pending = null;
        if (start && ports.has(start.portId)) {
          state.call = {
            portId: start.portId,
            arrival: start.arrival,
            departure: null,
            stops: [],
            anchorageMs: 0,
            berthMs: 0,
            firstSeq: start.seq,
            lastSeq: start.seq,
            fixes: 0,
            gaps: 0,
            confidence: 0,
          };
          state.moving = true;
          inside(state, fix, kn, null);
        }
      }
      state.last = fix;
      return ended;
    },

    stoppedAs(state) {
      if (!state.call || !state.stop) return null;
      return behaviourKind(state.stop.navStatus, motionOf(state.stop), params);
    },

    stillStoppedSince(state, t) {
      return state.call !== null && state.stop !== null && state.stop.start <= t;
    },

    stoppedDuring(state, from, to) {
      if (!state.call) return null;
      const stops = state.stop ? [...state.call.stops, stopOf(state.stop, state.stop.lastT)] : state.call.stops;
      let best: Stop | null = null;
      let bestOverlap = 0;
      for (const stop of stops) {
        const overlap = Math.min(stop.end, to) - Math.max(stop.start, from);
        if (overlap >= bestOverlap && (overlap > 0 || (from === to && stop.start <= from && from <= stop.end))) {
          best = stop;
          bestOverlap = overlap;
        }
      }
      return best ? behaviourKind(best.navStatus, best.motion, params) : null;
    },

    current(state) {
      if (!state.call) return null;
      const call: PortCall = { ...state.call, stops: state.call.stops.map((stop) => ({ ...stop })) };
      if (state.stop) call.stops.push(stopOf(state.stop, state.stop.lastT));
      settle(call, positions, params, areas);
      return call;
    },
  };
}
