import assert from 'node:assert/strict';
import test from 'node:test';
import {
  createGapDetector,
  createLoiteringDetector,
  GFW_GAP_PARAMETERS,
  GFW_LOITERING_PARAMETERS,
  shoreFromLand,
  SHORE_CAP_NM,
  type Loitering,
  type LoiterRun,
  type TrackFix,
} from '../../../src/events/loitering-gaps.js';
import { landIndex } from '../../../src/geo/land.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const T0 = Date.UTC(2026, 0, 1);
/** A straight coast along the equator: the distance to shore is the latitude in minutes of arc (nm). */
const equatorCoast = (lat: number) => Math.abs(lat) * 60;
const shore = (lat: number, _lon: number, maxNm: number) => (equatorCoast(lat) <= maxNm ? equatorCoast(lat) : Infinity);
const nmNorth = (nm: number) => nm / 60;

/** A fix every 10 minutes from T0 for `hours` at `sog`, `nm` north of the coast (stationary unless moving). */
function drift(hours: number, sog: number, nm: number, from = T0, seq0 = 0): TrackFix[] {
  const fixes: TrackFix[] = [];
  for (let t = from, i = 0; t <= from + hours * HOUR; t += 10 * MIN, i++) fixes.push({ seq: seq0 + i, t, lat: nmNorth(nm), lon: 0.0001 * i, sog });
  return fixes;
}

/** Feeds the fixes, then a fast fix 10 minutes after the last (the run ends there). */
function loiter(fixes: TrackFix[], roundTrip = false): Loitering[] {
  const detector = createLoiteringDetector(shore);
  const done: Loitering[] = [];
  let run: LoiterRun | null = null;
  let previous: TrackFix | null = null;
  const last = fixes[fixes.length - 1]!;
  for (const fix of [...fixes, { ...last, seq: last.seq + 1, t: last.t + 10 * MIN, sog: 12 }]) {
    const step = detector.push(run, fix, previous);
    if (!previous || fix.t >= previous.t) previous = fix;
    // as saved in the checkpoint and restored by another process
    run = roundTrip && step.run ? (JSON.parse(JSON.stringify(step.run)) as LoiterRun) : step.run;
    if (step.done) done.push(step.done);
  }
  return done;
}

test('loitering: the published GFW defaults', () => {
  assert.deepEqual(GFW_LOITERING_PARAMETERS, { maxSpeedKn: 2, minDurationMs: 4 * HOUR, minShoreNm: 20, maxSilenceMs: 6 * HOUR });
  assert.deepEqual(GFW_GAP_PARAMETERS, { minGapMs: 6 * HOUR, nearShoreNm: 50 });
});

test('loitering: slower than 2 kn for exactly 4 h, 30 nm out, is one event with its mean speed, position and evidence', () => {
  const [event, ...rest] = loiter(drift(4, 0.5, 30, T0, 100));
  assert.equal(rest.length, 0);
  assert.deepEqual([event!.start, event!.end, event!.fixes, event!.firstSeq, event!.lastSeq], [T0, T0 + 4 * HOUR, 25, 100, 124]);
  assert.ok(Math.abs(event!.meanSpeedKn - 0.5) < 1e-9, String(event!.meanSpeedKn));
  assert.ok(Math.abs(event!.minShoreNm - 30) < 1e-6);
  assert.ok(Math.abs(event!.lat - nmNorth(30)) < 1e-9);
});

test('loitering: limits at their edge (duration, speed, shore distance)', () => {
  // 4 h less one fix interval: too short
  assert.equal(loiter(drift(4 - 1 / 6, 0.5, 30)).length, 0);
  // 2 kn exactly is not below 2 kn; 1.99 is
  assert.equal(loiter(drift(5, 2, 30)).length, 0);
  assert.equal(loiter(drift(5, 1.99, 30)).length, 1);
  // 20 nm from shore is far enough; 19.99 nm is not
  assert.equal(loiter(drift(5, 0.5, 20)).length, 1);
  assert.equal(loiter(drift(5, 0.5, 19.99)).length, 0);
});

