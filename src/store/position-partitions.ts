import { sql, type Kysely } from 'kysely';
import type { DialectHelpers } from './dialect.js';
import type { Database } from './schema.js';

export const DAY_MS = 86_400_000;

/** The UTC day (days since the epoch) of an epoch-ms instant. */
export const dayIndexOf = (ms: number): number => Math.floor(ms / DAY_MS);

/** `positions_pYYYYMMDD`: the partition of one UTC day of observed_at. */
export function partitionName(dayIndex: number): string {
  return `positions_p${new Date(dayIndex * DAY_MS).toISOString().slice(0, 10).replace(/-/g, '')}`;
}

const NAME = /^positions_p(\d{4})(\d{2})(\d{2})$/;
/** The day a partition name stands for, or null for a table not named by partitionName. */
export function partitionDay(name: string): number | null {
  const m = NAME.exec(name);
  return m ? dayIndexOf(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : null;
}

export interface PartitionInfo {
  name: string;
  day: number;
  /** A `detach … concurrently` that was interrupted: finished by the next drop. */
  detachPending: boolean;
}

/** Every statement that creates or attaches a partition holds this transaction lock (concurrent writers, jobs, processes). */
const PARTITIONS_LOCK = 'positions:partitions';
/** Held (session lock, tried) while partitions are detached and dropped, so one process drops at a time. */
const RETENTION_LOCK = 'positions:retention';

/**
 * The daily partitions of `positions` on PostgreSQL (docs/decisions/101); every method does nothing on
 * SQLite, where positions stay one table. A partition is created as a plain table and attached, which
 * locks the parent in SHARE UPDATE EXCLUSIVE mode (readers and writers go on), unlike `create table …
 * partition of`, which takes ACCESS EXCLUSIVE; it is dropped after `detach partition … concurrently`,
 * which waits for the transactions using it instead of blocking new readers of positions.
 */
export function createPositionPartitions(db: Kysely<Database>, dialect: DialectHelpers) {
  const known = new Set<number>();
  const postgres = dialect.name === 'postgres';

  async function list(executor: Kysely<Database>): Promise<PartitionInfo[]> {
    const { rows } = await sql<{ name: string; detach_pending: boolean }>`
      select c.relname as name, i.inhdetachpending as detach_pending
      from pg_inherits i
      join pg_class c on c.oid = i.inhrelid
      join pg_class p on p.oid = i.inhparent
      join pg_namespace n on n.oid = p.relnamespace
      where p.relname = 'positions' and n.nspname = current_schema()`.execute(executor);
    const out: PartitionInfo[] = [];
    for (const row of rows) {
      const day = partitionDay(row.name);
      if (day !== null) out.push({ name: row.name, day, detachPending: row.detach_pending });
    }
    return out.sort((a, b) => a.day - b.day);
  }

  /** Creates the missing partitions of `days` inside `trx` (which then holds PARTITIONS_LOCK to its end); the number created. */
  async function createMissing(trx: Kysely<Database>, days: readonly number[]): Promise<number> {
    const present = async () => new Set((await list(trx)).filter((p) => !p.detachPending).map((p) => p.day));
    let existing = await present();
    for (const day of existing) known.add(day);
    if (days.every((day) => existing.has(day))) return 0;
    // lock only to create: another writer's transaction holding the lock need not be waited for otherwise
    await dialect.transactionLock(PARTITIONS_LOCK)!.execute(trx);
    existing = await present();
    let created = 0;
    for (const day of days) {
      if (existing.has(day)) continue;
      const name = sql.id(partitionName(day));
      await sql`create table ${name} (like positions including defaults)`.execute(trx);
      await sql`alter table positions attach partition ${name} for values from (${sql.lit(day * DAY_MS)}) to (${sql.lit((day + 1) * DAY_MS)})`.execute(trx);
      known.add(day);
      created++;
    }
    return created;
  }

  return {
    enabled: postgres,

    /** The partitions, oldest first (empty on SQLite). */
    list: (): Promise<PartitionInfo[]> => (postgres ? list(db) : Promise.resolve([])),

    /**
     * Makes sure the days of these observation times have partitions, inside the writer's transaction
     * `trx`: a no-op (no query) when this process has seen them all already.
     */
    async ensureFor(trx: Kysely<Database>, observedAt: Iterable<number>): Promise<number> {
      if (!postgres) return 0;
      const missing = new Set<number>();
      for (const t of observedAt) {
        const day = dayIndexOf(t);
        if (!known.has(day)) missing.add(day);
      }
      return missing.size === 0 ? 0 : createMissing(trx, [...missing]);
    },

    /** Forgets what this process knows exists (after an insert found a partition missing: another process dropped it). */
    forget(): void {
      known.clear();
    },

    /** The job: partitions for today and the next `daysAhead` days, in a transaction of its own; the number created. */
    async createAhead(now: number, daysAhead: number): Promise<number> {
      if (!postgres) return 0;
      const today = dayIndexOf(now);
      const days = Array.from({ length: daysAhead + 1 }, (_, i) => today + i);
      return db.transaction().execute((trx) => createMissing(trx, days));
    },

    /**
     * Detaches (concurrently) and drops every partition whose whole day ends at or before `cutoff`; the
     * names dropped, or null when another process is dropping now. Runs on one connection outside any
     * transaction (`detach … concurrently` cannot run inside one).
     */
    async dropBefore(cutoff: number): Promise<string[] | null> {
      if (!postgres) return [];
      return db.connection().execute(async (connection) => {
        const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_lock(hashtextextended(${RETENTION_LOCK}, 0)) as locked`.execute(connection);
        if (!rows[0]!.locked) return null;
        try {
          const dropped: string[] = [];
          for (const partition of await list(connection)) {
            if ((partition.day + 1) * DAY_MS > cutoff) continue;
            const name = sql.id(partition.name);
            if (partition.detachPending) await sql`alter table positions detach partition ${name} finalize`.execute(connection);
            else await sql`alter table positions detach partition ${name} concurrently`.execute(connection);
            await sql`drop table ${name}`.execute(connection);
            known.delete(partition.day);
            dropped.push(partition.name);
          }
          return dropped;
        } finally {
          await sql`select pg_advisory_unlock(hashtextextended(${RETENTION_LOCK}, 0))`.execute(connection);
        }
      });
    },
  };
}
export type PositionPartitions = ReturnType<typeof createPositionPartitions>;
