import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CARBON_FACTORS, estimateFuel, REFERENCE_SHIPS } from '../../../src/features/routes/fuel.js';
import { SHIP_TYPES } from '../../../src/features/routes/ship-types.js';

test('fuel estimate: propeller-law load, installed power x SFOC x hours, CO2 by the IMO carbon factor of the fuel', () => {
  const day = estimateFuel('bulk', 14, 24);
  assert.deepEqual([day.engine_load, day.fuel_t_per_day, day.fuel_t, day.co2_t, day.fuel], [1, 42, 42, 130.8, 'HFO']);
  const half = estimateFuel('bulk', 7, 48);
  assert.equal(half.engine_load, 0.125);
  assert.equal(half.fuel_t, 10.5, 'half speed for twice the time: a quarter of the fuel');
  assert.equal(estimateFuel('bulk', 20, 24).speed_above_design, true);
  assert.equal(estimateFuel('bulk', 20, 24).fuel_t, 42, 'above design speed the load is capped at 1');
  const lng = estimateFuel('lng', 17, 24);
  const lngFuel = (28_000 * (17 / 19.5) ** 3 * 160 * 24) / 1e6;
  assert.deepEqual([lng.fuel, lng.fuel_t, lng.co2_t], ['LNG', Math.round(lngFuel * 10) / 10, Math.round(lngFuel * 2.75 * 10) / 10]);
  assert.equal(estimateFuel('tanker', 13, 0).fuel_t, 0);
});

test('every ship type has a reference ship with a known fuel and a plausible design', () => {
  for (const type of SHIP_TYPES) {
    const ship = REFERENCE_SHIPS[type];
    assert.ok(ship.main_engine_kw >= 1000 && ship.main_engine_kw <= 100_000, type);
    assert.ok(ship.design_speed_kn >= 10 && ship.design_speed_kn <= 30, type);
    assert.ok(ship.sfoc_g_per_kwh >= 150 && ship.sfoc_g_per_kwh <= 220, type);
    assert.ok(ship.fuel in CARBON_FACTORS, type);
  }
});
