import { DAY, HOUR, iso, type Clock } from '../../platform/clock.js';
import type { AgentPrincipal } from '../../access/principals.js';
import type { FleetReads } from '../../fleet/fleet-reads.js';
import { storedFromRow, type VesselState } from '../../fleet/fleet-service.js';
import type { CursorCodec } from '../../http/cursor-codec.js';
import { AppError } from '../../platform/errors.js';
import { newId } from '../../access/credentials.js';
import type { AuditService } from '../audit/audit-service.js';
import type { EventsService } from '../events/events-service.js';
import { correctedIdentity, correctionList, OPERATOR_CORRECTED_FLAG, type Corrections } from '../kit/override-fields.js';
import type { PortsService } from '../ports/ports-service.js';
import type { VesselsService } from '../vessels/vessels-service.js';
import { LIVE_SCOPE } from '../vessels/entitlements.js';
import { parseVesselRef, type VesselRef } from '../kit/vessel-ids.js';
import { parseTime } from '../vessels/vessel-query.js';
import { ageSeconds, positionView, trackPoint } from '../vessels/vessel-views.js';
import type { VesselServiceGrantRow, VesselServicesRepo } from './vessel-services-repo.js';

export const VESSEL_SERVICE_LIMITS = {
  /** The snapshot's recent events look back this far. */
  snapshotEventsMs: 30 * DAY,
  snapshotEventsMax: 20,
  /** Longest history range per call. */
  historyRangeMs: 7 * DAY,
  historyDefaultMs: 24 * HOUR,
  historyEventsMax: 200,
  grantDaysMax: 365,
} as const;

const HISTORY_CURSOR = /^vh:(\d{1,16})$/;
const SIMULATED_FLAG = 'simulated_source';
type Source = 'operator_grant' | 'snapshot_trial';

/** The refusal without an entitlement: the documented production state (core-interface 4.2), never data. */
function notEntitled(vessel: VesselState, what: string, trialNote: string): AppError {
  return new AppError(
    'operator_configuration_required',
    `${what} of ${vessel.vslId} is not covered by an entitlement of yours. Vessel services are sold only after an immutable quote and a confirmed settlement, and the production snapshot status on this deployment is operator_configuration_required; the operator can grant a vessel (ask with POST /v1/harbor/operator-requests, category service_request).${trialNote}`,
  );
}

const matches = (g: { vsl_id: string | null; imo: number | null; mmsi: number | null }, v: VesselState) =>
  g.vsl_id !== null ? g.vsl_id === v.vslId : (g.imo !== null && g.imo === v.imo) || (g.mmsi !== null && g.mmsi === v.mmsi);

/**
 * The vessel services (docs/decisions/045): a snapshot (identity, last position, voyage data, recent events)
 * and a history (positions and events over a range) of a vessel the caller is entitled to, by an
 * operator grant (both) or the harbor snapshot trial (the snapshot only), checked per vessel and expiring.
 */
