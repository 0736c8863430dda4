import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Caller } from '../../src/access/principals.js';
import { DAY, HOUR, MINUTE } from '../../src/platform/clock.js';
import { CHOKEPOINTS } from '../../src/events/chokepoints.js';
import { createEventsRepo, type TransitWrite } from '../../src/features/events/events-repo.js';
import { createFleetReads } from '../../src/fleet/fleet-reads.js';
import { createCorridorsService, RANKING_METRICS, type CorridorsService } from '../../src/features/routes/corridors/corridors-service.js';
import { startTestApp, TEST_EPOCH, type TestApp } from '../helpers/app.js';
import { seedCoverage } from '../helpers/fleet.js';
import { createTransitsCorridorsRepo } from '../helpers/corridors-transits-repo.js';
import { prng } from '../helpers/prng.js';

/**
 * Property test of issue 31 (docs/decisions/155): on random stores (random gates, directions, speeds with and
 * without a value, stops, simulated transits, exits on the hour and on the windows' bounds), every corridors
 * operation answers from the transit cells exactly what it answers over the stored transits summed one by one
 * (test/helpers/corridors-transits-repo.ts), at horizons anywhere in an hour, after transits are written in
 * shuffled chunks, rewritten (another exit, speed, direction) and a range deleted as `events rebuild` does;
 * and the cells kept as transits are written equal the cells counted again from all transits.
 */
const NOW = TEST_EPOCH;
const STORES = 5;
const caller: Caller = { kind: 'operator', operator: { tokenPrefix: 'property' } };

let app: TestApp;

/** Transits over the 70 days before NOW at a few gates; some leave exactly on an hour or a day bound before NOW. */
function randomTransits(rand: () => number, count: number): TransitWrite[] {
  const gates = CHOKEPOINTS.filter(() => rand() < 0.4);
  const rows: TransitWrite[] = [];
  for (let i = 0; i < count && gates.length > 0; i++) {
    const gate = gates[Math.floor(rand() * gates.length)]!;
    const exited = rand() < 0.15 ? NOW - Math.floor(rand() * 70) * DAY - (rand() < 0.5 ? 0 : Math.floor(rand() * 24) * HOUR) : NOW - Math.floor(rand() * 70 * DAY);
    const inGate = rand() < 0.05 ? 0 : Math.floor(rand() * 30 * HOUR);
    rows.push({
      vsl_id: `c${Math.floor(rand() * 40)}`,
      zone: gate.key,
      direction: rand() < 0.03 ? 'unnamed' : gate.directions[rand() < 0.5 ? 0 : 1],
      entered_at: exited - inGate,
      exited_at: exited,
      mean_speed_kn: rand() < 0.1 ? null : Math.round(rand() * 200) / 10,
      stopped_ms: rand() < 0.3 ? Math.floor(rand() * inGate) : 0,
      first_seq: i * 2 + 1,
      last_seq: i * 2 + 2,
      fixes: 10,
      simulated: rand() < 0.1 ? 1 : 0,
      updated_at: NOW,
    });
  }
  // one transit per vessel, gate and entry (the store's key)
  return [...new Map(rows.map((r) => [`${r.vsl_id}|${r.zone}|${r.entered_at}`, r])).values()];
}

/** One query of each operation, as a call of a corridors service. */
function queriesOf(rand: () => number): Array<[string, (service: CorridorsService) => Promise<unknown>]> {
  const corridor = () => (rand() < 0.6 ? {} : { corridor: CHOKEPOINTS[Math.floor(rand() * CHOKEPOINTS.length)]!.key });
  const range = () => (rand() < 0.2 ? {} : { range: ['24H', '36H', '7D', '30D', '5H', '1H'][Math.floor(rand() * 6)]! });
  const days = () => (rand() < 0.2 ? {} : { days: 7 + Math.floor(rand() * 54) });
  const windowed = { ...range(), ...corridor() };
  const ranked = { ...range(), by: RANKING_METRICS[Math.floor(rand() * RANKING_METRICS.length)]! };
  const healthQuery = { ...range(), ...corridor() };
  const watchQuery = { ...range(), ...corridor() };
  const daily = [0, 1, 2, 3].map(() => ({ ...days(), ...corridor() }));
  return [
    [`corridors ${JSON.stringify(windowed)}`, (s) => s.corridors(caller, windowed)],
    [`ranking ${JSON.stringify(ranked)}`, (s) => s.ranking(caller, ranked)],
    [`health ${JSON.stringify(healthQuery)}`, (s) => s.health(caller, healthQuery)],
    [`watch ${JSON.stringify(watchQuery)}`, (s) => s.watch(caller, watchQuery)],
    [`pressure-trend ${JSON.stringify(daily[0])}`, (s) => s.pressureTrend(caller, daily[0]!)],
    [`anomaly-score ${JSON.stringify(daily[1])}`, (s) => s.anomalyScore(caller, daily[1]!)],
    [`stability ${JSON.stringify(daily[2])}`, (s) => s.stability(caller, daily[2]!)],
    [`regimes ${JSON.stringify(daily[3])}`, (s) => s.regimes(caller, daily[3]!)],
  ];
}

