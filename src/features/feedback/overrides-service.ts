import { parseJson } from '../../store/dialect.js';
import type { Trx } from '../../store/transaction.js';
import type { AppliedCorrection, Corrections, CorrectionChange, OverrideTarget } from '../kit/override-fields.js';
import type { OverrideRow, OverridesRepo } from './overrides-repo.js';
import { newId } from '../../access/credentials.js';

interface Cache {
  version: number;
  byTarget: Map<string, Map<string, AppliedCorrection>>;
}

const key = (target: OverrideTarget, id: string) => `${target}:${id}`;

function build(version: number, rows: OverrideRow[]): Cache {
  const byTarget = new Map<string, Map<string, AppliedCorrection>>();
  for (const row of rows) {
    const k = key(row.target_kind as OverrideTarget, row.target_key);
    let fields = byTarget.get(k);
    if (!fields) byTarget.set(k, (fields = new Map()));
    fields.set(row.field, { field: row.field, value: parseJson<string | number>(row.value, ''), ticket_id: row.ticket_id, applied_at: Number(row.applied_at), provenance: row.provenance });
  }
  return { version, byTarget };
}

/**
 * The override layer (docs/feedback.md): accepted corrections laid over observed data, never written
 * into it. Readers (vessels, ports) ask `corrections(target, id)`, a map lookup in memory; this process's
 * writes refresh the cache at once, other processes' writes are seen at the next `refresh` (the job,
 * every few seconds), which reads one version number unless something changed (as decision 026).
 */
export function createOverridesService(deps: { repo: OverridesRepo }) {
  let cache: Cache = { version: -1, byTarget: new Map() };
  let refreshing: Promise<void> | null = null;

  async function reload(): Promise<void> {
    if (cache.version !== -1 && (await deps.repo.version()) === cache.version) return;
    const { version, rows } = await deps.repo.active();
    cache = build(version, rows);
  }

  function refresh(): Promise<void> {
    refreshing ??= reload().finally(() => (refreshing = null));
    return refreshing;
  }

  return {
    refresh,
    /** The version of the layer as last read (-1 before the first refresh): it changes with every apply and revert. */
    version(): number {
      return cache.version;
    },

    /** Every vessel (vsl_id) or port (port_id, as text) with active corrections, and its corrections. */
    *corrected(target: OverrideTarget): Iterable<[string, Corrections]> {
      const prefix = `${target}:`;
      for (const [k, fields] of cache.byTarget) if (k.startsWith(prefix)) yield [k.slice(prefix.length), fields];
    },

    /** The active corrections of one vessel (by vsl_id) or port (by port_id), or undefined. */
    corrections(target: OverrideTarget, id: string | number): Corrections | undefined {
      return cache.byTarget.get(key(target, String(id)));
    },

    /** Writes the overrides of an applied ticket (replacing older ones of the same fields) in the caller's transaction. */
    async apply(ticketId: string, target: OverrideTarget, targetKey: string, changes: readonly CorrectionChange[], now: number, trx: Trx): Promise<OverrideRow[]> {
      const rows: OverrideRow[] = changes.map((c) => ({
        override_id: newId('ovr_'),
        ticket_id: ticketId,
        target_kind: target,
        target_key: targetKey,
        field: c.field,
        value: JSON.stringify(c.value),
        provenance: `corrected by the operator from feedback ticket ${ticketId}`,
        applied_at: now,
        reverted_at: null,
      }));
      for (const row of rows) await deps.repo.revertField(target, targetKey, row.field, now, trx);
      await deps.repo.insert(rows, trx);
      await deps.repo.bumpVersion(trx);
      return rows;
    },

    async revert(ticketId: string, now: number, trx: Trx): Promise<number> {
      const reverted = await deps.repo.revertTicket(ticketId, now, trx);
      if (reverted) await deps.repo.bumpVersion(trx);
      return reverted;
    },

    byTicket: (ticketId: string) => deps.repo.byTicket(ticketId),
  };
}
export type OverridesService = ReturnType<typeof createOverridesService>;
