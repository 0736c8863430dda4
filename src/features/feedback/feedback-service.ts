import { DAY, iso, type Clock } from '../../platform/clock.js';
import { AppError } from '../../platform/errors.js';
import { newId } from '../../access/credentials.js';
import { jsonText, parseJson } from '../../store/dialect.js';
import { agentLock, type TransactionRunner, type Trx } from '../../store/transaction.js';
import type { AuditService } from '../audit/audit-service.js';
import type { WorkspaceEmit } from '../workspace/workspace-service.js';
import { harborText } from '../kit/text-rules.js';
import { parseVesselRef, type VesselRef } from '../kit/vessel-ids.js';
import type { FleetService } from '../../fleet/fleet-service.js';
import type { FeedbackRepo, TicketRow } from './feedback-repo.js';
import { checkChanges, type CorrectionChange, type OverrideTarget } from '../kit/override-fields.js';
import type { OverrideRow } from './overrides-repo.js';
import type { OverridesService } from './overrides-service.js';

export const TICKET_KINDS = ['correction', 'request_data', 'propose_metric'] as const;
export type TicketKind = (typeof TICKET_KINDS)[number];
/**
 * open → triaged → accepted | rejected; accepted → applied (corrections: the overrides are served) | closed;
 * applied → reverted (the observed values are served again). rejected, closed and reverted are final.
 */
export const TICKET_STATES = ['open', 'triaged', 'accepted', 'rejected', 'applied', 'reverted', 'closed'] as const;
export type TicketState = (typeof TICKET_STATES)[number];
export const SUBJECT_KINDS = ['vessel', 'port', 'route', 'area', 'dataset', 'metric', 'other'] as const;
export type SubjectKind = (typeof SUBJECT_KINDS)[number];

export const FEEDBACK_LIMITS = { ticketsPer24h: 20, bodyBytes: 4000, evidenceItems: 10 } as const;
export const METRIC_NAME_PATTERN = '^[a-z][a-z0-9_]{2,63}$';

export type OperatorStep = 'triage' | 'accept' | 'reject' | 'apply' | 'revert' | 'close';
const STEPS: Record<OperatorStep, { from: readonly TicketState[]; to: TicketState }> = {
  triage: { from: ['open'], to: 'triaged' },
  accept: { from: ['open', 'triaged'], to: 'accepted' },
  reject: { from: ['open', 'triaged', 'accepted'], to: 'rejected' },
  apply: { from: ['accepted'], to: 'applied' },
  revert: { from: ['applied'], to: 'reverted' },
  close: { from: ['open', 'triaged', 'accepted'], to: 'closed' },
};

export type FeedbackActor = { kind: 'operator' | 'cli'; id?: string };

interface SubjectInput {
  kind: SubjectKind;
  id: string;
}

export interface CorrectionInput {
  subject: SubjectInput;
  changes: CorrectionChange[];
  body: string;
  evidence?: string[];
}
export interface RequestDataInput {
  subject: SubjectInput;
  title: string;
  body: string;
  evidence?: string[];
}
export interface ProposeMetricInput {
  metric_name: string;
  title: string;
  body: string;
  inputs?: string[];
  evidence?: string[];
}

/** What the author sees of a ticket: never the operator's internal note. */
export function ticketView(row: TicketRow, overrides: readonly OverrideRow[] = []) {
  return {
    ticket_id: row.ticket_id,
    kind: row.kind as TicketKind,
    subject: { kind: row.subject_kind as SubjectKind, ref: row.subject_ref },
    title: row.title,
    body: row.body,
    evidence: parseJson<string[]>(row.evidence, []),
    changes: parseJson<CorrectionChange[]>(row.changes, []),
    state: row.state as TicketState,
    public_response: row.public_response,
    overrides: overrides.map((o) => ({
      field: o.field,
      value: parseJson<string | number>(o.value, ''),
      provenance: o.provenance,
      applied_at: iso(Number(o.applied_at)),
      reverted_at: o.reverted_at === null ? null : iso(Number(o.reverted_at)),
    })),
    created_at: iso(Number(row.created_at)),
    updated_at: iso(Number(row.updated_at)),
  };
}

