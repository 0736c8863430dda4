import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DAY, HOUR, MINUTE } from '../../src/platform/clock.js';
import type { BackfillResult } from '../../src/sim/backfill.js';
import { SAMPLE_VESSEL } from '../../src/fleet/sample-vessel.js';
import { createDemoFeed } from '../../src/sim/start.js';
import { labelledPerKind } from '../../src/sim/fleet.js';
import { startTestApp, TEST_EPOCH, type TestApp } from '../helpers/app.js';

const DEMO_ENV = { BOSUN_DEMO_VESSELS: '30', BOSUN_DEMO_BACKFILL_DAYS: '1', BOSUN_DEMO_SEED: 'e2e' };

/** Starts the demo feed the way serve does (backfill, then live) and returns what the backfill did. */
async function startDemo(app: TestApp): Promise<{ result: BackfillResult | null; lines: string[]; stop: () => Promise<void> }> {
  const ctx = app.bosun.ctx;
  let result: BackfillResult | null = null;
  const progress: number[] = [];
  const source = createDemoFeed({
    settings: ctx.config.demo,
    fleet: ctx.services.fleet,
    logger: ctx.logger,
    sink: ctx.services.fleet,
    clock: app.clock,
    progress: (p) => progress.push(p.doneMs / p.totalMs),
    onBackfilled: (r) => (result = r),
  });
  const lines: string[] = [];
  await source.start((line) => lines.push(line));
  if (result !== null) {
    assert.ok(progress.length > 10 && progress.at(-1) === 1, 'progress reported up to 100 %');
    assert.ok(progress.every((p, i) => i === 0 || p >= progress[i - 1]!));
  }
  source.tick();
  return { result, lines, stop: () => source.stop() };
}

test('demo fleet: a 1-day backfill fills the store, and everything served from it is labelled simulated', async () => {
  const app = await startTestApp({ env: DEMO_ENV });
  try {
    const { result, stop } = await startDemo(app);
    await stop();
    assert.ok(result);
    assert.equal(result.toMs, TEST_EPOCH);
    assert.equal(result.fromMs, TEST_EPOCH - DAY);
    assert.equal(result.rejectedLines, 0);
    const stats = app.bosun.ctx.services.fleet.stats();
    // the 30 asked for and the labelled ones added after them (a loiterer and one that goes dark)
    assert.equal(stats.vessels, 30 + 2 * labelledPerKind(30));
    assert.ok(stats.positions_stored > 3000, `${stats.positions_stored} positions`);
    assert.equal(stats.quality_flags.simulated_source, stats.positions_stored);
    assert.equal(stats.quality_flags.impossible_jump, 0);
    assert.equal(stats.positions_buffered, 0);

    const { apiKey } = await app.registerAgent('demo-fleet-tests', ['vessels:live']);
    const vessel = [...app.bosun.ctx.services.fleet.vessels()].find((v) => v.imo !== null)!;
    const lookup = await app.api('GET', `/v1/vessels/lookup?mmsi=${vessel.mmsi}`, { token: apiKey });
    assert.equal(lookup.status, 200, lookup.text);
    assert.ok(lookup.body.quality_flags.includes('simulated_source'));
    assert.equal(lookup.body.data.vessel.simulated, true);
    assert.deepEqual(lookup.body.data.vessel.sources, ['demo-simulator']);
    assert.equal(lookup.body.data.vessel.imo, vessel.imo);
    assert.match(lookup.body.data.vessel.name, /^[A-Z0-9 ]+$/);
    assert.equal(lookup.body.data.latest_position.simulated, true);
    assert.ok(lookup.body.data.latest_position.quality_flags.includes('simulated_source'));
    const age = Date.parse(lookup.body.data.latest_position.observed_at);
    assert.ok(age > TEST_EPOCH - HOUR && age <= TEST_EPOCH);

    const track = await app.api('GET', `/v1/vessels/MMSI:${vessel.mmsi}/positions?from=${new Date(TEST_EPOCH - DAY).toISOString()}&to=${new Date(TEST_EPOCH).toISOString()}`, { token: apiKey });
    assert.equal(track.status, 200, track.text);
    assert.ok(track.body.quality_flags.includes('simulated_source'));
    const points = track.body.data.items;
    assert.ok(Array.isArray(points) && points.length >= 20, `${points.length} positions in a day`);
    assert.ok(points.every((p: { simulated: boolean }) => p.simulated === true));

    // The vessel the published examples name sails in the demo fleet, so they answer on a default deployment.
    const sample = await app.api('GET', `/v1/vessels/lookup?id=IMO:${SAMPLE_VESSEL.imo}`, { token: apiKey });
    assert.equal(sample.status, 200, sample.text);
    assert.equal(sample.body.data.vessel.mmsi, SAMPLE_VESSEL.mmsi);
    assert.equal(sample.body.data.vessel.flag, SAMPLE_VESSEL.flag);
    assert.equal(sample.body.data.vessel.simulated, true);
  } finally {
    await app.close();
  }
});

test('demo fleet: after downtime only the gap is backfilled, continuing the same tracks; no backfill right after a restart', async () => {
  const app = await startTestApp({ env: DEMO_ENV });
  try {
    const first = await startDemo(app);
    await first.stop();
    const before = app.bosun.ctx.services.fleet.stats().positions_stored;

    app.clock.advance(6 * HOUR);
    const second = await startDemo(app);
    await second.stop();
    assert.ok(second.result);
    assert.ok(second.result.fromMs >= TEST_EPOCH - 30 * MINUTE && second.result.fromMs <= TEST_EPOCH, `gap starts ${new Date(second.result.fromMs).toISOString()}`);
    assert.equal(second.result.toMs, TEST_EPOCH + 6 * HOUR);
    const stats = app.bosun.ctx.services.fleet.stats();
    assert.ok(stats.positions_stored > before);
    assert.equal(stats.vessels, 30 + 2 * labelledPerKind(30), 'the same vessels, not new ones');
    assert.equal(stats.quality_flags.impossible_jump, 0, 'tracks continue across the gap');

    app.clock.advance(MINUTE);
    const third = await startDemo(app);
    await third.stop();
    assert.equal(third.result, null);
  } finally {
    await app.close();
  }
});
