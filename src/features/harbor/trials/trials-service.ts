import { iso, DAY, HOUR, type Clock } from '../../../platform/clock.js';
import { AppError, type ErrorCode } from '../../../platform/errors.js';
import type { FleetService, VesselState } from '../../../fleet/fleet-service.js';
import type { AgentsService } from '../../agents/agents-service.js';
import type { AuditService } from '../../audit/audit-service.js';
import { agentLock, type TransactionRunner } from '../../../store/transaction.js';
import { parseVesselRef, type VesselRef } from '../../kit/vessel-ids.js';
import { HARBOR_LIMITS } from '../../kit/harbor-contract.js';
import type { TrialRow, TrialsRepo } from './trials-repo.js';
import { identityConfidence, lowestConfidence, positionConfidence } from '../../vessels/confidence.js';

/** Failed trial calls tolerated per hour before trial_error_rate_limited. */
export const TRIAL_FAILURES_PER_HOUR = 10;
/** Ages that decide data_state: live up to 10 minutes, recent up to 6 hours, stale beyond. */
const LIVE_MS = 10 * 60_000;
const RECENT_MS = 6 * HOUR;
export const TRIAL_ATTRIBUTION = 'Vessel data: Bosun, from AIS radio messages (snapshot trial; not for navigation).';

export interface TrialQuery {
  imo?: string;
  mmsi?: string;
  /** Names that would act for another owner or tenant: always refused. */
  ownerOverride: string | null;
  /** A request for raw data (track, history, raw messages): refused. */
  rawRequested: string | null;
}

function refLabel(ref: VesselRef): string {
  return ref.kind === 'imo' ? `IMO:${ref.imo}` : ref.kind === 'mmsi' ? `MMSI:${ref.mmsi}` : ref.vslId;
}

/**
 * The vessel snapshot trial (harbor-interface 4.8): the operator grants snapshot:read and one
 * canonical vessel per agent for 7 days; the agent reads that vessel's current snapshot from the
 * fleet state. No credits, no tracking, no other vessel, no owner-wide access.
 */
