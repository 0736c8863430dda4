import type { Db } from '../../store/db.js';
import type { ConsoleSessionsTable } from '../../store/schema.js';

export type ConsoleSessionRow = ConsoleSessionsTable;

export function createConsoleSessionsRepo(db: Db) {
  return {
    async insert(row: ConsoleSessionRow): Promise<void> {
      await db.insertInto('console_sessions').values(row).execute();
    },
    async find(tokenHash: string): Promise<ConsoleSessionRow | undefined> {
      return db.selectFrom('console_sessions').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
    },
    async touch(tokenHash: string, at: number): Promise<void> {
      await db.updateTable('console_sessions').set({ last_seen_at: at }).where('token_hash', '=', tokenHash).execute();
    },
    async delete(tokenHash: string): Promise<void> {
      await db.deleteFrom('console_sessions').where('token_hash', '=', tokenHash).execute();
    },
    async deleteExpired(now: number, idleBefore: number): Promise<number> {
      const result = await db
        .deleteFrom('console_sessions')
        .where((eb) => eb.or([eb('expires_at', '<=', now), eb('last_seen_at', '<', idleBefore)]))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type ConsoleSessionsRepo = ReturnType<typeof createConsoleSessionsRepo>;
