import type { FleetService } from '../../src/fleet/fleet-service.js';
import type { PositionReport, StaticReport } from '../../src/fleet/types.js';

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
  return {
    mmsi,
    imo: null,
    name: null,
    callsign: null,
    shipType: null,
    lengthM: null,
    beamM: null,
    draughtM: null,
    destination: null,
    eta: null,
    observedAt,
    receivedAt: observedAt,
    source: 'file:test.nmea',
    simulated: false,
    ...extra,
  };
}

/** Accepts and flushes, as a feed would. */
export async function ingest(fleet: FleetService, ...reports: Array<PositionReport | StaticReport>): Promise<void> {
  for (const report of reports) {
    if ('lat' in report) fleet.acceptPosition(report);
    else fleet.acceptStatic(report);
  }
  await fleet.flush();
}
