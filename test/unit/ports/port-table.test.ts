import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import test from 'node:test';
import { BUILTIN_PORTS } from '../../../src/geo/ports-builtin.js';
import { distanceM } from '../../../src/geo/distance.js';
import { parseAnchorages, parseUnLocode, parseWorldPortIndex } from '../../../src/features/ports/port-sources.js';
import { buildPortTable, LOCODE_PORT_ID_BASE, locodePortId, matchPort, nameKey, rebuildPortTable, sourcesOfTable } from '../../../src/features/ports/port-table.js';
import { readPortTableFile } from '../../../src/features/ports/port-table-file.js';
import { sharedDataPath } from '../../helpers/shared-data.js';

const WPI_HEADER = 'OID_,World Port Index Number,Region Name,Main Port Name,Alternate Port Name,UN/LOCODE,Country Code,Latitude,Longitude,Harbor Size,Harbor Type';
const UNLOCODE_HEADER = 'country,location,name,nameWoDiacritics,subdivision,status,function,iata,lat,lon,geocoded';

test('World Port Index rows: LOCODE without its space, alternate names split, size mapped; bad rows rejected with their line', () => {
  const text = [
    '\uFEFF' + WPI_HEADER,
    '1,31140.0,Netherlands -- 1,Rotterdam,Europoort; Maasvlakte,NL RTM,Netherlands,51.899999,4.483333,Large,River (Basins)',
    '2,9240.0,US Gulf,Houston, ,US HOU,United States,29.75,-95.283333,Large,River (Tide Gates)',
    '3,,Nowhere,Nameless Number, , ,Atlantis,1,1,Small,',
    '4,77.0,Nowhere,Off The Map, , ,Atlantis,91.5,1,Small,',
    '5,78.0,Nowhere,"Port, With Comma", , ,Atlantis,10,20,Very Small,',
  ].join('\r\n');
  const { rows, rejected } = parseWorldPortIndex(text);
  assert.deepEqual(rows[0], {
    wpiNumber: 31140,
    name: 'Rotterdam',
    alternateNames: ['Europoort', 'Maasvlakte'],
    locode: 'NLRTM',
    countryName: 'Netherlands',
    lat: 51.899999,
    lon: 4.483333,
    harborSize: 'large',
    harborType: 'River (Basins)',
  });
  assert.equal(rows[1]!.alternateNames.length, 0);
  assert.equal(rows[2]!.name, 'Port, With Comma');
  assert.equal(rows[2]!.harborSize, 'very_small');
  assert.equal(rows[2]!.locode, null);
  assert.deepEqual(rejected, [
    { line: 4, reason: 'World Port Index Number is not a positive integer' },
    { line: 5, reason: 'latitude/longitude missing or out of range' },
  ]);
});

test('UN/LOCODE rows, including the badly quoted upstream rows that lost status and iata', () => {
  const text = [
    UNLOCODE_HEADER,
    'NL,RTM,Rotterdam,Rotterdam,ZH,AI,12345---,,51.9225,4.47917,',
    'GB,LRZ,"""Lochranza"," Isle of Arran""","""Lochranza"," Isle of Arran""",NAY,1-3-----,55.7045864,-5.2951525,true',
    'AO,SOQ,Soyo-Quinfuquena Terminal,Soyo-Quinfuquena Terminal,,RQ,1-------,,,,',
    'XX,??,Broken,Broken,,,1-------,,0,0,',
    'FR,PAR,Paris,Paris,75,AI,12345---,,0,0,',
  ].join('\n');
  const { rows, rejected } = parseUnLocode(text);
  assert.deepEqual(rows[0], { locode: 'NLRTM', country: 'NL', name: 'Rotterdam', nameAscii: 'Rotterdam', isPort: true, lat: 51.9225, lon: 4.47917, geocoded: false });
  assert.deepEqual(rows[1], {
    locode: 'GBLRZ',
    country: 'GB',
    name: 'Lochranza, Isle of Arran',
    nameAscii: 'Lochranza, Isle of Arran',
    isPort: true,
    lat: 55.7045864,
    lon: -5.2951525,
    geocoded: true,
  });
  assert.equal(rows[2]!.lat, null, 'no coordinates');
  assert.equal(rows[3]!.lat, null, '0,0 means none');
  assert.deepEqual(rejected, [{ line: 5, reason: '"XX??" is not a UN/LOCODE' }]);
});

