import { SECOND } from '../../platform/clock.js';
import type { VesselState } from '../../fleet/fleet-service.js';
import type { VoyageChange, VoyageField } from '../../fleet/fleet-reads.js';
import { AppError } from '../../platform/errors.js';
import type { AgentPrincipal } from '../../access/principals.js';
import { PREVIEW } from '../kit/preview-constants.js';

/**
 * The live vessel data entitlement (docs/decisions/007-live-vessel-data-entitlement.md).
 *
 * Positions younger than the preview delay, position history (/v1/vessels/{vsl_id}/positions) and
 * the updates stream (/v1/vessels/updates) are live vessel data. An agent reads them only with:
 * - the operator-granted scope vessels:live (CLI `bosun agents grant <id> vessels:live`, or an
 *   approved operator request of category access_request naming it), for every vessel; or
 * - an active harbor snapshot trial (scope snapshot:read plus the one-vessel grant, neither expired
 *   nor revoked), for point reads of that one vessel only.
 * Everyone else gets identity and delayed positions (the newest at least DELAY_SECONDS old) from
 * search, lookup, last_position and watchlist, and entitlement_required from positions and updates.
 * The rule does not look at the source: simulated (demo fleet) data is gated like real data.
 */
export const LIVE_SCOPE = 'vessels:live';
/** A position served under the delay carries this quality flag (and so does the envelope). */
export const DELAYED_POSITION_FLAG = 'delayed_position';
/** Without the entitlement no position younger than this is served. */
export const DELAY_SECONDS = PREVIEW.positionDelaySeconds;
const TRIAL_SCOPE = 'snapshot:read';

/** The one vessel of an active snapshot trial, as the trial grant recorded it. */
export interface TrialVessel {
  vessel_ref: string;
  vsl_id: string | null;
  imo: number | null;
  mmsi: number | null;
}

/** What the caller may read: everything live, or delayed positions except for its trial vessel. */
export type VesselAccess = { live: true } | { live: false; trial: TrialVessel | null };

export interface TrialRecord extends TrialVessel {
  expires_at: number;
  revoked_at: number | null;
}

/**
 * Decides access from the principal, which already carries its unexpired scopes: no store round trip
 * unless the caller holds snapshot:read, when its trial record is read to learn the vessel.
 */
export async function vesselAccess(agent: Pick<AgentPrincipal, 'agentId' | 'scopes'>, findTrial: (agentId: string) => Promise<TrialRecord | undefined>, now: number): Promise<VesselAccess> {
  if (agent.scopes.has(LIVE_SCOPE)) return { live: true };
  if (!agent.scopes.has(TRIAL_SCOPE)) return { live: false, trial: null };
  const trial = await findTrial(agent.agentId);
  if (!trial || trial.revoked_at !== null || trial.expires_at <= now) return { live: false, trial: null };
  return { live: false, trial: { vessel_ref: trial.vessel_ref, vsl_id: trial.vsl_id, imo: trial.imo, mmsi: trial.mmsi } };
}

/** Whether live data of this vessel may be served: always with vessels:live, its trial vessel otherwise. */
export function liveFor(access: VesselAccess, v: Pick<VesselState, 'vslId' | 'imo' | 'mmsi'>): boolean {
  if (access.live) return true;
  const t = access.trial;
  if (t === null) return false;
  // The vessel the trial resolved to when granted; the granted identifier when it was not yet observed.
  if (t.vsl_id !== null) return t.vsl_id === v.vslId;
  return (t.imo !== null && t.imo === v.imo) || (t.mmsi !== null && t.mmsi === v.mmsi);
}

/** The newest instant a position served under the delay may have been observed at. */
export const delayCutoff = (now: number) => now - DELAY_SECONDS * SECOND;

const HOW_TO_GET = `ask for it with POST /v1/harbor/operator-requests (category access_request, requested_scopes ["${LIVE_SCOPE}"])`;

