import type { Db } from '../../store/db.js';
import type { LaneCall } from './lanes-math.js';

/** The port calls the lanes analytics read (docs/lanes.md): the event store's port_calls table. */
export function createLanesRepo(db: Db) {
  return {
    /** Calls that began in [from, to), by vessel then arrival; at most `cap` + 1 rows (the caller refuses more). */
    async callsArrivedBetween(from: number, to: number, cap: number): Promise<LaneCall[]> {
      return db
        .selectFrom('port_calls')
        .select(['vsl_id', 'port_id', 'ship_type', 'arrival', 'departure', 'last_fix_at', 'simulated'])
        .where('arrival', '>=', from)
        .where('arrival', '<', to)
        .orderBy('vsl_id', 'asc')
        .orderBy('arrival', 'asc')
        .limit(cap + 1)
        .execute();
    },

    /** The earliest arrival in the store (where the history begins), or null when it holds no call. */
    async firstArrival(): Promise<number | null> {
      const row = await db
        .selectFrom('port_calls')
        .select((eb) => eb.fn.min('arrival').as('first'))
        .executeTakeFirst();
      return row?.first === null || row?.first === undefined ? null : Number(row.first);
    },
  };
}
export type LanesRepo = ReturnType<typeof createLanesRepo>;
