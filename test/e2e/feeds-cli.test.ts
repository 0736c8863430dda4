import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { createBosun, type Bosun } from '../../src/app/create.js';
import { loadConfig } from '../../src/config.js';
import { demoFeedFactory } from '../../src/feeds/demo.js';
import { dropTestSchema, testConfig } from '../helpers/app.js';
import { tagged, TYPE1_LINE, TYPE1_MMSI, TYPE1_OTHER_LINE, TYPE1_OTHER_MMSI } from '../helpers/nmea.js';
import { PROJECT_ROOT, sharedDataPath } from '../helpers/shared-data.js';

const cli = join(PROJECT_ROOT, 'dist', 'src', 'cli.js');
const RECORDED = Date.UTC(2020, 0, 1, 12, 0, 0);

/** A store for child processes (a SQLite file, or a fresh PostgreSQL schema) and a way to open it here. */
function childStore() {
  const base = testConfig();
  const dir = mkdtempSync(join(tmpdir(), 'bosun-feeds-'));
  const env: Record<string, string> = { LOG_LEVEL: 'warn', BOSUN_DATA_DIR: dir };
  if (base.database.kind === 'postgres') Object.assign(env, { DATABASE_URL: base.database.url, BOSUN_PG_SCHEMA: base.database.schema });
  else env.DATABASE_URL = `sqlite:${join(dir, 'bosun.sqlite')}`;
  return {
    env: { ...process.env, ...env },
    dir,
    open: (): Promise<Bosun> => createBosun(loadConfig({ ...env, LOG_LEVEL: 'silent' })),
    cleanup: async () => {
      rmSync(dir, { recursive: true, force: true });
      await dropTestSchema(base);
    },
  };
}

async function positionsOf(bosun: Bosun, mmsi?: number): Promise<number> {
  let query = bosun.ctx.store.db.selectFrom('positions').innerJoin('vessels', 'vessels.vsl_id', 'positions.vsl_id').select((eb) => eb.fn.countAll<number>().as('n'));
  if (mmsi !== undefined) query = query.where('vessels.mmsi', '=', mmsi as never);
  return Number((await query.executeTakeFirstOrThrow()).n);
}

