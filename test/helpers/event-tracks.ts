// Constructed tracks whose events are known, for the event detector and events operation tests.
import { HOUR, MINUTE } from '../../src/clock.js';
import { readPortTableFile } from '../../src/features/ports/port-table-file.js';
import type { PositionReport } from '../../src/fleet/types.js';
import { destinationPoint } from '../../src/geo/distance.js';
import { position } from './fleet.js';

/** Papeete (PFPPT, WPI 55840): no other port within 30 km. */
export const PAPEETE = readPortTableFile().ports.find((p) => p.locode === 'PFPPT')!;

/** A vessel's day at Papeete (or at `port`, another position): in from the north, 3 h at anchor 2.5 km out, 10 h alongside, out to the north. */
export function papeeteCall(mmsi: number, start: number, port: { lat: number; lon: number } = PAPEETE): PositionReport[] {
  const reports: PositionReport[] = [];
  let t = start;
  const at = (lat: number, lon: number, sog: number, navStatus: number) => reports.push(position(mmsi, t, lat, lon, { sog, navStatus, cog: 180 }));
  const anchor = destinationPoint(port.lat, port.lon, 0, 2_500);
  // 30 km in at 10 kn: a fix every 3 minutes covers about 926 m
  for (let d = 30_000; d > 2_500; d -= 926, t += 3 * MINUTE) {
    const p = destinationPoint(port.lat, port.lon, 0, d);
    at(p.lat, p.lon, 10, 0);
  }
  for (const end = t + 3 * HOUR; t < end; t += 3 * MINUTE) at(anchor.lat, anchor.lon, 0, 1);
  for (let d = 2_500; d > 200; d -= 460, t += 3 * MINUTE) {
    const p = destinationPoint(port.lat, port.lon, 0, d);
    at(p.lat, p.lon, 5, 0);
  }
  const berth = destinationPoint(port.lat, port.lon, 0, 200);
  for (const end = t + 10 * HOUR; t < end; t += 3 * MINUTE) at(berth.lat, berth.lon, 0, 5);
  for (let d = 200; d < 40_000; d += 926, t += 3 * MINUTE) {
    const p = destinationPoint(port.lat, port.lon, 0, d);
    at(p.lat, p.lon, 10, 0);
  }
  // an hour and more well away from the port makes the departure stand
  for (const end = t + 2 * HOUR; t < end; t += 3 * MINUTE) {
    const p = destinationPoint(port.lat, port.lon, 0, 40_000 + (t - start) / 1000);
    at(p.lat, p.lon, 10, 0);
  }
  return reports;
}

/** Two vessels 300 m apart, drifting at 0.5 kn, for `hours`, in the open Atlantic (far from any port). */
export function meeting(mmsiA: number, mmsiB: number, start: number, hours: number): PositionReport[] {
  const reports: PositionReport[] = [];
  for (let t = start; t <= start + hours * HOUR; t += 5 * MINUTE) {
    const a = destinationPoint(20, -40, 90, ((t - start) / HOUR) * 926);
    const b = destinationPoint(a.lat, a.lon, 0, 300);
    reports.push(position(mmsiA, t, a.lat, a.lon, { sog: 0.5, navStatus: 0 }), position(mmsiB, t + 1000, b.lat, b.lon, { sog: 0.5, navStatus: 0 }));
  }
  return reports;
}
