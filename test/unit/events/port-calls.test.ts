import assert from 'node:assert/strict';
import test from 'node:test';
import { createPortCallDetector, emptyCallState, GFW_PORT_CALL_PARAMETERS, PortPointIndex, type Fix, type PortCall, type VesselCallState } from '../../../src/events/port-calls.js';
import { destinationPoint, distanceM } from '../../../src/geo/distance.js';

const HOUR = 3_600_000;
const MIN = 60_000;
const PORT = { portId: 9150, lat: 29.3, lon: -94.8 };
const ANCHORAGE = { portId: 9150, lat: 29.25, lon: -94.7 }; // about 11 km from the reference point
const OTHER = { portId: 9160, lat: 29.5, lon: -94.9 };
const index = new PortPointIndex([PORT, ANCHORAGE, OTHER]);

/** Fixes every `stepMs` along legs: [bearing, metres from the point of interest, knots, duration]. */
class Track {
  fixes: Fix[] = [];
  private seq = 0;
  constructor(private t = Date.UTC(2026, 0, 1)) {}
  at(point: { lat: number; lon: number }, bearing: number, metres: number, sog: number, navStatus: number | null = null): this {
    const p = destinationPoint(point.lat, point.lon, bearing, metres);
    this.fixes.push({ seq: ++this.seq, t: this.t, lat: p.lat, lon: p.lon, sog, navStatus });
    return this;
  }
  /** `count` fixes `stepMs` apart at the same place. */
  stay(point: { lat: number; lon: number }, metres: number, sog: number, durationMs: number, stepMs = 10 * MIN, navStatus: number | null = null): this {
    for (let elapsed = 0; elapsed < durationMs; elapsed += stepMs) this.at(point, 90, metres, sog, navStatus).tick(stepMs);
    return this;
  }
  /** Runs in a straight line from `from` metres to `to` metres due east of `point`. */
  run(point: { lat: number; lon: number }, from: number, to: number, sog: number, stepMs = 5 * MIN): this {
    const metresPerStep = (sog * 1852 * stepMs) / HOUR;
    const sign = to > from ? 1 : -1;
    for (let m = from; sign * (to - m) > 0; m += sign * metresPerStep) this.at(point, 90, m, sog).tick(stepMs);
    return this;
  }
  /** Far out at sea an hour and a half later: the departure stands. */
  away(): this {
    const last = this.fixes[this.fixes.length - 1]!;
    return this.tick(90 * MIN).at(last, 0, 60_000, 12);
  }
  tick(ms: number): this {
    this.t += ms;
    return this;
  }
}

function detect(fixes: Fix[], state: VesselCallState = emptyCallState()) {
  const detector = createPortCallDetector(index);
  const calls: PortCall[] = [];
  for (const fix of fixes) calls.push(...detector.push(state, fix));
  return { calls, state, current: detector.current(state) };
}

test('a call: arrival within 3 km, a wait at anchor, the berth 11 km on, departure confirmed beyond 4 km', () => {
  const track = new Track()
    .run(ANCHORAGE, 20_000, 500, 12) // inbound to the anchorage point
    .stay(ANCHORAGE, 500, 0.05, 10 * HOUR) // waiting
    .run(PORT, 10_000, 300, 8) // 40 minutes beyond 4 km of both points: under the hour a departure needs
    .stay(PORT, 300, 0, 20 * HOUR)
    .run(PORT, 300, 20_000, 10)
    .away();
  const { calls, current } = detect(track.fixes);
  assert.equal(calls.length, 1);
  assert.equal(current, null);
  const call = calls[0]!;
  assert.equal(call.portId, 9150);
  assert.deepEqual(
    call.stops.map((s) => s.kind),
    ['anchorage', 'berth'],
  );
  assert.ok(Math.abs(call.anchorageMs - 10 * HOUR) <= 10 * MIN, String(call.anchorageMs / HOUR));
  assert.ok(Math.abs(call.berthMs - 20 * HOUR) <= 10 * MIN, String(call.berthMs / HOUR));
  const lastInside = track.fixes.filter((f) => distanceM(f.lat, f.lon, PORT.lat, PORT.lon) <= 4_000).at(-1)!;
  assert.equal(call.departure, lastInside.t, 'departure: the last fix within 4 km');
});

