import assert from 'node:assert/strict';
import test from 'node:test';
import { createEncounterDetector, emptyEncounterState, type Encounter, type EncounterFix, type EncounterState } from '../../../src/events/encounters.js';
import { PortPointIndex } from '../../../src/events/port-calls.js';
import { destinationPoint } from '../../../src/geo/distance.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const T0 = Date.UTC(2026, 0, 1);
const SEA = { lat: 26.0, lon: 56.0 };
const PORT = { portId: 1, lat: 26.2, lon: 56.0 }; // 22 km north of SEA
const ports = new PortPointIndex([PORT]);

interface Pair {
  distanceM: number;
  durationMs: number;
  sog: number;
  at?: { lat: number; lon: number };
  ids?: [string, string];
}

/** Two vessels side by side, a fix each every 5 minutes, then apart. */
function pairFixes({ distanceM, durationMs, sog, at = SEA, ids = ['A', 'B'] }: Pair): EncounterFix[] {
  const fixes: EncounterFix[] = [];
  let seq = 0;
  const b = destinationPoint(at.lat, at.lon, 90, distanceM);
  for (let t = T0; t <= T0 + durationMs; t += 5 * MIN) {
    fixes.push({ vesselId: ids[0], seq: ++seq, t, lat: at.lat, lon: at.lon, sog });
    fixes.push({ vesselId: ids[1], seq: ++seq, t: t + MIN, lat: b.lat, lon: b.lon, sog });
  }
  return fixes;
}

function run(fixes: EncounterFix[], state: EncounterState = emptyEncounterState()): Encounter[] {
  const detector = createEncounterDetector(ports);
  const out: Encounter[] = [];
  for (const fix of fixes) out.push(...detector.push(state, fix));
  out.push(...detector.flush(state, Infinity));
  return out;
}

test('two slow vessels 300 m apart for 3 hours, 22 km from the port: one encounter with its median distance', () => {
  const found = run(pairFixes({ distanceM: 300, durationMs: 3 * HOUR, sog: 0.5 }));
  assert.equal(found.length, 1);
  const e = found[0]!;
  assert.deepEqual(e.vessels, ['A', 'B']);
  assert.equal(e.medianDistanceM, 300);
  assert.ok(e.end - e.start >= 3 * HOUR - 5 * MIN && e.end - e.start <= 3 * HOUR + 5 * MIN, String((e.end - e.start) / HOUR));
  assert.ok(Math.abs(e.lat - SEA.lat) < 0.001);
  assert.ok(e.confidence >= 0.9);
});

test('near misses: 501 m, 1 h 59 min, 2.1 kn, and 8 km from a port are no encounters', () => {
  assert.equal(run(pairFixes({ distanceM: 499, durationMs: 2 * HOUR + 5 * MIN, sog: 1.9 })).length, 1, 'the control just inside every limit');
  assert.equal(run(pairFixes({ distanceM: 501, durationMs: 3 * HOUR, sog: 0.5 })).length, 0, '501 m');
  assert.equal(run(pairFixes({ distanceM: 300, durationMs: 2 * HOUR - 6 * MIN, sog: 0.5 })).length, 0, 'under 2 hours together');
  assert.equal(run(pairFixes({ distanceM: 300, durationMs: 3 * HOUR, sog: 2.1 })).length, 0, '2.1 kn');
  const nearPort = destinationPoint(PORT.lat, PORT.lon, 180, 8_000);
  assert.equal(run(pairFixes({ distanceM: 300, durationMs: 3 * HOUR, sog: 0.5, at: nearPort })).length, 0, '8 km from the port');
});

test('a pair apart for more than 30 minutes makes two meetings; each counts only if long enough', () => {
  const first = pairFixes({ distanceM: 200, durationMs: 2.5 * HOUR, sog: 0.3 });
  const second = pairFixes({ distanceM: 200, durationMs: HOUR, sog: 0.3 }).map((f) => ({ ...f, t: f.t + 4 * HOUR, seq: f.seq + 1000 }));
  const found = run([...first, ...second]);
  assert.equal(found.length, 1, 'the second meeting lasted an hour');
  assert.ok(found[0]!.end < T0 + 3 * HOUR);
});

test('three vessels together make three pairs; other vessels far away are never compared', () => {
  const a = pairFixes({ distanceM: 200, durationMs: 3 * HOUR, sog: 0.2, ids: ['A', 'B'] });
  const c = pairFixes({ distanceM: 250, durationMs: 3 * HOUR, sog: 0.2, ids: ['C', 'D'], at: destinationPoint(SEA.lat, SEA.lon, 0, 150) }).filter((f) => f.vesselId === 'C');
  const far = pairFixes({ distanceM: 300, durationMs: 3 * HOUR, sog: 0.2, ids: ['X', 'Y'], at: { lat: -10, lon: 100 } });
  const found = run([...a, ...c, ...far].sort((x, y) => x.t - y.t));
  assert.deepEqual(found.map((e) => e.vessels.join('+')).sort(), ['A+B', 'A+C', 'B+C', 'X+Y']);
});

test('state is plain data: through JSON at every fix, the same encounters', () => {
  const fixes = [...pairFixes({ distanceM: 300, durationMs: 3 * HOUR, sog: 0.5 }), ...pairFixes({ distanceM: 100, durationMs: 2.5 * HOUR, sog: 1, ids: ['P', 'Q'], at: { lat: 0, lon: 0 } })].sort(
    (x, y) => x.t - y.t,
  );
  const straight = run(fixes);
  const detector = createEncounterDetector(ports);
  let state = emptyEncounterState();
  const resumed: Encounter[] = [];
  for (const fix of fixes) {
    state = JSON.parse(JSON.stringify(state)) as EncounterState;
    resumed.push(...detector.push(state, fix));
  }
  resumed.push(...detector.flush(state, Infinity));
  assert.deepEqual(resumed, straight);
  assert.equal(straight.length, 2);
});

test('the encounter grid holds only the cells vessels are in: a cell a vessel left is dropped (a day of tracks would keep millions)', () => {
  const detector = createEncounterDetector(new PortPointIndex([]));
  const state = emptyEncounterState();
  // two vessels far apart at sea, each moving 0.02° (two cells) a fix for 500 fixes
  for (let i = 0; i < 500; i++) {
    detector.push(state, { vesselId: 'a', seq: 2 * i, t: i * 60_000, lat: 10, lon: -40 + i * 0.02, sog: 12 });
    detector.push(state, { vesselId: 'b', seq: 2 * i + 1, t: i * 60_000, lat: 20, lon: -40 + i * 0.02, sog: 12 });
  }
  assert.equal(detector.gridCells(), 2);
});
