import assert from 'node:assert/strict';
import test from 'node:test';
import { HOUR, iso, MINUTE } from '../../src/platform/clock.js';
import type { PositionReport } from '../../src/fleet/types.js';
import { TEST_EPOCH, type TestApp, withApp } from '../helpers/app.js';
import { PAPEETE, papeeteCall } from '../helpers/event-tracks.js';

const T0 = TEST_EPOCH - 2 * 24 * HOUR;

async function ingestAll(app: TestApp, reports: PositionReport[]): Promise<void> {
  const fleet = app.bosun.ctx.services.fleet;
  for (const report of reports) fleet.acceptPosition(report);
  await fleet.flush();
}

/**
 * Issue 26 / decision 078: after an import on an idle server, the scheduler's follow steps analyse the
 * new positions; the call under way counts as soon as the runner has caught up, and analysed_up_to
 * never claims a time whose calls the store does not hold yet. The clock does not move (no checkpoint
 * falls due by time).
 */
test('congestion is current after an import on an idle server: the berthed ship counts, analysed_up_to claims no more than is counted', () =>
  withApp(async (app) => {
    const { runner } = app.bosun.ctx.services.events;
    // the server has been running: the detector saved its state a moment ago (no checkpoint falls due by time now)
    await ingestAll(app, papeeteCall(244000012, T0 - 24 * HOUR).slice(0, 3));
    await runner.follow(60_000);
    const track = papeeteCall(244000011, T0);
    // up to 8 hours in: 3 h at anchor, then alongside (the berth begins about 4 h in)
    const upTo = T0 + 8 * HOUR;
    const imported = track.filter((r) => r.observedAt <= upTo);
    await ingestAll(app, imported);
    const lastObserved = imported[imported.length - 1]!.observedAt;
    const congestion = app.bosun.ctx.services.congestion;
    const ask = async () => (await congestion.congestion(PAPEETE.port_id, { at: iso(upTo) }, { kind: 'anonymous' })).data;

    await runner.follow(60_000);
    const first = await ask();
    const berthFrom = imported.find((r) => r.observedAt > T0 + 3 * HOUR && r.navStatus === 5)!.observedAt;
    assert.ok(first.analysed_up_to !== null, 'the stream was analysed');
    if (Date.parse(first.analysed_up_to) >= berthFrom + 15 * MINUTE) assert.equal(first.now.at_berth, 1, `analysed_up_to ${first.analysed_up_to} claims the berth time: the call must be counted`);

    // the next tick of the scheduler, nothing new stored: everything analysed is counted
    await runner.follow(60_000);
    const second = await ask();
    assert.equal(second.analysed_up_to, iso(lastObserved));
    assert.deepEqual([second.now.at_berth, second.now.waiting_at_anchor, second.calls_analysed], [1, 0, 1]);
    assert.ok(second.data_age_seconds !== null && second.data_age_seconds <= (upTo - lastObserved) / 1000);
  }));
