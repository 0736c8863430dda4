import { jsonText, parseJson } from '../store/dialect.js';
import type { PositionRow, VesselRow } from './fleet-repo.js';
import type { VesselState } from './latest-fix.js';
import type { StoredPosition, VesselIdentity } from './types.js';

/** Row mappers between the store's vessels and positions rows and the fleet's live state and events. */

export function stateFromRow(row: VesselRow): VesselState {
  return {
    vslId: row.vsl_id,
    mmsi: Number(row.mmsi),
    imo: row.imo,
    name: row.name,
    callsign: row.callsign,
    shipType: row.ship_type,
    flag: row.flag,
    lengthM: row.length_m,
    beamM: row.beam_m,
    draughtM: row.draught_m,
    destination: row.destination,
    eta: row.eta,
    simulated: row.simulated === 1,
    sources: parseJson<string[]>(row.sources, []),
    firstSeenAt: Number(row.first_seen_at),
    lastSeenAt: Number(row.last_seen_at),
    identityObservedAt: row.identity_observed_at === null ? null : Number(row.identity_observed_at),
    latest:
      row.pos_observed_at === null || row.pos_lat === null || row.pos_lon === null
        ? null
        : {
            observedAt: Number(row.pos_observed_at),
            receivedAt: Number(row.pos_received_at ?? row.pos_observed_at),
            lat: row.pos_lat,
            lon: row.pos_lon,
            sog: row.pos_sog,
            cog: row.pos_cog,
            heading: row.pos_heading,
            navStatus: row.pos_nav_status,
            msgType: row.pos_msg_type,
            source: row.pos_source ?? '',
            simulated: row.pos_simulated === 1,
            qualityFlags: parseJson<string[]>(row.pos_quality_flags, []),
          },
    jumpCandidate: null,
  };
}

export function rowFromState(s: VesselState): VesselRow {
  const p = s.latest;
  return {
    vsl_id: s.vslId,
    mmsi: s.mmsi,
    imo: s.imo,
    name: s.name,
    callsign: s.callsign,
    ship_type: s.shipType,
    flag: s.flag,
    length_m: s.lengthM,
    beam_m: s.beamM,
    draught_m: s.draughtM,
    destination: s.destination,
    eta: s.eta,
    simulated: s.simulated ? 1 : 0,
    sources: jsonText(s.sources),
    first_seen_at: s.firstSeenAt,
    last_seen_at: s.lastSeenAt,
    identity_observed_at: s.identityObservedAt,
    pos_observed_at: p?.observedAt ?? null,
    pos_received_at: p?.receivedAt ?? null,
    pos_lat: p?.lat ?? null,
    pos_lon: p?.lon ?? null,
    pos_sog: p?.sog ?? null,
    pos_cog: p?.cog ?? null,
    pos_heading: p?.heading ?? null,
    pos_nav_status: p?.navStatus ?? null,
    pos_msg_type: p?.msgType ?? null,
    pos_source: p?.source ?? null,
    pos_simulated: p === null ? null : p.simulated ? 1 : 0,
    pos_quality_flags: p === null ? null : jsonText(p.qualityFlags),
  };
}

export function storedFromRow(row: PositionRow, mmsi: number): StoredPosition {
  return storedPosition(Number(row.seq), row.vsl_id, mmsi, Number(row.observed_at), row, parseJson<string[]>(row.quality_flags, []));
}

/** A position as stored from the columns written; `seq`, `vslId` and `observedAt` as the store holds them. */
export function storedPosition(
  seq: number,
  vslId: string,
  mmsi: number,
  observedAt: number,
  row: Omit<PositionRow, 'seq' | 'vsl_id' | 'observed_at' | 'quality_flags'>,
  qualityFlags: string[],
): StoredPosition {
  return {
    seq,
    vslId,
    mmsi,
    observedAt,
    receivedAt: Number(row.received_at),
    lat: row.lat,
    lon: row.lon,
    sog: row.sog,
    cog: row.cog,
    heading: row.heading,
    navStatus: row.nav_status,
    msgType: row.msg_type,
    source: row.source,
    simulated: row.simulated === 1,
    usable: row.usable === 1,
    qualityFlags,
  };
}

export function identityOf(s: VesselState): VesselIdentity {
  const { latest: _latest, jumpCandidate: _jump, ...identity } = s;
  return { ...identity, sources: [...identity.sources] };
}
