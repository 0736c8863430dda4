import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { encounterView, portsIn, zonesIn } from '../../../src/features/events-api/event-views.js';
import type { EncounterRow } from '../../../src/features/events/event-rows.js';

const vessel = (vslId: string) => ({ vsl_id: vslId, mmsi: null, imo: null, name: null });
const encounter: EncounterRow = {
  id: 7,
  vsl_a: 'vsl_a',
  vsl_b: 'vsl_b',
  start_at: Date.UTC(2026, 0, 1),
  end_at: Date.UTC(2026, 0, 1, 3),
  median_distance_m: 120,
  lat: 1,
  lon: 2,
  zone: null,
  observations: 40,
  first_seq: 1,
  last_seq: 9,
  confidence: 0.8,
  simulated: 0,
  updated_at: 0,
  setting: 'open_sea',
};

describe('events API views', () => {
  it('encounterView: the vessel asked for comes first, the other second', () => {
    assert.deepEqual([encounterView(encounter, vessel, undefined).vessel.vsl_id, encounterView(encounter, vessel, undefined).other_vessel.vsl_id], ['vsl_a', 'vsl_b']);
    const asked = encounterView(encounter, vessel, ['vsl_b']);
    assert.deepEqual([asked.vessel.vsl_id, asked.other_vessel.vsl_id], ['vsl_b', 'vsl_a']);
    assert.equal(asked.event_id, 'enc_7');
    assert.equal(asked.duration_seconds, 3 * 3600);
    assert.equal(asked.simulated, false);
  });

  it('portsIn: ports in a box (one crossing the antimeridian) or within a chokepoint gate', () => {
    const ports = [
      { port_id: 1, lat: 10, lon: 179.5 },
      { port_id: 2, lat: 10, lon: -179.5 },
      { port_id: 3, lat: 10, lon: 0 },
      { port_id: 4, lat: 30.6, lon: 32.4 },
    ];
    assert.deepEqual(portsIn({ box: { minLon: 179, minLat: 0, maxLon: -179, maxLat: 20 } }, ports), [1, 2]);
    assert.deepEqual(portsIn({ box: { minLon: -1, minLat: 0, maxLon: 1, maxLat: 20 } }, ports), [3]);
    assert.deepEqual(portsIn({ key: 'suez' }, ports), [4]);
  });

  it('zonesIn: a chokepoint is its own zone; a box holds the chokepoints whose centre lies in it', () => {
    assert.deepEqual(zonesIn({ key: 'panama' }), ['panama']);
    assert.deepEqual(zonesIn({ box: { minLon: 30, minLat: 29, maxLon: 34, maxLat: 32 } }), ['suez']);
  });
});
