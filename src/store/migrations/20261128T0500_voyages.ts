import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';
import { createTables } from './helpers/create-tables.js';

/** Calls read per page of the backfill. */
const PAGE = 5000;
/** Voyages per insert statement (8 columns: far below SQLite's bound-parameter limit). */
const CHUNK = 400;

/**
 * Issue 31 (docs/decisions/123): the voyages kept by the event runner, one row per consecutive pair of a
 * vessel's port calls at two ports, so that the lanes analytics read voyages instead of recomputing them
 * from every call of the window. Backfilled here from the calls already stored.
 */
export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await createTables(db, d, [
    {
      name: 'voyages',
      columns: `
        id autoincrement
        vsl_id text not null
        from_port integer not null
        to_port integer not null
        from_arrival bigint not null
        departure bigint not null
        arrival bigint not null
        ship_type integer
        simulated integer not null`,
      indexes: `
        voyages_vessel_origin unique (vsl_id, from_arrival)`,
    },
  ]);
  // covering the window read of the lanes (departure range, every column they use): no table lookups
  await db.schema.createIndex('voyages_departure').on('voyages').columns(['departure', 'arrival', 'from_arrival', 'ship_type', 'from_port', 'to_port', 'vsl_id', 'simulated']).execute();
  await db.schema.createIndex('voyages_from_departure').on('voyages').columns(['from_port', 'departure']).execute();
  await db.schema.createIndex('voyages_to_departure').on('voyages').columns(['to_port', 'departure']).execute();

  // backfill: every call by vessel then arrival, a page at a time, the last call of a page carried into the next
  let carry: VoyageCall | null = null;
  for (;;) {
    let q = db.selectFrom('port_calls').select(['vsl_id', 'port_id', 'ship_type', 'arrival', 'departure', 'last_fix_at', 'simulated']);
    if (carry) {
      const last = carry;
      q = q.where((eb) => eb.or([eb('vsl_id', '>', last.vsl_id), eb.and([eb('vsl_id', '=', last.vsl_id), eb('arrival', '>', last.arrival)])]));
    }
    const rows = (await q.orderBy('vsl_id', 'asc').orderBy('arrival', 'asc').limit(PAGE).execute()) as VoyageCall[];
    if (rows.length === 0) break;
    const calls: VoyageCall[] = (carry ? [carry, ...rows] : rows).map((r) => ({
      ...r,
      port_id: Number(r.port_id),
      arrival: Number(r.arrival),
      departure: r.departure === null ? null : Number(r.departure),
      last_fix_at: Number(r.last_fix_at),
      simulated: Number(r.simulated),
    }));
    const voyages: VoyageRow[] = voyagePairs(calls);
    for (let i = 0; i < voyages.length; i += CHUNK)
      await db
        .insertInto('voyages')
        .values(voyages.slice(i, i + CHUNK))
        .execute();
    carry = calls[calls.length - 1]!;
    if (rows.length < PAGE) break;
  }
}

// The voyage rule as it stood at this migration (src/events/voyages.ts, decision 123), frozen here: a migration
// never follows the live code.
/** The columns of a port call a voyage is made of. */
interface VoyageCall {
  vsl_id: string;
  port_id: number;
  ship_type: number | null;
  arrival: number;
  departure: number | null;
  last_fix_at: number;
  simulated: number;
}

/** One stored voyage (the `voyages` table): keyed by vessel and the arrival of its origin call. */
interface VoyageRow {
  vsl_id: string;
  from_port: number;
  to_port: number;
  from_arrival: number;
  departure: number;
  arrival: number;
  ship_type: number | null;
  simulated: number;
}

/** Voyages of consecutive calls (sorted by vessel, then arrival); no window, no order check: readers filter. */
function voyagePairs(calls: readonly VoyageCall[]): VoyageRow[] {
  const out: VoyageRow[] = [];
  for (let i = 1; i < calls.length; i++) {
    const a = calls[i - 1]!;
    const b = calls[i]!;
    if (a.vsl_id !== b.vsl_id || a.port_id === b.port_id) continue;
    out.push({
      vsl_id: a.vsl_id,
      from_port: a.port_id,
      to_port: b.port_id,
      from_arrival: a.arrival,
      departure: a.departure ?? a.last_fix_at,
      arrival: b.arrival,
      ship_type: b.ship_type ?? a.ship_type,
      simulated: a.simulated === 1 || b.simulated === 1 ? 1 : 0,
    });
  }
  return out;
}