/** The refusal of /positions and /updates without the entitlement. */
export function entitlementRequired(access: VesselAccess, what: string): AppError {
  const trial =
    !access.live && access.trial !== null
      ? ` Your snapshot trial covers point reads (lookup, last_position, search, watchlist) of ${access.trial.vessel_ref} only, not history or the updates stream.`
      : '';
  return new AppError(
    'entitlement_required',
    `${what} is live vessel data and needs the entitlement ${LIVE_SCOPE}, which the operator grants: ${HOW_TO_GET}. Without it, search, lookup, last_position and watchlist serve positions at least ${DELAY_SECONDS} s old.${trial}`,
  );
}

/** One sentence for the route descriptions of the four point reads. */
export const DELAYED_READ_HELP = `Entitlement: positions are live only for keys holding ${LIVE_SCOPE} (operator-granted; ${HOW_TO_GET}) and, for its one vessel, an active snapshot trial; any other key gets identity and delayed positions, the newest at least ${DELAY_SECONDS} s (14 h) old, each flagged ${DELAYED_POSITION_FLAG} (the envelope too) with observed_at and age_seconds, for every source, simulated included.`;
/** One sentence for the route descriptions of positions and updates. */
export const LIVE_ONLY_HELP = `Live vessel data: needs the operator-granted entitlement ${LIVE_SCOPE} (${HOW_TO_GET}); any other key, a snapshot-trial key included, is refused with entitlement_required (403), whatever the source, simulated included.`;

/** The quality flag of an answer whose voyage fields (destination, ETA, draught) are withheld under the delay. */
export const VOYAGE_WITHHELD_FLAG = 'voyage_withheld';

/** When a vessel was heard and what it reported of its voyage, as a caller may see them. */
export interface Presence {
  firstSeenAt: number | null;
  lastSeenAt: number | null;
  draughtM: number | null;
  destination: string | null;
  eta: string | null;
  voyageWithheld: boolean;
}

type PresenceSource = Pick<VesselState, 'firstSeenAt' | 'lastSeenAt' | 'identityObservedAt' | 'draughtM' | 'destination' | 'eta'>;

/** Whether presenceFor needs the vessel's voyage changes after the cutoff (read from the store). */
export const needsVoyageChanges = (v: PresenceSource, live: boolean, now: number) => !live && v.identityObservedAt !== null && v.identityObservedAt > delayCutoff(now);

/**
 * Live presence under the delay (docs/decisions/109): "heard 5 s ago, bound for MXVER, draught 12.1 m"
 * is live data as much as the position. Without live access the times served are the newest ones at
 * least the delay old (null when the vessel was first heard within it), and the voyage fields are
 * the ones in effect at the cutoff: the current value unless it changed after the cutoff, else the
 * value it replaced (`changesAfterCutoff`, oldest first). A vessel first heard within the delay had
 * no voyage at the cutoff: its fields are withheld.
 */
export function presenceFor(v: PresenceSource, live: boolean, servedFixAt: number | null, now: number, changesAfterCutoff: readonly VoyageChange[] = []): Presence {
  const current = { draughtM: v.draughtM, destination: v.destination, eta: v.eta };
  if (live) return { firstSeenAt: v.firstSeenAt, lastSeenAt: v.lastSeenAt, ...current, voyageWithheld: false };
  const cutoff = delayCutoff(now);
  const heard = [servedFixAt, v.identityObservedAt, v.lastSeenAt].filter((t): t is number => t !== null && t <= cutoff);
  const times = { firstSeenAt: v.firstSeenAt <= cutoff ? v.firstSeenAt : null, lastSeenAt: heard.length === 0 ? null : Math.max(...heard) };
  const hasVoyage = v.draughtM !== null || v.destination !== null || v.eta !== null;
  if (times.firstSeenAt === null) return { ...times, draughtM: null, destination: null, eta: null, voyageWithheld: hasVoyage };
  const atCutoff = (field: VoyageField) => changesAfterCutoff.find((c) => c.field === field && c.changedAt > cutoff);
  const destination = atCutoff('destination');
  const eta = atCutoff('eta');
  const draught = atCutoff('draught_m');
  return {
    ...times,
    destination: destination ? destination.oldValue : current.destination,
    eta: eta ? eta.oldValue : current.eta,
    draughtM: draught ? (draught.oldValue === null ? null : Number(draught.oldValue)) : current.draughtM,
    voyageWithheld: false,
  };
}
