import { test } from 'node:test';
import assert from 'node:assert/strict';
import { offerLatestFix, type LatestFix, type VesselState } from '../../../src/fleet/latest-fix.js';
import { checkQuality, isUsable, MAX_PLAUSIBLE_SPEED_KN } from '../../../src/fleet/quality.js';
import { position } from '../../helpers/fleet.js';

const MMSI = 366000001;
const T0 = Date.UTC(2026, 10, 21, 0, 0, 0);
const HOUR = 3_600_000;

function fixAt(lat: number, lon: number, observedAt: number): LatestFix {
  return { observedAt, receivedAt: observedAt, lat, lon, sog: 10, cog: 0, heading: 0, navStatus: 0, msgType: 1, source: 'test', simulated: false, qualityFlags: [] };
}

/** One degree of latitude is 60 nautical miles. */
const degreesFor = (nm: number) => nm / 60;

test('a fix reached at just under the plausible speed is clean; just over it is an impossible jump', () => {
  const vessel = { latest: fixAt(29, -94.8, T0), jumpCandidate: null };
  const under = position(MMSI, T0 + HOUR, 29 + degreesFor(MAX_PLAUSIBLE_SPEED_KN - 0.5), -94.8);
  const over = position(MMSI, T0 + HOUR, 29 + degreesFor(MAX_PLAUSIBLE_SPEED_KN + 0.5), -94.8);
  assert.deepEqual(checkQuality(vessel, under, T0 + HOUR), { flags: [], jumpCandidate: null });
  const verdict = checkQuality(vessel, over, T0 + HOUR);
  assert.deepEqual(verdict.flags, ['impossible_jump']);
  assert.deepEqual(verdict.jumpCandidate, { lat: over.lat, lon: over.lon, at: over.observedAt });
  assert.equal(isUsable(verdict.flags), false);
});

test('a second fix near the jump candidate confirms the move', () => {
  const far = 29 + degreesFor(500);
  const vessel = { latest: fixAt(29, -94.8, T0), jumpCandidate: { lat: far, lon: -94.8, at: T0 + 60_000 } };
  const verdict = checkQuality(vessel, position(MMSI, T0 + 120_000, far + degreesFor(0.5), -94.8), T0 + 120_000);
  assert.deepEqual(verdict, { flags: [], jumpCandidate: null });
});

test('observation times more than five minutes ahead of the clock are future_timestamp, exactly five are not', () => {
  const vessel = { latest: null, jumpCandidate: null };
  assert.deepEqual(checkQuality(vessel, position(MMSI, T0 + 5 * 60_000, 29, -94.8), T0).flags, []);
  assert.deepEqual(checkQuality(vessel, position(MMSI, T0 + 5 * 60_000 + 1, 29, -94.8), T0).flags, ['future_timestamp']);
});

test('invalid coordinates, coarse and simulated positions are flagged; only the first keeps a fix from being usable', () => {
  const vessel = { latest: null, jumpCandidate: null };
  assert.deepEqual(checkQuality(vessel, position(MMSI, T0, 0, 0), T0).flags, ['invalid_coordinates']);
  assert.deepEqual(checkQuality(vessel, position(MMSI, T0, 91, 0), T0).flags, ['invalid_coordinates']);
  const coarseSimulated = checkQuality(vessel, position(MMSI, T0, 29, -94.8, { msgType: 27, simulated: true }), T0).flags;
  assert.deepEqual(coarseSimulated, ['coarse_position', 'simulated_source']);
  assert.equal(isUsable(coarseSimulated), true);
});

test('the latest fix only moves forward in observation time', () => {
  const state = { latest: null, jumpCandidate: null } as unknown as VesselState;
  assert.equal(offerLatestFix(state, position(MMSI, T0, 29, -94.8), []), true);
  assert.equal(offerLatestFix(state, position(MMSI, T0, 29.1, -94.8), []), false, 'same time');
  assert.equal(offerLatestFix(state, position(MMSI, T0 - 1, 29.2, -94.8), []), false, 'older');
  assert.equal(offerLatestFix(state, position(MMSI, T0 + 1, 29.3, -94.8), ['coarse_position']), true);
  assert.deepEqual({ lat: state.latest!.lat, at: state.latest!.observedAt, flags: state.latest!.qualityFlags }, { lat: 29.3, at: T0 + 1, flags: ['coarse_position'] });
});
