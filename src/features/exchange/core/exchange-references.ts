import type { FleetReads } from '../../../fleet/fleet-reads.js';
import type { FleetService } from '../../../fleet/fleet-service.js';
import { AppError } from '../../../platform/errors.js';
import type { PortRecord } from '../../ports/port-table.js';
import { parseVesselRef } from '../../kit/vessel-ids.js';
import { EVENT_KINDS, EVIDENCE_TYPES, EXCHANGE_CORE_LIMITS, SUBJECT_TYPES, type EventKind, type EvidenceType, type SubjectType } from './exchange-rules.js';

export interface SubjectInput {
  type: string;
  ref: string;
}
export interface Subject {
  type: SubjectType;
  /** Normalised: a vsl_id, a port_id, `port_call:ID` / `encounter:ID` / `transit:ID`, or `LOCODE-LOCODE`. */
  ref: string;
}
export interface EvidenceInput {
  type: string;
  ref: string;
  note?: string;
}
export interface Evidence {
  type: EvidenceType;
  ref: string;
  note: string | null;
}

export interface ReferenceLookups {
  fleet: Pick<FleetService, 'loadVessel'>;
  fleetReads: Pick<FleetReads, 'positionsAfter'>;
  ports: { byId(portId: number): PortRecord | undefined; table(): readonly PortRecord[] };
  eventExists(kind: EventKind, id: number): Promise<boolean>;
  claimVisible(claimId: string): Promise<boolean>;
}

const EVENT_REF = /^(port_call|encounter|transit):(\d{1,15})$/;
const LANE_REF = /^([A-Z]{2}[A-Z2-9]{3})-([A-Z]{2}[A-Z2-9]{3})$/;
const POSITIVE_INT = /^\d{1,15}$/;

/**
 * Checks that subjects and evidence name stored Bosun records (docs/exchange.md, "Evidence"): vessels
 * in the fleet, positions by sequence number, ports of the port table, detected events, lanes between
 * two UN/LOCODEs of the port table, other visible claims. A malformed reference is invalid_request;
 * a well-formed one naming nothing is claim_subject_not_found or evidence_not_found.
 */
