import { MINUTE } from '../platform/clock.js';
import { distanceNm } from '../geo/distance.js';
import type { JumpCandidate, LatestFix } from './latest-fix.js';
import type { PositionReport } from './types.js';

/** Implied speed above which a fix is an impossible jump from the previous one. */
export const MAX_PLAUSIBLE_SPEED_KN = 80;
/** Jumps shorter than this are receiver jitter, whatever the implied speed over a second or two. */
const MIN_JUMP_NM = 0.1;
/** Observation times further ahead of the clock than this are flagged future_timestamp. */
const MAX_CLOCK_SKEW_MS = 5 * MINUTE;

export const QUALITY_FLAGS = ['invalid_coordinates', 'impossible_jump', 'future_timestamp', 'coarse_position', 'simulated_source'] as const;
export type QualityFlag = (typeof QUALITY_FLAGS)[number];
/** Flags that keep a position from becoming the vessel's latest (it is still stored). */
const UNUSABLE: ReadonlySet<string> = new Set(['invalid_coordinates', 'impossible_jump', 'future_timestamp']);

export const isUsable = (flags: readonly string[]): boolean => !flags.some((flag) => UNUSABLE.has(flag));

export interface QualityVerdict {
  flags: QualityFlag[];
  /** Set when this report is an unconfirmed impossible jump: the place a next fix may confirm. */
  jumpCandidate: JumpCandidate | null;
}

function impossibleJump(lat: number, lon: number, at: number, report: PositionReport): boolean {
  const nm = distanceNm(lat, lon, report.lat, report.lon);
  if (nm < MIN_JUMP_NM) return false;
  const hours = (report.observedAt - at) / 3_600_000;
  return nm / hours > MAX_PLAUSIBLE_SPEED_KN;
}

/** The quality flags of a report, given the vessel's latest fix and pending jump candidate. Pure. */
export function checkQuality(vessel: { latest: LatestFix | null; jumpCandidate: JumpCandidate | null }, report: PositionReport, now: number): QualityVerdict {
  const flags: QualityFlag[] = [];
  let jumpCandidate: JumpCandidate | null = null;
  const { lat, lon } = report;
  const validCoordinates = Math.abs(lat) <= 90 && Math.abs(lon) <= 180 && !(lat === 0 && lon === 0);
  if (!validCoordinates) flags.push('invalid_coordinates');
  if (report.observedAt > now + MAX_CLOCK_SKEW_MS) flags.push('future_timestamp');
  const latest = vessel.latest;
  if (validCoordinates && latest !== null && report.observedAt > latest.observedAt) {
    if (impossibleJump(latest.lat, latest.lon, latest.observedAt, report)) {
      // A vessel that really moved (the previous fix was the bad one) is accepted once a second
      // fix confirms the new place.
      const candidate = vessel.jumpCandidate;
      const confirmed = candidate !== null && report.observedAt > candidate.at && !impossibleJump(candidate.lat, candidate.lon, candidate.at, report);
      if (!confirmed) {
        flags.push('impossible_jump');
        jumpCandidate = { lat, lon, at: report.observedAt };
      }
    }
  }
  if (report.msgType === 27) flags.push('coarse_position');
  if (report.simulated) flags.push('simulated_source');
  return { flags, jumpCandidate };
}
