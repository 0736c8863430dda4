import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { ManualClock } from '../../../src/platform/clock.js';
import { AisCsvError, csvSourceName, importAisCsv, parseBaseDateTime, parseImo, splitCsvLine } from '../../../src/feeds/ais-csv.js';
import type { AisSink, PositionReport, StaticReport } from '../../../src/fleet/types.js';
import { TEST_EPOCH } from '../../helpers/app.js';
import { RecordingSink } from '../../helpers/recording-sink.js';
import { sharedDataPath } from '../../helpers/shared-data.js';

const HOUSTON = 'ais/tracks/AIS_2020_01_01_houston_galveston.csv.gz';
const T0 = Date.UTC(2020, 0, 1, 0, 0, 0);
const csv = (lines: string[], chunk = 17) => {
  const bytes = Buffer.from(lines.join('\r\n') + '\r\n', 'utf8');
  const parts: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += chunk) parts.push(bytes.subarray(i, i + chunk));
  return Readable.from(parts);
};
const run = (lines: string[], extra: { limit?: number } = {}) => {
  const sink = new RecordingSink();
  return importAisCsv(csv(lines), { sink, clock: new ManualClock(TEST_EPOCH), source: 'csv:fixture', ...extra }).then((summary) => ({ summary, sink }));
};

test('CSV helpers: source name, IMO, BaseDateTime, quoted fields', () => {
  assert.equal(csvSourceName('/data/AIS_2020_01_01_houston_galveston.csv.gz'), 'csv:AIS_2020_01_01_houston_galveston');
  assert.equal(csvSourceName('x.CSV'), 'csv:x');
  assert.equal(parseImo('IMO9245756'), 9245756);
  assert.equal(parseImo('9245756'), 9245756);
  assert.equal(parseImo(''), null);
  assert.equal(parseImo('IMO0000'), null);
  assert.equal(parseBaseDateTime('2020-01-01T00:00:05'), T0 + 5000);
  assert.equal(parseBaseDateTime('2020-01-01 23:59:59'), T0 + 86_399_000);
  assert.equal(parseBaseDateTime('2020-02-30T00:00:00'), null);
  assert.equal(parseBaseDateTime('yesterday'), null);
  // The per-day fast path and the general one agree: other days, leap days, bad times, other shapes.
  assert.equal(parseBaseDateTime('2020-02-29T12:30:01'), Date.UTC(2020, 1, 29, 12, 30, 1));
  assert.equal(parseBaseDateTime('2019-02-29T12:30:01'), null);
  assert.equal(parseBaseDateTime('2020-01-01T24:00:00'), null);
  assert.equal(parseBaseDateTime('2020-01-01T23:60:00'), null);
  assert.equal(parseBaseDateTime('2020-01-01T2x:00:00'), null);
  assert.equal(parseBaseDateTime('2020-13-01T00:00:00'), null);
  assert.equal(parseBaseDateTime('2020-01-01T00:00:05Z'), T0 + 5000);
  assert.equal(parseBaseDateTime('2020-01-01T00:00:05.25'), T0 + 5250);
  assert.equal(parseBaseDateTime(' 2020-01-01T00:00:05 '), T0 + 5000);
  assert.deepEqual(splitCsvLine('1,"SEA, STAR",""'), ['1', 'SEA, STAR', '']);
  assert.deepEqual(splitCsvLine('1,"say ""hi""",x'), ['1', 'say "hi"', 'x']);
});

test('CSV import: full MarineCadastre columns in any order; "not available" values become null; statics only on identity change', async () => {
  const { summary, sink } = await run([
    'BaseDateTime,MMSI,LAT,LON,SOG,COG,Heading,VesselName,IMO,CallSign,VesselType,Status,Length,Width,Draft,Cargo,TransceiverClass',
    '2020-01-01T00:00:00,367000001,29.5,-94.9,12.3,45.5,44,"SEA STAR, II",IMO9245756,WDA1234,70,0,180.5,32,9.5,70,A',
    '2020-01-01T00:01:00,367000001,29.51,-94.89,102.3,360.0,511,"SEA STAR, II",IMO9245756,WDA1234,70,0,180.5,32,9.5,70,A',
    '2020-01-01T00:02:00,367000001,29.52,-94.88,0.0,0.0,0,"SEA STAR, II",IMO9245756,WDA1234,70,5,180.5,32,10.1,70,A',
    '2020-01-01T00:00:30,538000002,29.0,-95.0,,,,ÅLESUND,,,1025,,,,,,B',
  ]);
  assert.deepEqual(summary.rejected, { wrong_column_count: 0, bad_mmsi: 0, bad_time: 0, bad_position: 0, overlong_line: 0 });
  assert.equal(summary.rows, 4);
  assert.equal(summary.positions, 4);
  assert.equal(summary.vessels, 2);
  assert.equal(summary.statics, 3, 'first sight of each vessel, then the draught change');
  assert.equal(summary.firstObservedAt, T0);
  assert.equal(summary.lastObservedAt, T0 + 120_000);
  const meta = { receivedAt: TEST_EPOCH, source: 'csv:fixture', simulated: false };
  assert.deepEqual(sink.positions[0], { ...meta, observedAt: T0, mmsi: 367000001, lat: 29.5, lon: -94.9, sog: 12.3, cog: 45.5, heading: 44, navStatus: 0, msgType: null });
  assert.deepEqual(sink.positions[1], { ...meta, observedAt: T0 + 60_000, mmsi: 367000001, lat: 29.51, lon: -94.89, sog: null, cog: null, heading: null, navStatus: 0, msgType: null });
  assert.equal(sink.positions[2]!.navStatus, 5);
  assert.deepEqual(sink.statics[0], {
    ...meta,
    observedAt: T0,
    mmsi: 367000001,
    imo: 9245756,
    name: 'SEA STAR, II',
    callsign: 'WDA1234',
    shipType: 70,
    lengthM: 180.5,
    beamM: 32,
    draughtM: 9.5,
    destination: null,
    eta: null,
  });
  assert.equal(sink.statics[1]!.draughtM, 10.1);
  assert.deepEqual(
    { name: sink.statics[2]!.name, imo: sink.statics[2]!.imo, shipType: sink.statics[2]!.shipType, callsign: sink.statics[2]!.callsign, sog: sink.positions[3]!.sog },
    { name: 'ÅLESUND', imo: null, shipType: null, callsign: null, sog: null },
  );
});

