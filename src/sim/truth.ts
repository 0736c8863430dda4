import type { DemoFleet } from './fleet.js';
import type { Segment } from './agenda.js';

/**
 * What the simulator knows it did: berth visits (with the wait at anchor before them) and STS meetings
 * (a shuttle alongside its area's storage tanker). For measuring the event detectors against
 * (docs/decisions/019, 020); never served by the API.
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
}

/** Samples every vessel of `fleet` from `from` to `to` and reads the truth off its agenda. */
export function simulateWithTruth(fleet: DemoFleet, from: number, to: number): SimulatedWeek {
  const samples: SimSample[] = [];
  const portCalls: TruthPortCall[] = [];
  const meetings: TruthMeeting[] = [];
  const storageOf = new Map<string, number>();
  for (const v of fleet.vessels) if (v.kind === 'sts_storage' && v.stsArea) storageOf.set(v.stsArea, v.index);
  for (const vessel of fleet.vessels) {
    const segments: Segment[] = [];
    for (let t = from; t < to;) {
      const segment = fleet.segmentOf(vessel.index, t);
      const state = fleet.stateOf(vessel.index, t);
      samples.push({ vessel: vessel.index, t, lat: state.lat, lon: state.lon, sog: state.sog, status: state.status });
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
  }
  samples.sort((a, b) => a.t - b.t || a.vessel - b.vessel);
  return { samples, portCalls, meetings };
}
