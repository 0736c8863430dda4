import assert from 'node:assert/strict';
import test from 'node:test';
import { HOUR } from '../../src/platform/clock.js';
import { createEventRunner } from '../../src/features/events/event-runner.js';
import { createEventsRepo } from '../../src/features/events/events-repo.js';
import { writeTogetherIn } from '../../src/features/events/event-writes.js';
import { readPortTableFile } from '../../src/features/ports/port-table-file.js';
import { createFleetReads } from '../../src/fleet/fleet-reads.js';
import type { PositionReport } from '../../src/fleet/types.js';
import { darkTrack, loiterTrack, meeting, PAPEETE, papeeteCall } from '../helpers/event-tracks.js';
import { TEST_EPOCH, type TestApp, withApp } from '../helpers/app.js';

const { ports } = readPortTableFile();
const T0 = TEST_EPOCH - 2 * 24 * HOUR;

async function ingestAll(app: TestApp, reports: PositionReport[]): Promise<void> {
  const fleet = app.bosun.ctx.services.fleet;
  for (const report of [...reports].sort((a, b) => a.observedAt - b.observedAt)) fleet.acceptPosition(report);
  await fleet.flush();
}

const runnerFor = (app: TestApp, owner: string) =>
  createEventRunner({
    repo: createEventsRepo(app.bosun.ctx.store.db, app.bosun.ctx.services.ports),
    together: writeTogetherIn(app.bosun.ctx.store),
    fleetReads: createFleetReads(app.bosun.ctx.store.db),
    ports: () => ports,
    clock: app.clock,
    owner,
    batchSize: 100,
  });

test('the live runner turns the stored stream into a port call (anchorage then berth) and an encounter, and survives a restart mid-call', () =>
  withApp(async (app) => {
    const call = papeeteCall(244000001, T0);
    const sts = meeting(244000002, 244000003, T0, 3);
    const all = [...call, ...sts].sort((a, b) => a.observedAt - b.observedAt);
    const half = all.findIndex((r) => r.observedAt >= T0 + 8 * HOUR);
    await ingestAll(app, all.slice(0, half));

    const first = runnerFor(app, 'process-a');
    assert.ok((await first.catchUp()) > 0);
    const repo = createEventsRepo(app.bosun.ctx.store.db, app.bosun.ctx.services.ports);
    // under way: written as an ongoing call, anchorage done, alongside now
    let rows = await repo.callsAtPort(PAPEETE.port_id, T0, T0 + 2 * 24 * HOUR);
    assert.equal(rows.length, 1);
    assert.equal(rows[0]!.departure, null);
    assert.ok(rows[0]!.anchorage_ms >= 2.9 * HOUR && rows[0]!.anchorage_ms <= 3.1 * HOUR, `anchorage ${rows[0]!.anchorage_ms / HOUR} h`);
    await first.stop();

    await ingestAll(app, all.slice(half));
    const second = runnerFor(app, 'process-b');
    await second.catchUp();
    rows = await repo.callsAtPort(PAPEETE.port_id, T0, T0 + 2 * 24 * HOUR);
    assert.equal(rows.length, 1, 'the restart continued the same call');
    const done = rows[0]!;
    assert.notEqual(done.departure, null);
    assert.ok(done.anchorage_ms >= 2.9 * HOUR && done.anchorage_ms <= 3.1 * HOUR, `anchorage ${done.anchorage_ms / HOUR} h`);
    assert.ok(done.berth_ms >= 9.9 * HOUR && done.berth_ms <= 10.1 * HOUR, `berth ${done.berth_ms / HOUR} h`);
    const stops = JSON.parse(done.stops) as Array<{ kind: string }>;
    assert.deepEqual(
      stops.map((s) => s.kind),
      ['anchorage', 'berth'],
    );
    assert.ok(done.arrival < T0 + 3 * HOUR && done.departure! > T0 + 13 * HOUR);

    const encounters = await repo.encounters({ from: T0, to: T0 + 24 * HOUR, limit: 10 });
    assert.equal(encounters.length, 1);
    const e = encounters[0]!;
    assert.ok(e.end_at - e.start_at >= 2.9 * HOUR, `together ${(e.end_at - e.start_at) / HOUR} h`);
    assert.ok(Math.abs(e.median_distance_m - 300) <= 5, `median ${e.median_distance_m} m`);
    assert.equal(e.zone, null);
    const status = second.status();
    assert.equal(status.cursorSeq, await createFleetReads(app.bosun.ctx.store.db).headSeq());
    assert.equal(status.dataTime, all[all.length - 1]!.observedAt);
    await second.stop();

    // the app's own runner takes the released lease over from the checkpoint; /v1/status shows where it stands
    assert.equal(await app.bosun.ctx.services.events.runner.catchUp(), 0);
    const events = (await app.api('GET', '/v1/status')).body.data.components.events;
    assert.equal(events.holds_lease, true);
    assert.equal(events.analysed_to, new Date(all[all.length - 1]!.observedAt).toISOString());
    assert.equal(events.vessels_in_port, 0);
  }));