test('anchor wait then berth inside one port area: the first stop is waiting, the last is the berth', () => {
  // a port whose anchorage point lies 2 km from its reference point: one area
  const near = { portId: 1, lat: 10, lon: 10 };
  const anchorage = { portId: 1, ...destinationPoint(10, 10, 180, 2_000) };
  const local = new PortPointIndex([near, anchorage]);
  const track = new Track()
    .run(near, 30_000, 3_500, 12)
    .stay(anchorage, 100, 0.1, 8 * HOUR)
    .at(near, 180, 1_000, 6)
    .tick(10 * MIN)
    .stay(near, 200, 0.3, 20 * MIN)
    .stay(near, 50, 0, 30 * HOUR)
    .run(near, 50, 30_000, 11)
    .away();
  const detector = createPortCallDetector(local);
  const state = emptyCallState();
  const calls = track.fixes.flatMap((fix) => detector.push(state, fix));
  assert.equal(calls.length, 1);
  const call = calls[0]!;
  assert.deepEqual(
    call.stops.map((s) => s.kind),
    ['anchorage', 'berth'],
    'after moving at 6 kn, 0.3 kn (between 0.2 and 0.5) is still moving; the stop begins at 0 kn',
  );
  assert.ok(Math.abs(call.anchorageMs - 8 * HOUR) <= 20 * MIN, String(call.anchorageMs / HOUR));
  assert.ok(Math.abs(call.berthMs - 30 * HOUR) <= 20 * MIN, String(call.berthMs / HOUR));
  const first = track.fixes.find((f) => distanceM(f.lat, f.lon, near.lat, near.lon) <= 3_000 || distanceM(f.lat, f.lon, anchorage.lat, anchorage.lon) <= 3_000)!;
  assert.equal(call.arrival, first.t);
  assert.equal(call.firstSeq, first.seq);
  assert.ok(call.departure! > call.arrival + 38 * HOUR);
  assert.ok(call.confidence > 0.9);
});

test('enter at 3 km, leave beyond 4 km: passing at 3.5 km is no call; drifting out to 3.9 km does not end one', () => {
  const passing = new Track().run(PORT, -20_000, 20_000, 10);
  const passingNorth = passing.fixes.map((f) => ({ ...f, lat: destinationPoint(f.lat, f.lon, 0, 3_500).lat }));
  assert.equal(detect(passingNorth).calls.length + (detect(passingNorth).current ? 1 : 0), 0);

  const drifting = new Track()
    .run(PORT, 10_000, 2_000, 10)
    .stay(PORT, 3_900, 0, 3 * HOUR)
    .stay(PORT, 2_000, 0, HOUR)
    .run(PORT, 2_000, 6_000, 10)
    .away();
  const { calls, current } = detect(drifting.fixes);
  assert.equal(calls.length, 1, 'one call, ended only beyond 4 km');
  assert.equal(current, null);
  assert.equal(calls[0]!.stops.length, 1, 'the vessel never moved above 0.5 kn between the two places');
});

test('stops shorter than 15 minutes are pauses, not waiting or berth time', () => {
  const track = new Track()
    .run(PORT, 10_000, 1_000, 8)
    .stay(PORT, 1_000, 0, 10 * MIN, 2 * MIN)
    .run(PORT, 1_000, 500, 2)
    .stay(PORT, 500, 0, 5 * HOUR)
    .run(PORT, 500, 10_000, 9)
    .away();
  const { calls } = detect(track.fixes);
  assert.equal(calls.length, 1);
  assert.deepEqual(
    calls[0]!.stops.map((s) => s.kind),
    ['berth'],
  );
});

