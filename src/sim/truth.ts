import type { DemoFleet } from './fleet.js';
import { GFW_GAP_PARAMETERS, GFW_LOITERING_PARAMETERS } from '../events/loitering-gaps.js';
import { METRES_PER_NM } from '../geo/distance.js';
import { landIndex } from '../geo/land.js';
import { stateIn, type Segment } from './agenda.js';

/**
 * What the simulator knows it did: berth visits (with the wait at anchor before them) and STS meetings
 * (a shuttle alongside its area's storage tanker), loitering (slow at sea, far from shore) and AIS gaps
 * (silent segments). For measuring the event detectors against (docs/decisions/019, 020, 114); never
 * served by the API.
 */
export interface TruthPortCall {
  vessel: number;
  /** The simulator port's UN/LOCODE. */
  locode: string;
  start: number;
  end: number;
  waitMs: number;
}

export interface TruthMeeting {
  shuttle: number;
  storage: number;
  start: number;
  end: number;
}

/** A stretch of one vessel's time; `labelled`: done by a labelled vessel (a loiterer, a vessel going dark). */
export interface TruthInterval {
  vessel: number;
  start: number;
  end: number;
  labelled: boolean;
}

export interface SimSample {
  vessel: number;
  t: number;
  lat: number;
  lon: number;
  sog: number;
  status: number;
}

export interface SimulatedWeek {
  /** Positions as a receiver would see them: every 6 minutes under way, every 30 minutes stationary. */
  samples: SimSample[];
  portCalls: TruthPortCall[];
  meetings: TruthMeeting[];
  /**
   * Slow segments (under 2 kn: at anchor, alongside, drifting) lying 20 nm or more from shore, joined
   * when consecutive, lasting 4 h or more: every labelled loiterer's stop at sea, and STS drifts offshore.
   */
  loitering: TruthInterval[];
  /** Silent segments of 6 h or more inside the window: when a labelled vessel stopped transmitting and started again. */
  gaps: TruthInterval[];
}

/** Samples every vessel of `fleet` from `from` to `to` and reads the truth off its agenda. */
export function simulateWithTruth(fleet: DemoFleet, from: number, to: number): SimulatedWeek {
  const samples: SimSample[] = [];
  const portCalls: TruthPortCall[] = [];
  const meetings: TruthMeeting[] = [];
  const loitering: TruthInterval[] = [];
  const gaps: TruthInterval[] = [];
  const storageOf = new Map<string, number>();
  for (const v of fleet.vessels) if (v.kind === 'sts_storage' && v.stsArea) storageOf.set(v.stsArea, v.index);
  for (const vessel of fleet.vessels) {
    const segments: Segment[] = [];
    for (let t = from; t < to;) {
      const segment = fleet.segmentOf(vessel.index, t);
      const state = fleet.stateOf(vessel.index, t);
      if (!segment.silent) samples.push({ vessel: vessel.index, t, lat: state.lat, lon: state.lon, sog: state.sog, status: state.status });
      if (segments[segments.length - 1] !== segment) segments.push(segment);
      t += state.moving ? 360_000 : 1_800_000;
    }
    segments.forEach((segment, i) => {
      const clip = { start: Math.max(from, segment.start), end: Math.min(to, segment.end) };
      if (segment.kind === 'moored') {
        // anchored → sailing in → moored: the wait belongs to this berth visit
        const anchored = segments[i - 2]?.kind === 'anchored' && segments[i - 2]!.voyage.destination === segment.voyage.destination ? segments[i - 2]! : null;
        portCalls.push({
          vessel: vessel.index,
          locode: segment.voyage.destination,
          start: Math.max(from, (anchored ?? segment).start),
          end: clip.end,
          waitMs: anchored ? anchored.end - anchored.start : 0,
        });
      } else if (segment.kind === 'circling' && vessel.kind === 'sts_shuttle' && vessel.stsArea && storageOf.has(vessel.stsArea)) {
        meetings.push({ shuttle: vessel.index, storage: storageOf.get(vessel.stsArea)!, ...clip });
      }
    });
    const labelled = vessel.kind === 'loiterer' || vessel.kind === 'dark';
    let slow: TruthInterval | null = null;
    const endSlow = () => {
      if (slow && slow.end - slow.start >= GFW_LOITERING_PARAMETERS.minDurationMs) loitering.push(slow);
      slow = null;
    };
    for (const segment of segments) {
      // a silence is seen as a gap when the vessel transmitted before it and after it within the window
      if (segment.silent && segment.start > from && segment.end < to && segment.end - segment.start >= GFW_GAP_PARAMETERS.minGapMs)
        gaps.push({ vessel: vessel.index, start: segment.start, end: segment.end, labelled });
      if (slowOffshore(segment)) {
        const clip = { start: Math.max(from, segment.start), end: Math.min(to, segment.end) };
        if (slow && slow.end === segment.start) slow.end = clip.end;
        else {
          endSlow();
          slow = { vessel: vessel.index, ...clip, labelled };
        }
      } else endSlow();
    }
    endSlow();
  }
  samples.sort((a, b) => a.t - b.t || a.vessel - b.vessel);
  return { samples, portCalls, meetings, loitering, gaps };
}

/** Under 2 kn throughout, and every point of it 20 nm or more from Natural Earth shore. */
function slowOffshore(segment: Segment): boolean {
  const kmOut = (GFW_LOITERING_PARAMETERS.minShoreNm * METRES_PER_NM) / 1000;
  const land = landIndex();
  const offshore = (lat: number, lon: number) => !land.isLand(lon, lat) && land.coastDistanceKm(lon, lat, kmOut) === Infinity;
  switch (segment.kind) {
    case 'moored':
    case 'anchored':
      return offshore(segment.at.lat, segment.at.lon);
    case 'sailing':
      return false;
    case 'circling': {
      const { center, radiusM } = segment;
      // a circle's points lie within its radius of the centre: the centre one radius further out is offshore for all of them
      const slow = stateIn(segment, segment.start, [0.5, 0.5, 0.5]).sog < GFW_LOITERING_PARAMETERS.maxSpeedKn;
      return slow && !land.isLand(center.lon, center.lat) && land.coastDistanceKm(center.lon, center.lat, kmOut + radiusM / 1000) === Infinity;
    }
  }
}
