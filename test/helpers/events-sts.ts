import { MINUTE } from '../../src/platform/clock.js';
import type { PositionReport } from '../../src/fleet/types.js';
import { destinationPoint } from '../../src/geo/distance.js';
import { position } from './fleet.js';

export interface MeetingShape {
  lat: number;
  lon: number;
  start: number;
  /** From the first to the last close fix. */
  minutes: number;
  distanceM?: number;
  sogKn?: number;
}

/**
 * Two vessels drifting east side by side, one fix a minute each (b one second after a): together for
 * exactly `minutes`, `distanceM` apart (default 300 m), at `sogKn` (default 0.5 kn).
 */
export function meetingReports(mmsiA: number, mmsiB: number, shape: MeetingShape): PositionReport[] {
  const sog = shape.sogKn ?? 0.5;
  const reports: PositionReport[] = [];
  for (let k = 0; k <= shape.minutes; k++) {
    const t = shape.start + k * MINUTE;
    const a = destinationPoint(shape.lat, shape.lon, 90, (k / 60) * sog * 1852);
    const b = destinationPoint(a.lat, a.lon, 0, shape.distanceM ?? 300);
    reports.push(position(mmsiA, t - 1000, a.lat, a.lon, { sog, navStatus: 0 }), position(mmsiB, t, b.lat, b.lon, { sog, navStatus: 0 }));
  }
  return reports;
}
