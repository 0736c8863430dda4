import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DAY, HOUR } from '../../../src/platform/clock.js';
import { detourMeasure, MAX_VOYAGE_MS, strictStoppedMs, voyagesOf } from '../../../src/features/routes/stress/stress-measures.js';

const call = (vsl_id: string, port_id: number, arrival: number, departure: number | null) => ({ vsl_id, port_id, arrival, departure, last_fix_at: departure ?? arrival + HOUR, simulated: 0 });
const transit = (entered_at: number, exited_at: number, stopped_ms: number) => ({ vsl_id: 'v', entered_at, exited_at, stopped_ms });

test('strict waiting (decision 118): stopped time less the port time inside the transit, never below 0', () => {
  assert.equal(strictStoppedMs(transit(0, 10 * HOUR, 3 * HOUR), []), 3 * HOUR);
  // a call from 2 h to 4 h: 2 h of the 3 stopped were in port
  assert.equal(strictStoppedMs(transit(0, 10 * HOUR, 3 * HOUR), [call('v', 1, 2 * HOUR, 4 * HOUR)]), HOUR);
  // a call that ends as the transit begins overlaps nothing
  assert.equal(strictStoppedMs(transit(4 * HOUR, 10 * HOUR, 3 * HOUR), [call('v', 1, 2 * HOUR, 4 * HOUR)]), 3 * HOUR);
  // an open call counts to its last fix; more port time than stopped time gives 0
  assert.equal(strictStoppedMs(transit(0, 10 * HOUR, HOUR), [call('v', 1, 0, null)]), 0);
});

test('voyages: consecutive calls of one vessel at different ports, at most 30 days from departure to arrival', () => {
  const voyages = voyagesOf([
    call('a', 2, 10 * DAY, null),
    call('a', 1, 0, DAY),
    call('b', 1, 0, DAY),
    call('b', 1, 2 * DAY, 3 * DAY),
    call('c', 1, 0, DAY),
    call('c', 2, DAY + MAX_VOYAGE_MS + 1, null),
  ]);
  assert.deepEqual(
    voyages.map((v) => [v.vslId, v.fromPort, v.toPort, v.departed, v.arrived]),
    [['a', 1, 2, DAY, 10 * DAY]],
  );
  assert.equal(voyagesOf([call('c', 1, 0, DAY), call('c', 2, DAY + MAX_VOYAGE_MS, null)]).length, 1, 'exactly 30 days is a voyage');
});

test('detours: the share of voyages routed through the gate with no transit overlapping them', () => {
  const voyages = [
    { vslId: 'a', fromPort: 1, toPort: 2, departed: 0, arrived: 10 * DAY, simulated: false },
    { vslId: 'b', fromPort: 1, toPort: 2, departed: 0, arrived: 10 * DAY, simulated: false },
    { vslId: 'c', fromPort: 1, toPort: 3, departed: 0, arrived: 9 * DAY, simulated: false },
  ];
  const measure = detourMeasure({
    voyages,
    routedThroughGate: (v) => (v.toPort === 2 ? true : null),
    // b's transit ended as its voyage began: it belongs to the voyage before
    transits: [
      { vsl_id: 'a', entered_at: 4 * DAY, exited_at: 4 * DAY + HOUR },
      { vsl_id: 'b', entered_at: -HOUR, exited_at: 0 },
    ],
  });
  assert.deepEqual(measure, { expected: 2, avoided: 1, share: 0.5, newestArrival: 10 * DAY, simulated: false });
  assert.deepEqual(detourMeasure({ voyages, routedThroughGate: () => false, transits: [] }), { expected: 0, avoided: 0, share: null, newestArrival: null, simulated: false });
});
