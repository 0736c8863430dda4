import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import test from 'node:test';
import { gunzipSync } from 'node:zlib';
import { createGapDetector, createLoiteringDetector, shoreFromLand, type AisGap, type Loitering, type LoiterRun, type TrackFix } from '../../../src/events/loitering-gaps.js';
import { createPortCallDetector, emptyCallState, PortPointIndex, type VesselCallState } from '../../../src/events/port-calls.js';
import { portPoints } from '../../../src/features/events/event-detection.js';
import { readPortTableFile } from '../../../src/features/ports/port-table-file.js';
import { splitCsvLine } from '../../../src/feeds/ais-csv.js';
import { landIndex } from '../../../src/geo/land.js';
import { sharedDataPath } from '../../helpers/shared-data.js';

const DAYS = ['ais/tracks/AIS_2020_01_01_houston_galveston.csv.gz', 'ais/tracks/AIS_2020_01_01_lower_mississippi.csv.gz'];

/**
 * Every position of a real day (MarineCadastre CSV: MMSI, BaseDateTime, LAT, LON, SOG, …), vessel by
 * vessel in time order, through the port-call, loitering and gap detectors with the runner's port
 * points and Natural Earth shore.
 */
function detectDay(path: string) {
  const rows = gunzipSync(readFileSync(path))
    .toString('utf8')
    .split('\n')
    .slice(1)
    .filter((l) => l.length > 0)
    .map((line, i) => {
      const f = splitCsvLine(line);
      return { mmsi: f[0]!, seq: i + 1, t: Date.parse(`${f[1]}Z`), lat: Number(f[2]), lon: Number(f[3]), sog: f[4] === '' ? null : Number(f[4]), navStatus: null };
    })
    .sort((a, b) => a.mmsi.localeCompare(b.mmsi) || a.t - b.t);
  const { ports } = readPortTableFile();
  const calls = createPortCallDetector(new PortPointIndex(portPoints(ports)), undefined, new Map(ports.map((p) => [p.port_id, p])));
  const shore = shoreFromLand(landIndex());
  const loiteringDetector = createLoiteringDetector(shore);
  const gapDetector = createGapDetector(shore);
  const callStates = new Map<string, VesselCallState>();
  const runs = new Map<string, LoiterRun>();
  const loitering: Array<Loitering & { mmsi: string }> = [];
  const gaps: Array<AisGap & { mmsi: string }> = [];
  const stoppedInPort = new Map<string, Array<{ start: number; end: number }>>();
  const stopped = (mmsi: string, stops: ReadonlyArray<{ start: number; end: number }>) => stoppedInPort.set(mmsi, [...(stoppedInPort.get(mmsi) ?? []), ...stops]);
  for (const row of rows) {
    let state = callStates.get(row.mmsi);
    if (!state) callStates.set(row.mmsi, (state = emptyCallState()));
    const previous: TrackFix | null = state.last;
    const gap = previous && row.t >= previous.t ? gapDetector.between(previous, row) : null;
    if (gap) gaps.push({ ...gap, mmsi: row.mmsi });
    const step = loiteringDetector.push(runs.get(row.mmsi) ?? null, row, previous);
    if (step.run) runs.set(row.mmsi, step.run);
    else runs.delete(row.mmsi);
    if (step.done) loitering.push({ ...step.done, mmsi: row.mmsi });
    for (const call of calls.push(state, row)) stopped(row.mmsi, call.stops);
  }
  for (const [mmsi, run] of runs) {
    const done = loiteringDetector.close(run);
    if (done) loitering.push({ ...done, mmsi });
  }
  for (const [mmsi, state] of callStates) {
    const call = calls.current(state);
    if (call) stopped(mmsi, call.stops);
  }
  return { loitering, gaps, stoppedInPort, vessels: callStates.size };
}

for (const day of DAYS) {
  const data = sharedDataPath(day);
  test(`real day ${day.split('/').pop()}: no loitering is made of vessels stopped in port; gaps near shore are flagged`, { skip: data.skip }, () => {
    const { loitering, gaps, vessels, stoppedInPort } = detectDay(data.path);
    assert.ok(stoppedInPort.size > 20, `${stoppedInPort.size} of ${vessels} vessels stopped in port`);
    for (const l of loitering) {
      const stops = stoppedInPort.get(l.mmsi) ?? [];
      assert.ok(!stops.some((s) => s.start <= l.end && s.end >= l.start), `vessel ${l.mmsi} loitering ${new Date(l.start).toISOString()} overlaps one of its stops in port`);
      assert.ok(l.minShoreNm >= 20 && l.meanSpeedKn < 2);
    }
    // stopped in port for 4 h or more: slow long enough, near shore, so never loitering
    const longStops = [...stoppedInPort].filter(([, stops]) => stops.some((s) => s.end - s.start >= 4 * 3_600_000));
    assert.ok(longStops.length > 10, `${longStops.length} vessels stopped 4 h or more in port`);
    for (const [mmsi] of longStops) assert.ok(!loitering.some((l) => l.mmsi === mmsi && l.minShoreNm < 20));
    for (const g of gaps) assert.equal(g.nearShore, g.startShoreNm < 50 && g.endShoreNm < 50);
  });
}
