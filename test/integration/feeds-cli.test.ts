import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createReadStream, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { childStore, positionsOf } from '../helpers/child-store.js';
import { runCli } from '../helpers/cli.js';
import { tagged, TYPE1_LINE, TYPE1_MMSI, TYPE1_OTHER_LINE, TYPE1_OTHER_MMSI } from '../helpers/nmea.js';
import { PROJECT_ROOT, sharedDataPath } from '../helpers/shared-data.js';

const RECORDED = Date.UTC(2020, 0, 1, 12, 0, 0);

test('bosun ingest - : standard input into the store, final statistics as JSON, observation time from the tag block', async () => {
  const store = childStore();
  try {
    const input = [tagged(TYPE1_LINE, RECORDED), 'junk', TYPE1_OTHER_LINE, '!AIVDM,1,1,,A,15RTgt0PAso;90TKcjM8h6g208CQ,0*00'].join('\r\n') + '\r\n';
    const res = await runCli(['ingest', '-', '--json', '--stats-every', '0'], { input, env: store.env });
    assert.equal(res.status, 0, res.stderr);
    const final = JSON.parse(res.stdout.trim().split('\n').at(-1)!);
    assert.equal(final.sources.length, 1);
    const [source] = final.sources;
    assert.deepEqual(
      { name: source.name, kind: source.kind, state: source.state, lines: source.lines, messages: source.messages, errors: source.errors, simulated: source.simulated },
      { name: 'stdin', kind: 'stdin', state: 'finished', lines: 4, messages: 2, errors: { junk_line: 1, bad_checksum: 1 }, simulated: false },
    );
    const bosun = await store.open();
    try {
      const vessel = bosun.ctx.services.fleet.byMmsiNumber(TYPE1_MMSI);
      assert.ok(vessel, 'the vessel is in the store');
      assert.equal(vessel.latest?.observedAt, RECORDED);
      assert.equal(vessel.latest?.source, 'stdin');
      assert.deepEqual(vessel.sources, ['stdin']);
      assert.ok(bosun.ctx.services.fleet.byMmsiNumber(TYPE1_OTHER_MMSI));
      assert.equal(await positionsOf(bosun), 2);
    } finally {
      await bosun.close();
    }
  } finally {
    await store.cleanup();
  }
});

test('bosun ingest: --help, bad specs and missing files give clear answers', async () => {
  const help = await runCli(['ingest', '--help']);
  assert.equal(help.status, 0);
  assert.match(help.stdout, /Usage: bosun ingest <source…>/);
  assert.match(help.stdout, /tcp-listen:\/\/HOST:PORT/);
  const bad = await runCli(['ingest', 'tcp://receiver'], { env: { DATABASE_URL: ':memory:' } });
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /invalid feed "tcp:\/\/receiver": expected host:port/);
  const none = await runCli(['ingest'], { env: { DATABASE_URL: ':memory:' } });
  assert.equal(none.status, 2);
  assert.match(none.stderr, /no sources given/);
  const missing = await runCli(['ingest', 'file:/nonexistent/x.nmea'], { env: { DATABASE_URL: ':memory:' } });
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /file:x.nmea: cannot read: ENOENT/);
});

test('bosun import ais-csv: a small file with bad rows gives a summary and stores the good rows', async () => {
  const store = childStore();
  try {
    const file = join(store.dir, 'AIS_fixture.csv');
    writeFileSync(
      file,
      [
        'MMSI,BaseDateTime,LAT,LON,SOG,COG,Heading,VesselName,IMO,CallSign,VesselType',
        '367000001,2020-01-01T00:00:00,29.5,-94.9,10,90,91,SEA STAR,IMO9331505,WDA1234,70',
        '367000001,2020-01-01T00:01:00,29.5,-94.88,10,90,511,SEA STAR,IMO9331505,WDA1234,70',
        '367000001,2020-01-01T00:01:00,29.5,-94.88,10,90,511,SEA STAR,IMO9331505,WDA1234,70',
        'bad,2020-01-01T00:01:00,29.5,-94.88,10,90,511,X,,,70',
        '367000002,2020-01-01T00:01:00,91,181,10,90,511,Y,,,70',
      ].join('\n') + '\n',
    );
    const res = await runCli(['import', 'ais-csv', file], { env: store.env });
    assert.equal(res.status, 0, res.stderr);
    assert.match(res.stdout, /^csv:AIS_fixture: 5 rows in /m);
    assert.match(res.stdout, /positions stored 2, duplicates dropped 1, identity reports 1, vessels 1/, 'a repeated row is a duplicate, not a stored position');
    assert.match(res.stdout, /rejected 2 \(bad_mmsi 1, bad_position 1\)/);
    assert.equal(res.stderr, '', 'no progress bar when stderr is not a terminal');
    const bosun = await store.open();
    try {
      const vessel = bosun.ctx.services.fleet.byImoNumber(9331505);
      assert.equal(vessel?.name, 'SEA STAR');
      assert.equal(vessel?.latest?.heading, null);
      assert.equal(vessel?.latest?.source, 'csv:AIS_fixture');
      assert.equal(await positionsOf(bosun), 2);
    } finally {
      await bosun.close();
    }
    const notCsv = await runCli(['import', 'ais-csv', join(PROJECT_ROOT, 'package.json')], { env: store.env });
    assert.equal(notCsv.status, 1);
    assert.match(notCsv.stderr, /not a MarineCadastre AIS CSV: the header lacks MMSI, BaseDateTime, LAT, LON/);
  } finally {
    await store.cleanup();
  }
});

const houston = sharedDataPath('ais/tracks/AIS_2020_01_01_houston_galveston.csv.gz');
test('bosun import ais-csv on the Houston day (first 20,000 rows): every distinct vessel/time stored', { skip: houston.skip }, async () => {
  const rows = 20_000;
  const distinct = new Set<string>();
  const vessels = new Set<string>();
  let seen = -1;
  for await (const line of createInterface({ input: createReadStream(houston.path).pipe(createGunzip()) })) {
    if (seen++ < 0) continue;
    if (seen > rows) break;
    const [mmsi, time] = line.split(',');
    distinct.add(`${mmsi}|${time}`);
    vessels.add(mmsi!);
  }
  const store = childStore();
  try {
    const res = await runCli(['import', 'ais-csv', houston.path, '--limit', String(rows), '--json'], { env: store.env });
    assert.equal(res.status, 0, res.stderr);
    const summary = JSON.parse(res.stdout);
    assert.equal(summary.rows, rows);
    assert.equal(summary.positions, distinct.size, 'positions counts what was stored');
    assert.equal(summary.duplicates, rows - distinct.size, 'repeated vessel/time rows are counted apart');
    assert.equal(summary.vessels, vessels.size);
    assert.equal(summary.source, 'csv:AIS_2020_01_01_houston_galveston');
    const bosun = await store.open();
    try {
      assert.equal([...bosun.ctx.services.fleet.vessels()].length, vessels.size);
      assert.equal(await positionsOf(bosun), distinct.size);
      const amy = bosun.ctx.services.fleet.byImoNumber(9331505);
      assert.equal(amy?.name, 'AMY C');
      assert.equal(amy?.mmsi, 235010170);
    } finally {
      await bosun.close();
    }
  } finally {
    await store.cleanup();
  }
});
