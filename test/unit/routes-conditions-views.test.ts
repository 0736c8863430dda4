import assert from 'node:assert/strict';
import test from 'node:test';
import { advisorySummary, destinationCondition, flagsOf, stsCondition, type ConditionsView } from '../../src/features/routes/conditions/conditions-views.js';
import { forecastConfidence, routingShipType, speedOf } from '../../src/features/routes/conditions/forecast-lite.js';
import { corridorBoxes } from '../../src/features/routes/conditions/route-geometry.js';
import type { EncounterRow } from '../../src/features/events/event-rows.js';

const HOUR = 3_600_000;
const port = { port_id: 7, name: 'Rotterdam', locode: 'NLRTM' };

function encounter(id: number, endAt: number): EncounterRow {
  return { id, start_at: endAt - HOUR, end_at: endAt, lat: 1, lon: 2, zone: null } as unknown as EncounterRow;
}

test('destination condition: a position, an unanalysed layer and no calls each say why congestion is not measured', () => {
  const at = { horizon: 10 * HOUR, rangeMs: HOUR, now: 10 * HOUR };
  assert.equal(destinationCondition(null, true, null, at).note, 'the destination is a position, not a port: no congestion to measure');
  assert.equal(destinationCondition(port, false, null, at).note, 'the event detector has not analysed any positions yet');
  const none = destinationCondition(port, true, [], at);
  assert.deepEqual([none.available, none.port, none.note], [false, port, 'no port calls detected at Rotterdam in the window or the one before (no coverage, or no traffic)']);
});

test('sts condition: not measured is null; otherwise the nearest, the newest age and the items', () => {
  assert.equal(stsCondition(null, 0).count, null);
  const sts = stsCondition(
    [
      { row: encounter(1, 2 * HOUR), km: 3.04 },
      { row: encounter(2, 4 * HOUR), km: 9.5 },
    ],
    5 * HOUR,
  );
  assert.deepEqual([sts.count, sts.nearest_km, sts.data_age_seconds], [2, 3, 3600]);
  assert.deepEqual(
    sts.items.map((i) => [i.id, i.duration_minutes]),
    [
      [1, 60],
      [2, 60],
    ],
  );
});

test('risk flags: by the thresholds, most severe first; the summary has a sentence per part', () => {
  const at = { horizon: 10 * HOUR, rangeMs: HOUR, now: 10 * HOUR };
  const conditions: ConditionsView = {
    chokepoints: [
      { zone: 'suez', name: 'Suez Canal', passage: 'suez', at_nm: 100, stress_index: 95, level: 'severe', weight_measured: 1, components: [], unavailable: [], data_age_seconds: 60 },
      { zone: 'bab', name: 'Bab-el-Mandeb', passage: null, at_nm: 200, stress_index: 10, level: 'low', weight_measured: 1, components: [], unavailable: [], data_age_seconds: 60 },
    ],
    sts: stsCondition(
      Array.from({ length: 30 }, (_, i) => ({ row: encounter(i, 4 * HOUR), km: 1 })),
      5 * HOUR,
    ),
    destination: destinationCondition(port, true, [], at),
  } as ConditionsView;
  const flags = flagsOf(conditions);
  assert.equal(flags[0]!.code, 'chokepoint_stress');
  assert.equal(flags[0]!.severity, 'severe');
  assert.ok(flags.every((f) => f.subject !== 'bab'));
  assert.equal(advisorySummary(true, conditions).length, 4);
  assert.equal(advisorySummary(false, conditions).length, 1);
});

test('forecast-lite: ship type, speed source and confidence', () => {
  assert.deepEqual([routingShipType(null), routingShipType(75), routingShipType(84), routingShipType(61), routingShipType(30)], ['other', 'general_cargo', 'tanker', 'passenger', 'other']);
  assert.deepEqual(speedOf(undefined, [10, 12, null, 0.5, 14], 'tanker'), { kn: 12, source: 'recent_sog', samples: 3 });
  assert.deepEqual(speedOf(9, [10], 'tanker'), { kn: 9, source: 'speed_kn', samples: 1 });
  assert.equal(speedOf(undefined, [10, 12], 'tanker').source, 'ship_type_default');
  assert.deepEqual(forecastConfidence(0, { source: 'recent_sog', samples: 5 }, 'name_exact'), { value: 0.81, position_age: 1, speed_source: 0.9, destination: 0.9 });
  assert.equal(forecastConfidence(96 * 3600, { source: 'ship_type_default', samples: 0 }, 'given').position_age, 0.3);
});

test('corridor boxes: a long line is cut into boxes of at most 8° plus the margin; over ±180° a box is split', () => {
  const boxes = corridorBoxes(
    [
      [
        [0, 0],
        [20, 0],
      ],
    ],
    0,
  );
  // the first point alone, then the segment that made the box too wide
  assert.deepEqual(
    boxes.map((b) => [b.minLon, b.maxLon]),
    [
      [0, 0],
      [0, 20],
    ],
  );
  const long = corridorBoxes(
    [
      [
        [0, 0],
        [5, 0],
        [10, 0],
        [15, 0],
      ],
    ],
    10,
  );
  assert.equal(long.length, 3);
  const across = corridorBoxes(
    [
      [
        [179, 0],
        [181, 0],
      ],
    ],
    0,
  );
  assert.deepEqual(
    across.map((b) => [b.minLon, b.maxLon]),
    [
      [-180, -179],
      [179, 180],
    ],
  );
});
