import assert from 'node:assert/strict';
import test from 'node:test';
import { rankPorts, rankVessels } from '../../../src/events/visit-rank.js';

const H = 3_600_000;
const call = (vesselId: string, portId: number, arrivalH: number, dwellH: number | null) => ({ vesselId, portId, arrival: arrivalH * H, departure: dwellH === null ? null : (arrivalH + dwellH) * H });

const CALLS = [
  call('A', 1, 1, 10),
  call('A', 1, 20, 6),
  call('B', 1, 5, 20),
  call('B', 2, 30, 4),
  call('C', 2, 2, null),
  call('C', 3, 40, 2),
  call('D', 3, 100, 5), // outside the window
];

test('ports: by calls, then distinct vessels, with median dwell of completed calls; calls that began in the window only', () => {
  assert.deepEqual(rankPorts(CALLS, 0, 50 * H, 10), [
    { rank: 1, port_id: 1, calls: 3, distinct_vessels: 2, median_dwell_hours: 10 },
    { rank: 2, port_id: 2, calls: 2, distinct_vessels: 2, median_dwell_hours: 4 },
    { rank: 3, port_id: 3, calls: 1, distinct_vessels: 1, median_dwell_hours: 2 },
  ]);
  assert.equal(rankPorts(CALLS, 0, 50 * H, 1).length, 1);
  assert.deepEqual(rankPorts(CALLS, 200 * H, 300 * H, 10), []);
});

test('vessels: by calls, then distinct ports', () => {
  assert.deepEqual(rankVessels(CALLS, 0, 50 * H, 2), [
    { rank: 1, vessel_id: 'B', calls: 2, distinct_ports: 2 },
    { rank: 2, vessel_id: 'C', calls: 2, distinct_ports: 2 },
  ]);
});
