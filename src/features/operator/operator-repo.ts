import type { Db } from '../../store/db.js';
import type { OperatorTokensTable } from '../../store/schema.js';

export function createOperatorRepo(db: Db) {
  return {
    async getPasswordHash(): Promise<string | undefined> {
      const row = await db.selectFrom('operator_account').select('password_hash').where('id', '=', 1).executeTakeFirst();
      return row?.password_hash;
    },
    async setPasswordHash(hash: string, now: number): Promise<void> {
      await db
        .insertInto('operator_account')
        .values({ id: 1, password_hash: hash, updated_at: now })
        .onConflict((oc) => oc.column('id').doUpdateSet({ password_hash: hash, updated_at: now }))
        .execute();
    },
    async insertToken(row: OperatorTokensTable): Promise<void> {
      await db.insertInto('operator_tokens').values(row).execute();
    },
    async findToken(hash: string): Promise<OperatorTokensTable | undefined> {
      return db.selectFrom('operator_tokens').selectAll().where('token_hash', '=', hash).executeTakeFirst();
    },
    async listTokens(): Promise<OperatorTokensTable[]> {
      return db.selectFrom('operator_tokens').selectAll().orderBy('created_at', 'desc').execute();
    },
    async revokeToken(prefix: string, now: number): Promise<number> {
      const r = await db.updateTable('operator_tokens').set({ revoked_at: now }).where('token_prefix', '=', prefix).where('revoked_at', 'is', null).executeTakeFirst();
      return Number(r.numUpdatedRows);
    },
  };
}
export type OperatorRepo = ReturnType<typeof createOperatorRepo>;
