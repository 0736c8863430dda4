import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'node:test';
import { gzipSync } from 'node:zlib';
import { readPortTableFile } from '../../src/features/ports/port-table-file.js';
import { locodePortId, type PortRecord } from '../../src/features/ports/port-table.js';
import type { WpiPort } from '../../src/features/ports/port-sources.js';
import { startTestApp, usingPostgres } from '../helpers/app.js';
import { runCli } from '../helpers/cli.js';
import { sharedDataPath } from '../helpers/shared-data.js';

const shipped = readPortTableFile();
const csv = (fields: Array<string | number>) => fields.map((f) => `"${String(f).replace(/"/g, '""')}"`).join(',');
const WPI_HEADER = ['OID_', 'World Port Index Number', 'Region Name', 'Main Port Name', 'Alternate Port Name', 'UN/LOCODE', 'Country Code', 'Harbor Size', 'Harbor Type', 'Latitude', 'Longitude'];
const SIZE_TEXT: Record<string, string> = { large: 'Large', medium: 'Medium', small: 'Small', very_small: 'Very Small' };
function wpiLine(w: WpiPort, change: Partial<WpiPort> = {}): string {
  const r = { ...w, ...change };
  const locode = r.locode ? `${r.locode.slice(0, 2)} ${r.locode.slice(2)}` : '';
  return csv([1, r.wpiNumber, 'Region', r.name, r.alternateNames.join(';'), locode, r.countryName, r.harborSize ? SIZE_TEXT[r.harborSize]! : '', r.harborType ?? '', r.lat, r.lon]);
}
const UNLOCODE_HEADER = 'country,location,name,nameWoDiacritics,subdivision,status,function,iata,lat,lon,geocoded';
const placeLine = (locode: string, name: string, ascii: string, fn: string, lat: number | string, lon: number | string) =>
  csv([locode.slice(0, 2), locode.slice(2), name, ascii, '', 'RL', fn, '', lat, lon, '']);