async function storedCells() {
  const rows = await app.bosun.ctx.store.db.selectFrom('transit_cells').selectAll().orderBy('zone').orderBy('day').orderBy('hour').orderBy('direction').execute();
  return rows;
}

before(async () => {
  app = await startTestApp({ now: NOW });
  // stored positions from 40 days back: 30-day baselines are not covered, 7-day ones are, long daily series are trimmed
  await seedCoverage(app.bosun.ctx.services, 244000912, NOW - 40 * DAY, NOW);
});

after(async () => {
  await app?.close();
});

test('every corridors operation answers from the transit cells what it answers over the transits summed one by one, on random stores', async () => {
  const { services, store } = app.bosun.ctx;
  const repo = createEventsRepo(store.db, services.ports);
  const deps = { events: services.events, routeStress: services.routeStress, fleetReads: createFleetReads(store.db), clock: app.clock };
  const reference = createCorridorsService({ ...deps, repo: createTransitsCorridorsRepo(store.db) });
  const current = services.corridors;
  let compared = 0;
  let nonEmpty = 0;
  const compare = async (rand: () => number, label: string) => {
    for (let round = 0; round < 3; round++) {
      // a horizon on an hour (bounds fall on exits written on the hour) or anywhere in one (windows end inside an hour)
      const pick = rand();
      app.clock.set(pick < 0.25 ? NOW : pick < 0.5 ? NOW - Math.floor(rand() * 48) * HOUR : NOW - Math.floor(rand() * 2 * DAY) + Math.floor(rand() * MINUTE));
      for (const [query, run] of queriesOf(rand)) {
        const expected = await run(reference);
        assert.deepEqual(await run(current), expected, `${label}: ${query} at ${new Date(app.clock.now()).toISOString()}`);
        compared++;
        if (!JSON.stringify(expected).includes('no_transits_in_window')) nonEmpty++;
      }
    }
    app.clock.set(NOW);
  };
  for (let s = 0; s < STORES; s++) {
    const rand = prng(0xc0441d0 + s * 7919);
    await store.db.deleteFrom('transits').execute();
    await store.db.deleteFrom('transit_cells').execute();
    const rows = randomTransits(rand, 50 + Math.floor(rand() * 400));
    // written in shuffled chunks, as the runner writes them (not in order of exit)
    const shuffled = [...rows].sort(() => rand() - 0.5);
    for (let i = 0; i < shuffled.length; i += 37) await repo.upsertTransits(shuffled.slice(i, i + 37));
    await compare(rand, `store ${s}`);

    // transits rewritten (same vessel, gate and entry: another exit, speed, direction, flag), a range rebuilt
    const rewritten = rows
      .filter(() => rand() < 0.15)
      .map((r) => ({ ...r, exited_at: r.exited_at + Math.floor(rand() * 5 * HOUR) - 2 * HOUR, mean_speed_kn: rand() < 0.5 ? null : 7.5, direction: 'unnamed', simulated: 1 - r.simulated }))
      .map((r) => ({ ...r, exited_at: Math.min(NOW, Math.max(r.exited_at, r.entered_at)) }));
    await repo.upsertTransits(rewritten);
    await repo.deleteStartedBetween(NOW - 20 * DAY - 7 * HOUR, NOW - 16 * DAY);
    await compare(rand, `store ${s} after rewrites`);

    // the cells kept as transits were written are the cells counted again from all transits
    const kept = await storedCells();
    await repo.rebuildTransitCells();
    assert.deepEqual(kept, await storedCells(), `store ${s}: transit cells kept incrementally = counted again from all transits`);
    assert.ok(
      kept.every((c) => Number(c.transits) > 0),
      `store ${s}: no empty cell is kept`,
    );
  }
  assert.ok(compared >= STORES * 2 * 3 * 8, `compared ${compared} answers`);
  assert.ok(nonEmpty > compared / 2, `most answers counted transits (${nonEmpty} of ${compared})`);
});
