import assert from 'node:assert/strict';
import test from 'node:test';
import { AisDecoder } from '../../../src/ais/index.js';
import { encodePositionReport, toSentences } from '../../../src/ais/encode.js';
import { createEncounterDetector, emptyEncounterState, type Encounter } from '../../../src/events/encounters.js';
import { createPortCallDetector, emptyCallState, PortPointIndex, type Fix, type PortCall, type VesselCallState } from '../../../src/events/port-calls.js';
import { convertMessage } from '../../../src/fleet/convert.js';
import { destinationPoint } from '../../../src/geo/distance.js';
import { landIndex } from '../../../src/geo/land.js';

const MIN = 60_000;
const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 0, 1);
const PORT = { portId: 9240, lat: 29.75, lon: -95.28 };
const index = new PortPointIndex([PORT]);

/**
 * Synthetic AIS: type 1 position reports encoded as NMEA sentences with a tag-block time, decoded and
 * converted as the live feed does, so the navigation status and true heading reach the detectors
 * through the same code as a receiver's messages (issue 26).
 */
class Radio {
  private readonly decoder = new AisDecoder();
  readonly fixes = new Map<number, Fix[]>();
  private seq = 0;
  report(mmsi: number, t: number, at: { lat: number; lon: number }, speed: number, status: number, heading: number | null): void {
    const lines = toSentences(encodePositionReport({ mmsi, status, speed, lon: at.lon, lat: at.lat, course: heading ?? 0, heading }), { timeMs: t });
    for (const message of lines.flatMap((line) => this.decoder.push(line))) {
      const c = convertMessage(message, { observedAt: t, receivedAt: t, source: 'test', simulated: false });
      assert.equal(c.kind, 'position');
      if (c.kind !== 'position') continue;
      const p = c.position;
      const list = this.fixes.get(mmsi) ?? [];
      list.push({ seq: ++this.seq, t: p.observedAt, lat: p.lat, lon: p.lon, sog: p.sog, navStatus: p.navStatus, heading: p.heading });
      this.fixes.set(mmsi, list);
    }
  }
  /** `hours` of reports every 6 minutes around `centre`: swinging (circling 120 m across, heading turning) or still (heading fixed). */
  stay(mmsi: number, from: number, hours: number, centre: { lat: number; lon: number }, swing: boolean, status: number): number {
    let t = from;
    for (let i = 0; t < from + hours * HOUR; i++, t += 6 * MIN) {
      const bearing = swing ? (i * 25) % 360 : 0;
      const p = swing ? destinationPoint(centre.lat, centre.lon, bearing, 60) : centre;
      this.report(mmsi, t, p, 0.2, status, swing ? bearing : 87);
    }
    return t;
  }
  /** Under way from `a` to `b` at 10 kn. */
  run(mmsi: number, from: number, a: { lat: number; lon: number }, metres: number, bearing: number): number {
    let t = from;
    for (let m = 0; m <= metres; m += 1852, t += 6 * MIN) this.report(mmsi, t, destinationPoint(a.lat, a.lon, bearing, m), 10, 0, bearing);
    return t;
  }
}

function detect(fixes: readonly Fix[]): { calls: PortCall[]; state: VesselCallState; current: PortCall | null } {
  const detector = createPortCallDetector(index, undefined, new Map([[PORT.portId, PORT]]));
  const state = emptyCallState();
  const calls = fixes.flatMap((fix) => detector.push(state, fix));
  return { calls, state, current: detector.current(state) };
}

test('NMEA with navigation status: at anchor 12 km out (an area no port point marks) begins the call; moored at the quay is the berth', () => {
  const radio = new Radio();
  const anchorage = destinationPoint(PORT.lat, PORT.lon, 135, 12_000);
  let t = radio.run(1, T0, destinationPoint(PORT.lat, PORT.lon, 135, 30_000), 18_000, 315);
  const stoppedAt = t;
  t = radio.stay(1, t, 6, anchorage, false, 1); // status 1 "at anchor", not swinging: the status decides
  t = radio.run(1, t, anchorage, 11_800, 315);
  t = radio.stay(1, t, 10, destinationPoint(PORT.lat, PORT.lon, 135, 200), true, 5); // status 5 "moored" decides over the swing
  radio.run(1, t, PORT, 40_000, 135);
  const { calls, current } = detect(radio.fixes.get(1)!);
  const call = calls[0] ?? current;
  assert.ok(call, 'a call');
  assert.equal(call.portId, PORT.portId);
  assert.deepEqual(
    call.stops.map((s) => [s.kind, s.navStatus]),
    [
      ['anchorage', 1],
      ['berth', 5],
    ],
  );
  assert.equal(call.arrival, stoppedAt, 'the call begins when the ship stops at the anchorage, 12 km out');
  assert.ok(call.anchorageMs >= 5.8 * HOUR && call.anchorageMs <= 6 * HOUR, `${call.anchorageMs / HOUR} h waiting`);
});