export function operatorTicketView(row: TicketRow, overrides: readonly OverrideRow[] = []) {
  return { ...ticketView(row, overrides), agent_id: row.agent_id, internal_note: row.internal_note };
}

/**
 * Feedback tickets (docs/feedback.md): corrections, data requests and metric proposals; the operator
 * moves them on by CLI, and an applied correction becomes an override of the data it corrects.
 */
export function createFeedbackService(deps: {
  repo: FeedbackRepo;
  overrides: OverridesService;
  clock: Clock;
  audit: AuditService;
  transaction: TransactionRunner;
  emit: WorkspaceEmit;
  fleet: Pick<FleetService, 'byImoNumber' | 'byMmsiNumber' | 'byVesselId' | 'loadVessel'>;
  /** Whether a port_id is in the port table. */
  portExists: (portId: number) => boolean;
  /** Port areas (docs/decisions/121): a correction of an area is applied as an operator area. */
  areas?: {
    resolveKey(ref: string): Promise<string>;
    applyCorrection(ticketId: string, key: string, changes: readonly CorrectionChange[], now: number, trx: Trx): Promise<void>;
    revertCorrection(ticketId: string, trx: Trx): Promise<number>;
    changed(): void;
  };
}) {
  const { repo, clock, audit, transaction, fleet } = deps;

  /** The vsl_id of an observed vessel, or null. */
  async function resolveVessel(ref: VesselRef): Promise<string | null> {
    const known = ref.kind === 'imo' ? fleet.byImoNumber(ref.imo) : ref.kind === 'mmsi' ? fleet.byMmsiNumber(ref.mmsi) : fleet.byVesselId(ref.vslId);
    const found = known ?? (await fleet.loadVessel(ref.kind === 'imo' ? { imo: ref.imo } : ref.kind === 'mmsi' ? { mmsi: ref.mmsi } : { vslId: ref.vslId }));
    return found?.vslId ?? null;
  }

  const bodyText = (value: string) => harborText(value, { field: 'body.body', code: 'invalid_request', multiline: true, maxBytes: FEEDBACK_LIMITS.bodyBytes });
  const titleText = (value: string) => harborText(value, { field: 'body.title', code: 'invalid_request', multiline: false, trim: true, minChars: 3, maxChars: 200 });
  const evidenceList = (items: string[] | undefined, field = 'body.evidence') =>
    (items ?? []).map((e, i) => harborText(e, { field: `${field}[${i}]`, code: 'invalid_request', multiline: false, trim: true, minChars: 1, maxChars: 500 }));

  /** The canonical reference of a vessel or port subject (vsl_id, port_id); other kinds are free text. */
  async function subjectRef(subject: SubjectInput, correction = false): Promise<string> {
    if (subject.kind === 'vessel') {
      const ref = parseVesselRef(subject.id, 'body.subject.id');
      const vslId = await resolveVessel(ref);
      if (!vslId) throw new AppError('vessel_not_found', `no vessel ${subject.id} has been observed`, { field: 'body.subject.id' });
      return vslId;
    }
    if (subject.kind === 'port') {
      const portId = Number(subject.id);
      if (!/^\d{1,9}$/.test(subject.id.trim())) throw new AppError('invalid_request', 'a port subject is its port_id (digits; find it with GET /v1/ports/search)', { field: 'body.subject.id' });
      if (!deps.portExists(portId)) throw new AppError('port_not_found', `no port ${portId} in the port table`, { field: 'body.subject.id' });
      return String(portId);
    }
    // a correction names a stored port area by its key; a data request's area is free text (a sea, a region)
    if (subject.kind === 'area' && correction) {
      if (!deps.areas) throw new AppError('invalid_request', 'port areas are not served here', { field: 'body.subject.kind' });
      return deps.areas.resolveKey(subject.id);
    }
    return harborText(subject.id, { field: 'body.subject.id', code: 'invalid_request', multiline: false, trim: true, minChars: 1, maxChars: 200 });
  }

  /** Opens a ticket under the author's lock, counting the rolling 24-hour allowance. */
  async function open(agentId: string, row: Omit<TicketRow, 'ticket_id' | 'agent_id' | 'state' | 'public_response' | 'internal_note' | 'created_at' | 'updated_at'>) {
    return transaction(agentLock(agentId), async (trx) => {
      const now = clock.now();
      const recent = await repo.openedSince(agentId, now - DAY, trx);
      if (recent.count >= FEEDBACK_LIMITS.ticketsPer24h) {
        const retryAfter = Math.max(1, Math.ceil(((recent.oldest ?? now) + DAY - now) / 1000));
        throw new AppError('feedback_daily_limit', `at most ${FEEDBACK_LIMITS.ticketsPer24h} feedback tickets per 24 hours; retry in ${retryAfter} s`, {
          headers: { 'retry-after': String(retryAfter) },
        });
      }
      const ticket: TicketRow = { ...row, ticket_id: newId('fbt_'), agent_id: agentId, state: 'open', public_response: null, internal_note: null, created_at: now, updated_at: now };
      await repo.insert(ticket, trx);
      await audit.record(
        { actor: { kind: 'agent', id: agentId }, action: `feedback.${row.kind}.create`, target: ticket.ticket_id, details: { subject: `${row.subject_kind}:${row.subject_ref}` } },
        trx,
      );
      return ticketView(ticket);
    });
  }

  async function find(ticketId: string): Promise<TicketRow> {
    const row = await repo.find(ticketId);
    if (!row) throw new AppError('feedback_ticket_not_found', `no feedback ticket ${ticketId}`);
    return row;
  }

  return {
    async correction(agentId: string, input: CorrectionInput) {
      if (input.subject.kind !== 'vessel' && input.subject.kind !== 'port' && input.subject.kind !== 'area') {
        throw new AppError('invalid_request', 'a correction names a vessel, a port or a port area (subject.kind); ask for other data with POST /v1/feedback/request-data', {
          field: 'body.subject.kind',
        });
      }
      const target: OverrideTarget = input.subject.kind;
      const changes = checkChanges(target, input.changes);
      const body = bodyText(input.body);
      const evidence = evidenceList(input.evidence);
      const ref = await subjectRef(input.subject, true);
      const title = `Correct ${changes.map((c) => c.field).join(', ')} of ${target} ${ref}`;
      return open(agentId, { kind: 'correction', subject_kind: target, subject_ref: ref, title, body, evidence: jsonText(evidence), changes: jsonText(changes) });
    },

    async requestData(agentId: string, input: RequestDataInput) {
      const title = titleText(input.title);
      const body = bodyText(input.body);
      const evidence = evidenceList(input.evidence);
      const ref = await subjectRef(input.subject);
      return open(agentId, { kind: 'request_data', subject_kind: input.subject.kind, subject_ref: ref, title, body, evidence: jsonText(evidence), changes: jsonText([]) });
    },

    async proposeMetric(agentId: string, input: ProposeMetricInput) {
      const title = titleText(input.title);
      const body = bodyText(input.body);
      const evidence = [...evidenceList(input.evidence), ...evidenceList(input.inputs, 'body.inputs').map((i) => `input: ${i}`)];
      return open(agentId, { kind: 'propose_metric', subject_kind: 'metric', subject_ref: input.metric_name, title, body, evidence: jsonText(evidence), changes: jsonText([]) });
    },

    /** The author's own ticket; any other id (another agent's included) answers feedback_ticket_not_found. */
    async getOwn(agentId: string, ticketId: string) {
      const row = await repo.find(ticketId);
      if (!row || row.agent_id !== agentId) throw new AppError('feedback_ticket_not_found', `no feedback ticket ${ticketId} of yours`, { field: 'params.ticket_id' });
      return ticketView(row, await deps.overrides.byTicket(ticketId));
    },

    listForOperator(filter: { state?: string; kind?: string; limit: number }) {
      if (filter.state !== undefined && !(TICKET_STATES as readonly string[]).includes(filter.state)) {
        throw new AppError('invalid_request', `state must be one of ${TICKET_STATES.join(', ')}`, { field: 'state' });
      }
      if (filter.kind !== undefined && !(TICKET_KINDS as readonly string[]).includes(filter.kind)) {
        throw new AppError('invalid_request', `kind must be one of ${TICKET_KINDS.join(', ')}`, { field: 'kind' });
      }
      return repo.listForOperator(filter);
    },

    async findForOperator(ticketId: string) {
      const row = await find(ticketId);
      return operatorTicketView(row, await deps.overrides.byTicket(ticketId));
    },

    /**
     * One operator step (triage, accept, reject, apply, revert, close): the state change, the overrides
     * it writes or reverts, its audit record and the author's workspace event commit together.
     */
    async step(ticketId: string, step: OperatorStep, input: { publicResponse?: string; internalNote?: string }, actor: FeedbackActor) {
      const row = await find(ticketId);
      const rule = STEPS[step];
      if (!rule.from.includes(row.state as TicketState)) {
        throw new AppError('feedback_state_invalid', `ticket ${ticketId} is ${row.state}; ${step} needs ${rule.from.join(' or ')}`);
      }
      if ((step === 'apply' || step === 'revert') && row.kind !== 'correction') {
        throw new AppError('feedback_state_invalid', `only corrections are applied or reverted; ticket ${ticketId} is ${row.kind} (close it instead)`);
      }
      const updated = await transaction(agentLock(row.agent_id), async (trx) => {
        const now = clock.now();
        const patch = {
          state: rule.to,
          public_response: input.publicResponse ?? row.public_response,
          internal_note: input.internalNote ?? row.internal_note,
          updated_at: now,
        };
        if (!(await repo.update(ticketId, row.state, patch, trx))) throw new AppError('feedback_state_invalid', `ticket ${ticketId} changed meanwhile; read it again`);
        let overrides = 0;
        const changes = parseJson<CorrectionChange[]>(row.changes, []);
        if (step === 'apply') overrides = (await deps.overrides.apply(ticketId, row.subject_kind as OverrideTarget, row.subject_ref, changes, now, trx)).length;
        if (step === 'revert') overrides = await deps.overrides.revert(ticketId, now, trx);
        // a port area's correction is an operator area the detector and the GeoJSON read (docs/decisions/121)
        if (row.subject_kind === 'area' && deps.areas) {
          if (step === 'apply') await deps.areas.applyCorrection(ticketId, row.subject_ref, changes, now, trx);
          if (step === 'revert') await deps.areas.revertCorrection(ticketId, trx);
        }
        await audit.record({ actor, action: `feedback.ticket.${step}`, target: ticketId, details: { agent_id: row.agent_id, from: row.state, to: rule.to, overrides } }, trx);
        await deps.emit(row.agent_id, 'feedback_ticket.changed', { ticket_id: ticketId, kind: row.kind, previous_state: row.state, state: rule.to, public_response: patch.public_response }, trx);
        return { ...row, ...patch };
      });
      if (step === 'apply' || step === 'revert') await deps.overrides.refresh();
      if ((step === 'apply' || step === 'revert') && row.subject_kind === 'area') deps.areas?.changed();
      return operatorTicketView(updated, await deps.overrides.byTicket(ticketId));
    },
  };
}
export type FeedbackService = ReturnType<typeof createFeedbackService>;
