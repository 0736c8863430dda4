import type { ShipType } from './ship-types.js';
import { round } from '../../platform/stats.js';

/**
 * Main-engine fuel and CO₂ estimates for a passage (docs/decisions/053-fuel-and-co2-estimates.md).
 *
 * Method (the bottom-up method of the Fourth IMO GHG Study 2020, main engine only): the engine load
 * follows the propeller law, load = (speed / design speed)³ (capped at 1); fuel = installed power ×
 * load × specific fuel oil consumption × hours at sea; CO₂ = fuel × Cf, the carbon factor of the fuel
 * in IMO resolution MEPC.308(73) (HFO 3.114, LNG 2.750 t CO₂ per t fuel).
 *
 * The representative ship of each type (installed power, design speed, SFOC) is Bosun's assumption,
 * not a figure of the study: a route request knows no particular ship. No auxiliary engines or
 * boilers, no weather, fouling or draught effects, no canal or port time.
 */
export interface ReferenceShip {
  label: string;
  main_engine_kw: number;
  design_speed_kn: number;
  sfoc_g_per_kwh: number;
  fuel: 'HFO' | 'LNG';
}

export const REFERENCE_SHIPS: Readonly<Record<ShipType, ReferenceShip>> = {
  container: { label: 'container ship of about 8,000 TEU', main_engine_kw: 60_000, design_speed_kn: 24, sfoc_g_per_kwh: 175, fuel: 'HFO' },
  tanker: { label: 'Aframax-size crude or product tanker', main_engine_kw: 15_000, design_speed_kn: 15, sfoc_g_per_kwh: 175, fuel: 'HFO' },
  bulk: { label: 'Panamax bulk carrier', main_engine_kw: 10_000, design_speed_kn: 14, sfoc_g_per_kwh: 175, fuel: 'HFO' },
  general_cargo: { label: 'general cargo ship of about 10,000 dwt', main_engine_kw: 5_000, design_speed_kn: 14, sfoc_g_per_kwh: 185, fuel: 'HFO' },
  lng: { label: 'LNG carrier of about 174,000 m³ burning boil-off gas', main_engine_kw: 28_000, design_speed_kn: 19.5, sfoc_g_per_kwh: 160, fuel: 'LNG' },
  ro_ro: { label: 'ro-ro cargo ship', main_engine_kw: 15_000, design_speed_kn: 19, sfoc_g_per_kwh: 180, fuel: 'HFO' },
  passenger: { label: 'cruise ship (propulsion power)', main_engine_kw: 30_000, design_speed_kn: 22, sfoc_g_per_kwh: 190, fuel: 'HFO' },
  other: { label: 'small cargo ship', main_engine_kw: 3_000, design_speed_kn: 14, sfoc_g_per_kwh: 190, fuel: 'HFO' },
};

/** Carbon factors Cf, t CO₂ per t fuel (IMO MEPC.308(73), 2018 EEDI guidelines). */
export const CARBON_FACTORS = { HFO: 3.114, LNG: 2.75 } as const;

export const FUEL_METHOD =
  'Estimate, main engine only: load = (speed / design speed)^3 capped at 1 (propeller law, as in the Fourth IMO GHG Study 2020 bottom-up method), fuel = installed power x load x SFOC x hours at sea, CO2 = fuel x Cf (IMO MEPC.308(73): HFO 3.114, LNG 2.750). The reference ship of each ship_type is an assumption of Bosun, not a figure of the study; no auxiliary engines, weather, fouling, canal or port time.';

export interface FuelEstimate {
  fuel_t: number;
  co2_t: number;
  fuel_t_per_day: number;
  fuel: 'HFO' | 'LNG';
  engine_load: number;
  speed_above_design: boolean;
}

/** Fuel and CO₂ of `hours` at sea at `speedKn` for the reference ship of `shipType`. */
export function estimateFuel(shipType: ShipType, speedKn: number, hours: number): FuelEstimate {
  const ship = REFERENCE_SHIPS[shipType];
  const load = Math.min(1, (speedKn / ship.design_speed_kn) ** 3);
  const tonnesPerHour = (ship.main_engine_kw * load * ship.sfoc_g_per_kwh) / 1e6;
  const fuel = tonnesPerHour * hours;
  return {
    fuel_t: round(fuel, 1),
    co2_t: round(fuel * CARBON_FACTORS[ship.fuel], 1),
    fuel_t_per_day: round(tonnesPerHour * 24, 1),
    fuel: ship.fuel,
    engine_load: round(load, 3),
    speed_above_design: speedKn > ship.design_speed_kn,
  };
}
