import { sql, type Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';
import { createTables } from './helpers/create-tables.js';

/**
 * Issue 31 (docs/decisions/155): the chokepoint transits summed per gate, direction, UTC day and hour of exit,
 * cumulative over the day (the cell of hour h holds the day's transits up to the end of h), counted here from
 * the stored transits; the events repo keeps them from then on.
 */
export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await createTables(db, d, [
    {
      name: 'transit_cells',
      columns: `
        zone text not null
        direction text not null
        day bigint not null
        hour integer not null
        transits integer not null
        simulated integer not null
        speeds integer not null
        speed_tenths bigint not null
        in_gate_ms bigint not null
        stopped_ms bigint not null
        constraint transit_cells_key primary key (zone, hour, day, direction)`,
    },
  ]);
  // frozen here (a migration never follows the live code): the cells as src/features/events/transit-cells-repo.ts counts them
  const hours = sql.join(
    Array.from({ length: 24 }, (_, h) => sql`select ${sql.lit(h)} as hour`),
    sql` union all `,
  );
  await sql`
    insert into transit_cells (zone, direction, day, hour, transits, simulated, speeds, speed_tenths, in_gate_ms, stopped_ms)
    select t.zone, t.direction, (t.exited_at / 86400000) * 86400000, h.hour, count(*), sum(t.simulated), count(t.mean_speed_kn),
           coalesce(sum(cast(round(cast(t.mean_speed_kn * 10 as numeric)) as bigint)), 0),
           sum(case when t.exited_at > t.entered_at then t.exited_at - t.entered_at else 0 end), sum(t.stopped_ms)
    from transits t join (${hours}) h on (t.exited_at % 86400000) / 3600000 <= h.hour
    group by t.zone, t.direction, (t.exited_at / 86400000) * 86400000, h.hour`.execute(db);
}