test('one process detects at a time: the lease passes on only when its holder stops renewing it', () =>
  withApp(async (app) => {
    // 146 positions: a reads the first 100 (one batch) and saves its checkpoint
    await ingestAll(app, meeting(244000012, 244000013, T0, 6));
    const a = runnerFor(app, 'process-a');
    const b = runnerFor(app, 'process-b');
    assert.equal(await a.step(), 100);
    assert.equal(await b.step(), 0, 'b waits while a holds the lease');
    assert.equal(b.status().holdsLease, false);
    app.clock.advance(61_000);
    assert.equal(await b.step(), 46, 'a lapsed lease is taken over, from where its holder stopped');
    assert.equal(b.status().holdsLease, true);
  }));

test('rebuild replays a window in time order, replacing what was detected there, whatever order the positions were stored in', () =>
  withApp(async (app) => {
    // stored vessel by vessel (as a CSV sorted by MMSI would be): the live stream order is no time order
    const a = meeting(244000022, 244000023, T0, 3).filter((r) => r.mmsi === 244000022);
    const b = meeting(244000022, 244000023, T0, 3).filter((r) => r.mmsi === 244000023);
    for (const part of [a, b, papeeteCall(244000021, T0)]) {
      for (const r of part) app.bosun.ctx.services.fleet.acceptPosition(r);
      await app.bosun.ctx.services.fleet.flush();
    }
    const runner = runnerFor(app, 'cli');
    const report = await runner.rebuild({ from: T0, to: T0 + 24 * HOUR });
    assert.equal(report.written.encounters, 1);
    assert.equal(report.written.calls, 1);
    const again = await runner.rebuild({ from: T0, to: T0 + 24 * HOUR });
    assert.deepEqual(again.deleted, { calls: 1, encounters: 1, transits: 0, loitering: 0, gaps: 0 });
    assert.deepEqual(again.written, report.written);
    const repo = createEventsRepo(app.bosun.ctx.store.db, app.bosun.ctx.services.ports);
    assert.equal((await repo.encounters({ from: T0, to: T0 + 24 * HOUR, limit: 10 })).length, 1);
  }));

test('a port table update reaches detection without a restart: a port added to the table gets calls from then on', () =>
  withApp(async (app) => {
    const withoutPapeete = ports.filter((p) => p.port_id !== PAPEETE.port_id);
    let table: typeof ports = withoutPapeete;
    const runner = createEventRunner({
      repo: createEventsRepo(app.bosun.ctx.store.db, app.bosun.ctx.services.ports),
      together: writeTogetherIn(app.bosun.ctx.store),
      fleetReads: createFleetReads(app.bosun.ctx.store.db),
      ports: () => table,
      clock: app.clock,
      owner: 'process-a',
    });
    await ingestAll(app, papeeteCall(244000041, T0));
    await runner.catchUp();
    const repo = createEventsRepo(app.bosun.ctx.store.db, app.bosun.ctx.services.ports);
    assert.equal((await repo.callsAtPort(PAPEETE.port_id, T0, T0 + 3 * 24 * HOUR)).length, 0, 'not a port yet');

    table = ports;
    await ingestAll(app, papeeteCall(244000041, T0 + 24 * HOUR));
    await runner.catchUp();
    const calls = await repo.callsAtPort(PAPEETE.port_id, T0, T0 + 3 * 24 * HOUR);
    assert.equal(calls.length, 1);
    assert.ok(calls[0]!.arrival >= T0 + 24 * HOUR, 'the call after the update');
  }));

