import type { VesselIdentity } from '../../fleet/types.js';

/**
 * Confidence of vessel data, a number in [0, 1] (docs/decisions/011-confidence-and-freshness.md).
 * Deterministic and explainable: it follows from what was received, not from a model.
 */

/** An AIS position with no quality flag: self-reported GNSS, not verified independently. */
const UNFLAGGED_POSITION = 0.95;
/** The ceiling each quality flag puts on a position's confidence. */
const FLAG_CEILING: Readonly<Record<string, number>> = {
  invalid_coordinates: 0,
  impossible_jump: 0.2,
  future_timestamp: 0.3,
  coarse_position: 0.6,
};

/** Confidence of one position from its quality flags (simulated_source labels provenance and does not lower it). */
export function positionConfidence(flags: readonly string[]): number {
  let confidence = UNFLAGGED_POSITION;
  for (const flag of flags) confidence = Math.min(confidence, FLAG_CEILING[flag] ?? confidence);
  return confidence;
}

/**
 * Confidence of a vessel identity merged from its AIS reports: an MMSI seen in position reports only is
 * 0.4; a static report's name (+0.2), a valid IMO (+0.2) and a callsign (+0.1) add to it, and reports
 * from two or more feeds corroborate it (+0.1).
 */
export function identityConfidence(v: Pick<VesselIdentity, 'imo' | 'name' | 'callsign' | 'sources'>): number {
  let confidence = 0.4;
  if (v.name !== null) confidence += 0.2;
  if (v.imo !== null) confidence += 0.2;
  if (v.callsign !== null) confidence += 0.1;
  if (new Set(v.sources).size >= 2) confidence += 0.1;
  return Math.round(Math.min(1, confidence) * 100) / 100;
}

/** The envelope's confidence for several records: the lowest, or null when there is none. */
export function lowestConfidence(values: ReadonlyArray<number | null | undefined>): number | null {
  let lowest: number | null = null;
  for (const value of values) if (typeof value === 'number' && (lowest === null || value < lowest)) lowest = value;
  return lowest;
}