export function createVesselServicesService(deps: {
  repo: VesselServicesRepo;
  clock: Clock;
  cursors: CursorCodec;
  audit: AuditService;
  vessels: VesselsService;
  events: EventsService;
  ports: PortsService;
  fleetReads: FleetReads;
  corrections: (vslId: string) => Corrections | undefined;
}) {
  const { repo, clock } = deps;

  async function resolve(ref: VesselRef): Promise<{ vessel: VesselState; fix: VesselState['latest'] }> {
    // the entitlement, once given, covers live data of its vessel: read it as a vessels:live holder would
    const seen = await deps.vessels.visible(ref, { live: true });
    return { vessel: seen.vessel, fix: seen.fix };
  }

  async function entitlement(agent: AgentPrincipal, vessel: VesselState, trialCovers: boolean): Promise<{ source: Source; expires_at: string | null }> {
    const now = clock.now();
    const grant = (await repo.active(agent.agentId, now)).find((g) => matches(g, vessel));
    if (grant) return { source: 'operator_grant', expires_at: iso(Number(grant.expires_at)) };
    const scopes = new Set([...agent.scopes].filter((s) => s !== LIVE_SCOPE));
    const access = await deps.vessels.access({ agentId: agent.agentId, scopes });
    const trial = !access.live ? access.trial : null;
    if (trial && matches(trial, vessel)) {
      if (trialCovers) return { source: 'snapshot_trial', expires_at: null };
      throw notEntitled(vessel, 'The history', ' Your snapshot trial covers the snapshot of this vessel only, not its history.');
    }
    throw notEntitled(vessel, trialCovers ? 'The snapshot' : 'The history', '');
  }

  function identity(v: VesselState) {
    const corrections = deps.corrections(v.vslId);
    const c = correctedIdentity(v, corrections);
    return {
      record: {
        vsl_id: c.vslId,
        imo: c.imo,
        mmsi: c.mmsi,
        name: c.name,
        callsign: c.callsign,
        flag: c.flag,
        ship_type: c.shipType,
        length_m: c.lengthM,
        beam_m: c.beamM,
        corrections: correctionList(corrections),
      },
      corrected: Boolean(corrections && corrections.size),
    };
  }

  async function timeline(vslId: string, from: number, to: number, limit: number) {
    const events = deps.events;
    const ports = deps.ports;
    const [{ calls, transits }, encounters] = await Promise.all([events.reads.vesselTimeline(vslId, from, to, limit), events.reads.encounters({ from, to, vslId, limit })]);
    const callPorts = calls.map((c) => ports.byId(Number(c.port_id)));
    return {
      /** A call's port is served with an operator correction (its name here; docs/feedback.md). */
      portCorrected: callPorts.some((p) => p?.corrections?.length),
      port_calls: calls.map((c, i) => ({
        port_id: Number(c.port_id),
        port_name: callPorts[i]?.name ?? null,
        arrival: iso(Number(c.arrival)),
        departure: c.departure === null ? null : iso(Number(c.departure)),
      })),
      transits: transits.map((t) => ({ zone: t.zone, direction: t.direction, entered_at: iso(Number(t.entered_at)), exited_at: iso(Number(t.exited_at)) })),
      encounters: encounters.map((e) => ({
        other_vsl_id: e.vsl_a === vslId ? e.vsl_b : e.vsl_a,
        start_at: iso(Number(e.start_at)),
        end_at: iso(Number(e.end_at)),
        lat: e.lat,
        lon: e.lon,
        zone: e.zone,
      })),
    };
  }

  const flags = (v: VesselState, corrected: boolean) => [...(v.simulated ? [SIMULATED_FLAG] : []), ...(corrected ? [OPERATOR_CORRECTED_FLAG] : [])];

  return {
    async snapshot(agent: AgentPrincipal, ref: VesselRef) {
      const { vessel, fix } = await resolve(ref);
      const entitled = await entitlement(agent, vessel, true);
      const now = clock.now();
      const { record, corrected } = identity(vessel);
      const { portCorrected, ...recent } = await timeline(vessel.vslId, now - VESSEL_SERVICE_LIMITS.snapshotEventsMs, now, VESSEL_SERVICE_LIMITS.snapshotEventsMax);
      const data = {
        vessel: record,
        position: fix ? positionView(fix, now) : null,
        voyage: { destination: vessel.destination, eta: vessel.eta, draught_m: vessel.draughtM, nav_status: fix?.navStatus ?? null },
        recent_events: { since: iso(now - VESSEL_SERVICE_LIMITS.snapshotEventsMs), ...recent },
        entitlement: entitled,
        generated_at: iso(now),
      };
      return { data, freshnessSeconds: fix ? ageSeconds(now, fix.observedAt) : ageSeconds(now, vessel.lastSeenAt), qualityFlags: flags(vessel, corrected || portCorrected) };
    },

    async history(agent: AgentPrincipal, ref: VesselRef, query: { from?: string; to?: string; limit: number; cursor?: string }) {
      const { vessel } = await resolve(ref);
      const entitled = await entitlement(agent, vessel, false);
      const now = clock.now();
      const to = query.to !== undefined ? parseTime(query.to, 'query.to') : now;
      const from = query.from !== undefined ? parseTime(query.from, 'query.from') : to - VESSEL_SERVICE_LIMITS.historyDefaultMs;
      if (from >= to) throw new AppError('invalid_range', 'from must be before to', { field: 'query.from' });
      if (to - from > VESSEL_SERVICE_LIMITS.historyRangeMs) throw new AppError('invalid_range', 'the range is at most 7 days; page through longer periods', { field: 'query.from' });
      const after = query.cursor !== undefined ? Number(deps.cursors.read(query.cursor, HISTORY_CURSOR, 'query.cursor')[1]) : null;
      const rows = await deps.fleetReads.track(vessel.vslId, { from, to, after }, false, query.limit + 1);
      const page = rows.slice(0, query.limit);
      const more = rows.length > query.limit;
      const { record, corrected } = identity(vessel);
      const { portCorrected, ...events } = await timeline(vessel.vslId, from, to, VESSEL_SERVICE_LIMITS.historyEventsMax);
      const data = {
        vessel: record,
        from: iso(from),
        to: iso(to),
        positions: page.map((r) => trackPoint(storedFromRow(r, vessel.mmsi))),
        next_cursor: more ? deps.cursors.seal(`vh:${Number(page[page.length - 1]!.observed_at)}`) : null,
        events,
        entitlement: entitled,
      };
      return { data, freshnessSeconds: page.length ? ageSeconds(now, Number(page[page.length - 1]!.observed_at)) : 0, qualityFlags: flags(vessel, corrected || portCorrected) };
    },

    async grant(agentId: string, vesselText: string, days: number, actor: { kind: 'operator' | 'cli'; id?: string }): Promise<VesselServiceGrantRow> {
      if (!Number.isInteger(days) || days < 1 || days > VESSEL_SERVICE_LIMITS.grantDaysMax)
        throw new AppError('invalid_request', `--days must be a whole number from 1 to ${VESSEL_SERVICE_LIMITS.grantDaysMax}`);
      const ref = parseVesselRef(vesselText, 'vessel');
      let vessel: VesselState | null = null;
      try {
        vessel = (await resolve(ref)).vessel;
      } catch (err) {
        // an IMO or MMSI not observed yet may be granted ahead; a vsl_id must name an observed vessel
        if (!(err instanceof AppError) || err.code !== 'vessel_not_found' || ref.kind === 'vsl_id') throw err;
      }
      const now = clock.now();
      const row: VesselServiceGrantRow = {
        grant_id: newId('vsg_'),
        agent_id: agentId,
        vessel_ref: ref.kind === 'imo' ? `IMO:${ref.imo}` : ref.kind === 'mmsi' ? `MMSI:${ref.mmsi}` : ref.vslId,
        imo: ref.kind === 'imo' ? ref.imo : (vessel?.imo ?? null),
        mmsi: ref.kind === 'mmsi' ? ref.mmsi : (vessel?.mmsi ?? null),
        vsl_id: vessel?.vslId ?? null,
        granted_at: now,
        expires_at: now + days * DAY,
        revoked_at: null,
      };
      await repo.insert(row);
      await deps.audit.record({ actor, action: 'services.vessel.grant', target: agentId, details: { vessel: row.vessel_ref, vsl_id: row.vsl_id, expires_at: row.expires_at } });
      return row;
    },

    async revoke(agentId: string, vesselText: string | undefined, actor: { kind: 'operator' | 'cli'; id?: string }): Promise<number> {
      let match: { vslId: string | null; imo: number | null; mmsi: number | null } | null = null;
      if (vesselText !== undefined) {
        const ref = parseVesselRef(vesselText, 'vessel');
        match = { vslId: ref.kind === 'vsl_id' ? ref.vslId : null, imo: ref.kind === 'imo' ? ref.imo : null, mmsi: ref.kind === 'mmsi' ? ref.mmsi : null };
      }
      const revoked = await repo.revoke(agentId, match, clock.now());
      if (revoked) await deps.audit.record({ actor, action: 'services.vessel.revoke', target: agentId, details: { vessel: vesselText ?? 'all', grants: revoked } });
      return revoked;
    },

    list: (filter: { agentId?: string; limit: number }) => repo.list(filter),
  };
}
export type VesselServicesService = ReturnType<typeof createVesselServicesService>;
