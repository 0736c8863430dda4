import { sql, type Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';
import { createTables } from './helpers/create-tables.js';

const DAY_MS = 86_400_000;

/** `positions_pYYYYMMDD`, the partition of the UTC day starting at `dayIndex * DAY_MS` (as src/store/position-partitions.ts names them). */
function partitionName(dayIndex: number): string {
  return `positions_p${new Date(dayIndex * DAY_MS).toISOString().slice(0, 10).replace(/-/g, '')}`;
}

/**
 * PostgreSQL: positions become a table partitioned by UTC day of observed_at (docs/decisions/101), every
 * row kept with its seq. The old table is renamed, a partitioned `positions` created with the same columns
 * (seq drawn from the same sequence, now owned by the new column, so pg_get_serial_sequence still finds it),
 * one partition per day the old rows cover, the rows copied, the old table dropped. Indexes are declared on
 * the parent and exist per partition: (vsl_id, observed_at) unique, (observed_at, seq) and (seq); seq is no
 * longer a primary key (a unique index on a partitioned table must hold the partition key), it stays unique
 * because only the sequence hands it out. SQLite keeps one table (retention deletes in batches there).
 * Both: `position_thinning` records the days thinned.
 */
export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  // the UTC days already thinned (one position per vessel per `minutes`), so a day is thinned once
  await createTables(db, d, [
    {
      name: 'position_thinning',
      columns: `
        day bigint primary key
        minutes integer not null
        deleted bigint not null
        thinned_at bigint not null`,
    },
  ]);
  if (d.name !== 'postgres') return;
  await sql`alter table positions rename to positions_unpartitioned`.execute(db);
  await sql`alter table positions_unpartitioned rename constraint positions_pkey to positions_unpartitioned_pkey`.execute(db);
  await sql`alter index positions_vessel_time rename to positions_unpartitioned_vessel_time`.execute(db);
  await sql`alter index positions_observed_at rename to positions_unpartitioned_observed_at`.execute(db);
  const { rows } = await sql<{ seq_name: string }>`select pg_get_serial_sequence('positions_unpartitioned', 'seq') as seq_name`.execute(db);
  const sequence = rows[0]!.seq_name;
  await sql`create table positions (
    seq bigint not null default nextval(${sql.lit(sequence)}::regclass),
    vsl_id text not null,
    observed_at bigint not null,
    received_at bigint not null,
    lat double precision not null,
    lon double precision not null,
    sog double precision,
    cog double precision,
    heading double precision,
    nav_status integer,
    msg_type integer,
    source text not null,
    simulated integer not null,
    usable integer not null,
    quality_flags text not null
  ) partition by range (observed_at)`.execute(db);
  await sql`alter sequence ${sql.raw(sequence)} owned by positions.seq`.execute(db);
  await sql`create unique index positions_vessel_time on positions (vsl_id, observed_at)`.execute(db);
  await sql`create index positions_observed_at on positions (observed_at, seq)`.execute(db);
  await sql`create index positions_seq on positions (seq)`.execute(db);
  const days = await sql<{ day: number | string }>`select distinct floor(observed_at / ${DAY_MS}::numeric)::bigint as day from positions_unpartitioned order by 1`.execute(db);
  for (const { day } of days.rows) {
    const index = Number(day);
    await sql`create table ${sql.id(partitionName(index))} partition of positions for values from (${sql.lit(index * DAY_MS)}) to (${sql.lit((index + 1) * DAY_MS)})`.execute(db);
  }
  await sql`insert into positions (seq, vsl_id, observed_at, received_at, lat, lon, sog, cog, heading, nav_status, msg_type, source, simulated, usable, quality_flags)
    select seq, vsl_id, observed_at, received_at, lat, lon, sog, cog, heading, nav_status, msg_type, source, simulated, usable, quality_flags from positions_unpartitioned`.execute(db);
  await sql`drop table positions_unpartitioned`.execute(db);
}
