import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../store/db.js';
import type { Executor } from '../../store/transaction.js';
import type { AuditLogTable } from '../../store/schema.js';

export type AuditRow = Selectable<AuditLogTable>;

export function createAuditRepo(db: Db) {
  return {
    async insert(row: Insertable<AuditLogTable>, trx: Executor = db): Promise<void> {
      await trx.insertInto('audit_log').values(row).execute();
    },
    async list(filter: { since?: number; action?: string; limit: number }): Promise<AuditRow[]> {
      let q = db.selectFrom('audit_log').selectAll().orderBy('ts', 'desc').orderBy('id', 'desc').limit(filter.limit);
      if (filter.since !== undefined) q = q.where('ts', '>=', filter.since);
      if (filter.action) q = q.where('action', '=', filter.action);
      return q.execute();
    },
    async deleteOlderThan(cutoff: number): Promise<number> {
      const result = await db.deleteFrom('audit_log').where('ts', '<', cutoff).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
export type AuditRepo = ReturnType<typeof createAuditRepo>;