test('without a status (15, not defined) the behaviour decides: a ship that swings is at anchor, a ship that lies still is alongside', () => {
  const radio = new Radio();
  const near = destinationPoint(PORT.lat, PORT.lon, 90, 1_000);
  radio.stay(2, T0, 4, near, true, 15);
  radio.stay(3, T0, 4, near, false, 15);
  const swinging = detect(radio.fixes.get(2)!).current!;
  const still = detect(radio.fixes.get(3)!).current!;
  assert.equal(swinging.stops[0]!.kind, 'anchorage');
  assert.ok(swinging.stops[0]!.motion!.spreadM >= 100 && swinging.stops[0]!.motion!.headingRangeDeg! >= 300, JSON.stringify(swinging.stops[0]!.motion));
  assert.equal(still.stops[0]!.kind, 'berth');
  assert.deepEqual(still.stops[0]!.motion, { spreadM: 0, headingRangeDeg: 0 });
  // the edge: a spread of 30 m and a heading range of 15° is a swing; just under either is not
  const edge = (spreadM: number, headingDeg: number) => {
    const r = new Radio();
    for (let i = 0; i < 20; i++) {
      const p = destinationPoint(near.lat, near.lon, 0, i % 2 === 0 ? 0 : spreadM);
      r.report(4, T0 + i * 6 * MIN, p, 0.1, 15, i % 2 === 0 ? 100 : 100 + headingDeg);
    }
    return detect(r.fixes.get(4)!).current!.stops[0]!.kind;
  };
  assert.deepEqual([edge(31, 15), edge(27, 15), edge(31, 14)], ['anchorage', 'berth', 'berth']);
});

test('encounters by setting: alongside an anchored ship near a port is anchorage, side by side at a quay is port, far out at sea open_sea', () => {
  const radio = new Radio();
  const anchored = destinationPoint(PORT.lat, PORT.lon, 135, 8_000);
  const quay = destinationPoint(PORT.lat, PORT.lon, 90, 500);
  radio.stay(11, T0, 2, anchored, true, 1); // a tanker at anchor
  radio.stay(12, T0 + 1 * MIN, 2, destinationPoint(anchored.lat, anchored.lon, 90, 40), false, 0); // a bunker barge alongside it
  radio.stay(13, T0, 2, quay, false, 5); // two ships moored side by side
  radio.stay(14, T0 + 1 * MIN, 2, destinationPoint(quay.lat, quay.lon, 0, 35), false, 5);
  const sea = destinationPoint(PORT.lat, PORT.lon, 180, 60_000);
  radio.stay(15, T0, 3, sea, false, 0);
  radio.stay(16, T0 + 1 * MIN, 3, destinationPoint(sea.lat, sea.lon, 90, 300), false, 0);
  const all = [...radio.fixes].flatMap(([mmsi, fixes]) => fixes.map((f) => ({ mmsi, f }))).sort((a, b) => a.f.t - b.f.t || a.f.seq - b.f.seq);
  const calls = createPortCallDetector(index);
  const states = new Map<string, VesselCallState>();
  const encounters = createEncounterDetector(index, undefined, { kindOf: (id) => calls.stoppedAs(states.get(id) ?? emptyCallState()) });
  const state = emptyEncounterState();
  const found: Encounter[] = [];
  for (const { mmsi, f } of all) {
    const id = String(mmsi);
    if (!states.has(id)) states.set(id, emptyCallState());
    calls.push(states.get(id)!, f);
    found.push(...encounters.push(state, { vesselId: id, seq: f.seq, t: f.t, lat: f.lat, lon: f.lon, sog: f.sog }));
  }
  found.push(...encounters.flush(state, Infinity));
  assert.deepEqual(found.map((e) => [e.vessels.join('+'), e.setting]).sort(), [
    ['11+12', 'anchorage'],
    ['13+14', 'port'],
    ['15+16', 'open_sea'],
  ]);
});

