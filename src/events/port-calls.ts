import { distanceM } from '../geo/distance.js';

/**
 * Port calls detected from one vessel's positions, incrementally (docs/decisions/019-port-calls.md).
 * Global Fishing Watch's published parameters are the defaults: a visit begins within 3 km of one of
 * a port's points (its reference position or an anchorage point) and ends beyond 4 km of all of
 * them; a vessel is stopped below 0.2 kn and moving again above 0.5 kn.
 *
 * Within a call, a stop followed by another stop is waiting (at anchor); the last stop is the berth,
 * unless AIS navigation status says "at anchor" (1) or "moored" (5), which then decides.
 */
export interface PortCallParameters {
  enterM: number;
  exitM: number;
  stopBelowKn: number;
  moveAboveKn: number;
  /** Stops shorter than this are pauses in traffic, not anchorage or berth time. */
  minStopMs: number;
  /** A silence longer than this inside a call is recorded (and lowers its confidence). */
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
}

export const GFW_PORT_CALL_PARAMETERS: PortCallParameters = {
  enterM: 3_000,
  exitM: 4_000,
  stopBelowKn: 0.2,
  moveAboveKn: 0.5,
  minStopMs: 15 * 60_000,
  gapMs: 6 * 3_600_000,
  departureConfirmMs: 3_600_000,
  waitingDepartureConfirmMs: 12 * 3_600_000,
  offshoreAnchorageM: 15_000,
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
}

export interface Stop {
  kind: 'anchorage' | 'berth';
  /** AIS navigation status last reported during the stop (1 at anchor, 5 moored), or null. */
  navStatus: number | null;
  start: number;
  end: number;
  lat: number;
  lon: number;
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
  private readonly cells = new Map<number, PortPoint[]>();

  constructor(points: readonly PortPoint[]) {
    for (const point of points) {
      const key = this.key(Math.floor(point.lat / PortPointIndex.CELL_DEG), Math.floor(point.lon / PortPointIndex.CELL_DEG));
      const cell = this.cells.get(key);
      if (cell) cell.push(point);
      else this.cells.set(key, [point]);
    }
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
    for (let r = row - rowSpan; r <= row + rowSpan; r++) {
      for (let c = col - colSpan; c <= col + colSpan; c++) {
        for (const point of this.cells.get(this.key(r, c)) ?? []) {
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
  stop: { start: number; lat: number; lon: number; navStatus: number | null; lastT: number } | null;
  /** Time of the last fix inside the call's port before the vessel went beyond the exit distance (departure if it stays out). */
  leftAt: number | null;
  /** Another port the vessel entered after leaving the call's port: where the next call begins if the departure stands. */
  pending: { portId: number; arrival: number; seq: number } | null;
}

export const emptyCallState = (): VesselCallState => ({ last: null, call: null, moving: true, stop: null, leftAt: null, pending: null });

const KN_PER_MS = 3_600_000 / 1852;

function speedKn(fix: Fix, previous: Fix | null): number | null {
  if (fix.sog !== null) return fix.sog;
  if (!previous || fix.t <= previous.t) return null;
  return (distanceM(previous.lat, previous.lon, fix.lat, fix.lon) / (fix.t - previous.t)) * KN_PER_MS;
}

function closeStop(state: VesselCallState, end: number, params: PortCallParameters): void {
  const { call, stop } = state;
  state.stop = null;
  if (!call || !stop || end - stop.start < params.minStopMs) return;
  call.stops.push({ kind: 'berth', navStatus: stop.navStatus, start: stop.start, end, lat: stop.lat, lon: stop.lon });
}

/** Totals and classification of a call's stops: any berth-by-default stop followed by another stop was a wait. */
/** Where a port's own position is: stops far from it (offshore anchorages) are waits. */
export type PortPositions = ReadonlyMap<number, { lat: number; lon: number }>;

function stopKind(call: PortCall, stop: Stop, isLast: boolean, positions: PortPositions, params: PortCallParameters): Stop['kind'] {
  if (stop.navStatus === 5) return 'berth';
  if (stop.navStatus === 1) return 'anchorage';
  const port = positions.get(call.portId);
  if (port && distanceM(port.lat, port.lon, stop.lat, stop.lon) > params.offshoreAnchorageM) return 'anchorage';
  return isLast ? 'berth' : 'anchorage';
}

/** Totals and classification of a call's stops: any berth-by-default stop followed by another stop was a wait. */
function settle(call: PortCall, positions: PortPositions, params: PortCallParameters): void {
  call.stops.forEach((stop, i) => (stop.kind = stopKind(call, stop, i === call.stops.length - 1, positions, params)));
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
}

export function createPortCallDetector(index: PortPointIndex, params: PortCallParameters = GFW_PORT_CALL_PARAMETERS, positions: PortPositions = new Map()): PortCallDetector {
  /** So far only waiting: the vessel is on its way in from an offshore anchorage, however long the channel. */
  const onlyWaited = (state: VesselCallState) =>
    state.call!.stops.length > 0 && state.call!.stops.every((stop, i) => stopKind(state.call!, stop, i === state.call!.stops.length - 1, positions, params) === 'anchorage');

  /** A fix within the call's port area: counts it, and starts, extends or ends the stop under way. */
  function inside(state: VesselCallState, fix: Fix, kn: number | null, previous: Fix | null): void {
    const call = state.call!;
    if (previous && fix.t - previous.t > params.gapMs) call.gaps++;
    call.fixes++;
    call.lastSeq = fix.seq;
    if (kn !== null && kn < params.stopBelowKn) state.moving = false;
    else if (kn !== null && kn > params.moveAboveKn) state.moving = true;
    if (!state.moving && !state.stop) state.stop = { start: fix.t, lat: fix.lat, lon: fix.lon, navStatus: fix.navStatus, lastT: fix.t };
    else if (!state.moving && state.stop) {
      state.stop.lastT = fix.t;
      if (fix.navStatus !== null) state.stop.navStatus = fix.navStatus;
    } else if (state.moving && state.stop) closeStop(state, fix.t, params);
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
    settle(call, positions, params);
    state.call = null;
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
          if (state.pending && !ports.has(state.pending.portId)) state.pending = null;
          const other = nearestEntered(ports, call.portId);
          if (other !== null && !state.pending) state.pending = { portId: other, arrival: fix.t, seq: fix.seq };
          // the departure stands after an hour outside, or at once when the vessel stops in another port
          const stoppedElsewhere = state.pending !== null && kn !== null && kn < params.stopBelowKn;
          const confirmMs = onlyWaited(state) ? params.waitingDepartureConfirmMs : params.departureConfirmMs;
          if (stoppedElsewhere || fix.t - state.leftAt >= confirmMs) {
            const departure = state.leftAt;
            state.leftAt = null;
            const call = endCall(state, departure);
            if (call.stops.length > 0) ended.push(call);
          }
        }
      }

      if (!state.call) {
        const enteredPort = nearestEntered(ports, null);
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

    current(state) {
      if (!state.call) return null;
      const call: PortCall = { ...state.call, stops: state.call.stops.map((stop) => ({ ...stop })) };
      if (state.stop) call.stops.push({ kind: 'berth', navStatus: state.stop.navStatus, start: state.stop.start, end: state.stop.lastT, lat: state.stop.lat, lon: state.stop.lon });
      settle(call, positions, params);
      return call;
    },
  };
}
