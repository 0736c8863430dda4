import { sql } from 'kysely';
import { DAY } from '../../platform/clock.js';
import type { Executor } from '../../store/transaction.js';
import { markAllVisitCellsDirty, markVisitCellsDirty } from './visit-cells-repo.js';

/**
 * Keeps `port_call_days` in step with port_calls (docs/decisions/138): the calls counted per UTC day of
 * arrival, UTC day of departure, port, ship type and simulated flag. Every writer of port_calls goes
 * through the events repo, which reads the cells of the calls it replaces or removes before it writes and
 * adds the difference here, in the same executor.
 */

/** The columns of a call its cell is made of. */
export interface CallDayFields {
  port_id: number;
  ship_type: number | null;
  simulated: number;
  arrival: number;
  departure: number | null;
}

/** ship_type of the calls whose type is unknown, and departure_day of those not departed yet. */
export const UNKNOWN_SHIP_TYPE = -1;
export const NOT_DEPARTED = -1;
/** Cells per upsert statement (6 columns). */
const CHUNK = 400;
/** Call keys per read of the calls a write replaces (2 parameters each). */
const KEYS_PER_READ = 400;

const startOfDay = (t: number) => Math.floor(t / DAY) * DAY;

interface Cell {
  arrival_day: number;
  port_id: number;
  ship_type: number;
  simulated: number;
  departure_day: number;
}

const cellOf = (c: CallDayFields): Cell => ({
  arrival_day: startOfDay(Number(c.arrival)),
  port_id: Number(c.port_id),
  ship_type: c.ship_type === null ? UNKNOWN_SHIP_TYPE : Number(c.ship_type),
  simulated: Number(c.simulated),
  departure_day: c.departure === null ? NOT_DEPARTED : startOfDay(Number(c.departure)),
});
const cellKey = (c: Cell) => `${c.arrival_day}|${c.port_id}|${c.ship_type}|${c.simulated}|${c.departure_day}`;

/** Changes of cell counts, summed per cell before they are written. */
export class CallDayDeltas {
  private readonly cells = new Map<string, { cell: Cell; calls: number }>();

  add(call: CallDayFields, calls: number): void {
    const cell = cellOf(call);
    const key = cellKey(cell);
    const held = this.cells.get(key);
    if (held) held.calls += calls;
    else this.cells.set(key, { cell, calls });
  }

  /** Adds the changes to the stored cells, and removes the cells left with no call. */
  async write(ex: Executor): Promise<void> {
    // every call added, replaced or removed marks its visit cell (decision 161), also when its day cell's count is unchanged
    await markVisitCellsDirty(
      ex,
      [...this.cells.values()].map((c) => c.cell),
    );
    const changed = [...this.cells.values()].filter((c) => c.calls !== 0).map((c) => ({ ...c.cell, calls: c.calls }));
    for (let i = 0; i < changed.length; i += CHUNK)
      await ex
        .insertInto('port_call_days')
        .values(changed.slice(i, i + CHUNK))
        .onConflict((oc) => oc.columns(['arrival_day', 'port_id', 'ship_type', 'simulated', 'departure_day']).doUpdateSet({ calls: sql`port_call_days.calls + excluded.calls` }))
        .execute();
    const emptied = [...new Set(changed.filter((c) => c.calls < 0).map((c) => c.arrival_day))];
    for (let i = 0; i < emptied.length; i += CHUNK)
      await ex
        .deleteFrom('port_call_days')
        .where('arrival_day', 'in', emptied.slice(i, i + CHUNK))
        .where('calls', '<=', 0)
        .execute();
    this.cells.clear();
  }
}

/** The stored calls of these keys (vessel and arrival), as they are before a write replaces or removes them. */
export async function storedCallsOf(ex: Executor, keys: ReadonlyArray<{ vsl_id: string; arrival: number }>): Promise<CallDayFields[]> {
  const out: CallDayFields[] = [];
  for (let i = 0; i < keys.length; i += KEYS_PER_READ) {
    const part = keys.slice(i, i + KEYS_PER_READ);
    // one probe of the (vsl_id, arrival) key per call, on both stores
    const rows = await ex
      .selectFrom('port_calls')
      .select(['port_id', 'ship_type', 'simulated', 'arrival', 'departure'])
      .where((eb) => eb.or(part.map((k) => eb.and([eb('vsl_id', '=', k.vsl_id), eb('arrival', '=', Number(k.arrival))]))))
      .execute();
    out.push(...rows);
  }
  return out;
}

/** The cells of the calls that began in [from, to], counted in the store (before the range is deleted). */
export async function callDaysInRange(ex: Executor, from: number, to: number): Promise<Array<CallDayFields & { calls: number }>> {
  const rows = await ex
    .selectFrom('port_calls')
    .select((eb) => [
      sql<number>`(arrival / ${sql.lit(DAY)}) * ${sql.lit(DAY)}`.as('arrival'),
      'port_id',
      'ship_type',
      'simulated',
      sql<number | null>`(departure / ${sql.lit(DAY)}) * ${sql.lit(DAY)}`.as('departure'),
      eb.fn.countAll().as('calls'),
    ])
    .where('arrival', '>=', from)
    .where('arrival', '<=', to)
    .groupBy(sql`1, 2, 3, 4, 5`)
    .execute();
  return rows.map((r) => ({
    arrival: Number(r.arrival),
    port_id: Number(r.port_id),
    ship_type: r.ship_type === null ? null : Number(r.ship_type),
    simulated: Number(r.simulated),
    departure: r.departure === null ? null : Number(r.departure),
    calls: Number(r.calls),
  }));
}

/** All cells counted again from all calls (after a bulk load that bypassed the events repo). */
export async function rebuildAllCallDays(ex: Executor): Promise<void> {
  await markAllVisitCellsDirty(ex);
  await ex.deleteFrom('port_call_days').execute();
  await sql`
    insert into port_call_days (arrival_day, port_id, ship_type, simulated, departure_day, calls)
    select (arrival / ${sql.lit(DAY)}) * ${sql.lit(DAY)}, port_id, coalesce(ship_type, ${sql.lit(UNKNOWN_SHIP_TYPE)}), simulated,
           coalesce((departure / ${sql.lit(DAY)}) * ${sql.lit(DAY)}, ${sql.lit(NOT_DEPARTED)}), count(*)
    from port_calls
    group by 1, 2, 3, 4, 5`.execute(ex);
}
