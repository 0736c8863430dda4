import type { Db } from '../../store/db.js';
import type { IdempotencyRecordsTable } from '../../store/schema.js';

export type IdempotencyRecord = IdempotencyRecordsTable;

export function createIdempotencyRepo(db: Db) {
  return {
    /** Inserts the claim unless the caller already holds this key; true when inserted. */
    async claim(row: IdempotencyRecord): Promise<boolean> {
      const result = await db
        .insertInto('idempotency_records')
        .values(row)
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },
    async find(caller: string, key: string): Promise<IdempotencyRecord | undefined> {
      return db.selectFrom('idempotency_records').selectAll().where('caller', '=', caller).where('idem_key', '=', key).executeTakeFirst();
    },
    async complete(caller: string, key: string, response: string): Promise<void> {
      await db.updateTable('idempotency_records').set({ state: 'done', response }).where('caller', '=', caller).where('idem_key', '=', key).execute();
    },
    /** Removes a record; with `createdAt`, only that claim (not one a concurrent request made since). */
    async release(caller: string, key: string, createdAt?: number): Promise<void> {
      let q = db.deleteFrom('idempotency_records').where('caller', '=', caller).where('idem_key', '=', key);
      if (createdAt !== undefined) q = q.where('created_at', '=', createdAt);
      await q.execute();
    },
    async deleteExpired(now: number): Promise<number> {
      const result = await db.deleteFrom('idempotency_records').where('expires_at', '<=', now).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
export type IdempotencyRepo = ReturnType<typeof createIdempotencyRepo>;
