import assert from 'node:assert/strict';
import test from 'node:test';
import { areaCellOf, buildPortAreas, effectiveAreas, PORT_AREA_CELL_DEG, PortAreaIndex, type StoredPortArea } from '../../../src/events/port-areas.js';
import { createPortCallDetector, emptyCallState, PortPointIndex, type Fix, type PortCall } from '../../../src/events/port-calls.js';
import { destinationPoint } from '../../../src/geo/distance.js';

const MIN = 60_000;
const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 0, 1);
const D = PORT_AREA_CELL_DEG;
// two ports 40 km apart; a terminal 12 km east of A's only point (beyond the 3 km entry), nearer A than B
const A = { portId: 501, lat: 29.7, lon: -95.2 };
const B = { portId: 502, lat: 29.7, lon: -94.785 };
const points = new PortPointIndex([A, B]);
const TERMINAL = destinationPoint(A.lat, A.lon, 90, 12_000);

/** The cells of a square of `n` × `n` cells around a position. */
function square(at: { lat: number; lon: number }, n = 3): Array<[number, number]> {
  const [row, col] = areaCellOf(at.lat, at.lon);
  const cells: Array<[number, number]> = [];
  const half = Math.floor((n - 1) / 2);
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) cells.push([row - half + r, col - half + c]);
  return cells;
}
const area = (over: Partial<StoredPortArea> & Pick<StoredPortArea, 'portId' | 'cells'>): StoredPortArea => ({ provenance: 'learnt', kind: 'berth', stops: 5, updatedAt: 0, ...over });

/** In from the west at 10 kn, `hours` stopped at `at` (no status, no heading: the stored area or the former rules decide), out west, and far away. */
function visit(at: { lat: number; lon: number }, hours: number, opts: { heading?: (i: number) => number | null; jitterM?: number } = {}): Fix[] {
  const fixes: Fix[] = [];
  let t = T0;
  let seq = 0;
  const push = (p: { lat: number; lon: number }, sog: number, heading: number | null = null) => fixes.push({ seq: ++seq, t, lat: p.lat, lon: p.lon, sog, navStatus: null, heading });
  for (let m = 20_000; m > 0; m -= 1_500, t += 5 * MIN) push(destinationPoint(at.lat, at.lon, 270, m), 10);
  for (let i = 0; i < (hours * 60) / 5; i++, t += 5 * MIN) push(destinationPoint(at.lat, at.lon, (i * 37) % 360, opts.jitterM ?? 0), 0.1, opts.heading?.(i) ?? null);
  for (let m = 0; m < 20_000; m += 1_500, t += 5 * MIN) push(destinationPoint(at.lat, at.lon, 270, m), 10);
  t += 2 * HOUR;
  push(destinationPoint(at.lat, at.lon, 0, 90_000), 12);
  return fixes;
}

function detect(fixes: Fix[], areas: PortAreaIndex | null): PortCall[] {
  const detector = createPortCallDetector(points, undefined, new Map([A, B].map((p) => [p.portId, p])), areas);
  const state = emptyCallState();
  return fixes.flatMap((f) => detector.push(state, f));
}

test('without stored areas the on-the-fly rule stands (fallback): a stop 12 km from A is a call at A, the only stop a berth', () => {
  const calls = detect(visit(TERMINAL, 5), null);
  assert.deepEqual(
    calls.map((c) => [c.portId, c.stops.map((s) => s.kind)]),
    [[501, ['berth']]],
  );
  assert.deepEqual(
    detect(visit(TERMINAL, 5), new PortAreaIndex([])).map((c) => c.portId),
    [501],
    'an empty area table is no areas',
  );
});

