import { voyagePairs, type VoyageCall, type VoyageRow } from '../../events/voyages.js';
import type { Executor } from '../../store/transaction.js';
import { dayStartOf } from '../../events/voyage-cells.js';
import { markAllCellDaysDirty, markCellDaysDirty } from './voyage-cells-repo.js';

/** Voyages per insert statement (8 columns: far below SQLite's bound-parameter limit). */
const CHUNK = 400;

const asCall = (r: VoyageCall): VoyageCall => ({
  vsl_id: r.vsl_id,
  port_id: Number(r.port_id),
  ship_type: r.ship_type === null ? null : Number(r.ship_type),
  arrival: Number(r.arrival),
  departure: r.departure === null ? null : Number(r.departure),
  last_fix_at: Number(r.last_fix_at),
  simulated: Number(r.simulated),
});

/**
 * Keeps the `voyages` table in step with port_calls (docs/decisions/123): after the calls of a vessel
 * changed from some arrival on (written, rewritten or removed), its voyages from the call before that
 * arrival on are written again from its calls. Every writer of port_calls goes through the events repo,
 * which calls this in the same executor (the live runner, `events rebuild`, imports, tests).
 */
export async function refreshVoyages(ex: Executor, changedFrom: ReadonlyMap<string, number>): Promise<void> {
  // the days of the departures removed and written: their voyage cells are summed again later (decision 149)
  const touchedDays = new Set<number>();
  for (const [vslId, from] of changedFrom) {
    const prev = await ex
      .selectFrom('port_calls')
      .select((eb) => eb.fn.max('arrival').as('arrival'))
      .where('vsl_id', '=', vslId)
      .where('arrival', '<', from)
      .executeTakeFirst();
    const start = prev?.arrival === null || prev?.arrival === undefined ? from : Number(prev.arrival);
    const removed = await ex.deleteFrom('voyages').where('vsl_id', '=', vslId).where('from_arrival', '>=', start).returning('departure').execute();
    for (const r of removed) touchedDays.add(dayStartOf(Number(r.departure)));
    const calls = await ex
      .selectFrom('port_calls')
      .select(['vsl_id', 'port_id', 'ship_type', 'arrival', 'departure', 'last_fix_at', 'simulated'])
      .where('vsl_id', '=', vslId)
      .where('arrival', '>=', start)
      .orderBy('arrival', 'asc')
      .execute();
    const written = voyagePairs(calls.map(asCall));
    for (const v of written) touchedDays.add(dayStartOf(v.departure));
    await insertVoyages(ex, written);
  }
  await markCellDaysDirty(ex, touchedDays);
}

export async function insertVoyages(ex: Executor, rows: readonly VoyageRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK)
    await ex
      .insertInto('voyages')
      .values(rows.slice(i, i + CHUNK))
      .execute();
}

/** The earliest changed arrival per vessel of a set of call keys. */
export function changedFromOf(keys: Iterable<{ vsl_id: string; arrival: number }>): Map<string, number> {
  const out = new Map<string, number>();
  for (const k of keys) {
    const held = out.get(k.vsl_id);
    if (held === undefined || k.arrival < held) out.set(k.vsl_id, k.arrival);
  }
  return out;
}

/** The vessels with calls that began in [from, to], each with its earliest such arrival (before a range is deleted). */
export async function changedFromInRange(ex: Executor, from: number, to: number): Promise<Map<string, number>> {
  const rows = await ex
    .selectFrom('port_calls')
    .select((eb) => ['vsl_id', eb.fn.min('arrival').as('first')])
    .where('arrival', '>=', from)
    .where('arrival', '<=', to)
    .groupBy('vsl_id')
    .execute();
  return new Map(rows.map((r) => [r.vsl_id, Number(r.first)]));
}

/** All voyages written again from all calls (after a bulk load that bypassed the events repo). */
export async function rebuildAllVoyages(ex: Executor, page = 5000): Promise<number> {
  await ex.deleteFrom('voyages').execute();
  let carry: VoyageCall | null = null;
  let written = 0;
  for (;;) {
    let q = ex.selectFrom('port_calls').select(['vsl_id', 'port_id', 'ship_type', 'arrival', 'departure', 'last_fix_at', 'simulated']);
    if (carry) {
      const last = carry;
      q = q.where((eb) => eb.or([eb('vsl_id', '>', last.vsl_id), eb.and([eb('vsl_id', '=', last.vsl_id), eb('arrival', '>', last.arrival)])]));
    }
    const rows = await q.orderBy('vsl_id', 'asc').orderBy('arrival', 'asc').limit(page).execute();
    if (rows.length === 0) break;
    const calls: VoyageCall[] = [...(carry ? [carry] : []), ...rows.map(asCall)];
    const voyages = voyagePairs(calls);
    await insertVoyages(ex, voyages);
    written += voyages.length;
    carry = calls[calls.length - 1]!;
    if (rows.length < page) break;
  }
  await markAllCellDaysDirty(ex);
  return written;
}