test('loitering and AIS gaps on the same runner: a restart in the middle of a loitering run continues it, and events rebuild writes the same events again', () =>
  withApp(async (app) => {
    const loiterer = loiterTrack(244000031, T0, 6);
    const dark = darkTrack(244000032, T0, 20, T0 + 5 * HOUR, 8);
    const all = [...loiterer, ...dark].sort((a, b) => a.observedAt - b.observedAt);
    const half = all.findIndex((r) => r.observedAt >= T0 + 5 * HOUR);
    await ingestAll(app, all.slice(0, half));
    const first = runnerFor(app, 'process-a');
    await first.catchUp();
    await first.stop();
    await ingestAll(app, all.slice(half));
    const second = runnerFor(app, 'process-b');
    await second.catchUp();

    const db = app.bosun.ctx.store.db;
    const fleet = app.bosun.ctx.services.fleet;
    const read = async () => ({
      loitering: await db.selectFrom('loitering_events').select(['vsl_id', 'start_at', 'end_at', 'fixes', 'simulated']).execute(),
      gaps: await db.selectFrom('ais_gaps').select(['vsl_id', 'start_at', 'end_at', 'near_shore', 'distance_nm']).execute(),
    });
    const live = await read();
    // drifting from T0 + 2 h for 6 h, fixes every 10 minutes: one run of 37 fixes
    assert.deepEqual(live.loitering, [{ vsl_id: fleet.byMmsiNumber(244000031)!.vslId, start_at: T0 + 2 * HOUR, end_at: T0 + 8 * HOUR, fixes: 37, simulated: 0 }]);
    // silent after the fix at T0 + 5 h until the one at T0 + 13 h: 8 h and 96 nm at 12 kn, mid-ocean
    assert.equal(live.gaps.length, 1);
    const gap = live.gaps[0]!;
    assert.deepEqual([gap.vsl_id, gap.start_at, gap.end_at, gap.near_shore], [fleet.byMmsiNumber(244000032)!.vslId, T0 + 5 * HOUR, T0 + 13 * HOUR, 0]);
    assert.ok(Math.abs(gap.distance_nm - 96) < 0.5, String(gap.distance_nm));

    const report = await runnerFor(app, 'cli').rebuild({ from: T0 - HOUR, to: T0 + 24 * HOUR });
    assert.deepEqual([report.deleted.loitering, report.deleted.gaps, report.written.loitering, report.written.gaps], [1, 1, 1, 1]);
    const rebuilt = await read();
    assert.deepEqual(rebuilt, live);
  }));

test('a batch’s events are written together or not at all: a write failing midway leaves none of them, and the next holder writes them once', () =>
  withApp(async (app) => {
    await ingestAll(app, papeeteCall(244000031, T0));
    const repo = createEventsRepo(app.bosun.ctx.store.db, app.bosun.ctx.services.ports);
    const failing = createEventRunner({
      // the call is written first in a batch's transaction, the gaps last
      repo: {
        ...repo,
        upsertGaps: () => Promise.reject(new Error('disk full')),
      },
      together: writeTogetherIn(app.bosun.ctx.store),
      fleetReads: createFleetReads(app.bosun.ctx.store.db),
      ports: () => ports,
      clock: app.clock,
      owner: 'process-a',
      batchSize: 10_000,
    });
    await assert.rejects(failing.catchUp(), /disk full/);
    assert.deepEqual(await repo.callsAtPort(PAPEETE.port_id, T0, T0 + 2 * 24 * HOUR), [], 'the call written before the failure was rolled back with it');
    assert.equal(failing.status().cursorSeq, 0, 'the cursor stays before the batch');

    app.clock.advance(61_000);
    const next = runnerFor(app, 'process-b');
    assert.ok((await next.catchUp()) > 0);
    const calls = await repo.callsAtPort(PAPEETE.port_id, T0, T0 + 2 * 24 * HOUR);
    assert.equal(calls.length, 1);
    assert.notEqual(calls[0]!.departure, null);
  }));