test('loitering: a run survives a checkpoint round trip, ignores an older fix and is cut by a silence over 6 h', () => {
  const fixes = drift(5, 0.5, 30);
  assert.deepEqual(loiter(fixes, true), loiter(fixes, false));
  const withStale = [...fixes.slice(0, 10), { ...fixes[2]!, seq: 999, t: fixes[2]!.t - HOUR, lat: 0 }, ...fixes.slice(10)];
  assert.equal(loiter(withStale).length, 1, 'an out-of-order fix on shore does not end the run');
  // 3 h, 6 h 10 min of silence, 3 h: two runs too short, no loitering
  const split = [...drift(3, 0.5, 30), ...drift(3, 0.5, 30, T0 + 3 * HOUR + 6 * HOUR + 10 * MIN, 100)];
  assert.equal(loiter(split).length, 0);
  // the same with exactly 6 h of silence: one run of 12 h
  const joined = [...drift(3, 0.5, 30), ...drift(3, 0.5, 30, T0 + 9 * HOUR, 100)];
  assert.deepEqual(
    loiter(joined).map((e) => (e.end - e.start) / HOUR),
    [12],
  );
});

test('loitering: a fix without speed over ground takes the speed implied by the previous one', () => {
  const fixes = drift(5, 0.5, 30).map((f) => ({ ...f, sog: null }));
  const [event] = loiter(fixes);
  assert.ok(event && event.meanSpeedKn < 0.1, 'a few metres in 10 minutes');
});

test('AIS gap: 6 h of silence exactly is a gap with where it went silent and reappeared, distance and implied speed; a minute less is none', () => {
  const gaps = createGapDetector(shore);
  const before: TrackFix = { seq: 1, t: T0, lat: nmNorth(80), lon: 0, sog: 12 };
  const after: TrackFix = { seq: 2, t: T0 + 6 * HOUR, lat: nmNorth(80 + 60), lon: 0, sog: 12 };
  const gap = gaps.between(before, after)!;
  assert.deepEqual([gap.start, gap.end, gap.firstSeq, gap.lastSeq, gap.nearShore], [T0, T0 + 6 * HOUR, 1, 2, false]);
  assert.ok(Math.abs(gap.distanceNm - 60) < 0.2, String(gap.distanceNm));
  assert.ok(Math.abs(gap.impliedSpeedKn - 10) < 0.05, String(gap.impliedSpeedKn));
  assert.deepEqual([Math.round(gap.startShoreNm), gap.endShoreNm], [80, SHORE_CAP_NM]);
  assert.equal(gaps.between(before, { ...after, t: T0 + 6 * HOUR - MIN }), null);
  assert.equal(gaps.between(null, after), null, 'a first fix is no gap');
});

test('AIS gap: both ends within 50 nm of shore is flagged near_shore (kept); one end beyond is not', () => {
  const gaps = createGapDetector(shore);
  const at = (nm: number, t: number): TrackFix => ({ seq: t, t, lat: nmNorth(nm), lon: 0, sog: 10 });
  assert.equal(gaps.between(at(10, T0), at(49.9, T0 + 8 * HOUR))!.nearShore, true);
  assert.equal(gaps.between(at(10, T0), at(50, T0 + 8 * HOUR))!.nearShore, false);
  assert.equal(gaps.between(at(50, T0), at(10, T0 + 8 * HOUR))!.nearShore, false);
});

test('distance to shore from Natural Earth 1:10m land: 0 on land, some 30 nm off Galveston, far in mid-ocean, beyond the cap as Infinity', () => {
  const nm = shoreFromLand(landIndex());
  assert.equal(nm(29.76, -95.37, 100), 0, 'Houston, on land');
  assert.equal(nm(20, -40, 100), Infinity, 'mid-Atlantic: more than 100 nm from any shore');
  // 0.5° of latitude south of the Texas coast near Galveston: some 20 to 40 nm out
  const offGalveston = nm(28.8, -94.8, 100);
  assert.ok(offGalveston > 15 && offGalveston < 45, String(offGalveston));
});
