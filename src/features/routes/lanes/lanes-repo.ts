import type { Db } from '../../../store/db.js';
import type { LaneCall } from './lanes-math.js';

/** The port calls the lanes analytics read (docs/lanes.md): the event store's port_calls table. */
export function createLanesRepo(db: Db) {
  return {
    /**
     * Calls that began in [since - lookbackMs, until) and had not ended before since, by vessel then
     * arrival; at most `cap` + 1 rows (the caller refuses more). Leaving out calls that ended before
     * since breaks no voyage of the window: a voyage from such a call departed before it.
     */
    async callsForWindow(since: number, until: number, lookbackMs: number, cap: number): Promise<LaneCall[]> {
      return db
        .selectFrom('port_calls')
        .select(['vsl_id', 'port_id', 'ship_type', 'arrival', 'departure', 'last_fix_at', 'simulated'])
        .where('arrival', '>=', since - lookbackMs)
        .where('arrival', '<', until)
        .where((eb) => eb.or([eb('arrival', '>=', since), eb('departure', '>=', since), eb.and([eb('departure', 'is', null), eb('last_fix_at', '>=', since)])]))
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
