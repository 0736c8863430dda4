import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '../../src/platform/clock.js';
import { loadConfig } from '../../src/platform/config.js';
import { FeedManager } from '../../src/feeds/feed-manager.js';
import { feedRetryLog } from '../../src/feeds/retry-log.js';
import { createSource } from '../../src/feeds/sources/index.js';
import { TcpClientSource } from '../../src/feeds/sources/tcp-client.js';
import { parseFeedSpecs } from '../../src/platform/feed-spec.js';
import { createLogger, type Logger } from '../../src/observability/logger.js';
import { openMigratedStore } from '../../src/store/db.js';
import { StoreStartError } from '../../src/store/start-errors.js';
import { approvalAnswer } from '../../src/features/harbor/operator-requests/operator-requests-service.js';
import { startTestApp } from '../helpers/app.js';
import { runCli } from '../helpers/cli.js';
import { PROJECT_ROOT } from '../helpers/shared-data.js';

/**
 * Operator messages (issue 32): each expected failure names its cause and its fix, without a stack.
 * The PostgreSQL cases run against the real local server (DATABASE_URL=postgres://…); the closed port
 * needs no server.
 */

/** A port nothing listens on: bound by the system, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const serverUrl = /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? '') ? new URL(process.env.DATABASE_URL!) : null;
const skipPg = serverUrl ? false : 'needs the local PostgreSQL server (set DATABASE_URL=postgres://…)';
/** The test server's URL with another role and/or database. */
function withTarget(change: { role?: string; database?: string }): string {
  const url = new URL(serverUrl!.href);
  if (change.role) {
    url.username = change.role;
    url.password = '';
  }
  if (change.database) url.pathname = `/${change.database}`;
  return url.href;
}

/** Runs `bosun migrate` in-process and returns what it printed. */
async function migrateWith(env: Record<string, string>) {
  return runCli(['migrate'], { env });
}