/** Port calls and encounters fed together, wired as the event runner wires them (src/features/events/event-detection.ts). */
function meetings(radio: Radio) {
  const calls = createPortCallDetector(index);
  const states = new Map<string, VesselCallState>();
  const stateOf = (id: string) => states.get(id) ?? emptyCallState();
  const detector = createEncounterDetector(index, undefined, {
    kindOf: (id, from, to) => (from === to ? calls.stoppedAs(stateOf(id)) : calls.stoppedDuring(stateOf(id), from, to)),
    stillStopped: (id, t) => calls.stillStoppedSince(stateOf(id), t),
    onLand: (lat, lon) => landIndex().isLand(lon, lat),
  });
  const state = emptyEncounterState();
  const found: Array<Encounter & { reportedAt: number }> = [];
  const all = [...radio.fixes].flatMap(([mmsi, fixes]) => fixes.map((f) => ({ mmsi, f }))).sort((a, b) => a.f.t - b.f.t || a.f.seq - b.f.seq);
  for (const { mmsi, f } of all) {
    const id = String(mmsi);
    if (!states.has(id)) states.set(id, emptyCallState());
    calls.push(states.get(id)!, f);
    found.push(...detector.push(state, { vesselId: id, seq: f.seq, t: f.t, lat: f.lat, lon: f.lon, sog: f.sog }).map((e) => ({ ...e, reportedAt: f.t })));
  }
  return { found, flush: (now: number) => detector.flush(state, now), pending: () => Object.keys(state.pairs) };
}

test('an anchored ship that swings only after its visitor left: the meeting waits for the swing and is reported at the anchorage (decision 115)', () => {
  const radio = new Radio();
  const anchored = destinationPoint(PORT.lat, PORT.lon, 135, 8_000);
  // no status (15): lies still with a steady heading for 2 h, then swings round its anchor for 3 h
  const swingFrom = radio.stay(21, T0, 2, anchored, false, 15);
  radio.stay(21, swingFrom, 3, anchored, true, 15);
  // a boat alongside, 40 m off, for 1.5 h, then away at 10 kn
  const left = radio.stay(22, T0 + MIN, 1.5, destinationPoint(anchored.lat, anchored.lon, 90, 40), false, 15);
  radio.run(22, left, destinationPoint(anchored.lat, anchored.lon, 90, 40), 20_000, 90);
  const { found } = meetings(radio);
  assert.deepEqual(
    found.map((e) => [e.vessels.join('+'), e.setting]),
    [['21+22', 'anchorage']],
  );
  assert.ok(found[0]!.reportedAt > swingFrom, 'not reported as `port` while the ship had not swung yet');
  assert.ok(found[0]!.end < left && found[0]!.end - found[0]!.start >= HOUR);
});

test('two ships moored side by side: after the pair parts, the meeting waits at most 12 h for the one still alongside, then is `port`', () => {
  const radio = new Radio();
  const quay = destinationPoint(PORT.lat, PORT.lon, 90, 500);
  const end = radio.stay(31, T0, 2, quay, false, 15);
  radio.run(31, end, quay, 20_000, 90);
  radio.stay(32, T0 + MIN, 3, destinationPoint(quay.lat, quay.lon, 0, 35), false, 15); // stays on, heard no more after 3 h
  const { found, flush, pending } = meetings(radio);
  assert.deepEqual(found, []);
  assert.deepEqual(pending(), ['31|32']);
  // the pair was last close when 32 reported next to 31's last report alongside
  const last31 = radio.fixes
    .get(31)!
    .filter((f) => f.t < end)
    .at(-1)!.t;
  const lastClose = radio.fixes.get(32)!.find((f) => f.t > last31)!.t;
  assert.deepEqual(flush(lastClose + 12 * HOUR), [], 'waits 12 h at the edge');
  assert.deepEqual(
    flush(lastClose + 12 * HOUR + 1).map((e) => [e.vessels.join('+'), e.setting]),
    [['31+32', 'port']],
  );
});

test('beyond 10 km of every port point: two ships side by side on land as charted (a river berth) are `port`, two drifting 300 m apart at sea are `open_sea` (decision 115)', () => {
  const radio = new Radio();
  const river = destinationPoint(PORT.lat, PORT.lon, 270, 15_000); // Natural Earth 1:10m land: no water there at that scale
  assert.equal(landIndex().isLand(river.lon, river.lat), true);
  radio.stay(41, T0, 3, river, false, 15);
  radio.stay(42, T0 + MIN, 3, destinationPoint(river.lat, river.lon, 0, 35), false, 15);
  const sea = { lat: 28.9, lon: -94.6 }; // the Gulf, 100 km from the port
  assert.equal(landIndex().isLand(sea.lon, sea.lat), false);
  for (let i = 0; i <= 30; i++) {
    const a = destinationPoint(sea.lat, sea.lon, 90, i * 0.1 * 1852); // 1 kn east, a report every 6 min
    radio.report(43, T0 + i * 6 * MIN, a, 1, 0, 90);
    radio.report(44, T0 + i * 6 * MIN + 1000, destinationPoint(a.lat, a.lon, 0, 300), 1, 0, 90);
  }
  const { found, flush } = meetings(radio);
  found.push(...flush(T0 + 20 * HOUR).map((e) => ({ ...e, reportedAt: Infinity })));
  assert.deepEqual(found.map((e) => [e.vessels.join('+'), e.setting]).sort(), [
    ['41+42', 'port'],
    ['43+44', 'open_sea'],
  ]);
});
