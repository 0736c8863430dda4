import { sql, type Kysely } from 'kysely';
import { DAY_MS, dayIndexOf, type PositionPartitions } from '../store/position-partitions.js';
import type { DialectHelpers } from '../store/dialect.js';
import type { Database } from '../store/schema.js';
import type { Clock } from '../platform/clock.js';
import type { Config } from '../platform/config.js';

export interface RetentionDeps {
  db: Kysely<Database>;
  dialect: DialectHelpers;
  partitions: PositionPartitions;
  clock: Clock;
  settings: Config['positions'];
  /** Rows per delete statement on SQLite (between two, other statements get the connection). */
  batchSize?: number;
  /** Vessels thinned per statement. */
  thinVessels?: number;
}

export interface RetentionReport {
  /** Positions observed before this are gone (whole UTC days on PostgreSQL); null without retention. */
  cutoff: number | null;
  partitionsDropped: string[];
  /** Rows deleted one by one (SQLite retention; thinning on both). */
  rowsDeleted: number;
  daysThinned: number[];
  /** True when another process was dropping partitions at the time (this run dropped none). */
  busy: boolean;
}

/** Lets other work on the event loop run between two batches (SQLite's one connection serves readers between them). */
const yieldToOthers = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Raw-position retention and thinning (docs/decisions/101): BOSUN_RETENTION_DAYS drops positions
 * observed before the start of the UTC day `retentionDays` days ago (whole partitions detached
 * concurrently and dropped on PostgreSQL; deletes of `batchSize` rows on SQLite), and
 * BOSUN_THIN_AFTER_DAYS keeps, of each whole UTC day older than that, the first position of every vessel
 * in every `thinMinutes` bucket, once per day (position_thinning). Events, voyages and aggregates are
 * other tables: they outlive the positions they were detected from.
 */
export function createPositionRetention(deps: RetentionDeps) {
  const batchSize = deps.batchSize ?? 5000;
  const thinVessels = deps.thinVessels ?? 500;
  const { db } = deps;

  async function deleteBefore(cutoff: number): Promise<number> {
    let total = 0;
    for (;;) {
      const result = await db
        .deleteFrom('positions')
        .where('seq', 'in', (eb) => eb.selectFrom('positions').select('seq').where('observed_at', '<', cutoff).orderBy('observed_at').limit(batchSize))
        .executeTakeFirst();
      const n = Number(result.numDeletedRows);
      total += n;
      if (n < batchSize) return total;
      await yieldToOthers();
    }
  }

  async function thinDay(day: number, minutes: number, now: number): Promise<number> {
    const from = day * DAY_MS;
    const to = from + DAY_MS;
    const bucket = minutes * 60_000;
    const vessels = (await db.selectFrom('positions').select('vsl_id').distinct().where('observed_at', '>=', from).where('observed_at', '<', to).execute()).map((r) => r.vsl_id);
    let deleted = 0;
    for (let i = 0; i < vessels.length; i += thinVessels) {
      const chunk = vessels.slice(i, i + thinVessels);
      // a position goes when the same vessel has an earlier one in its bucket (bucket start: observed_at rounded down)
      const result = await sql`delete from positions where vsl_id in (${sql.join(chunk)}) and observed_at >= ${from} and observed_at < ${to}
        and exists (select 1 from positions q where q.vsl_id = positions.vsl_id
          and q.observed_at >= positions.observed_at - positions.observed_at % ${bucket} and q.observed_at < positions.observed_at)`.execute(db);
      deleted += Number(result.numAffectedRows ?? 0);
      await yieldToOthers();
    }
    await db
      .insertInto('position_thinning')
      .values({ day, minutes, deleted, thinned_at: now })
      .onConflict((oc) => oc.column('day').doNothing())
      .execute();
    return deleted;
  }

  return {
    /** One run (the `positions_retention` job, hourly). */
    async run(): Promise<RetentionReport> {
      const now = deps.clock.now();
      const { retentionDays, thinAfterDays, thinMinutes } = deps.settings;
      const report: RetentionReport = { cutoff: null, partitionsDropped: [], rowsDeleted: 0, daysThinned: [], busy: false };
      if (retentionDays !== null) {
        const cutoff = (dayIndexOf(now) - retentionDays) * DAY_MS;
        report.cutoff = cutoff;
        if (deps.partitions.enabled) {
          const dropped = await deps.partitions.dropBefore(cutoff);
          if (dropped === null) report.busy = true;
          else report.partitionsDropped = dropped;
        } else {
          report.rowsDeleted += await deleteBefore(cutoff);
        }
      }
      if (thinAfterDays !== null) {
        const lastDay = dayIndexOf(now) - thinAfterDays - 1;
        const oldest = await db
          .selectFrom('positions')
          .select((eb) => eb.fn.min('observed_at').as('t'))
          .executeTakeFirst();
        if (oldest?.t !== null && oldest?.t !== undefined) {
          const done = new Set(
            (
              await db
                .selectFrom('position_thinning')
                .select('day')
                .where('day', '>=', dayIndexOf(Number(oldest.t)))
                .execute()
            ).map((r) => Number(r.day)),
          );
          for (let day = dayIndexOf(Number(oldest.t)); day <= lastDay; day++) {
            if (done.has(day)) continue;
            report.rowsDeleted += await thinDay(day, thinMinutes, now);
            report.daysThinned.push(day);
          }
        }
      }
      return report;
    },
  };
}
export type PositionRetention = ReturnType<typeof createPositionRetention>;