test('a stop in a stored area of a port begins a call at that port, whichever port point is nearer; its kind from the area when the ship shows none', () => {
  // the terminal learnt as B's anchorage (say, B's ships wait there): the call is B's and the stop a wait
  const areas = new PortAreaIndex([area({ portId: 502, kind: 'anchorage', cells: square(TERMINAL) })]);
  const calls = detect(visit(TERMINAL, 5), areas);
  assert.deepEqual(
    calls.map((c) => [c.portId, c.stops.map((s) => s.kind)]),
    [[502, ['anchorage']]],
  );
  // an area without stops has no evidence for its kind: the former rules decide (28 km from B's own position: a wait offshore)
  const gfw = new PortAreaIndex([area({ portId: 502, provenance: 'gfw', kind: 'berth', stops: 0, cells: square(TERMINAL) })]);
  assert.deepEqual(
    detect(visit(TERMINAL, 5), gfw).map((c) => [c.portId, c.stops.map((s) => s.kind)]),
    [[502, ['anchorage']]],
  );
});

test("the ship's behaviour outranks a learnt area's kind; an operator area's kind outranks the behaviour", () => {
  // alongside: headings steady, positions still (a berth by behaviour) in an area learnt as an anchorage
  const steady = visit(TERMINAL, 5, { heading: () => 80 });
  const learnt = new PortAreaIndex([area({ portId: 501, kind: 'anchorage', cells: square(TERMINAL) })]);
  assert.deepEqual(
    detect(steady, learnt)[0]!.stops.map((s) => s.kind),
    ['berth'],
  );
  const operator = new PortAreaIndex([
    area({ portId: 501, kind: 'anchorage', cells: square(TERMINAL) }),
    area({ portId: 501, provenance: 'operator', kind: 'anchorage', cells: square(TERMINAL), updatedAt: 5 }),
  ]);
  assert.deepEqual(
    detect(steady, operator)[0]!.stops.map((s) => s.kind),
    ['anchorage'],
  );
});

test('operator areas mask the cells of the areas they correct: reclassified, moved, removed; the newest correction wins', () => {
  const cells = square(TERMINAL);
  const built = area({ portId: 501, kind: 'berth', cells });
  const shifted = cells.map(([r, c]): [number, number] => [r + 10, c]);
  const moved = area({ portId: 501, provenance: 'operator', kind: 'berth', cells: shifted, masks: cells, updatedAt: 10 });
  const index = new PortAreaIndex([built, moved]);
  assert.equal(index.at(TERMINAL.lat, TERMINAL.lon), null, 'the old place is no area any more');
  assert.equal(index.at(TERMINAL.lat + 10 * D, TERMINAL.lon)?.provenance, 'operator');
  const removed = area({ portId: 501, provenance: 'operator', kind: 'berth', cells: [], masks: cells, updatedAt: 10 });
  assert.deepEqual(effectiveAreas([built, removed]), []);
  // a call there falls back to the on-the-fly rule
  assert.deepEqual(
    detect(visit(TERMINAL, 5), new PortAreaIndex([built, removed])).map((c) => c.portId),
    [501],
  );
  const first = area({ portId: 501, provenance: 'operator', kind: 'anchorage', cells, masks: cells, updatedAt: 10 });
  const second = area({ portId: 501, provenance: 'operator', kind: 'berth', cells, masks: cells, updatedAt: 20 });
  assert.equal(new PortAreaIndex([first, built, second]).at(TERMINAL.lat, TERMINAL.lon)?.kind, 'berth');
  // next to an area of the call's port (one cell) the vessel has not left it
  assert.equal(index.near(TERMINAL.lat + 10 * D + 2 * D, TERMINAL.lon, 501), true);
  assert.equal(index.near(TERMINAL.lat + 10 * D + 3 * D, TERMINAL.lon, 501), false);
});

