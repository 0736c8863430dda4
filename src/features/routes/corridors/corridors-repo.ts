import type { Db } from '../../../store/db.js';
import type { TransitFact } from './corridor-stats.js';

/** Reads of the event store's transits for the corridor analytics (rows written by the event runner). */
export function createCorridorsRepo(db: Db) {
  return {
    /** Transits of the given gates that left them in (from, to], oldest first. */
    async transitsExited(zones: readonly string[], from: number, to: number): Promise<TransitFact[]> {
      if (zones.length === 0) return [];
      return db
        .selectFrom('transits')
        .select(['vsl_id', 'zone', 'direction', 'entered_at', 'exited_at', 'mean_speed_kn', 'stopped_ms', 'simulated'])
        .where('zone', 'in', [...zones])
        .where('exited_at', '>', from)
        .where('exited_at', '<=', to)
        .orderBy('exited_at', 'asc')
        .orderBy('id', 'asc')
        .execute();
    },
  };
}
export type CorridorsRepo = ReturnType<typeof createCorridorsRepo>;
