import type { FixMotion, VesselIdentity } from './types.js';

/** The latest usable fix of a vessel. */
export interface LatestFix extends FixMotion {
  observedAt: number;
  receivedAt: number;
  source: string;
  simulated: boolean;
  qualityFlags: string[];
}

/** Where an impossible jump led: accepted as the new place once a second fix confirms it. */
export interface JumpCandidate {
  lat: number;
  lon: number;
  at: number;
}

/** Live state of one vessel: identity, latest usable fix, and the fix an impossible jump led to. */
export interface VesselState extends VesselIdentity {
  latest: LatestFix | null;
  jumpCandidate: JumpCandidate | null;
}

/** What a fix is made of: a position report, a stored position or a bus event all carry these. */
export type FixSource = Omit<LatestFix, 'qualityFlags'>;

/**
 * Makes a usable position the vessel's latest fix when it is newer than the one it has; true when it
 * did. The one place a latest fix is built from an observation (local or from another process).
 */
export function offerLatestFix(state: VesselState, position: FixSource, qualityFlags: string[]): boolean {
  if (state.latest !== null && position.observedAt <= state.latest.observedAt) return false;
  state.latest = {
    observedAt: position.observedAt,
    receivedAt: position.receivedAt,
    lat: position.lat,
    lon: position.lon,
    sog: position.sog,
    cog: position.cog,
    heading: position.heading,
    navStatus: position.navStatus,
    msgType: position.msgType,
    source: position.source,
    simulated: position.simulated,
    qualityFlags,
  };
  return true;
}