function assertNoStack(text: string): void {
  assert.doesNotMatch(text, /\n\s+at [\w.<>]+ \(|node:internal/, 'no stack trace for an expected failure');
}

test('PostgreSQL on a closed port: host, port, database and role named, with the cause and the fix', async () => {
  const port = await closedPort();
  const url = `postgres://bosun_role@127.0.0.1:${port}/bosun_db`;
  await assert.rejects(openMigratedStore({ kind: 'postgres', url, schema: 'public' }), (e: Error) => {
    assert.ok(e instanceof StoreStartError);
    assert.equal(
      e.message,
      `cannot open the PostgreSQL database at 127.0.0.1:${port} (database "bosun_db", role "bosun_role"): connection refused: nothing listens on 127.0.0.1:${port}.\n` +
        '  Fix: start PostgreSQL, or correct the host and port in DATABASE_URL.',
    );
    return true;
  });
  const res = await migrateWith({ DATABASE_URL: url });
  assert.equal(res.status, 1);
  assert.match(res.stderr, new RegExp(`^cannot open the PostgreSQL database at 127\\.0\\.0\\.1:${port} \\(database "bosun_db", role "bosun_role"\\)`));
  assertNoStack(res.stderr);
});

test('PostgreSQL: a database that does not exist is named, with the createdb command that fixes it', { skip: skipPg }, async () => {
  const missing = `bosun_missing_${process.pid}`;
  const res = await migrateWith({ DATABASE_URL: withTarget({ database: missing }) });
  assert.equal(res.status, 1, res.stderr);
  const host = serverUrl!.hostname;
  const port = serverUrl!.port || '5432';
  const role = decodeURIComponent(serverUrl!.username);
  assert.match(res.stderr, new RegExp(`at ${host.replace(/\./g, '\\.')}:${port} \\(database "${missing}", role "${role}"\\): database "${missing}" does not exist\\.`));
  assert.match(res.stderr, new RegExp(`Fix: create it \\(createdb -h ${host.replace(/\./g, '\\.')} -p ${port} -U ${role} ${missing}\\)`));
  assertNoStack(res.stderr);
});

test('PostgreSQL: a role that does not exist is named, with the fix', { skip: skipPg }, async () => {
  const role = `bosun_nobody_${process.pid}`;
  const res = await migrateWith({ DATABASE_URL: withTarget({ role }) });
  assert.equal(res.status, 1, res.stderr);
  assert.match(res.stderr, new RegExp(`\\(database "[^"]+", role "${role}"\\): role "${role}" does not exist\\.`));
  assert.match(res.stderr, new RegExp(`Fix: create the role \\(createuser -h \\S+ -p \\d+ ${role}\\)`));
  assertNoStack(res.stderr);
});

test('a data directory that cannot hold the database: the path, the cause and the fix', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bosun-datadir-'));
  try {
    // A file where the data directory should be (root may write anywhere, so permissions alone cannot show it).
    writeFileSync(join(dir, 'data'), 'not a directory');
    const res = await migrateWith({ BOSUN_DATA_DIR: join(dir, 'data', 'bosun') });
    assert.equal(res.status, 1);
    assert.equal(
      res.stderr.split('\n')[0],
      `cannot open the SQLite database ${join(dir, 'data', 'bosun', 'bosun.sqlite')}: a file, not a directory, stands on the path ${join(dir, 'data', 'bosun')} (ENOTDIR).`,
    );
    assert.match(res.stderr, /Fix: set BOSUN_DATA_DIR .* to a writable directory/);
    assertNoStack(res.stderr);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a directory SQLite may not write in (here /proc): the path and the cause', { skip: process.platform === 'linux' ? false : 'Linux /proc only' }, async () => {
  const res = await migrateWith({ DATABASE_URL: 'sqlite:/proc/bosun.sqlite' });
  assert.equal(res.status, 1);
  assert.match(res.stderr, /^cannot open the SQLite database \/proc\/bosun\.sqlite: the directory \/proc is not writable by this process/);
  assertNoStack(res.stderr);
});

/** A logger keeping its warnings (message and fields) and telling a waiter about the first. */
function capturingLogger(): { logger: Logger; warnings: Array<{ msg: string; fields: Record<string, unknown> }>; first: Promise<void> } {
  const warnings: Array<{ msg: string; fields: Record<string, unknown> }> = [];
  let resolve!: () => void;
  const first = new Promise<void>((r) => (resolve = r));
  const base = createLogger('silent');
  const logger: Logger = {
    ...base,
    warn: (obj, msg) => {
      warnings.push({ msg: msg ?? (typeof obj === 'string' ? obj : ''), fields: typeof obj === 'object' ? (obj as Record<string, unknown>) : {} });
      resolve();
    },
    child: () => logger,
  };
  return { logger, warnings, first };
}

test('a feed whose receiver refuses the connection: its error is logged with the retry delay, each time', async () => {
  const port = await closedPort();
  const capture = capturingLogger();
  const [spec] = parseFeedSpecs(`tcp://127.0.0.1:${port}`);
  const manager = new FeedManager({ sink: { acceptMessage() {}, acceptPosition() {}, acceptStatic() {}, flush: async () => {} }, clock: systemClock, logger: capture.logger });
  manager.add(createSource(spec!, { clock: systemClock, onRetry: feedRetryLog(capture.logger) }));
  await manager.start();
  try {
    await capture.first;
  } finally {
    await manager.stop();
  }
  const [warning] = capture.warnings;
  assert.equal(warning!.msg, `feed tcp:127.0.0.1:${port}: connect ECONNREFUSED 127.0.0.1:${port}; retrying in 1 s`);
  assert.deepEqual(warning!.fields, { source: `tcp:127.0.0.1:${port}`, err: `connect ECONNREFUSED 127.0.0.1:${port}`, retry_in_ms: 1000, failed_attempts: 1 });
});

test('the retry delay reported doubles per failed attempt up to the maximum', () => {
  const source = new TcpClientSource('tcp:x:1', systemClock, { host: 'x', port: 1, initialBackoffMs: 1000, maxBackoffMs: 30_000 });
  assert.deepEqual(
    [1, 2, 3, 5, 6, 9].map((n) => source.backoffMs(n)),
    [1000, 2000, 4000, 16_000, 30_000, 30_000],
  );
});

test('BOSUN_FEEDS=dmeo: "did you mean demo?", not a missing file; a misspelled scheme likewise', async () => {
  assert.throws(() => loadConfig({ BOSUN_FEEDS: 'dmeo' }), { message: 'invalid configuration:\n  BOSUN_FEEDS: invalid feed "dmeo": did you mean demo? (for a file of that name write file:dmeo)' });
  assert.throws(() => loadConfig({ BOSUN_FEEDS: 'tpc://10.0.0.1:10110' }), /unknown scheme "tpc:" — did you mean tcp:\?/);
  assert.throws(() => loadConfig({ BOSUN_FEEDS: 'demo,nnoe' }), /did you mean none\?/);
  // a word far from every keyword is still a file, and file: always is
  assert.deepEqual(
    parseFeedSpecs('recording,file:dmeo').map((s) => s.kind === 'file' && s.path),
    ['recording', 'dmeo'],
  );
  const res = await runCli(['serve'], { env: { BOSUN_FEEDS: 'dmeo', DATABASE_URL: ':memory:' } });
  assert.equal(res.status, 1);
  assert.match(res.stderr, /did you mean demo\?/);
});

test("bosun agents (a bare group) lists that group's commands only; an unknown word under it says so", async () => {
  const res = await runCli(['agents']);
  assert.equal(res.status, 0, res.stderr);
  const lines = res.stdout.split('\n').filter((l) => l.startsWith('  '));
  assert.deepEqual(
    lines.map((l) => l.trim().split(/\s{2,}/)[0]),
    ['agents grant', 'agents lifecycle', 'agents list', 'agents revoke', 'agents revoke-scope', 'agents rotate-key', 'agents show'],
  );
  assert.match(res.stdout, /^Commands under "bosun agents":/);
  const nested = await runCli(['harbor', 'requests']);
  assert.equal(nested.status, 0);
  assert.ok(
    nested.stdout
      .split('\n')
      .filter((l) => l.startsWith('  '))
      .every((l) => l.trim().startsWith('harbor requests ')),
  );
  const typo = await runCli(['agents', 'lst']);
  assert.equal(typo.status, 2);
  assert.match(typo.stderr, /^unknown command: bosun agents lst\n\nCommands under "bosun agents":/);
  assert.doesNotMatch(typo.stderr, /operator token/, 'not every command of bosun');
});

test('bad option values are refused with the option named, before anything opens (no SqliteError stack)', async () => {
  for (const value of ['abc', '0', '2.5', '1e3']) {
    const res = await runCli(['agents', 'list', '--limit', value]);
    assert.equal(res.status, 2, value);
    assert.equal(res.stderr.split('\n')[0], `--limit must be a whole number from 1 (got "${value}")`);
    assert.match(res.stderr, /Usage: bosun agents list/);
    assertNoStack(res.stderr);
  }
  const days = await runCli(['agents', 'grant', 'agt_x', 'vessels:live', '--days', 'week']);
  assert.equal(days.status, 2);
  assert.match(days.stderr, /^--days must be a whole number from 1 \(got "week"\)/);
});

test('bosun --version prints the version from package.json', async () => {
  const version = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  for (const flag of ['--version', '-V', 'version']) {
    const res = await runCli([flag]);
    assert.equal(res.status, 0);
    assert.equal(res.stdout, `bosun ${version}\n`);
  }
});

test('a reader that closes the pipe early (bosun … | head) ends the command quietly with success', () => {
  // `true` exits at once: the help text meets a closed pipe
  const piped = spawnSync('bash', ['-c', `set -o pipefail; node ${join(PROJECT_ROOT, 'dist', 'src', 'cli.js')} --help | true; echo "status=$?"`], {
    encoding: 'utf8',
    env: { ...process.env, LOG_LEVEL: 'silent' },
  });
  assert.match(piped.stdout, /status=0/);
  assert.equal(piped.stderr, '');
});

test('approving an already answered request keeps the public answer (the grants added below it)', async () => {
  assert.equal(approvalAnswer(null, []), 'Approved.');
  assert.equal(approvalAnswer('Looking into it.', []), 'Looking into it.');
  assert.equal(approvalAnswer('Granted for your trial.', ['vessels:live']), 'Granted for your trial.\n\nApproved. Granted: vessels:live.');
  const app = await startTestApp();
  try {
    const a = await app.registerAgent('asker');
    const created = await app.api('POST', '/v1/harbor/operator-requests', { token: a.apiKey, body: { category: 'api_problem', subject: 'Broken search', body: 'details' } });
    const id = created.body.data.id as string;
    const requests = app.bosun.ctx.services.operatorRequests;
    await requests.respond(id, { publicResponse: 'Fixed in the next release; approving.' }, { kind: 'cli' });
    const { row } = await requests.approve(id, {}, { kind: 'cli' });
    assert.equal(row.state, 'approved');
    assert.equal(row.public_response, 'Fixed in the next release; approving.');
    const seen = await app.api('GET', `/v1/harbor/operator-requests?id=${id}`, { token: a.apiKey });
    assert.equal(seen.body.data.items[0].public_response, 'Fixed in the next release; approving.');
  } finally {
    await app.close();
  }
});

test('bosun agents show prints the agent with its scopes, who granted each and until when', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bosun-agents-show-'));
  const app = await startTestApp(serverUrl ? {} : { env: { DATABASE_URL: `sqlite:${join(dir, 'bosun.db')}` } });
  try {
    const db = app.config.database;
    const env = { LOG_LEVEL: 'silent', DATABASE_URL: db.kind === 'postgres' ? db.url : `sqlite:${join(dir, 'bosun.db')}`, ...(db.kind === 'postgres' ? { BOSUN_PG_SCHEMA: db.schema } : {}) };
    const agent = await app.registerAgent('shown', ['vessels:live']);
    const res = await runCli(['agents', 'show', agent.agentId], { env });
    assert.equal(res.status, 0, res.stderr);
    const described = await app.bosun.ctx.services.agents.describe(agent.agentId);
    assert.match(res.stdout, new RegExp(`^${agent.agentId}  shown  ${described.state}  key `));
    assert.match(res.stdout, new RegExp(`\\n  scopes: ${described.scopes.join(', ')}\\n`));
    assert.ok(described.scopes.includes('vessels:live'));
    assert.match(res.stdout, /\n {4}vessels:live {2}granted by \S+ at \d{4}-\d\d-\d\dT/);
    const json = await runCli(['agents', 'show', agent.agentId, '--json'], { env });
    assert.deepEqual(JSON.parse(json.stdout).scopes, described.scopes);
    const missing = await runCli(['agents', 'show', 'agt_nobody'], { env });
    assert.equal(missing.status, 1);
    assertNoStack(missing.stderr);
  } finally {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
