import type { Insertable } from 'kysely';
import type { Db } from '../../store/db.js';
import type { Trx } from '../../store/transaction.js';
import type { PortAreasTable } from '../../store/schema.js';

export type PortAreaRow = PortAreasTable & { area_id: number };
export type PortAreaWrite = Insertable<PortAreasTable>;

/** Rows per statement: far below SQLite's bound-parameter limit at 13 columns. */
const CHUNK = 400;
/** Port calls read per page when the areas are rebuilt. */
const CALLS_PAGE = 5_000;

/** Stored port areas (docs/decisions/116) and the stored stops they are learnt from. */
export function createPortAreasRepo(db: Db) {
  return {
    /** Replaces every area of the given provenances (operator areas are kept) in one transaction. */
    async replace(provenances: readonly string[], rows: readonly PortAreaWrite[]): Promise<{ deleted: number; written: number }> {
      return db.transaction().execute(async (trx) => {
        const deleted = await trx.deleteFrom('port_areas').where('provenance', 'in', provenances).executeTakeFirst();
        for (let i = 0; i < rows.length; i += CHUNK)
          await trx
            .insertInto('port_areas')
            .values(rows.slice(i, i + CHUNK))
            .execute();
        return { deleted: Number(deleted.numDeletedRows), written: rows.length };
      });
    },

    /** When the gfw and learnt areas were last built (operator areas aside), or null before any build. */
    async lastBuiltAt(): Promise<number | null> {
      const row = await db
        .selectFrom('port_areas')
        .select((eb) => eb.fn.max('updated_at').as('at'))
        .where('provenance', 'in', ['gfw', 'learnt'])
        .executeTakeFirst();
      return row?.at == null ? null : Number(row.at);
    },

    /** Changes whenever any area does (a rebuild, an operator row added or removed): what the detector's cache compares. */
    async version(): Promise<string> {
      const row = await db
        .selectFrom('port_areas')
        .select((eb) => [eb.fn.countAll().as('n'), eb.fn.max('updated_at').as('at'), eb.fn.max('area_id').as('id')])
        .executeTakeFirst();
      return `${Number(row?.n ?? 0)}:${row?.at == null ? '' : Number(row.at)}:${row?.id == null ? '' : Number(row.id)}`;
    },

    /** Writes an operator area (a correction) in the caller's transaction. */
    async insertOperator(row: PortAreaWrite, trx: Trx): Promise<void> {
      await trx.insertInto('port_areas').values(row).execute();
    },

    /** Removes the operator areas of a ticket (its correction reverted); how many. */
    async deleteByTicket(ticketId: string, trx: Trx): Promise<number> {
      const r = await trx.deleteFrom('port_areas').where('provenance', '=', 'operator').where('ticket_id', '=', ticketId).executeTakeFirst();
      return Number(r.numDeletedRows);
    },

    /** A port's areas (in the caller's transaction when given). */
    async ofPort(portId: number, trx?: Trx): Promise<PortAreaRow[]> {
      return (trx ?? db).selectFrom('port_areas').selectAll().where('port_id', '=', portId).orderBy('area_id', 'asc').execute() as Promise<PortAreaRow[]>;
    },

    async all(): Promise<PortAreaRow[]> {
      return db.selectFrom('port_areas').selectAll().orderBy('area_id', 'asc').execute() as Promise<PortAreaRow[]>;
    },

    /** Every stored call's port, vessel and stops, a page at a time (by id). */
    async *callStops(): AsyncGenerator<Array<{ port_id: number; vsl_id: string; stops: string }>> {
      let after = 0;
      for (;;) {
        const rows = await db.selectFrom('port_calls').select(['id', 'port_id', 'vsl_id', 'stops']).where('id', '>', after).orderBy('id', 'asc').limit(CALLS_PAGE).execute();
        if (rows.length === 0) return;
        yield rows;
        after = rows[rows.length - 1]!.id;
        if (rows.length < CALLS_PAGE) return;
      }
    },
  };
}

export type PortAreasRepo = ReturnType<typeof createPortAreasRepo>;
