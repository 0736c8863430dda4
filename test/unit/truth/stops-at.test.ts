// The truth harness's occupancy at an instant (bench/truth/ground-truth.ts stopsAt): a moored ship whose SOG
// reads above 0.5 kn for a while is still at its berth while its positions stay there; a ship that moved is not.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { stopsAt, type TruthDay, type TruthRow, type TruthStop } from '../../../bench/truth/ground-truth.js';

const MIN = 60_000;
const stop = (mmsi: number, start: number, end: number, lat = 29.7315, lon = -95.0536, kind: TruthStop['kind'] = 'berth'): TruthStop => ({
  mmsi,
  start: start * MIN,
  end: end * MIN,
  lat,
  lon,
  kind,
  spreadM: 5,
  headingRangeDeg: 2,
  clippedStart: false,
  clippedEnd: false,
});

const row = (t: number, lat = 29.7315, lon = -95.0536): TruthRow => ({ t: t * MIN, lat, lon, sog: 0.7, heading: 10 });
const dayOf = (rows: TruthRow[]): Pick<TruthDay, 'vessels'> => ({ vessels: new Map([[1, { mmsi: 1, name: 'A', type: 70, rows }]]) });

test('between two stops at the same berth, with every report there, the vessel is held at it', () => {
  const stops = [stop(1, 295, 358), stop(1, 600, 660)];
  const day = dayOf([row(360), row(420), row(500, 29.7318)]);
  assert.deepEqual(
    stopsAt(stops, 450 * MIN, day).map((s) => s.start),
    [295 * MIN],
  );
  assert.equal(stopsAt(stops, 300 * MIN, day).length, 1, 'inside a stop');
});

test('a report away from the berth, another place, another kind or another vessel: not held', () => {
  assert.equal(stopsAt([stop(1, 0, 100), stop(1, 140, 200)], 120 * MIN, dayOf([row(120, 29.74)])).length, 0, 'moved 950 m in between');
  assert.equal(stopsAt([stop(1, 0, 100), stop(1, 110, 200, 29.7335)], 105 * MIN, dayOf([])).length, 0, 'stops 220 m apart');
  assert.equal(stopsAt([stop(1, 0, 100), stop(1, 110, 200, 29.7315, -95.0536, 'anchor')], 105 * MIN, dayOf([])).length, 0, 'berth then anchor');
  assert.equal(stopsAt([stop(1, 0, 100), stop(2, 110, 200)], 105 * MIN, dayOf([])).length, 0, 'two vessels');
});
