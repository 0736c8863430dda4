// The corridor reads computed from the stored transits one by one, for the property test of issue 31
// (docs/decisions/155): the per-transit computation the transit cells replaced, each window's transits
// picked by the one membership rule (exitedIn) and summed, with no cell and no edge arithmetic.
import type { Db } from '../../src/store/db.js';
import type { CorridorsRepo } from '../../src/features/routes/corridors/corridors-repo.js';
import { exitedIn, spreadOfTransits, sumsOfTransits, type TransitFact } from '../../src/features/routes/corridors/corridor-stats.js';

export function createTransitsCorridorsRepo(db: Db): CorridorsRepo {
  const exited = async (zones: readonly string[], from: number, to: number): Promise<TransitFact[]> =>
    zones.length === 0
      ? []
      : db
          .selectFrom('transits')
          .select(['vsl_id', 'zone', 'direction', 'entered_at', 'exited_at', 'mean_speed_kn', 'stopped_ms', 'simulated'])
          .where('zone', 'in', [...zones])
          .where('exited_at', '>', from)
          .where('exited_at', '<=', to)
          .execute();
  return {
    async windowSums(zones, bounds) {
      const rows = bounds.length < 2 ? [] : await exited(zones, bounds[0]!, bounds[bounds.length - 1]!);
      return new Map(zones.map((zone) => [zone, bounds.slice(1).map((to, i) => sumsOfTransits(rows.filter((t) => t.zone === zone && exitedIn(t, { from: bounds[i]!, to }))))]));
    },
    async spread(counts, window) {
      const rows = await exited([...counts.keys()], window.from, window.to);
      return new Map([...counts.keys()].map((zone) => [zone, spreadOfTransits(rows.filter((t) => t.zone === zone))]));
    },
  };
}
