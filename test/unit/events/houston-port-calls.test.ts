import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import test from 'node:test';
import { gunzipSync } from 'node:zlib';
import { createPortCallDetector, emptyCallState, PortPointIndex, type PortCall, type VesselCallState } from '../../../src/events/port-calls.js';
import { readPortTableFile } from '../../../src/features/ports/port-table-file.js';
import { splitCsvLine } from '../../../src/feeds/ais-csv.js';
import { sharedDataPath } from '../../helpers/shared-data.js';
import { BAYTOWN, GALVESTON, HOUSTON, TEXAS_CITY } from '../../helpers/houston-ports.js';

const MIN = 60_000;

const data = sharedDataPath('ais/tracks/AIS_2020_01_01_houston_galveston.csv.gz');

/**
 * Calls established by reading the CSV (MMSI, BaseDateTime, LAT, LON, SOG of each vessel in time order):
 * - ATHINA M (241294000): stopped at 29.7283, −95.0205 from the file's start to 03:3x; shifted to
 *   29.7313, −95.0531 (stopped 04:06–15:56); under way outbound from 16:16. Port area: Baytown (WPI 9170).
 * - BOW CHAIN (257901000): stopped at 29.3615, −94.9167 (Texas City) from the start to 14:34, under way 14:58.
 * - BRITISH SAILOR (235113767): stopped at 29.176, −94.614 — the offshore anchorage Global Fishing
 *   Watch labels HOUSTON, 75 km from the port — until 19:2x, then up the channel towards Houston.
 * - THORCO ISADORA (538005564): 474 reports at 29.3083, −94.8078 (a Galveston berth), 00:00:11 to
 *   23:57:13, never faster than 0.0 kn.
 */
test('real Houston–Galveston day: the port calls read off the CSV by hand', { skip: data.skip }, () => {
  const { ports } = readPortTableFile();
  const area = ports.filter((p) => p.lat > 28.5 && p.lat < 30.5 && p.lon > -96 && p.lon < -94);
  const index = new PortPointIndex(area.flatMap((p) => [{ portId: p.port_id, lat: p.lat, lon: p.lon }, ...p.anchorages.map(([lat, lon]) => ({ portId: p.port_id, lat, lon }))]));
  const detector = createPortCallDetector(index, undefined, new Map(area.map((p) => [p.port_id, p])));
  const lines = gunzipSync(readFileSync(data.path)).toString('utf8').split('\n');
  const rows = lines
    .slice(1)
    .filter((l) => l.length > 0)
    .map((line, i) => {
      const f = splitCsvLine(line);
      return { mmsi: Number(f[0]), seq: i + 1, t: Date.parse(`${f[1]}Z`), lat: Number(f[2]), lon: Number(f[3]), sog: f[4] === '' ? null : Number(f[4]), navStatus: null };
    })
    .sort((a, b) => a.mmsi - b.mmsi || a.t - b.t);
  const states = new Map<number, VesselCallState>();
  const calls = new Map<number, PortCall[]>();
  for (const row of rows) {
    let state = states.get(row.mmsi);
    if (!state) states.set(row.mmsi, (state = emptyCallState()));
    const ended = detector.push(state, row);
    if (ended.length) calls.set(row.mmsi, [...(calls.get(row.mmsi) ?? []), ...ended]);
  }
  const at = (iso: string) => Date.parse(`2020-01-01T${iso}Z`);

  const athina = calls.get(241294000)!;
  assert.equal(athina.length, 1);
  assert.equal(athina[0]!.portId, BAYTOWN);
  assert.equal(athina[0]!.arrival, at('00:00:56'), 'in port when the file begins');
  assert.ok(athina[0]!.departure! > at('16:16:00') && athina[0]!.departure! < at('17:00:00'));
  assert.equal(athina[0]!.stops.length, 2, 'two stops: the shift at 03:3x');
  assert.ok(Math.abs(athina[0]!.stops[0]!.end - at('03:30:00')) < 15 * MIN);
  assert.ok(Math.abs(athina[0]!.stops[1]!.start - at('04:00:00')) < 15 * MIN);
  assert.ok(Math.abs(athina[0]!.stops[1]!.end - at('16:05:00')) < 15 * MIN);

  const bowChain = calls.get(257901000)!;
  assert.equal(bowChain[0]!.portId, TEXAS_CITY);
  assert.deepEqual(
    bowChain[0]!.stops.map((s) => s.kind),
    ['berth'],
  );
  assert.ok(Math.abs(bowChain[0]!.stops[0]!.end - at('14:45:00')) < 15 * MIN);

  const sailor = detector.current(states.get(235113767)!);
  assert.ok(sailor, 'still in its Houston call at the end of the day: waiting offshore, then under way up the channel');
  assert.equal(sailor.portId, HOUSTON);
  assert.deepEqual(
    sailor.stops.map((s) => s.kind),
    ['anchorage'],
    'the offshore stop is a wait, not a berth',
  );
  assert.ok(sailor.anchorageMs > 18 * 60 * MIN);
  assert.equal(calls.get(235113767), undefined, 'its call has not ended');

  const isadora = detector.current(states.get(538005564)!);
  assert.ok(isadora, 'alongside at Galveston all day');
  assert.equal(isadora.portId, GALVESTON);
  assert.deepEqual(
    isadora.stops.map((s) => s.kind),
    ['berth'],
  );
  assert.equal(isadora.stops[0]!.start, at('00:00:11'));
  assert.equal(isadora.stops[0]!.end, at('23:57:13'));
  assert.equal(calls.get(538005564), undefined);
});