test('CSV import: bad rows are counted by reason and never stop the import; a row limit stops early', async () => {
  const header = 'MMSI,BaseDateTime,LAT,LON,SOG,COG,Heading,VesselName,IMO,CallSign,VesselType';
  const good = '367000001,2020-01-01T00:00:00,29.5,-94.9,1,2,3,A,,,70';
  const { summary } = await run([
    header,
    good,
    'abc,2020-01-01T00:00:00,29.5,-94.9,1,2,3,A,,,70',
    '0,2020-01-01T00:00:00,29.5,-94.9,1,2,3,A,,,70',
    '367000001,01/01/2020 00:00,29.5,-94.9,1,2,3,A,,,70',
    '367000001,2020-01-01T00:00:00,91,181,1,2,3,A,,,70',
    '367000001,2020-01-01T00:00:00,,-94.9,1,2,3,A,,,70',
    '367000001,2020-01-01T00:00:00,29.5',
    'x'.repeat(70_000),
    good,
  ]);
  assert.deepEqual(summary.rejected, { wrong_column_count: 1, bad_mmsi: 2, bad_time: 1, bad_position: 2, overlong_line: 1 });
  assert.equal(summary.positions, 2);
  assert.equal(summary.rows, 8);
  assert.equal(summary.statics, 1);
  assert.deepEqual(summary.columns, header.split(','));

  const limited = await run([header, good, good, good], { limit: 2 });
  assert.equal(limited.summary.rows, 2);
  assert.equal(limited.sink.positions.length, 2);
});

test('CSV import: a file without the required header columns, or an empty file, is refused clearly', async () => {
  await assert.rejects(run(['a,b,c', '1,2,3']), (e: Error) => e instanceof AisCsvError && /header lacks MMSI, BaseDateTime, LAT, LON/.test(e.message));
  await assert.rejects(run([]), /empty file: no header row/);
});

class CountingSink implements AisSink {
  positions = 0;
  statics = 0;
  mmsis = new Set<number>();
  nullHeadings = 0;
  flushes = 0;
  acceptMessage(): void {}
  acceptPosition(report: PositionReport): void {
    this.positions++;
    this.mmsis.add(report.mmsi);
    if (report.heading === null) this.nullHeadings++;
  }
  acceptStatic(_report: StaticReport): void {
    this.statics++;
  }
  async flush(): Promise<void> {
    this.flushes++;
  }
}

const houston = sharedDataPath(HOUSTON);
test('CSV import: the whole Houston/Galveston day (401,815 rows, 671 vessels), streamed from gzip', { skip: houston.skip }, async () => {
  const sink = new CountingSink();
  const input = createReadStream(houston.path).pipe(createGunzip());
  const summary = await importAisCsv(input, { sink, clock: new ManualClock(TEST_EPOCH), source: csvSourceName(houston.path) });
  assert.equal(summary.source, 'csv:AIS_2020_01_01_houston_galveston');
  assert.equal(summary.rows, 401_815);
  assert.equal(summary.positions, 401_815);
  assert.equal(summary.vessels, 671);
  assert.equal(sink.mmsis.size, 671);
  assert.ok(summary.statics >= 671 && summary.statics < 1000, `statics ${summary.statics}`);
  assert.deepEqual(Object.values(summary.rejected), [0, 0, 0, 0, 0]);
  assert.equal(summary.firstObservedAt, T0);
  assert.ok(summary.lastObservedAt! > T0 + 86_000_000 && summary.lastObservedAt! < T0 + 86_400_000);
  assert.ok(sink.nullHeadings > 100_000, 'heading 511 is "not available"');
  assert.ok(sink.flushes >= 70, `flushes about every 5,000 rows (${sink.flushes})`);
});