/** A store the CLI opens by configuration (SQLite file or a PostgreSQL schema) and a serve process (the test app) on it. */
async function storeWithApp() {
  const dir = mkdtempSync(join(tmpdir(), 'bosun-ports-import-'));
  const sqlite = `sqlite:${join(dir, 'bosun.db')}`;
  const app = await startTestApp({ env: usingPostgres() ? {} : { DATABASE_URL: sqlite } });
  const db = app.config.database;
  const env = { LOG_LEVEL: 'silent', DATABASE_URL: db.kind === 'postgres' ? db.url : sqlite, ...(db.kind === 'postgres' ? { BOSUN_PG_SCHEMA: db.schema } : {}) };
  return {
    app,
    dir,
    importPorts: (file: string, ...flags: string[]) => runCli(['import', 'ports', file, ...flags], { env }),
    cleanup: async () => {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

test('import ports: a World Port Index file and a UN/LOCODE file, with bad rows; visible to search in a running process; the same file again changes nothing', async () => {
  const s = await storeWithApp();
  try {
    const { app, dir } = s;
    const wpiRow = (id: number) => shipped.sources.wpi.find((w) => w.wpiNumber === id)!;
    const rotterdam = wpiRow(31140);
    const galveston = shipped.sources.wpi.find((w) => w.locode === 'USGLS')!;
    // two UN/LOCODE-only ports: one the index takes over (30+ km off: a conflict), one moved by UN/LOCODE
    const locodeOnly = shipped.ports.filter((p) => p.port_id >= 100_000_000 && p.country === 'NL' && p.alternate_names.length === 0);
    const [takenOver, moved] = [locodeOnly[0]!, locodeOnly[1]!];
    assert.equal(
      shipped.ports.find((p) => p.port_id === 99901),
      undefined,
    );

    // the running process has its table loaded before the imports
    const before = await app.api('GET', '/v1/ports/search?q=Bosunhaven');
    assert.equal(before.body.data.total, 0);

    const wpiFile = join(dir, 'wpi.csv');
    const wpiLines = [
      '\uFEFF' + csv(WPI_HEADER),
      wpiLine(rotterdam, { wpiNumber: 99901, name: 'Bosunhaven', alternateNames: ['Bosun Haven'], locode: null, lat: 52.5, lon: 4.6, harborSize: 'small' }), // 2: added
      wpiLine(rotterdam, { lat: 51.92, lon: 4.45 }), // 3: Rotterdam moved: updated
      wpiLine(rotterdam, { wpiNumber: 99902, name: 'Takeover Port', alternateNames: [], locode: takenOver.locode, lat: takenOver.lat + 0.3, lon: takenOver.lon, harborSize: null }), // 4: added, conflict
      wpiLine(rotterdam, { name: 'No Number' }).replace('"31140"', '"abc"'), // 5
      wpiLine(rotterdam, { wpiNumber: 99903, name: '' }), // 6
      wpiLine(rotterdam, { wpiNumber: 99904, name: 'Off The Map', lat: 95 }), // 7
      wpiLine(rotterdam, { wpiNumber: 99901, name: 'Bosunhaven Again' }), // 8: duplicate number
      '', // 9: blank
      wpiLine(galveston), // 10: as shipped
    ];
    writeFileSync(wpiFile, wpiLines.join('\r\n') + '\r\n');

    const first = await s.importPorts(wpiFile, '--json');
    assert.equal(first.status, 0, first.stderr);
    const report = JSON.parse(first.stdout);
    assert.equal(report.kind, 'wpi');
    assert.deepEqual([report.rows, report.added, report.updated, report.unchanged, report.rejected.length], [8, 2, 1, 1, 4]);
    assert.deepEqual(report.rejected, [
      { line: 5, reason: 'World Port Index Number is not a positive integer' },
      { line: 6, reason: 'no port name' },
      { line: 7, reason: 'latitude/longitude missing or out of range' },
      { line: 8, reason: 'World Port Index Number 99901 already on line 2 (the first is used)' },
    ]);
    assert.deepEqual(
      report.changes.map((c: { line: number; port_id: number; change: string; coordinate_conflict: boolean }) => [c.line, c.port_id, c.change, c.coordinate_conflict]),
      [
        [2, 99901, 'added', false],
        [3, 31140, 'updated', false],
        [4, 99902, 'added', true],
        [4, takenOver.port_id, 'retired', false],
      ],
    );

    // the same file again (gzipped this time): nothing changes, and the command says so
    writeFileSync(join(dir, 'wpi-again.csv.gz'), gzipSync(wpiLines.join('\r\n')));
    const again = await s.importPorts(join(dir, 'wpi-again.csv.gz'));
    assert.equal(again.status, 0, again.stderr);
    assert.match(again.stdout, /World Port Index file, 8 rows\n {2}added 0, updated 0, unchanged 4, rejected 4\n/);
    assert.match(again.stdout, /line 8: World Port Index Number 99901 already on line 2/);
    assert.match(again.stdout, /nothing changed: every row is already in the port table/);

    const rotterdamPlace = shipped.sources.joined_places.find((p) => p.locode === 'NLRTM')!;
    const unFile = join(dir, 'unlocode.csv');
    writeFileSync(
      unFile,
      [
        UNLOCODE_HEADER,
        placeLine('NLZQB', 'Bosunpoort', 'Bosunpoort', '1-------', 52.1, 4.2), // 2: added
        placeLine(moved.locode!, moved.name, moved.name, '1-------', moved.lat + 0.1, moved.lon), // 3: moved
        placeLine('NLRTM', rotterdamPlace.name, rotterdamPlace.nameAscii, '12345---', 51.92, 5.25), // 4: Rotterdam's listing 55 km off
        placeLine('XX1', 'Bad', 'Bad', '1-------', 1, 1), // 5: not a LOCODE
        'NL,ABC,No function', // 6
        placeLine('NLZQC', 'Inland', 'Inland', '--3-----', 52, 5), // 7: not a port
        placeLine('NLZQB', 'Bosunpoort Bis', 'Bosunpoort Bis', '1-------', 52.2, 4.2), // 8: listed again
      ].join('\n'),
    );
    const un = await s.importPorts(unFile, '--json');
    assert.equal(un.status, 0, un.stderr);
    const unReport = JSON.parse(un.stdout);
    assert.deepEqual([unReport.kind, unReport.rows, unReport.added, unReport.updated, unReport.unchanged, unReport.rejected.length], ['unlocode', 7, 1, 2, 0, 3]);
    assert.deepEqual(unReport.skipped, { not_a_port: 1, no_coordinates: 0 });
    assert.deepEqual(
      unReport.rejected.map((r: { line: number }) => r.line),
      [5, 6, 8],
    );
    assert.match(unReport.rejected[0].reason, /is not a UN\/LOCODE/);
    assert.equal(unReport.rejected[2].reason, 'LOCODE NLZQB already on line 2 (the first listing is used)');
    assert.deepEqual(
      unReport.changes.find((c: { port_id: number }) => c.port_id === 31140),
      { line: 4, port_id: 31140, change: 'updated', name: 'Rotterdam', coordinate_conflict: true },
    );
    const unAgain = await s.importPorts(unFile);
    assert.match(unAgain.stdout, /added 0, updated 0, unchanged 3, rejected 3/);
    assert.match(unAgain.stdout, /nothing changed/);

    // the running process's minute job brings its loaded table up to date for table()/byId() users
    assert.equal(app.bosun.ctx.services.ports.byId(99901), undefined, 'not before a refresh');
    await app.bosun.ctx.services.ports.refreshIfLoaded();
    assert.equal(app.bosun.ctx.services.ports.byId(99901)?.name, 'Bosunhaven');

    // and every search sees the imports
    const added = await app.api('GET', '/v1/ports/search?q=Bosun%20Haven');
    assert.deepEqual(
      added.body.data.items.map((p: { port_id: number; country: string }) => [p.port_id, p.country]),
      [[99901, 'NL']],
    );
    const near = await app.api('GET', '/v1/ports/search?near=51.92,4.45&radius_km=1');
    assert.deepEqual(
      near.body.data.items.map((p: { port_id: number; lat: number; lon: number; distance_km: number }) => [p.port_id, p.lat, p.lon, p.distance_km]),
      [[31140, 51.92, 4.45, 0]],
    );
    const rtm = (await app.api('GET', '/v1/ports/search?locode=NLRTM')).body.data.items[0];
    assert.deepEqual(rtm.flags, ['coordinate_conflict']);
    assert.deepEqual([rtm.conflict.unlocode_lat, rtm.conflict.unlocode_lon], [51.92, 5.25]);
    assert.ok(rtm.conflict.distance_km > 50 && rtm.conflict.distance_km < 60, String(rtm.conflict.distance_km));
    assert.equal(rtm.anchorage_points, shipped.ports.find((p) => p.port_id === 31140)!.anchorages.length, 'an updated port keeps its anchorage points');
    const takeover = (await app.api('GET', `/v1/ports/search?locode=${takenOver.locode}`)).body.data.items;
    assert.deepEqual(
      takeover.map((p: { port_id: number; flags: string[] }) => [p.port_id, p.flags]),
      [[99902, ['coordinate_conflict']]],
    );
    const poort = (await app.api('GET', '/v1/ports/search?locode=NLZQB')).body.data.items;
    assert.deepEqual(
      poort.map((p: { port_id: number; name: string; sources: string[] }) => [p.port_id, p.name, p.sources]),
      [[locodePortId('NLZQB'), 'Bosunpoort', ['unlocode']]],
    );

    // the service's accessors give the merged table
    const ports = app.bosun.ctx.services.ports;
    assert.equal(ports.table().length, shipped.ports.length + 2);
    assert.equal(ports.byId(99901)?.name, 'Bosunhaven');
    assert.equal(ports.byId(takenOver.port_id), undefined);
    assert.equal(ports.byId(moved.port_id)?.lat, Math.round((moved.lat + 0.1) * 1e5) / 1e5);
    assert.deepEqual(
      ports.byId(12345),
      shipped.ports.find((p: PortRecord) => p.port_id === 12345),
    );
  } finally {
    await s.cleanup();
  }
});

test('import ports refuses a file it does not recognise, and a missing file', async () => {
  const s = await storeWithApp();
  try {
    const file = join(s.dir, 'other.csv');
    writeFileSync(file, 'MMSI,BaseDateTime,LAT,LON\n1,2,3,4\n');
    const other = await s.importPorts(file);
    assert.equal(other.status, 1);
    assert.match(other.stderr, /not a World Port Index .* or UN\/LOCODE .* header/);
    const missing = await s.importPorts(join(s.dir, 'absent.csv'));
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /cannot read .*absent\.csv/);
    assert.equal(s.app.bosun.ctx.services.ports.table().length, shipped.ports.length);
  } finally {
    await s.cleanup();
  }
});

const wpiData = sharedDataPath('ports/UpdatedPub150.csv');
const unData = sharedDataPath('ports/unlocode-geoapify-combined.csv');
test('import ports: the real World Port Index and UN/LOCODE files change nothing against the shipped table', { skip: wpiData.skip || unData.skip }, async () => {
  const s = await storeWithApp();
  try {
    const wpi = JSON.parse((await s.importPorts(wpiData.path, '--json')).stdout);
    assert.deepEqual([wpi.rows, wpi.added, wpi.updated, wpi.unchanged, wpi.recorded], [3831, 0, 0, 3827, 0]);
    assert.equal(wpi.rejected.length, 4, 'two rows without a number, two numbers listed twice');
    const un = await s.importPorts(unData.path, '--json');
    assert.match(un.stderr, /100,000 rows read/, 'progress on stderr');
    const report = JSON.parse(un.stdout);
    assert.deepEqual([report.rows, report.added, report.updated, report.recorded, report.changes.length], [116029, 0, 0, 0, 0]);
    assert.ok(report.unchanged > 17_000);
  } finally {
    await s.cleanup();
  }
});