test('a busy channel learnt as one strip splits: berth cells apart from anchorage cells, terminals apart at a density gap', () => {
  // a channel along one row of cells: terminal 1 (cols 0-3) and terminal 2 (cols 7-10) busy, the reach between them (cols 4-6) with
  // two vessels per cell; anchored ships in the row beside terminal 2
  const stops: Array<{ portId: number; vslId: string; lat: number; lon: number; kind: 'berth' | 'anchorage' }> = [];
  const at = (row: number, col: number) => ({ lat: (row + 0.5) * D, lon: (col + 0.5) * D });
  const add = (row: number, col: number, vessels: number, kind: 'berth' | 'anchorage', tag: string) => {
    for (let v = 0; v < vessels; v++) stops.push({ portId: 9, vslId: `${tag}${v}`, ...at(row, col), kind });
  };
  for (let col = 0; col <= 3; col++) add(1000, col, 12, 'berth', 't1-');
  for (let col = 4; col <= 6; col++) add(1000, col, 2, 'berth', 'reach-');
  for (let col = 7; col <= 10; col++) add(1000, col, 9, 'berth', 't2-');
  for (let col = 7; col <= 10; col++) add(1001, col, 5, 'anchorage', 'anc-');
  const learnt = buildPortAreas({ gfwPoints: [], stops }).filter((a) => a.provenance === 'learnt');
  assert.deepEqual(
    learnt.map((a) => [a.kind, a.cells.map(([, c]) => c).join(','), a.vessels]),
    [
      ['berth', '0,1,2,3,4,5', 14],
      ['berth', '6,7,8,9,10', 11],
      ['anchorage', '7,8,9,10', 5],
    ],
  );
  // each with its own stable key: its busiest cell
  assert.deepEqual(new Set(learnt.map((a) => a.key)).size, 3);
  const t1 = learnt.find((a) => a.cells.some(([, c]) => c === 0))!;
  assert.equal(t1.key, '9:1000:0');
  // without the gap (the reach as busy as the terminals) one berth area
  for (let col = 4; col <= 6; col++) add(1000, col, 10, 'berth', 'more-');
  const merged = buildPortAreas({ gfwPoints: [], stops }).filter((a) => a.provenance === 'learnt' && a.kind === 'berth');
  assert.equal(merged.length, 1);
});

test('a cell where the calls of two ports stopped is learnt for the port with the nearest charted point, else the one most of its vessels were calling at', () => {
  const at = { lat: 10.0025, lon: 20.0025 };
  const stop = (portId: number, vslId: string) => ({ portId, vslId, ...at, kind: 'berth' as const });
  const learnt = buildPortAreas({ gfwPoints: [], stops: [stop(1, 'a'), stop(1, 'b'), stop(2, 'c'), stop(2, 'd'), stop(2, 'e')] }).filter((a) => a.provenance === 'learnt');
  assert.deepEqual(
    learnt.map((a) => [a.portId, a.vessels]),
    [[2, 3]],
  );
  const charted = buildPortAreas({
    gfwPoints: [],
    portPoints: [
      { portId: 1, lat: 10.01, lon: 20.0025 },
      { portId: 2, lat: 10.1, lon: 20.0025 },
    ],
    stops: [stop(1, 'a'), stop(1, 'b'), stop(2, 'c'), stop(2, 'd'), stop(2, 'e')],
  }).filter((a) => a.provenance === 'learnt');
  assert.deepEqual(
    charted.map((a) => [a.portId, a.vessels]),
    [[1, 2]],
  );
});

test('a vessel passing through an area of one port and stopping in an area of another calls at the second', () => {
  // B's berth area 12 km east of A; on the way in the vessel crosses an area of A next to it (without stopping)
  const berth = area({ portId: 502, kind: 'berth', cells: square(TERMINAL, 1) });
  const crossing = area({ portId: 501, kind: 'berth', cells: square(destinationPoint(TERMINAL.lat, TERMINAL.lon, 270, 1_000)) });
  const index = new PortAreaIndex([berth, crossing]);
  assert.equal(index.near(TERMINAL.lat, TERMINAL.lon, 501), true, 'the berth lies next to the area crossed');
  const calls = detect(visit(TERMINAL, 5), index);
  assert.deepEqual(
    calls.map((c) => [c.portId, c.stops.map((s) => s.kind)]),
    [[502, ['berth']]],
  );
});