export function createTrialsService(deps: { repo: TrialsRepo; clock: Clock; fleet: FleetService; agents: AgentsService; audit: AuditService; transaction: TransactionRunner }) {
  const { repo, clock, fleet } = deps;

  async function lookup(ref: VesselRef): Promise<VesselState | undefined> {
    const known = ref.kind === 'imo' ? fleet.byImoNumber(ref.imo) : ref.kind === 'mmsi' ? fleet.byMmsiNumber(ref.mmsi) : fleet.byVesselId(ref.vslId);
    return known ?? (await fleet.loadVessel(ref.kind === 'imo' ? { imo: ref.imo } : ref.kind === 'mmsi' ? { mmsi: ref.mmsi } : { vslId: ref.vslId }));
  }

  /** The same canonical vessel: same identifier, or both resolve to the same vsl_id. */
  function sameVessel(trial: TrialRow, ref: VesselRef, vessel: VesselState | undefined): boolean {
    if (ref.kind === 'imo' && trial.imo !== null) return trial.imo === ref.imo;
    if (ref.kind === 'mmsi' && trial.mmsi !== null) return trial.mmsi === ref.mmsi;
    if (!vessel) return false;
    if (trial.vsl_id !== null) return trial.vsl_id === vessel.vslId;
    return (trial.imo !== null && vessel.imo === trial.imo) || (trial.mmsi !== null && vessel.mmsi === trial.mmsi);
  }

  function refuseFailures(failures: { count: number; oldest: number | null }, now: number): void {
    if (failures.count < TRIAL_FAILURES_PER_HOUR) return;
    const retry = Math.max(1, Math.ceil(((failures.oldest ?? now) + HOUR - now) / 1000));
    throw new AppError('trial_error_rate_limited', `${TRIAL_FAILURES_PER_HOUR} failed trial calls in the last hour; retry in ${retry} s`, { headers: { 'retry-after': String(retry) } });
  }

  /**
   * Records a failed call, counted again under the agent's lock so concurrent failures cannot all
   * slip under the hourly allowance; successful calls never take the lock.
   */
  async function fail(agentId: string, code: ErrorCode, message: string, field?: string): Promise<never> {
    await deps.transaction(agentLock(agentId), async (trx) => {
      const now = clock.now();
      refuseFailures(await repo.failuresSince(agentId, now - HOUR, trx), now);
      await repo.recordFailure(agentId, code, now, trx);
    });
    throw new AppError(code, message, field ? { field } : {});
  }

  return {
    async grant(agentId: string, vesselText: string, actor: { kind: 'operator' | 'cli'; id?: string }) {
      const ref = parseVesselRef(vesselText, 'vessel');
      const vessel = await lookup(ref);
      if (ref.kind === 'vsl_id' && !vessel) throw new AppError('vessel_not_found', `no vessel ${ref.vslId} has been observed`);
      const now = clock.now();
      const scope = await deps.agents.grantScope(agentId, 'snapshot:read', actor);
      const row: TrialRow = {
        agent_id: agentId,
        vessel_ref: refLabel(ref),
        imo: ref.kind === 'imo' ? ref.imo : (vessel?.imo ?? null),
        mmsi: ref.kind === 'mmsi' ? ref.mmsi : (vessel?.mmsi ?? null),
        vsl_id: vessel?.vslId ?? null,
        granted_at: now,
        expires_at: now + HARBOR_LIMITS.trialDays * DAY,
        revoked_at: null,
      };
      await repo.upsert(row);
      await deps.audit.record({ actor, action: 'harbor.snapshot_trial.grant', target: agentId, details: { vessel: row.vessel_ref, expires_at: row.expires_at } });
      return { row, scopeExpiresAt: scope.expires_at };
    },

    async revoke(agentId: string, actor: { kind: 'operator' | 'cli'; id?: string }) {
      const revoked = await repo.revoke(agentId, clock.now());
      if (revoked) {
        await deps.agents.revokeScope(agentId, 'snapshot:read', actor);
        await deps.audit.record({ actor, action: 'harbor.snapshot_trial.revoke', target: agentId });
      }
      return revoked;
    },

    list: (limit: number) => repo.list(limit),

    async snapshot(agentId: string, query: TrialQuery) {
      const now = clock.now();
      refuseFailures(await repo.failuresSince(agentId, now - HOUR), now);
      if (query.ownerOverride) {
        await fail(agentId, 'owner_override_forbidden', `${query.ownerOverride} is not accepted: a trial reads as its own agent only`, `query.${query.ownerOverride}`);
      }
      if (query.rawRequested) {
        await fail(agentId, 'raw_vessel_data_forbidden', 'the trial returns one snapshot; raw messages, tracks and history are not part of it', `query.${query.rawRequested}`);
      }
      const given = (['imo', 'mmsi'] as const).filter((k) => query[k] !== undefined);
      if (given.length !== 1) await fail(agentId, 'invalid_vessel_id', 'give exactly one of imo or mmsi', 'query.imo');
      const key = given[0]!;
      let ref: VesselRef;
      try {
        ref = parseVesselRef(query[key]!, `query.${key}`, key);
      } catch (err) {
        return fail(agentId, 'invalid_vessel_id', (err as Error).message, `query.${key}`);
      }
      const trial = await repo.find(agentId);
      if (!trial || trial.revoked_at !== null || trial.expires_at <= now) {
        return fail(
          agentId,
          'trial_not_enabled',
          trial && trial.expires_at <= now
            ? `your snapshot trial ended at ${iso(trial.expires_at)}`
            : 'no snapshot trial vessel is granted to you; ask with an operator request of category access_request',
        );
      }
      const vessel = await lookup(ref);
      if (!sameVessel(trial, ref, vessel)) {
        return fail(agentId, 'trial_vessel_not_allowed', `your trial covers ${trial.vessel_ref} only`);
      }
      if (fleet.vesselCount === 0) throw new AppError('trial_snapshot_unavailable', 'no vessel data has been received yet; try again later');
      if (!vessel) return fail(agentId, 'vessel_not_found', `${refLabel(ref)} has not been observed`);
      const fix = vessel.latest;
      if (!fix) throw new AppError('trial_snapshot_unavailable', `${refLabel(ref)} has no position yet; try again later`);
      const age = Math.max(0, now - fix.observedAt);
      const flags = [...new Set([...fix.qualityFlags, ...(fix.simulated || vessel.simulated ? ['simulated_source'] : [])])];
      return {
        data: {
          vessel: { vsl_id: vessel.vslId, imo: vessel.imo, mmsi: vessel.mmsi, name: vessel.name, callsign: vessel.callsign, flag: vessel.flag, ship_type: vessel.shipType },
          position: { lat: fix.lat, lon: fix.lon, sog_kn: fix.sog, cog_deg: fix.cog, heading_deg: fix.heading, nav_status: fix.navStatus },
          observed_at: iso(fix.observedAt),
          generated_at: iso(now),
          age_seconds: Math.floor(age / 1000),
          data_state: (age <= LIVE_MS ? 'live' : age <= RECENT_MS ? 'recent' : 'stale') as 'live' | 'recent' | 'stale',
          quality_flags: flags,
          source: { kind: 'ais' as const, feed: fix.source, simulated: fix.simulated },
          attribution: TRIAL_ATTRIBUTION,
          trial: { vessel: trial.vessel_ref, expires_at: iso(trial.expires_at) },
        },
        freshnessSeconds: Math.floor(age / 1000),
        confidence: lowestConfidence([identityConfidence(vessel), positionConfidence(fix.qualityFlags)]),
        qualityFlags: flags,
      };
    },

    enforceRetention: () => repo.deleteFailuresBefore(clock.now() - HOUR),
  };
}
export type TrialsService = ReturnType<typeof createTrialsService>;
