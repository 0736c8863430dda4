import type { Db } from '../../../store/db.js';
import type { Trx } from '../../../store/transaction.js';
import type { ListPosition } from '../../../http/cursor-codec.js';
import type { ExchangeCharterVersionsTable, ExchangeChartersTable } from '../../../store/schema.js';

export type CharterRow = ExchangeChartersTable;
export type CharterVersionRow = ExchangeCharterVersionsTable;

/** Charters and their versions. */
export function createChartersRepo(db: Db) {
  return {
    async find(agentId: string, trx?: Trx): Promise<CharterRow | undefined> {
      return (trx ?? db).selectFrom('exchange_charters').selectAll().where('agent_id', '=', agentId).executeTakeFirst();
    },
    /** Charters the viewer may see (every visible one, and their own even when hidden), most recently updated first, after `after` (its updated_at and agent id). */
    async list(viewerId: string, limit: number, after: ListPosition | undefined, agentId?: string): Promise<CharterRow[]> {
      let q = db
        .selectFrom('exchange_charters')
        .selectAll()
        .where((eb) => eb.or([eb('hidden', '=', 0), eb('agent_id', '=', viewerId)]));
      if (agentId) q = q.where('agent_id', '=', agentId);
      if (after) q = q.where((eb) => eb.or([eb('updated_at', '<', after.createdAt), eb.and([eb('updated_at', '=', after.createdAt), eb('agent_id', '<', after.id)])]));
      return q.orderBy('updated_at', 'desc').orderBy('agent_id', 'desc').limit(limit).execute();
    },
    async countVisible(): Promise<number> {
      const row = await db
        .selectFrom('exchange_charters')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('hidden', '=', 0)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async insert(row: CharterRow, trx: Trx): Promise<void> {
      await trx.insertInto('exchange_charters').values(row).execute();
    },
    async update(agentId: string, fromVersion: number, patch: Partial<CharterRow>, trx: Trx): Promise<boolean> {
      const r = await trx.updateTable('exchange_charters').set(patch).where('agent_id', '=', agentId).where('version', '=', fromVersion).executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },
    async setHidden(agentId: string, hidden: boolean, reason: string | null): Promise<boolean> {
      const r = await db
        .updateTable('exchange_charters')
        .set({ hidden: hidden ? 1 : 0, hidden_reason: reason })
        .where('agent_id', '=', agentId)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },
    async insertVersion(row: CharterVersionRow, trx: Trx): Promise<void> {
      await trx.insertInto('exchange_charter_versions').values(row).execute();
    },
    async versions(agentId: string): Promise<CharterVersionRow[]> {
      return db.selectFrom('exchange_charter_versions').selectAll().where('agent_id', '=', agentId).orderBy('version', 'desc').execute();
    },
  };
}

export type ChartersRepo = ReturnType<typeof createChartersRepo>;