test('UN/LOCODE names with U+FFFD give way to their clean ASCII form when it has none (decision 084)', () => {
  const { rows } = parseUnLocode([UNLOCODE_HEADER, 'SE,VGO,Vr\uFFFDng\uFFFD,Vrango,O,RL,1-------,,57.57,11.77,'].join('\n'));
  assert.deepEqual([rows[0]!.name, rows[0]!.nameAscii], ['Vrango', 'Vrango']);
  const kept = parseUnLocode([UNLOCODE_HEADER, 'DE,KXX,K\uFFFDln,K\uFFFDln,,RL,1-------,,50.9,6.9,'].join('\n')).rows[0]!;
  assert.equal(kept.name, 'K\uFFFDln', 'no clean form: kept as read');
  const shipped = readPortTableFile().ports;
  assert.equal(shipped.find((p) => p.locode === 'SEVGO')?.name.includes('\uFFFD'), false);
});

test('the table joins by LOCODE, flags (does not merge) positions more than 20 km apart, adds UN/LOCODE-only ports and assigns anchorages', () => {
  const wpi = parseWorldPortIndex(
    [
      WPI_HEADER,
      '1,31140.0,x,Rotterdam, ,NL RTM,Netherlands,51.9,4.483333,Large,River (Basins)',
      '2,48030.0,x,North Ain Sukhna Port,Sokhna Port,EG AIS,Egypt,29.65,32.366667,Small,Coastal (Breakwater)',
      '3,31150.0,x,Schiedam, , ,Netherlands,51.91,4.40,Small,',
    ].join('\n'),
  ).rows;
  const unlocode = parseUnLocode(
    [
      UNLOCODE_HEADER,
      'NL,RTM,Rotterdam,Rotterdam,ZH,AI,12345---,,51.9225,4.47917,',
      'EG,AIS,Ain Sukhna,Ain Sukhna,SUZ,RL,1-------,,23.0,35.0,true',
      'SG,SIN,Singapore,Singapore,,AI,12345---,,1.28992,103.85191,',
      'AO,SOQ,Soyo,Soyo,,RQ,1-------,,,,',
      'FR,PAR,Paris,Paris,75,AI,--345---,,48.85,2.35,',
    ].join('\n'),
  ).rows;
  const anchorages = parseAnchorages(
    ['s2id,latitude,longitude,label,sublabel,iso3', 'a,51.96,4.04,ROTTERDAM,,NLD', 'b,51.905,4.41,,,NLD', 'c,1.23,103.82,SINGAPORE,,SGP', 'd,10,10,NOWHERE,,XXX'].join('\n'),
  ).rows;
  const { ports, report } = buildPortTable({ wpi, unlocode, anchorages });
  assert.deepEqual(
    ports.map((p) => [p.port_id, p.locode, p.country]),
    [
      [31140, 'NLRTM', 'NL'],
      [31150, null, 'NL'],
      [48030, 'EGAIS', 'EG'],
      [locodePortId('SGSIN'), 'SGSIN', 'SG'],
    ],
    'WPI numbers, then the UN/LOCODE-only port with coordinates (Soyo has none, Paris is no port); Schiedam country learnt from Netherlands',
  );
  const sukhna = ports.find((p) => p.port_id === 48030)!;
  assert.deepEqual(sukhna.flags, ['coordinate_conflict']);
  assert.equal(sukhna.lat, 29.65, 'the index position is kept');
  assert.ok(sukhna.conflict!.distance_km > 700 && sukhna.conflict!.distance_km < 800, String(sukhna.conflict!.distance_km));
  assert.deepEqual(sukhna.alternate_names, ['Sokhna Port', 'Ain Sukhna']);
  assert.deepEqual(ports[0]!.flags, [], 'Rotterdam positions 2.6 km apart: no conflict');
  assert.deepEqual(ports[0]!.anchorages, [[51.96, 4.04]], 'labelled ROTTERDAM: to Rotterdam although 30 km away');
  assert.deepEqual(ports[1]!.anchorages, [[51.905, 4.41]], 'unlabelled: to the nearest port');
  assert.deepEqual(ports[3]!.anchorages, [[1.23, 103.82]]);
  assert.equal(report.anchorages_unassigned, 1);
  assert.equal(report.unlocode_ports_without_coordinates, 1);
  assert.equal(report.coordinate_conflicts.length, 1);
});