export function createReferenceChecker(lookups: ReferenceLookups) {
  let locodes: { table: readonly PortRecord[]; set: Set<string> } | null = null;
  function locodeKnown(code: string): boolean {
    const table = lookups.ports.table();
    if (locodes?.table !== table) locodes = { table, set: new Set(table.flatMap((p) => (p.locode ? [p.locode] : []))) };
    return locodes.set.has(code);
  }

  async function vesselId(raw: string, field: string): Promise<string | null> {
    let ref;
    try {
      ref = parseVesselRef(raw, field);
    } catch (err) {
      throw new AppError('invalid_request', err instanceof Error ? err.message : String(err), { field });
    }
    const vessel = await lookups.fleet.loadVessel(ref.kind === 'imo' ? { imo: ref.imo } : ref.kind === 'mmsi' ? { mmsi: ref.mmsi } : { vslId: ref.vslId });
    return vessel?.vslId ?? null;
  }

  function portId(raw: string, field: string): number | null {
    if (!POSITIVE_INT.test(raw)) throw new AppError('invalid_request', `${JSON.stringify(raw)} is not a port_id (an integer from /v1/ports/search)`, { field });
    return lookups.ports.byId(Number(raw)) ? Number(raw) : null;
  }

  function eventRef(raw: string, field: string): { kind: EventKind; id: number } {
    const match = EVENT_REF.exec(raw);
    if (!match) throw new AppError('invalid_request', `${JSON.stringify(raw)} is not an event reference: use ${EVENT_KINDS.map((k) => `${k}:ID`).join(', ')}`, { field });
    return { kind: match[1] as EventKind, id: Number(match[2]) };
  }

  return {
    async subject(input: SubjectInput, field: string, error: 'claim_subject_not_found' | 'evidence_not_found' = 'claim_subject_not_found'): Promise<Subject> {
      const type = input.type as SubjectType;
      if (!SUBJECT_TYPES.includes(type)) throw new AppError('invalid_request', `subject type must be one of ${SUBJECT_TYPES.join(', ')}`, { field: `${field}.type` });
      const raw = input.ref.trim();
      const refField = `${field}.ref`;
      const missing = (what: string): never => {
        throw new AppError(error, `${what} is not a Bosun record`, { field: refField });
      };
      if (type === 'vessel') return { type, ref: (await vesselId(raw, refField)) ?? missing(`vessel ${raw}`) };
      if (type === 'port') return { type, ref: String(portId(raw, refField) ?? missing(`port ${raw}`)) };
      if (type === 'event') {
        const event = eventRef(raw, refField);
        if (!(await lookups.eventExists(event.kind, event.id))) missing(`event ${event.kind}:${event.id}`);
        return { type, ref: `${event.kind}:${event.id}` };
      }
      const lane = LANE_REF.exec(raw.toUpperCase());
      if (!lane || lane[1] === lane[2]) throw new AppError('invalid_request', `${JSON.stringify(raw)} is not a lane: two different UN/LOCODEs joined by a dash (NLRTM-SGSIN)`, { field: refField });
      for (const code of [lane[1]!, lane[2]!]) if (!locodeKnown(code)) missing(`lane end ${code} (no port of the port table has this UN/LOCODE)`);
      return { type, ref: `${lane[1]}-${lane[2]}` };
    },

    /**
     * `subject`, when given, is the claim's: a position offered as evidence for a claim about a vessel
     * must be a fix of that vessel (evidence_not_relevant otherwise).
     */
    async evidence(items: readonly EvidenceInput[], field: string, subject?: Subject): Promise<Evidence[]> {
      if (items.length > EXCHANGE_CORE_LIMITS.evidenceMax) throw new AppError('invalid_request', `at most ${EXCHANGE_CORE_LIMITS.evidenceMax} evidence references`, { field });
      const out: Evidence[] = [];
      for (const [i, item] of items.entries()) {
        const at = `${field}[${i}]`;
        const type = item.type as EvidenceType;
        if (!EVIDENCE_TYPES.includes(type)) throw new AppError('invalid_request', `evidence type must be one of ${EVIDENCE_TYPES.join(', ')}`, { field: `${at}.type` });
        const note = item.note === undefined ? null : item.note.trim() || null;
        if (note && note.length > EXCHANGE_CORE_LIMITS.evidenceNoteMax)
          throw new AppError('invalid_request', `an evidence note is at most ${EXCHANGE_CORE_LIMITS.evidenceNoteMax} characters`, { field: `${at}.note` });
        const raw = item.ref.trim();
        const refField = `${at}.ref`;
        const missing = (what: string): never => {
          throw new AppError('evidence_not_found', `evidence ${i + 1}: ${what} is not a stored Bosun record`, { field: refField });
        };
        let ref: string;
        if (type === 'position') {
          if (!POSITIVE_INT.test(raw) || Number(raw) < 1) throw new AppError('invalid_request', `${JSON.stringify(raw)} is not a position sequence number`, { field: refField });
          const seq = Number(raw);
          const rows = await lookups.fleetReads.positionsAfter(seq - 1, seq, {}, 1);
          if (rows.length === 0) missing(`position ${seq}`);
          if (subject?.type === 'vessel' && rows[0]!.vsl_id !== subject.ref)
            throw new AppError('evidence_not_relevant', `evidence ${i + 1}: position ${seq} is a fix of vessel ${rows[0]!.vsl_id}, not of the claim's vessel ${subject.ref}`, { field: refField });
          ref = String(seq);
        } else if (type === 'claim') {
          if (!(await lookups.claimVisible(raw))) missing(`claim ${raw}`);
          ref = raw;
        } else {
          ref = (await this.subject({ type, ref: raw }, at, 'evidence_not_found')).ref;
        }
        if (!out.some((e) => e.type === type && e.ref === ref)) out.push({ type, ref, note });
      }
      return out;
    },
  };
}

export type ReferenceChecker = ReturnType<typeof createReferenceChecker>;
