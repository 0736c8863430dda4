import assert from 'node:assert/strict';
import test from 'node:test';
import { congestion } from '../../../src/events/congestion.js';
import { percentile } from '../../../src/platform/stats.js';
import type { PortCall, Stop } from '../../../src/events/port-calls.js';

const H = 3_600_000;
const AT = Date.UTC(2026, 0, 10);

function call(arrivalH: number, stops: Array<[Stop['kind'], number, number]>, departureH: number | null): PortCall {
  const s = stops.map(([kind, from, to]) => ({ kind, navStatus: null, start: AT + from * H, end: AT + to * H, lat: 0, lon: 0 }));
  return {
    portId: 1,
    arrival: AT + arrivalH * H,
    departure: departureH === null ? null : AT + departureH * H,
    stops: s,
    anchorageMs: s.filter((x) => x.kind === 'anchorage').reduce((a, x) => a + x.end - x.start, 0),
    berthMs: s.filter((x) => x.kind === 'berth').reduce((a, x) => a + x.end - x.start, 0),
    firstSeq: 1,
    lastSeq: 2,
    fixes: 10,
    gaps: 0,
    confidence: 1,
  };
}

test('nearest-rank percentiles', () => {
  assert.equal(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 50), 5);
  assert.equal(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 90), 9);
  assert.equal(percentile([7], 90), 7);
  assert.equal(percentile([], 50), null);
});

test('now: waiting at anchor, at berth, moving in port; the window and the one before; the trend', () => {
  const calls = [
    // in the last 24 h: three completed calls with waits of 2, 4 and 10 h
    call(
      -20,
      [
        ['anchorage', -19, -17],
        ['berth', -16, -6],
      ],
      -5,
    ),
    call(
      -23,
      [
        ['anchorage', -22, -18],
        ['berth', -17, -10],
      ],
      -9,
    ),
    call(
      -30,
      [
        ['anchorage', -29, -19],
        ['berth', -18, -3],
      ],
      -2,
    ),
    // the day before: two calls with 1 h waits
    call(
      -45,
      [
        ['anchorage', -44, -43],
        ['berth', -42, -30],
      ],
      -29,
    ),
    call(
      -47,
      [
        ['anchorage', -46, -45],
        ['berth', -44, -40],
      ],
      -39,
    ),
    // now: one waiting (ongoing), one at berth (ongoing), one moving to its berth, one gone
    call(-3, [['anchorage', -2.5, -0.1]], null),
    call(
      -12,
      [
        ['anchorage', -11, -9],
        ['berth', -8, -0.2],
      ],
      null,
    ),
    call(-1, [], null),
    // arrives after `at`: not counted
    call(2, [['berth', 3, 9]], 10),
  ];
  // an ongoing call's stops end at its last fix; the ongoing wait is classified anchorage by the detector's rule set
  const result = congestion(calls, { at: AT, rangeMs: 24 * H });
  assert.equal(result.waiting_now, 1);
  assert.equal(result.at_berth_now, 1);
  assert.equal(result.in_port_moving_now, 1);
  assert.equal(result.window.arrivals, 5, 'arrivals at -20, -23, -3, -12, -1');
  assert.equal(result.window.departures, 3);
  assert.equal(result.window.median_wait_hours, 4);
  assert.equal(result.window.p90_wait_hours, 10);
  assert.equal(result.window.median_berth_hours, 10);
  assert.equal(result.previous_window.departures, 2);
  assert.equal(result.previous_window.median_wait_hours, 1);
  assert.equal(result.trend.median_wait_change_pct, 300);
  assert.equal(result.trend.direction, 'rising');
});

test('a past moment is analysed like now: stops covering it, calls completed later still in port then', () => {
  const calls = [
    call(
      -50,
      [
        ['anchorage', -49, -30],
        ['berth', -29, -5],
      ],
      -4,
    ),
  ];
  assert.equal(congestion(calls, { at: AT - 40 * H, rangeMs: 24 * H }).waiting_now, 1);
  assert.equal(congestion(calls, { at: AT - 10 * H, rangeMs: 24 * H }).at_berth_now, 1);
  assert.equal(congestion(calls, { at: AT - 29.5 * H, rangeMs: 24 * H }).in_port_moving_now, 1, 'between anchorage and berth');
  const empty = congestion([], { at: AT, rangeMs: 7 * 24 * H });
  assert.deepEqual([empty.waiting_now, empty.window.median_wait_hours, empty.trend.direction], [0, null, 'unknown']);
});

test('an open call whose last stop ended before its last fix is moving in port, not still at that stop', () => {
  const waited = { ...call(-20, [['anchorage', -19, -5]], null), lastFixAt: AT - 0.1 * H };
  const stillThere = { ...call(-20, [['anchorage', -19, -0.1]], null), lastFixAt: AT - 0.1 * H };
  const result = congestion([waited, stillThere], { at: AT, rangeMs: 24 * H });
  assert.deepEqual([result.waiting_now, result.in_port_moving_now], [1, 1]);
  assert.equal(congestion([{ ...waited, lastFixAt: undefined }], { at: AT, rangeMs: 24 * H }).waiting_now, 1, 'without the last fix the last stop is taken as under way');
});
