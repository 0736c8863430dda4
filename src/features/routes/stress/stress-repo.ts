import type { Db } from '../../../store/db.js';
import type { CallFacts, TransitFacts } from './stress-measures.js';

export type StressTransit = TransitFacts;
export type StressCall = CallFacts;

/**
 * The route stress reads beside the transit cells (docs/decisions/159): each reads rows of the answer, not the
 * transits of the range and its baseline windows.
 */
export interface StressRepo {
  /** Newest exit of a transit of the gate in (from, to]; null with none. */
  newestExit(zone: string, from: number, to: number): Promise<number | null>;
  /**
   * The transits of the gate that left in (from, to], stood still, and overlap a call of their vessel that
   * arrived in [callsFrom, callsTo); and those vessels' calls that arrived then. A transit overlapping no
   * call may be among them (a candidate); one that overlaps a call is.
   */
  stoppedInCalls(zone: string, exits: { from: number; to: number }, arrivals: { from: number; to: number }): Promise<{ transits: StressTransit[]; calls: StressCall[] }>;
  /** The transits of the gate by these vessels that left in [from, to]. */
  transitsOfVessels(zone: string, vslIds: readonly string[], from: number, to: number): Promise<StressTransit[]>;
}

/** Vessel ids per statement. */
const IDS_PER_READ = 500;

const inChunks = async <T>(ids: readonly string[], read: (part: string[]) => Promise<T[]>): Promise<T[]> => {
  const out: T[] = [];
  for (let i = 0; i < ids.length; i += IDS_PER_READ) out.push(...(await read(ids.slice(i, i + IDS_PER_READ))));
  return out;
};

const numbersOf = (t: { vsl_id: string; entered_at: number | string; exited_at: number | string; stopped_ms: number | string }): StressTransit => ({
  vsl_id: t.vsl_id,
  entered_at: Number(t.entered_at),
  exited_at: Number(t.exited_at),
  stopped_ms: Number(t.stopped_ms),
});

export function createStressRepo(db: Db): StressRepo {
  return {
    async newestExit(zone, from, to) {
      const row = await db
        .selectFrom('transits')
        .select((eb) => eb.fn.max('exited_at').as('newest'))
        .where('zone', '=', zone)
        .where('exited_at', '>', from)
        .where('exited_at', '<=', to)
        .executeTakeFirst();
      return row?.newest === null || row?.newest === undefined ? null : Number(row.newest);
    },

    async stoppedInCalls(zone, exits, arrivals) {
      // the partial index transits_zone_stopped_exited (migration 20261129T1400) holds the stopped transits alone
      const transits = (
        await db
          .selectFrom('transits as t')
          .select(['t.vsl_id', 't.entered_at', 't.exited_at', 't.stopped_ms'])
          .where('t.zone', '=', zone)
          .where('t.stopped_ms', '>', 0)
          .where('t.exited_at', '>', exits.from)
          .where('t.exited_at', '<=', exits.to)
          .where(({ exists, selectFrom }) =>
            exists(
              selectFrom('port_calls as c')
                .select('c.vsl_id')
                .whereRef('c.vsl_id', '=', 't.vsl_id')
                .where('c.arrival', '>=', arrivals.from)
                .where('c.arrival', '<', arrivals.to)
                .whereRef('c.arrival', '<', 't.exited_at')
                .where((eb) => eb(eb.fn.coalesce('c.departure', 'c.last_fix_at'), '>', eb.ref('t.entered_at'))),
            ),
          )
          .execute()
      ).map(numbersOf);
      const vessels = [...new Set(transits.map((t) => t.vsl_id))];
      const calls = await inChunks(vessels, (part) =>
        db
          .selectFrom('port_calls')
          .select(['vsl_id', 'port_id', 'arrival', 'departure', 'last_fix_at', 'simulated'])
          .where('vsl_id', 'in', part)
          .where('arrival', '>=', arrivals.from)
          .where('arrival', '<', arrivals.to)
          .execute(),
      );
      return { transits, calls };
    },

    async transitsOfVessels(zone, vslIds, from, to) {
      const rows = await inChunks(vslIds, (part) =>
        db
          .selectFrom('transits')
          .select(['vsl_id', 'entered_at', 'exited_at', 'stopped_ms'])
          .where('zone', '=', zone)
          .where('vsl_id', 'in', part)
          .where('exited_at', '>=', from)
          .where('exited_at', '<=', to)
          .execute(),
      );
      return rows.map(numbersOf);
    },
  };
}
