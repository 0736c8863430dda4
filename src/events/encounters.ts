import { distanceM } from '../geo/distance.js';
import type { PortPointIndex } from './port-calls.js';

/**
 * Encounters (possible ship-to-ship transfers) from the whole fleet's positions, incrementally
 * (docs/decisions/020-encounters.md). Global Fishing Watch's published parameters are the defaults:
 * two vessels within 500 m of each other for at least 2 hours, both slower than 2 kn, at least 10 km
 * from any port or anchorage point and at sea: setting `open_sea`. Nearer a port (docs/decisions/077),
 * or on land as the 1:10m coastline charts it (a river, a bayou: decision 115), two
 * vessels within 100 m of each other for at least an hour, both slower than 2 kn, meet at an
 * `anchorage` when one of them at least lies at anchor (swinging, or AIS status 1) for most of the
 * time together, or the stop it lay in then is known to be at anchor when the encounter completes
 * (decision 115) — a bunker barge or a lightering tanker alongside an anchored ship — and otherwise in
 * `port` (ships moored side by side at a quay, tugs and barges in their fleets: listed only when asked for). Vessels are found
 * near each other through a grid of cells about 1 km across holding each vessel's latest fix, so a
 * fix costs a look at its neighbours only, never a pass over the fleet.
 */
export const ENCOUNTER_SETTINGS = ['open_sea', 'anchorage', 'port'] as const;
export type EncounterSetting = (typeof ENCOUNTER_SETTINGS)[number];
export interface EncounterParameters {
  maxDistanceM: number;
  minDurationMs: number;
  maxSpeedKn: number;
  minPortDistanceM: number;
  /** A pair not seen close for this long has parted (its encounter, if long enough, is complete). */
  partedAfterMs: number;
  /** A vessel's latest fix older than this is no longer compared with others. */
  staleAfterMs: number;
  /** Within `minPortDistanceM` of a port: closer than this… */
  nearPortMaxDistanceM: number;
  /** …for at least this long. */
  nearPortMinDurationMs: number;
  /**
   * A near-port encounter that would be `port` waits, after the pair parted, while either vessel is
   * still in the stop it lay in (its swing may show later), at most this long (decision 115).
   */
  nearPortSettleMs: number;
}

export const GFW_ENCOUNTER_PARAMETERS: EncounterParameters = {
  maxDistanceM: 500,
  minDurationMs: 2 * 3_600_000,
  maxSpeedKn: 2,
  minPortDistanceM: 10_000,
  partedAfterMs: 30 * 60_000,
  staleAfterMs: 30 * 60_000,
  nearPortMaxDistanceM: 100,
  nearPortMinDurationMs: 3_600_000,
  nearPortSettleMs: 12 * 3_600_000,
};

/**
 * Where a vessel lay between two times, as the port-call detector sees it now (null: not stopped in a
 * port, or not known). Asked again when an encounter completes: a swing shows only as a stop goes on.
 */
export type StopKindOf = (vesselId: string, from: number, to: number) => 'anchorage' | 'berth' | null;
/** Whether the vessel is still in the stop of a port call it was in at `t`: what is known of that stop may change. */
export type StillStopped = (vesselId: string, t: number) => boolean;

export interface EncounterFix {
  vesselId: string;
  seq: number;
  t: number;
  lat: number;
  lon: number;
  sog: number | null;
}

export interface Encounter {
  /** The two vessels, in id order. */
  vessels: [string, string];
  start: number;
  end: number;
  medianDistanceM: number;
  lat: number;
  lon: number;
  observations: number;
  firstSeq: number;
  lastSeq: number;
  confidence: number;
  setting: EncounterSetting;
}

interface PairState {
  start: number;
  lastClose: number;
  distances: number[];
  latSum: number;
  lonSum: number;
  firstSeq: number;
  lastSeq: number;
  /** Observations within `minPortDistanceM` of a port, and those with either vessel at anchor. */
  nearPort?: number;
  anchored?: number;
}

/** Plain data: stored and restored through JSON, detection carries on. */
export interface EncounterState {
  latest: Record<string, EncounterFix>;
  pairs: Record<string, PairState>;
  /** Time of the newest fix seen. */
  now: number;
}

export const emptyEncounterState = (): EncounterState => ({ latest: {}, pairs: {}, now: 0 });

