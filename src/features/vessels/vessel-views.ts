import { NAVIGATION_STATUS, shipTypeText } from '../../ais/legends.js';
import { iso } from '../../platform/clock.js';
import type { LatestFix, VesselState } from '../../fleet/fleet-service.js';
import { shipCategory } from '../../fleet/ship-types.js';
import type { StoredPosition } from '../../fleet/types.js';
import { DELAYED_POSITION_FLAG, type Presence } from './entitlements.js';
import { identityConfidence, positionConfidence } from './confidence.js';

/** How vessels and positions are shaped in the answers of the vessel endpoints. */

/** A position as the caller may see it: the fix, and whether it is the delayed one. */
export interface SeenFix {
  fix: LatestFix | null;
  delayed: boolean;
}

/** A position in the shape the keyed endpoints return. */
export interface PositionView {
  lat: number;
  lon: number;
  sog_kn: number | null;
  cog_deg: number | null;
  heading_deg: number | null;
  nav_status: number | null;
  nav_status_text: string | null;
  observed_at: string;
  age_seconds: number;
  source: string;
  simulated: boolean;
  quality_flags: string[];
  /** 0-1 from the quality flags (docs/decisions/011). */
  confidence: number;
}

const SIMULATED = 'simulated_source';
export const ageSeconds = (now: number, at: number) => Math.max(0, Math.floor((now - at) / 1000));
/** freshness_seconds of several records: the age of the oldest one returned (0 when none). */
export const oldestAge = (ages: ReadonlyArray<number | null | undefined>) => ages.reduce<number>((max, age) => (typeof age === 'number' && age > max ? age : max), 0);
const navText = (status: number | null) => (status === null ? null : (NAVIGATION_STATUS[status] ?? null));

export const isSimulated = (v: VesselState) => v.simulated || (v.latest?.simulated ?? false);
/** The envelope quality flags of an answer. */
export const flagsFor = (simulated: boolean, delayed = false) => [...(simulated ? [SIMULATED] : []), ...(delayed ? [DELAYED_POSITION_FLAG] : [])];

/** The identity fields every vessel answer starts with. */
const identity = (v: VesselState) => ({ vsl_id: v.vslId, mmsi: v.mmsi, imo: v.imo, name: v.name, callsign: v.callsign, flag: v.flag });

/** Where a position is and how the vessel moves there. */
const kinematics = (p: Pick<StoredPosition, 'lat' | 'lon' | 'sog' | 'cog' | 'heading' | 'navStatus'>) => ({
  lat: p.lat,
  lon: p.lon,
  sog_kn: p.sog,
  cog_deg: p.cog,
  heading_deg: p.heading,
  nav_status: p.navStatus,
});

export function positionView(p: LatestFix, now: number, delayed = false): PositionView {
  // written out rather than spread from kinematics(): this object is built on every hot read
  return {
    lat: p.lat,
    lon: p.lon,
    sog_kn: p.sog,
    cog_deg: p.cog,
    heading_deg: p.heading,
    nav_status: p.navStatus,
    nav_status_text: navText(p.navStatus),
    observed_at: iso(p.observedAt),
    age_seconds: ageSeconds(now, p.observedAt),
    source: p.source,
    simulated: p.simulated,
    quality_flags: delayed ? [...p.qualityFlags, DELAYED_POSITION_FLAG] : p.qualityFlags,
    confidence: positionConfidence(p.qualityFlags),
  };
}

/** A vessel's identity and presence; the presence as the caller may see it (presenceFor). */
export function vesselRecord(v: VesselState, presence: Presence) {
  return {
    vsl_id: v.vslId,
    mmsi: v.mmsi,
    imo: v.imo,
    name: v.name,
    callsign: v.callsign,
    flag: v.flag,
    ship_type: v.shipType,
    ship_type_text: v.shipType === null ? null : shipTypeText(v.shipType),
    category: shipCategory(v.shipType),
    length_m: v.lengthM,
    beam_m: v.beamM,
    draught_m: presence.draughtM,
    destination: presence.destination,
    eta: presence.eta,
    simulated: v.simulated,
    sources: [...v.sources],
    first_seen_at: presence.firstSeenAt === null ? null : iso(presence.firstSeenAt),
    last_seen_at: presence.lastSeenAt === null ? null : iso(presence.lastSeenAt),
    confidence: identityConfidence(v),
  };
}

export function lastPositionData(v: VesselState, seen: SeenFix, now: number) {
  return {
    vsl_id: v.vslId,
    mmsi: v.mmsi,
    imo: v.imo,
    name: v.name,
    simulated: v.simulated,
    position: seen.fix ? positionView(seen.fix, now, seen.delayed) : null,
  };
}

export function trackPoint(p: StoredPosition) {
  return {
    observed_at: iso(p.observedAt),
    ...kinematics(p),
    source: p.source,
    simulated: p.simulated,
    quality_flags: p.qualityFlags,
    confidence: positionConfidence(p.qualityFlags),
  };
}

/** A search hit's position: lat/lon, observed_at, age_seconds (plus quality_flags when delayed). */
export function searchPosition(seen: SeenFix, now: number) {
  if (!seen.fix) return null;
  const flags = seen.delayed ? [...seen.fix.qualityFlags, DELAYED_POSITION_FLAG] : seen.fix.qualityFlags;
  return { lat: seen.fix.lat, lon: seen.fix.lon, observed_at: iso(seen.fix.observedAt), age_seconds: ageSeconds(now, seen.fix.observedAt), quality_flags: flags };
}

/** A search hit: identity, category and the visible position. */
export function searchItem(v: VesselState, seen: SeenFix, now: number) {
  return {
    ...identity(v),
    ship_type: v.shipType,
    category: shipCategory(v.shipType),
    simulated: isSimulated(v),
    latest_position: searchPosition(seen, now),
    confidence: identityConfidence(v),
  };
}

/** Identity only, for the preview endpoints. */
export function previewIdentity(v: VesselState, simulated = v.simulated) {
  return {
    ...identity(v),
    category: shipCategory(v.shipType),
    simulated,
  };
}
