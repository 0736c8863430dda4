import type { FleetService } from '../../src/fleet/fleet-service.js';
import { emptyStatic } from '../../src/fleet/convert.js';
import type { PositionReport, StaticReport } from '../../src/fleet/types.js';
import { DAY, MINUTE, type Clock } from '../../src/platform/clock.js';
import { backfill } from '../../src/sim/backfill.js';
import { BACKFILL_RATES, DemoFleet } from '../../src/sim/fleet.js';

/** A position report with sensible defaults; times are epoch ms. */
export function position(mmsi: number, observedAt: number, lat: number, lon: number, extra: Partial<PositionReport> = {}): PositionReport {
  return {
    mmsi,
    lat,
    lon,
    sog: 12,
    cog: 90,
    heading: 91,
    navStatus: 0,
    msgType: 1,
    observedAt,
    receivedAt: observedAt,
    source: 'file:test.nmea',
    simulated: false,
    ...extra,
  };
}

export function identity(mmsi: number, observedAt: number, extra: Partial<StaticReport> = {}): StaticReport {
  return { ...emptyStatic(mmsi, { observedAt, receivedAt: observedAt, source: 'file:test.nmea', simulated: false }), ...extra };
}

/** Accepts and flushes, as a feed would. */
export async function ingest(fleet: FleetService, ...reports: Array<PositionReport | StaticReport>): Promise<void> {
  for (const report of reports) {
    if ('lat' in report) fleet.acceptPosition(report);
    else fleet.acceptStatic(report);
  }
  await fleet.flush();
}

/**
 * The vessel the published vessel examples name (IMO 9811000, MMSI 563033300), with a position
 * old enough for the delayed preview and a recent one.
 */
export async function seedSampleVessel(fleet: FleetService, now: number): Promise<void> {
  const mmsi = 563033300;
  await ingest(
    fleet,
    identity(mmsi, now - 20 * 3_600_000, { imo: 9811000, name: 'OCEAN PRIDE', callsign: '9V1234', shipType: 80, lengthM: 183, beamM: 32, destination: 'CNSGH' }),
    position(mmsi, now - 20 * 3_600_000, 1.2, 103.7),
    position(mmsi, now - 10 * 60_000, 1.25, 103.8),
  );
}

/** A valid IMO number from its first six digits (appends the check digit). */
export function imo(first6: number): number {
  const digits = String(first6).padStart(6, '0');
  let sum = 0;
  for (let i = 0; i < 6; i++) sum += Number(digits[i]) * (7 - i);
  return Number(digits + (sum % 10));
}

/**
 * A vessel idling at sea (10 N, 30 W) from `since` to ten minutes before `now`, stored and analysed by the event
 * detector: the analytics' baseline windows from `since` on count as covered by data.
 */
export async function seedCoverage(services: { fleet: FleetService; events: { runner: { catchUp(): Promise<unknown> } } }, mmsi: number, since: number, now: number): Promise<void> {
  await ingest(services.fleet, position(mmsi, since, 10, -30, { sog: 0.1 }), position(mmsi, now - 10 * MINUTE, 10.001, -30, { sog: 0.1 }));
  await services.events.runner.catchUp();
}

/** OCEAN PRIDE, the sample tanker of the vessel tests (IMO 9811000, MMSI 563033300), bound for `destination`. */
export const PRIDE = { mmsi: 563033300, imo: 9811000 };
export function prideIdentity(observedAt: number, destination: string): StaticReport {
  return identity(PRIDE.mmsi, observedAt, {
    imo: PRIDE.imo,
    name: 'OCEAN PRIDE',
    callsign: '9V1234',
    shipType: 80,
    lengthM: 183,
    beamM: 32,
    draughtM: 11.2,
    destination,
    eta: '2026-11-22T06:00:00Z',
  });
}

/** Days of the demo fleet (`vessels` of seed `seed`) up to `until`, stored and analysed by the live event runner. */
export async function seedDemoDays(
  services: { fleet: FleetService; events: { runner: { catchUp(): Promise<unknown> } } },
  clock: Clock,
  options: { seed: number; vessels: number; days: number; until: number },
): Promise<void> {
  const fleet = new DemoFleet({ seed: options.seed, vessels: options.vessels, startMs: options.until - options.days * DAY, rates: BACKFILL_RATES });
  await backfill({ fleet, toMs: options.until, sink: services.fleet, clock });
  await services.events.runner.catchUp();
}
