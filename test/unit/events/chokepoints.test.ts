import assert from 'node:assert/strict';
import test from 'node:test';
import { CHOKEPOINTS, createTransitDetector, emptyGateState, type GateFix, type GateState, type Transit } from '../../../src/events/chokepoints.js';
import { destinationPoint } from '../../../src/geo/distance.js';

const MIN = 60_000;
const T0 = Date.UTC(2026, 0, 1);
const gate = (key: string) => CHOKEPOINTS.find((g) => g.key === key)!;

/** A straight run through a point: from `before` metres behind it to `after` metres past it along `bearing`, a fix per 6 minutes. */
function through(point: { lat: number; lon: number }, bearing: number, before: number, after: number, knots: number): GateFix[] {
  const fixes: GateFix[] = [];
  const step = (knots * 1852 * 6) / 60;
  let seq = 0;
  for (let m = -before, t = T0; m <= after; m += step, t += 6 * MIN) {
    const p = destinationPoint(point.lat, point.lon, m >= 0 ? bearing : (bearing + 180) % 360, Math.abs(m));
    fixes.push({ seq: ++seq, t, lat: p.lat, lon: p.lon, sog: knots });
  }
  return fixes;
}

function transits(fixes: GateFix[], state: GateState = emptyGateState()): Transit[] {
  const detector = createTransitDetector();
  return fixes.map((f) => detector.push(state, f)).filter((t): t is Transit => t !== null);
}

test('the twelve PortWatch chokepoints, with distinct keys and two direction names each', () => {
  assert.equal(CHOKEPOINTS.length, 12);
  assert.equal(new Set(CHOKEPOINTS.map((g) => g.key)).size, 12);
  for (const key of ['suez', 'panama', 'hormuz', 'malacca', 'bab_el_mandeb', 'gibraltar', 'bosporus']) assert.ok(gate(key), key);
});

test('through Suez northbound at 10 kn: one transit, the time in the gate, the mean speed', () => {
  const suez = gate('suez');
  const found = transits(through(suez, 0, 150_000, 150_000, 10));
  assert.equal(found.length, 1);
  const t = found[0]!;
  assert.equal(t.zone, 'suez');
  assert.equal(t.direction, 'northbound');
  assert.equal(t.meanSpeedKn, 10);
  const hours = (t.exited - t.entered) / 3_600_000;
  // 180 km of gate at 10 kn is 9.7 h
  assert.ok(hours > 9.3 && hours < 9.9, String(hours));
  assert.deepEqual(
    transits(through(suez, 180, 150_000, 150_000, 12)).map((x) => x.direction),
    ['southbound'],
  );
});

test('Gibraltar both ways; a vessel that turns back inside the gate has not transited', () => {
  const gib = gate('gibraltar');
  assert.deepEqual(
    transits(through(gib, 90, 50_000, 50_000, 14)).map((t) => [t.zone, t.direction]),
    [['gibraltar', 'eastbound']],
  );
  assert.deepEqual(
    transits(through(gib, 270, 50_000, 50_000, 14)).map((t) => t.direction),
    ['westbound'],
  );
  const inAndBack = [...through(gib, 90, 50_000, 0, 14)];
  const back = through(gib, 270, 0, 50_000, 14).map((f) => ({ ...f, seq: f.seq + 1000, t: f.t + inAndBack.length * 6 * MIN }));
  assert.deepEqual(transits([...inAndBack, ...back]), []);
});

test('passing across the axis (a ferry across the strait) is no transit; the open sea is no gate', () => {
  const dover = gate('dover');
  assert.deepEqual(transits(through(dover, 135, 40_000, 40_000, 18)), [], 'perpendicular to the north-east axis');
  assert.equal(createTransitDetector().gateAt(0, -30), null);
});

test('state is plain data: through JSON at every fix, the same transits', () => {
  const fixes = through(gate('hormuz'), 330, 80_000, 80_000, 13);
  const straight = transits(fixes);
  const detector = createTransitDetector();
  let state = emptyGateState();
  const resumed: Transit[] = [];
  for (const fix of fixes) {
    state = JSON.parse(JSON.stringify(state)) as GateState;
    const t = detector.push(state, fix);
    if (t) resumed.push(t);
  }
  assert.deepEqual(resumed, straight);
  assert.deepEqual(
    straight.map((t) => t.direction),
    ['inbound'],
  );
});
