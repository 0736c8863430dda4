import type { Db } from '../../store/db.js';
import type { ConsoleDevicesTable, ConsoleSessionsTable, ConsoleSigninGuardTable } from '../../store/schema.js';

export type ConsoleSessionRow = ConsoleSessionsTable;
export type SigninGuardRow = ConsoleSigninGuardTable;
export type ConsoleDeviceRow = ConsoleDevicesTable;

const guardRow = (r: SigninGuardRow): SigninGuardRow => ({
  ...r,
  failures: Number(r.failures),
  first_failure_at: Number(r.first_failure_at),
  locked_until: r.locked_until === null ? null : Number(r.locked_until),
  updated_at: Number(r.updated_at),
});

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

    /** Sign-in guard rows (docs/decisions/106): one per key, changed only by `swapGuard`. */
    async findGuard(keyHash: string): Promise<SigninGuardRow | undefined> {
      const row = await db.selectFrom('console_signin_guard').selectAll().where('key_hash', '=', keyHash).executeTakeFirst();
      return row && guardRow(row);
    },
    /** Creates the key's row (no failures yet) unless it exists. */
    async ensureGuard(row: Pick<SigninGuardRow, 'key_hash' | 'kind' | 'label'>, now: number): Promise<void> {
      await db
        .insertInto('console_signin_guard')
        .values({ ...row, failures: 0, first_failure_at: now, locked_until: null, updated_at: now })
        .onConflict((oc) => oc.column('key_hash').doNothing())
        .execute();
    },
    /**
     * Compare-and-set: writes `next` only if the row is still as `seen` was read (same failures and last
     * update), so two processes counting one key at once never lose a failure. True when written.
     */
    async swapGuard(seen: SigninGuardRow, next: Pick<SigninGuardRow, 'failures' | 'first_failure_at' | 'locked_until' | 'updated_at'>): Promise<boolean> {
      const result = await db
        .updateTable('console_signin_guard')
        .set(next)
        .where('key_hash', '=', seen.key_hash)
        .where('failures', '=', seen.failures)
        .where('updated_at', '=', seen.updated_at)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async deleteGuard(keyHash: string): Promise<number> {
      return Number((await db.deleteFrom('console_signin_guard').where('key_hash', '=', keyHash).executeTakeFirst()).numDeletedRows);
    },
    async deleteAllGuards(): Promise<number> {
      return Number((await db.deleteFrom('console_signin_guard').executeTakeFirst()).numDeletedRows);
    },
    /** Rows whose last failure is before `before` (they no longer hold a lock or a streak). */
    async deleteGuardsBefore(before: number): Promise<number> {
      return Number((await db.deleteFrom('console_signin_guard').where('updated_at', '<', before).executeTakeFirst()).numDeletedRows);
    },
    async listGuards(): Promise<SigninGuardRow[]> {
      return (await db.selectFrom('console_signin_guard').selectAll().where('failures', '>', 0).orderBy('updated_at', 'desc').execute()).map(guardRow);
    },

    /** Browsers the operator signed in from (device cookies, hashed). */
    async findDevice(tokenHash: string): Promise<ConsoleDeviceRow | undefined> {
      const row = await db.selectFrom('console_devices').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
      return row && { ...row, created_at: Number(row.created_at), last_signin_at: Number(row.last_signin_at), expires_at: Number(row.expires_at) };
    },
    async saveDevice(row: ConsoleDeviceRow): Promise<void> {
      await db
        .insertInto('console_devices')
        .values(row)
        .onConflict((oc) => oc.column('token_hash').doUpdateSet({ last_signin_at: row.last_signin_at, expires_at: row.expires_at }))
        .execute();
    },
    async deleteExpiredDevices(now: number): Promise<number> {
      return Number((await db.deleteFrom('console_devices').where('expires_at', '<=', now).executeTakeFirst()).numDeletedRows);
    },
  };
}

export type ConsoleSessionsRepo = ReturnType<typeof createConsoleSessionsRepo>;
