import { sql } from 'kysely';
import type { Db } from '../../store/db.js';
import type { DataOverridesTable } from '../../store/schema.js';
import type { Executor } from '../../store/transaction.js';

export type OverrideRow = DataOverridesTable;

/** Overrides laid over observed data, and the version counter other processes watch. */
export function createOverridesRepo(db: Db) {
  return {
    async version(): Promise<number> {
      const row = await db.selectFrom('data_override_version').select('version').where('id', '=', 1).executeTakeFirst();
      return Number(row?.version ?? 0);
    },
    /** Every active override, with the version read first: a write in between only makes the next refresh read again. */
    async active(): Promise<{ version: number; rows: OverrideRow[] }> {
      const version = await db.selectFrom('data_override_version').select('version').where('id', '=', 1).executeTakeFirst();
      const rows = await db.selectFrom('data_overrides').selectAll().where('reverted_at', 'is', null).orderBy('applied_at', 'asc').orderBy('override_id', 'asc').execute();
      return { version: Number(version?.version ?? 0), rows };
    },
    byTicket(ticketId: string, ex: Executor = db): Promise<OverrideRow[]> {
      return ex.selectFrom('data_overrides').selectAll().where('ticket_id', '=', ticketId).orderBy('field', 'asc').execute();
    },
    async insert(rows: OverrideRow[], ex: Executor): Promise<void> {
      if (rows.length) await ex.insertInto('data_overrides').values(rows).execute();
    },
    /** Reverts the active overrides of the same target and field (a newer correction replaces an older one). */
    async revertField(targetKind: string, targetKey: string, field: string, now: number, ex: Executor): Promise<void> {
      await ex
        .updateTable('data_overrides')
        .set({ reverted_at: now })
        .where('target_kind', '=', targetKind)
        .where('target_key', '=', targetKey)
        .where('field', '=', field)
        .where('reverted_at', 'is', null)
        .execute();
    },
    async revertTicket(ticketId: string, now: number, ex: Executor): Promise<number> {
      const res = await ex.updateTable('data_overrides').set({ reverted_at: now }).where('ticket_id', '=', ticketId).where('reverted_at', 'is', null).executeTakeFirst();
      return Number(res.numUpdatedRows);
    },
    async bumpVersion(ex: Executor): Promise<void> {
      await ex
        .updateTable('data_override_version')
        .set({ version: sql`version + 1` })
        .where('id', '=', 1)
        .execute();
    },
  };
}
export type OverridesRepo = ReturnType<typeof createOverridesRepo>;