test('bosun ingest - : standard input into the store, final statistics as JSON, observation time from the tag block', async () => {
  const store = childStore();
  try {
    const input = [tagged(TYPE1_LINE, RECORDED), 'junk', TYPE1_OTHER_LINE, '!AIVDM,1,1,,A,15RTgt0PAso;90TKcjM8h6g208CQ,0*00'].join('\r\n') + '\r\n';
    const res = spawnSync(process.execPath, [cli, 'ingest', '-', '--json', '--stats-every', '0'], { input, env: store.env, encoding: 'utf8' });
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

test('bosun ingest tcp://… : reads a receiver until Ctrl-C, then flushes, prints the figures and exits 0', async () => {
  const store = childStore();
  const sockets: Socket[] = [];
  const receiver = createServer((socket) => {
    sockets.push(socket);
    socket.write(`${tagged(TYPE1_LINE, RECORDED)}\n`);
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const port = (receiver.address() as AddressInfo).port;
  const child = spawn(process.execPath, [cli, 'ingest', `tcp://127.0.0.1:${port}`, '--stats-every', '0.05'], { env: store.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  try {
    await waitFor(() => /messages 1\b/.test(stderr), () => `no progress line: ${stderr}`);
    assert.match(stderr, new RegExp(`tcp:127.0.0.1:${port}  connected  lines 1  messages 1  errors 0  reconnects 0`));
    assert.equal(await interrupt(child), 0, stderr);
    assert.match(stderr, /SIGINT: stopping sources and flushing/);
    assert.match(stdout, new RegExp(`^tcp:127.0.0.1:${port}  stopped  lines 1  messages 1`, 'm'));
    const bosun = await store.open();
    try {
      assert.equal(bosun.ctx.services.fleet.byMmsiNumber(TYPE1_MMSI)?.latest?.source, `tcp:127.0.0.1:${port}`);
      assert.equal(await positionsOf(bosun, TYPE1_MMSI), 1);
    } finally {
      await bosun.close();
    }
  } finally {
    child.kill('SIGKILL');
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => receiver.close(resolve));
    await store.cleanup();
  }
});

test('bosun ingest: --help, bad specs and missing files give clear answers', () => {
  const help = spawnSync(process.execPath, [cli, 'ingest', '--help'], { encoding: 'utf8' });
  assert.equal(help.status, 0);
  assert.match(help.stdout, /Usage: bosun ingest <source…>/);
  assert.match(help.stdout, /tcp-listen:\/\/HOST:PORT/);
  const bad = spawnSync(process.execPath, [cli, 'ingest', 'tcp://receiver'], { encoding: 'utf8', env: { ...process.env, DATABASE_URL: ':memory:' } });
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /invalid feed "tcp:\/\/receiver": expected host:port/);
  const none = spawnSync(process.execPath, [cli, 'ingest'], { encoding: 'utf8', env: { ...process.env, DATABASE_URL: ':memory:' } });
  assert.equal(none.status, 2);
  assert.match(none.stderr, /no sources given/);
  const missing = spawnSync(process.execPath, [cli, 'ingest', 'file:/nonexistent/x.nmea'], { encoding: 'utf8', env: { ...process.env, DATABASE_URL: ':memory:' } });
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
    const res = spawnSync(process.execPath, [cli, 'import', 'ais-csv', file], { env: store.env, encoding: 'utf8' });
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
    const notCsv = spawnSync(process.execPath, [cli, 'import', 'ais-csv', join(PROJECT_ROOT, 'package.json')], { env: store.env, encoding: 'utf8' });
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
    const res = spawnSync(process.execPath, [cli, 'import', 'ais-csv', houston.path, '--limit', String(rows), '--json'], { env: store.env, encoding: 'utf8' });
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

test('serve runs BOSUN_FEEDS in-process: a receiver pushing to tcp-listen shows up in /v1/status and the store', async () => {
  const store = childStore();
  const httpPort = await freePort();
  const feedPort = await freePort();
  const env = { ...store.env, HOST: '127.0.0.1', PORT: String(httpPort), BOSUN_FEEDS: `tcp-listen://127.0.0.1:${feedPort}` };
  const child = spawn(process.execPath, [cli, 'serve'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  try {
    await waitFor(() => output.includes('listening on'), () => `serve did not start: ${output}`);
    const sender = connect({ host: '127.0.0.1', port: feedPort });
    await new Promise((resolve) => sender.once('connect', resolve));
    sender.end(`${tagged(TYPE1_LINE, RECORDED)}\r\n${TYPE1_OTHER_LINE}\r\n`);
    let feeds: any;
    await waitFor(
      async () => {
        const status = await (await fetch(`http://127.0.0.1:${httpPort}/v1/status`)).json();
        feeds = status.data.components.feeds;
        return feeds.sources[0].messages === 2 && status.data.components.fleet.vessels === 2;
      },
      () => `feeds: ${JSON.stringify(feeds)}`,
    );
    assert.equal(feeds.sources[0].name, `tcp-listen:127.0.0.1:${feedPort}`);
    assert.equal(feeds.sources[0].state, 'listening');
    assert.equal(feeds.sources[0].last_observed_at !== null, true);
    assert.equal(await interrupt(child), 0, output);
    const bosun = await store.open();
    try {
      assert.equal(await positionsOf(bosun), 2);
    } finally {
      await bosun.close();
    }
  } finally {
    child.kill('SIGKILL');
    await store.cleanup();
  }
});

test('serve refuses to start when a feed cannot start, naming it', async () => {
  const store = childStore();
  try {
    const res = spawnSync(process.execPath, [cli, 'serve'], { env: { ...store.env, PORT: '0', BOSUN_FEEDS: 'file:/nonexistent/rec.nmea' }, encoding: 'utf8', timeout: 20_000 });
    assert.equal(res.status, 1, `${res.signal} ${res.error} ${res.stdout} ${res.stderr}`);
    assert.match(res.stderr, /file:rec.nmea: cannot read: ENOENT/);
    const demo = spawnSync(process.execPath, [cli, 'serve'], { env: { ...store.env, PORT: '0', BOSUN_FEEDS: 'demo' }, encoding: 'utf8', timeout: 20_000 });
    if (demoFeedFactory === null) {
      assert.equal(demo.status, 1);
      assert.match(demo.stderr, /BOSUN_FEEDS: invalid feed "demo": the demo fleet simulator is not available/);
    }
  } finally {
    await store.cleanup();
  }
});

async function waitFor(check: () => boolean | Promise<boolean>, describe: () => string, timeoutMs = 15_000): Promise<void> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out: ${describe()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const interrupt = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.kill('SIGINT');
  });

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}