test('LOCODE port ids are stable integers above every World Port Index number and fit an int32', () => {
  assert.equal(locodePortId('SGSIN'), locodePortId('sgsin'));
  assert.equal(locodePortId('AAAAA'), LOCODE_PORT_ID_BASE + Number.parseInt('aaaaa', 36));
  assert.ok(locodePortId('ZZZZZ') < 2 ** 31 - 1);
  assert.notEqual(locodePortId('NLRTM'), locodePortId('NLRTN'));
  assert.equal(nameKey('Kŏbe-Shi (Hyōgo)'), 'kobeshihyogo');
});

/** Built by the first real-data test, compared with the shipped file by the second (tests in a file run in order). */
let realTable: ReturnType<typeof buildPortTable> | null = null;

test('real sources: the full table, its conflicts, and every simulator port resolving to a port near it', { skip: sharedDataPath('ports/UpdatedPub150.csv').skip }, () => {
  const read = (relative: string) => readFileSync(sharedDataPath(relative).path, 'utf8');
  const wpi = parseWorldPortIndex(read('ports/UpdatedPub150.csv'));
  const unlocode = parseUnLocode(read('ports/unlocode-geoapify-combined.csv'));
  const anchorages = parseAnchorages(read('anchorages/anchorage_overrides.csv'));
  assert.ok(wpi.rows.length >= 3800 && wpi.rejected.length <= 5, `${wpi.rows.length} rows, ${wpi.rejected.length} rejected`);
  assert.ok(unlocode.rows.length > 115_000 && unlocode.rejected.length < 10);
  realTable = buildPortTable({ wpi: wpi.rows, unlocode: unlocode.rows, anchorages: anchorages.rows });
  const { ports, report } = realTable;
  assert.ok(ports.length > 15_000, String(ports.length));
  assert.equal(new Set(ports.map((p) => p.port_id)).size, ports.length, 'port ids unique');
  assert.ok(ports.every((p) => Number.isInteger(p.port_id) && p.port_id > 0 && p.port_id < 2 ** 31));
  const byLocode = (code: string) => ports.find((p) => p.locode === code)!;
  assert.equal(byLocode('NLRTM').port_id, 31140);
  assert.equal(byLocode('USHOU').port_id, 9240);
  // PROVENANCE.md: EGAIS 674 km and JPMKW 507 km apart between the sources
  for (const [code, km] of [
    ['EGAIS', 674],
    ['JPMKW', 507],
  ] as const) {
    const port = byLocode(code);
    assert.ok(port.flags.includes('coordinate_conflict'), code);
    assert.ok(Math.abs(port.conflict!.distance_km - km) < 15, `${code} ${port.conflict!.distance_km}`);
  }
  assert.ok(report.coordinate_conflicts.length > 100 && report.coordinate_conflicts.length < 500);
  assert.ok(byLocode('USHOU').anchorages.length >= 20, 'GFW anchorages labelled HOUSTON');
  assert.ok(byLocode('USGLS').anchorages.length >= 1);
  for (const sim of BUILTIN_PORTS) {
    const port = matchPort(ports, sim);
    assert.ok(port, `simulator port ${sim.locode} ${sim.name} has a table port`);
    assert.ok(distanceM(sim.lat, sim.lon, port.lat, port.lon) < 100_000, `${sim.locode} → ${port.name}`);
  }
});

test('the shipped table is what the sources build today (run npm run build:ports after changing either)', { skip: sharedDataPath('ports/UpdatedPub150.csv').skip }, () => {
  const built = realTable!;
  const shipped = readPortTableFile();
  assert.equal(shipped.ports.length, built.ports.length);
  assert.deepEqual(shipped.ports, built.ports);
  assert.deepEqual(shipped.report, built.report);
  assert.deepEqual(shipped.sources, built.sources);
  assert.equal(shipped.attribution.length, 3);
});

test('the shipped sources rebuild the shipped table exactly (what bosun import ports starts from)', () => {
  const shipped = readPortTableFile();
  assert.equal(shipped.sources.wpi.length, shipped.ports.filter((p) => p.sources.includes('wpi')).length);
  assert.deepEqual(rebuildPortTable(sourcesOfTable(shipped.ports, shipped.sources), shipped.ports), shipped.ports);
});