const CELL_DEG = 0.01;
/** A grid cell as one small integer (rows of latitude and columns of longitude, offset to be positive): no key string per fix. */
const cellKey = (row: number, col: number) => (row + 9_001) * 36_003 + (col + 18_001);
const cellOf = (lat: number, lon: number) => cellKey(Math.floor(lat / CELL_DEG), Math.floor(lon / CELL_DEG));

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export interface EncounterDetector {
  /** Feeds one fix (fleet-wide, roughly in time order); returns encounters completed by then. */
  push(state: EncounterState, fix: EncounterFix): Encounter[];
  /** Completes every pair that has parted by `now` (end of a replay: pass Infinity). */
  flush(state: EncounterState, now: number): Encounter[];
  /** Grid cells held: only those with a vessel in them now (a cell left empty is dropped, or a day's track would keep them all). */
  gridCells(): number;
}

/** What the encounter detector asks of the rest of the world: the port-call detector's stops, and where land is. */
export interface EncounterContext {
  kindOf?: StopKindOf;
  stillStopped?: StillStopped;
  /** True on land as the coastline charts it (rivers, bayous and inner harbours too narrow for it): never the open sea. */
  onLand?: (lat: number, lon: number) => boolean;
}

export function createEncounterDetector(ports: PortPointIndex, params: EncounterParameters = GFW_ENCOUNTER_PARAMETERS, context: EncounterContext = {}): EncounterDetector {
  const { kindOf = () => null, stillStopped = () => false, onLand = () => false } = context;
  // The grid is derived from state.latest and rebuilt when a different state object comes in.
  let gridFor: EncounterState | null = null;
  const grid = new Map<number, Set<string>>();
  const cellOfVessel = new Map<string, number>();

  function place(vesselId: string, cell: number | null): void {
    const old = cellOfVessel.get(vesselId);
    if (old === cell) return;
    const left = old === undefined ? undefined : grid.get(old);
    if (left) {
      left.delete(vesselId);
      if (left.size === 0) grid.delete(old!);
    }
    if (cell === null) {
      cellOfVessel.delete(vesselId);
      return;
    }
    cellOfVessel.set(vesselId, cell);
    const set = grid.get(cell);
    if (set) set.add(vesselId);
    else grid.set(cell, new Set([vesselId]));
  }

  function attach(state: EncounterState): void {
    if (gridFor === state) return;
    grid.clear();
    cellOfVessel.clear();
    for (const fix of Object.values(state.latest)) place(fix.vesselId, cellOf(fix.lat, fix.lon));
    gridFor = state;
  }

  const isNearPort = (pair: PairState) => (pair.nearPort ?? 0) * 2 > pair.distances.length;
  const atAnchor = (a: string, b: string, pair: PairState) =>
    (pair.anchored ?? 0) * 2 > pair.distances.length || kindOf(a, pair.start, pair.lastClose) === 'anchorage' || kindOf(b, pair.start, pair.lastClose) === 'anchorage';

  /** A parted near-port pair not (yet) known to be at an anchorage, one of whose vessels has not left its stop: wait. */
  function unsettled(key: string, pair: PairState, now: number): boolean {
    if (!isNearPort(pair) || now - pair.lastClose > params.nearPortSettleMs || pair.lastClose - pair.start < params.nearPortMinDurationMs) return false;
    const [a, b] = key.split('|') as [string, string];
    return !atAnchor(a, b, pair) && (stillStopped(a, pair.lastClose) || stillStopped(b, pair.lastClose));
  }

  function complete(key: string, pair: PairState): Encounter | null {
    const n = pair.distances.length;
    const nearPort = isNearPort(pair);
    if (pair.lastClose - pair.start < (nearPort ? params.nearPortMinDurationMs : params.minDurationMs)) return null;
    const [a, b] = key.split('|') as [string, string];
    return {
      vessels: [a, b],
      start: pair.start,
      end: pair.lastClose,
      medianDistanceM: Math.round(median(pair.distances)),
      lat: Math.round((pair.latSum / n) * 1e5) / 1e5,
      lon: Math.round((pair.lonSum / n) * 1e5) / 1e5,
      observations: n,
      firstSeq: pair.firstSeq,
      lastSeq: pair.lastSeq,
      // more observations per hour together make it surer; one every 10 minutes or better is 1
      confidence: Math.round(Math.min(1, 0.4 + (n / ((pair.lastClose - pair.start) / 600_000 + 1)) * 0.6) * 100) / 100,
      setting: !nearPort ? 'open_sea' : atAnchor(a, b, pair) ? 'anchorage' : 'port',
    };
  }

  function flushParted(state: EncounterState, now: number): Encounter[] {
    const done: Encounter[] = [];
    for (const [key, pair] of Object.entries(state.pairs)) {
      if (now - pair.lastClose <= params.partedAfterMs || unsettled(key, pair, now)) continue;
      delete state.pairs[key];
      const encounter = complete(key, pair);
      if (encounter) done.push(encounter);
    }
    return done;
  }

  return {
    push(state, fix) {
      attach(state);
      const done: Encounter[] = [];
      const previousNow = state.now;
      state.now = Math.max(state.now, fix.t);
      state.latest[fix.vesselId] = fix;
      place(fix.vesselId, cellOf(fix.lat, fix.lon));

      const slow = fix.sog !== null && fix.sog < params.maxSpeedKn;
      const nearPortPoint = slow && ports.portsWithin(fix.lat, fix.lon, params.minPortDistanceM).size > 0;
      if (slow) {
        // asked once per fix, and only for a pair the port rules leave at sea
        let inland: boolean | undefined;
        const row = Math.floor(fix.lat / CELL_DEG);
        const col = Math.floor(fix.lon / CELL_DEG);
        for (let r = row - 1; r <= row + 1; r++) {
          for (let c = col - 1; c <= col + 1; c++) {
            for (const otherId of grid.get(cellKey(r, c)) ?? []) {
              if (otherId === fix.vesselId) continue;
              const other = state.latest[otherId]!;
              if (fix.t - other.t > params.staleAfterMs || other.sog === null || other.sog >= params.maxSpeedKn) continue;
              const d = distanceM(fix.lat, fix.lon, other.lat, other.lon);
              if (d > Math.max(params.maxDistanceM, params.nearPortMaxDistanceM)) continue;
              // on land as charted (a river, a bayou) is not the open sea either (decision 115)
              const nearPort = nearPortPoint || (inland ??= onLand(fix.lat, fix.lon));
              if (d > (nearPort ? params.nearPortMaxDistanceM : params.maxDistanceM)) continue;
              const near = nearPort ? 1 : 0;
              const anchored = nearPort && (kindOf(fix.vesselId, fix.t, fix.t) === 'anchorage' || kindOf(otherId, fix.t, fix.t) === 'anchorage') ? 1 : 0;
              const key = fix.vesselId < otherId ? `${fix.vesselId}|${otherId}` : `${otherId}|${fix.vesselId}`;
              const pair = state.pairs[key];
              if (pair && fix.t - pair.lastClose <= params.partedAfterMs) {
                pair.lastClose = Math.max(pair.lastClose, fix.t);
                pair.distances.push(Math.round(d));
                pair.latSum += fix.lat;
                pair.lonSum += fix.lon;
                pair.lastSeq = fix.seq;
                pair.nearPort = (pair.nearPort ?? 0) + near;
                pair.anchored = (pair.anchored ?? 0) + anchored;
              } else {
                if (pair) {
                  const encounter = complete(key, pair);
                  if (encounter) done.push(encounter);
                }
                state.pairs[key] = { start: fix.t, lastClose: fix.t, distances: [Math.round(d)], latSum: fix.lat, lonSum: fix.lon, firstSeq: fix.seq, lastSeq: fix.seq, nearPort: near, anchored };
              }
            }
          }
        }
      }
      // sweep parted pairs and stale vessels once per ten minutes of fleet time
      if (Math.floor(state.now / 600_000) === Math.floor(previousNow / 600_000)) return done;
      for (const [id, latest] of Object.entries(state.latest)) {
        if (state.now - latest.t > params.staleAfterMs) {
          delete state.latest[id];
          place(id, null);
        }
      }
      return [...done, ...flushParted(state, state.now)];
    },

    gridCells: () => grid.size,

    flush(state, now) {
      attach(state);
      return flushParted(state, now);
    },
  };
}
