import type { Db } from '../../../store/db.js';
import type { Trx } from '../../../store/transaction.js';
import type { ExchangeBansTable } from '../../../store/schema.js';

export type ExchangeBan = ExchangeBansTable;

/** Exchange bans (the operator's moderation of agents). */
export function createExchangeGateRepo(db: Db) {
  return {
    async findBan(agentId: string, trx?: Trx): Promise<ExchangeBan | undefined> {
      return (trx ?? db).selectFrom('exchange_bans').selectAll().where('agent_id', '=', agentId).executeTakeFirst();
    },
    async listBans(): Promise<ExchangeBan[]> {
      return db.selectFrom('exchange_bans').selectAll().orderBy('banned_at', 'desc').orderBy('agent_id').execute();
    },
    /** True when the ban is new (an existing ban keeps its time and reason). */
    async insertBan(ban: ExchangeBan, trx?: Trx): Promise<boolean> {
      const result = await (trx ?? db)
        .insertInto('exchange_bans')
        .values(ban)
        .onConflict((oc) => oc.column('agent_id').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },
    async deleteBan(agentId: string, trx?: Trx): Promise<boolean> {
      const result = await (trx ?? db).deleteFrom('exchange_bans').where('agent_id', '=', agentId).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}

export type ExchangeGateRepo = ReturnType<typeof createExchangeGateRepo>;
