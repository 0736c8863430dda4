import { sql } from 'kysely';
import { HOURS_PER_DAY, cellOf, speedTenthsOf } from '../../events/transit-cells.js';
import { DAY, HOUR } from '../../platform/clock.js';
import type { TransitCellsTable, TransitsTable } from '../../store/schema.js';
import type { Executor } from '../../store/transaction.js';

/**
 * Keeps `transit_cells` in step with transits (docs/decisions/155): every writer of transits goes through the
 * events repo, which reads the transits it replaces or removes before it writes and adds the difference to
 * the cells here, in the same executor (as call-days-repo.ts does for the port calls).
 */

/** The columns of a transit its cells are made of. */
export type TransitCellFields = Pick<TransitsTable, 'zone' | 'direction' | 'entered_at' | 'exited_at' | 'mean_speed_kn' | 'stopped_ms' | 'simulated'>;

type CellSums = Pick<TransitCellsTable, 'transits' | 'simulated' | 'speeds' | 'speed_tenths' | 'in_gate_ms' | 'stopped_ms'>;

/** Cells per upsert statement (10 columns). */
const CHUNK = 200;
/** Transit keys per read of the transits a write replaces (3 parameters each). */
const KEYS_PER_READ = 300;

const noSums = (): CellSums => ({ transits: 0, simulated: 0, speeds: 0, speed_tenths: 0, in_gate_ms: 0, stopped_ms: 0 });

/** Changes of the cells, per gate, direction and day, each hour's change counted in that hour and every later one of the day. */
export class TransitCellDeltas {
  private readonly days = new Map<string, { zone: string; direction: string; day: number; hours: CellSums[] }>();

  add(t: TransitCellFields, sign: 1 | -1): void {
    const { day, hour } = cellOf(Number(t.exited_at));
    const key = `${t.zone}|${t.direction}|${day}`;
    let held = this.days.get(key);
    if (!held) this.days.set(key, (held = { zone: t.zone, direction: t.direction, day, hours: Array.from({ length: HOURS_PER_DAY }, noSums) }));
    const cell = held.hours[hour]!;
    cell.transits += sign;
    cell.simulated += sign * (Number(t.simulated) === 1 ? 1 : 0);
    if (t.mean_speed_kn !== null && t.mean_speed_kn !== undefined) {
      cell.speeds += sign;
      cell.speed_tenths += sign * speedTenthsOf(Number(t.mean_speed_kn));
    }
    cell.in_gate_ms += sign * Math.max(0, Number(t.exited_at) - Number(t.entered_at));
    cell.stopped_ms += sign * Number(t.stopped_ms);
  }

  /** Adds the changes to the stored cells, and removes the cells left with no transit. */
  async write(ex: Executor): Promise<void> {
    const rows: TransitCellsTable[] = [];
    let shrunk = false;
    for (const { zone, direction, day, hours } of this.days.values()) {
      const running = noSums();
      for (let hour = 0; hour < HOURS_PER_DAY; hour++) {
        const change = hours[hour]!;
        if (change.transits < 0) shrunk = true;
        for (const k of Object.keys(running) as Array<keyof CellSums>) running[k] += change[k];
        if (Object.values(running).some((v) => v !== 0)) rows.push({ zone, direction, day, hour, ...running });
      }
    }
    for (let i = 0; i < rows.length; i += CHUNK)
      await ex
        .insertInto('transit_cells')
        .values(rows.slice(i, i + CHUNK))
        .onConflict((oc) =>
          oc.columns(['zone', 'hour', 'day', 'direction']).doUpdateSet({
            transits: sql`transit_cells.transits + excluded.transits`,
            simulated: sql`transit_cells.simulated + excluded.simulated`,
            speeds: sql`transit_cells.speeds + excluded.speeds`,
            speed_tenths: sql`transit_cells.speed_tenths + excluded.speed_tenths`,
            in_gate_ms: sql`transit_cells.in_gate_ms + excluded.in_gate_ms`,
            stopped_ms: sql`transit_cells.stopped_ms + excluded.stopped_ms`,
          }),
        )
        .execute();
    if (shrunk) {
      const emptied = [...new Set([...this.days.values()].map((d) => d.day))];
      for (let i = 0; i < emptied.length; i += CHUNK)
        await ex
          .deleteFrom('transit_cells')
          .where('day', 'in', emptied.slice(i, i + CHUNK))
          .where('transits', '<=', 0)
          .execute();
    }
    this.days.clear();
  }
}

const FIELDS = ['zone', 'direction', 'entered_at', 'exited_at', 'mean_speed_kn', 'stopped_ms', 'simulated'] as const;

/** The stored transits of these keys (vessel, gate, entry), as they are before a write replaces them. */
export async function storedTransitsOf(ex: Executor, keys: ReadonlyArray<Pick<TransitsTable, 'vsl_id' | 'zone' | 'entered_at'>>): Promise<TransitCellFields[]> {
  const out: TransitCellFields[] = [];
  for (let i = 0; i < keys.length; i += KEYS_PER_READ) {
    const part = keys.slice(i, i + KEYS_PER_READ);
    const rows = await ex
      .selectFrom('transits')
      .select(FIELDS)
      .where((eb) => eb.or(part.map((k) => eb.and([eb('vsl_id', '=', k.vsl_id), eb('zone', '=', k.zone), eb('entered_at', '=', Number(k.entered_at))]))))
      .execute();
    out.push(...rows);
  }
  return out;
}

/** The transits that entered a gate in [from, to] (before the range is deleted). */
export async function transitsEnteredIn(ex: Executor, from: number, to: number): Promise<TransitCellFields[]> {
  return ex.selectFrom('transits').select(FIELDS).where('entered_at', '>=', from).where('entered_at', '<=', to).execute();
}

/** All cells counted again from all transits. */
export async function rebuildAllTransitCells(ex: Executor): Promise<void> {
  await ex.deleteFrom('transit_cells').execute();
  const hours = sql.join(
    Array.from({ length: HOURS_PER_DAY }, (_, h) => sql`select ${sql.lit(h)} as hour`),
    sql` union all `,
  );
  await sql`
    insert into transit_cells (zone, direction, day, hour, transits, simulated, speeds, speed_tenths, in_gate_ms, stopped_ms)
    select t.zone, t.direction, (t.exited_at / ${sql.lit(DAY)}) * ${sql.lit(DAY)}, h.hour, count(*), sum(t.simulated), count(t.mean_speed_kn),
           coalesce(sum(cast(round(cast(t.mean_speed_kn * 10 as numeric)) as bigint)), 0),
           sum(case when t.exited_at > t.entered_at then t.exited_at - t.entered_at else 0 end), sum(t.stopped_ms)
    from transits t join (${hours}) h on (t.exited_at % ${sql.lit(DAY)}) / ${sql.lit(HOUR)} <= h.hour
    group by t.zone, t.direction, (t.exited_at / ${sql.lit(DAY)}) * ${sql.lit(DAY)}, h.hour`.execute(ex);
}
