/**
 * The lanes benchmarks' synthetic store: V vessels each calling every ~2 days for D days at ports drawn from the demo
 * fleet's port lists (mostly between a few partner ports, sometimes anywhere), 6–36 h in port and 12–72 h at sea
 * whatever the distance (so most pairs of calls between distant ports are faster than the lanes' speed rule allows),
 * written through the events repo (which keeps the voyages, the call counts per day and marks the cells' days). The
 * same calls in every run (xorshift).
 */
import type { Bosun } from '../../src/app/create.js';
import { DAY, HOUR } from '../../src/platform/clock.js';
import { BULK_PORTS, LNG_IMPORT_PORTS, OIL_PORTS } from '../../src/sim/world.js';
import { createEventsRepo, type EventsRepo } from '../../src/features/events/events-repo.js';
import { xorshift } from '../kit/fleet-bench.js';

/** The demo fleet's ports the port table knows (a LOCODE the demo knows by its own ports table may be absent from it). */
export function lanesBenchPorts(bosun: Bosun): number[] {
  const routes = bosun.ctx.services.routes;
  return [...new Set([...OIL_PORTS, ...LNG_IMPORT_PORTS, ...BULK_PORTS])].flatMap((l) => {
    try {
      return [routes.resolvePlace(l, 'x').port!.port_id];
    } catch {
      return [];
    }
  });
}

/** Writes the calls of `vessels` vessels over the `days` days before `now`, 2,000 at a time; returns how many calls. */
export async function writeLanesBenchCalls(bosun: Bosun, ports: readonly number[], vessels: number, days: number, now: number): Promise<number> {
  const rand = xorshift();
  const events = createEventsRepo(bosun.ctx.store.db, bosun.ctx.services.ports);
  let rows: Parameters<EventsRepo['upsertCalls']>[0][number][] = [];
  let calls = 0;
  let seq = 1;
  const flush = async () => {
    await events.upsertCalls(rows);
    calls += rows.length;
    rows = [];
  };
  for (let v = 0; v < vessels; v++) {
    let t = now - days * DAY - rand() * 2 * DAY;
    const home = Math.floor(rand() * ports.length);
    let port = ports[home]!;
    while (t < now) {
      const stay = (6 + rand() * 30) * HOUR;
      const departure = t + stay < now ? t + stay : null;
      rows.push({
        vsl_id: `v${v}`,
        port_id: port,
        ship_type: 70 + Math.floor(rand() * 2) * 10,
        arrival: Math.round(t),
        departure: departure === null ? null : Math.round(departure),
        last_fix_at: Math.round(departure ?? now),
        anchorage_ms: 0,
        berth_ms: 0,
        stops: '[]',
        first_seq: seq++,
        last_seq: seq++,
        fixes: 10,
        gaps: 0,
        confidence: 0.9,
        simulated: 1,
        updated_at: now,
      });
      port = ports[rand() < 0.7 ? (home + 1 + Math.floor(rand() * 3)) % ports.length : Math.floor(rand() * ports.length)]!;
      t += stay + (12 + rand() * 60) * HOUR;
    }
    if (rows.length >= 2000) await flush();
  }
  await flush();
  return calls;
}
