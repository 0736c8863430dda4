// Constructed tracks whose events are known, for the event detector and events operation tests.
import { HOUR, MINUTE } from '../../src/platform/clock.js';
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

/** Open Atlantic, about 1,000 nm from any shore. */
export const MID_ATLANTIC = { lat: 20, lon: -40 };

/**
 * A vessel sailing east at 12 kn for 2 h, drifting at `driftKn` for `hours` at `at`, then sailing on
 * east for 2 h: a fix every 10 minutes.
 */
export function loiterTrack(mmsi: number, start: number, hours: number, at: { lat: number; lon: number } = MID_ATLANTIC, driftKn = 0.8): PositionReport[] {
  const reports: PositionReport[] = [];
  const nmPerMs = (kn: number) => kn / HOUR;
  let t = start;
  for (const end = start + 2 * HOUR; t < end; t += 10 * MINUTE) {
    const p = destinationPoint(at.lat, at.lon, 270, (end - t) * nmPerMs(12) * 1852);
    reports.push(position(mmsi, t, p.lat, p.lon, { sog: 12, navStatus: 0, cog: 90 }));
  }
  const driftStart = t;
  for (const end = driftStart + hours * HOUR; t <= end; t += 10 * MINUTE) {
    const p = destinationPoint(at.lat, at.lon, 90, (t - driftStart) * nmPerMs(driftKn) * 1852);
    reports.push(position(mmsi, t, p.lat, p.lon, { sog: driftKn, navStatus: 0, cog: 90 }));
  }
  const from = destinationPoint(at.lat, at.lon, 90, hours * HOUR * nmPerMs(driftKn) * 1852);
  const sailStart = t;
  for (const end = sailStart + 2 * HOUR; t <= end; t += 10 * MINUTE) {
    const p = destinationPoint(from.lat, from.lon, 90, (t - sailStart + 10 * MINUTE) * nmPerMs(12) * 1852);
    reports.push(position(mmsi, t, p.lat, p.lon, { sog: 12, navStatus: 0, cog: 90 }));
  }
  return reports;
}

/** A vessel sailing east at 12 kn from `at`, a fix every 10 minutes, silent between `silentFrom` and `silentFrom + silentHours`. */
export function darkTrack(mmsi: number, start: number, hours: number, silentFrom: number, silentHours: number, at: { lat: number; lon: number } = MID_ATLANTIC): PositionReport[] {
  const reports: PositionReport[] = [];
  for (let t = start; t <= start + hours * HOUR; t += 10 * MINUTE) {
    if (t > silentFrom && t < silentFrom + silentHours * HOUR) continue;
    const p = destinationPoint(at.lat, at.lon, 90, ((t - start) / HOUR) * 12 * 1852);
    reports.push(position(mmsi, t, p.lat, p.lon, { sog: 12, navStatus: 0, cog: 90 }));
  }
  return reports;
}