test('AIS navigation status decides where it is given: moored is a berth, at anchor is waiting', () => {
  const anchored = new Track()
    .run(PORT, 10_000, 1_000, 8)
    .stay(PORT, 1_000, 0, 6 * HOUR, 10 * MIN, 1)
    .run(PORT, 1_000, 10_000, 9)
    .away();
  const waiting = detect(anchored.fixes);
  assert.deepEqual(
    [waiting.calls.length, waiting.current?.stops.map((s) => s.kind)],
    [0, ['anchorage']],
    'only a wait so far: not over after 90 minutes away (it may be heading up a channel to its berth)',
  );
  anchored.tick(12 * HOUR).away();
  assert.deepEqual(
    detect(anchored.fixes).calls[0]!.stops.map((s) => s.kind),
    ['anchorage'],
    'the only stop, but at anchor: the vessel left without berthing',
  );
  const moored = new Track()
    .run(PORT, 10_000, 1_000, 8)
    .stay(PORT, 1_000, 0, 6 * HOUR, 10 * MIN, 5)
    .run(PORT, 1_000, 800, 2)
    .stay(PORT, 800, 0, 6 * HOUR, 10 * MIN, 5)
    .run(PORT, 800, 10_000, 9)
    .away();
  assert.deepEqual(
    detect(moored.fixes).calls[0]!.stops.map((s) => s.kind),
    ['berth', 'berth'],
    'a shift between two berths',
  );
});

test('a stop far offshore from the port is a wait; the call carries on up the channel to the berth', () => {
  // the port's own position 40 km up a channel from its offshore anchorage point
  const port = { portId: 7, lat: 29.75, lon: -95.28 };
  const offshore = { portId: 7, lat: 29.4, lon: -95.0 };
  const local = new PortPointIndex([port, offshore]);
  const track = new Track()
    .run(offshore, 20_000, 500, 10)
    .stay(offshore, 500, 0, 15 * HOUR)
    .run(port, 45_000, 300, 8)
    .stay(port, 300, 0, 20 * HOUR)
    .run(port, 300, 30_000, 10)
    .away();
  const detector = createPortCallDetector(local, undefined, new Map([[7, port]]));
  const state = emptyCallState();
  const calls = track.fixes.flatMap((fix) => detector.push(state, fix));
  assert.equal(calls.length, 1, 'one call: the three hours up the channel do not end it');
  assert.deepEqual(
    calls[0]!.stops.map((s) => s.kind),
    ['anchorage', 'berth'],
  );
  assert.ok(Math.abs(calls[0]!.anchorageMs - 15 * HOUR) <= 10 * MIN);
  const withoutPositions = createPortCallDetector(local);
  const alone = emptyCallState();
  const single = new Track()
    .run(offshore, 20_000, 500, 10)
    .stay(offshore, 500, 0, 15 * HOUR)
    .run(offshore, 500, 30_000, 10)
    .away()
    .tick(12 * HOUR)
    .away();
  assert.deepEqual(
    single.fixes.flatMap((fix) => withoutPositions.push(alone, fix)).map((c) => c.stops.map((s) => s.kind)),
    [['berth']],
    'without the port position, a lone stop counts as the berth',
  );
});

test('state is plain data: stopped and resumed through JSON at every fix, the calls are the same', () => {
  const track = new Track()
    .run(PORT, 20_000, 500, 12)
    .stay(PORT, 500, 0.05, 10 * HOUR)
    .run(PORT, 500, 30_000, 10)
    .run(OTHER, 20_000, 200, 10)
    .stay(OTHER, 200, 0, 4 * HOUR);
  const straight = detect(track.fixes);
  const detector = createPortCallDetector(index);
  let state = emptyCallState();
  const calls: PortCall[] = [];
  for (const fix of track.fixes) {
    state = JSON.parse(JSON.stringify(state)) as VesselCallState;
    calls.push(...detector.push(state, fix));
  }
  assert.deepEqual(calls, straight.calls);
  assert.deepEqual(detector.current(state), straight.current);
  assert.equal(straight.calls.length, 1);
  assert.equal(straight.current!.portId, 9160, 'in port now at the other port');
  assert.equal(straight.current!.departure, null);
  assert.deepEqual(
    straight.current!.stops.map((s) => s.kind),
    ['berth'],
  );
});

