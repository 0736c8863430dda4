// The route stress reads computed from the stored events one by one, for the property test of issue 31
// (docs/decisions/159): what the route stress index read before the transit cells, every transit of the gate
// and every call of the span, with no stopped-transit filter and no vessel filter.
import type { Db } from '../../src/store/db.js';
import type { StressRepo } from '../../src/features/routes/stress/stress-repo.js';

export function createEventsStressRepo(db: Db): StressRepo {
  const gateTransits = async (zone: string, from: number, to: number) =>
    (await db.selectFrom('transits').select(['vsl_id', 'entered_at', 'exited_at', 'stopped_ms']).where('zone', '=', zone).where('exited_at', '>=', from).where('exited_at', '<=', to).execute()).map(
      (t) => ({
        vsl_id: t.vsl_id,
        entered_at: Number(t.entered_at),
        exited_at: Number(t.exited_at),
        stopped_ms: Number(t.stopped_ms),
      }),
    );
  return {
    async newestExit(zone, from, to) {
      const exits = (await gateTransits(zone, from, to)).filter((t) => t.exited_at > from).map((t) => t.exited_at);
      return exits.length ? Math.max(...exits) : null;
    },
    async stoppedInCalls(zone, exits, arrivals) {
      const transits = (await gateTransits(zone, exits.from, exits.to)).filter((t) => t.exited_at > exits.from);
      const calls = await db
        .selectFrom('port_calls')
        .select(['vsl_id', 'port_id', 'arrival', 'departure', 'last_fix_at', 'simulated'])
        .where('arrival', '>=', arrivals.from)
        .where('arrival', '<', arrivals.to)
        .execute();
      return { transits, calls };
    },
    async transitsOfVessels(zone, _vslIds, from, to) {
      return gateTransits(zone, from, to);
    },
  };
}