test('a silence over 6 hours inside a call is counted and lowers its confidence; an out-of-order fix is ignored', () => {
  const quiet = new Track()
    .run(PORT, 10_000, 500, 8)
    .stay(PORT, 500, 0, 2 * HOUR)
    .tick(9 * HOUR)
    .stay(PORT, 500, 0, 2 * HOUR)
    .run(PORT, 500, 10_000, 9)
    .away();
  const loud = new Track()
    .run(PORT, 10_000, 500, 8)
    .stay(PORT, 500, 0, 13 * HOUR)
    .run(PORT, 500, 10_000, 9)
    .away();
  const [q] = detect(quiet.fixes).calls;
  const [l] = detect(loud.fixes).calls;
  assert.equal(q!.gaps, 1);
  assert.equal(l!.gaps, 0);
  assert.ok(q!.confidence < l!.confidence);
  const fixes = [...loud.fixes];
  fixes.splice(40, 0, { ...fixes[10]!, seq: 9999 });
  assert.deepEqual(detect(fixes).calls, detect(loud.fixes).calls);
});

test('a waiting-only call ends at once when the vessel stops near another port beyond its points, and a call there begins with the stop', () => {
  const track = new Track()
    .run(ANCHORAGE, 20_000, 500, 12)
    .stay(ANCHORAGE, 500, 0.05, 5 * HOUR, 10 * MIN, 1) // at anchor (status 1): the call so far is only a wait
    .tick(30 * MIN)
    .at(OTHER, 180, 10_000, 10) // on the way, beyond 4 km of every point
    .tick(30 * MIN)
    .stay(OTHER, 5_000, 0, 6 * HOUR); // 5 km from the other port's point (beyond its 3 km), 23 km from this one's
  const { calls, current } = detect(track.fixes);
  assert.equal(calls.length, 1);
  assert.equal(calls[0]!.portId, 9150);
  assert.deepEqual(
    calls[0]!.stops.map((s) => s.kind),
    ['anchorage'],
  );
  const firstStopped = track.fixes.find((f) => distanceM(f.lat, f.lon, OTHER.lat, OTHER.lon) < 5_100)!;
  assert.equal(current?.portId, 9160);
  assert.equal(current.arrival, firstStopped.t);
  assert.equal(current.stops.length, 1);
  assert.equal(current.stops[0]!.start, firstStopped.t);
  assert.equal(current.stops[0]!.kind, 'berth');
});

test('a waiting-only call ends an hour after the vessel leaves to sea, away from the port, not after the twelve hours allowed on the way in', () => {
  const detector = createPortCallDetector(index, GFW_PORT_CALL_PARAMETERS, new Map([[9150, { lat: PORT.lat, lon: PORT.lon }]]));
  const track = new Track()
    .run(ANCHORAGE, 20_000, 500, 12)
    .stay(ANCHORAGE, 500, 0.05, 5 * HOUR, 10 * MIN, 1) // at anchor (status 1): the call so far is only a wait
    .run(ANCHORAGE, 500, 60_000, 10); // due east: further from the port's position with every fix
  const state = emptyCallState();
  const calls = track.fixes.flatMap((fix) => detector.push(state, fix));
  assert.equal(calls.length, 1);
  assert.equal(state.call, null);
  const lastInside = track.fixes.filter((f) => distanceM(f.lat, f.lon, ANCHORAGE.lat, ANCHORAGE.lon) <= 4_000).at(-1)!;
  assert.equal(calls[0]!.departure, lastInside.t);
  assert.equal(calls[0]!.stops[0]!.kind, 'anchorage');
});

test('a silence over six hours ends the stop under way where the vessel was last heard; a new stop begins when it is heard again', () => {
  const track = new Track().run(PORT, 20_000, 300, 12).stay(PORT, 300, 0, 3 * HOUR);
  const lastBefore = track.fixes.at(-1)!;
  track.tick(7 * HOUR);
  const firstAfter = track.fixes.length;
  track
    .stay(PORT, 300, 0, 3 * HOUR)
    .run(PORT, 300, 20_000, 10)
    .away();
  const { calls } = detect(track.fixes);
  assert.equal(calls.length, 1);
  const call = calls[0]!;
  assert.equal(call.gaps, 1);
  assert.equal(call.stops.length, 2);
  assert.equal(call.stops[0]!.end, lastBefore.t);
  assert.equal(call.stops[1]!.start, track.fixes[firstAfter]!.t);
  // the silence counts as neither berth nor waiting time
  assert.ok(call.anchorageMs + call.berthMs < 6 * HOUR + 10 * MIN, String((call.anchorageMs + call.berthMs) / HOUR));
});
