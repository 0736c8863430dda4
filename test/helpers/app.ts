import type { PortPositions } from '../../src/events/lane-rule.js';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBosun, type Bosun, type BosunOptions } from '../../src/app/create.js';
import { ManualClock } from '../../src/platform/clock.js';
import { loadConfig, type Config } from '../../src/platform/config.js';
import { buildOpenApi } from '../../src/catalog/openapi.js';
import { recordProducedCodes } from './produced-codes.js';
import { createSchemaChecker, type SchemaChecker } from './schema-check.js';
import { onMaintenanceConnection, TEMPLATE_SCHEMA } from './pg-template.js';

/** 2026-11-21T00:00:00Z: tests start from a fixed instant and move the clock explicitly. */
export const TEST_EPOCH = Date.UTC(2026, 10, 21, 0, 0, 0);

export const usingPostgres = () => /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? '');
export const usingRedis = () => Boolean(process.env.REDIS_URL);

/**
 * Configuration for a test instance: an in-memory SQLite database, or a fresh PostgreSQL schema and a
 * fresh Redis key prefix when DATABASE_URL / REDIS_URL are set (as .ci/run does on its second pass).
 */
export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({ ...testEnv(), ...env });
}

/**
 * The same on PostgreSQL, but already migrated when the test runner prepared a template database
 * (scripts/run-tests.mjs sets BOSUN_TEST_PG_TEMPLATE): a copy of it (CREATE DATABASE … TEMPLATE, tens of
 * milliseconds) instead of a fresh schema migrated here (about a second). Not when `env` names its own store.
 */
export async function migratedTestConfig(env: Record<string, string> = {}): Promise<Config> {
  const template = process.env.BOSUN_TEST_PG_TEMPLATE;
  const base = testEnv();
  if (!usingPostgres() || !template || env.DATABASE_URL !== undefined || env.BOSUN_PG_SCHEMA !== undefined) return loadConfig({ ...base, ...env });
  const copy = `${template}_${randomBytes(6).toString('hex')}`;
  await onMaintenanceConnection((client) => client.query(`create database "${copy}" template "${template}"`));
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${copy}`;
  return loadConfig({ ...base, DATABASE_URL: url.toString(), BOSUN_PG_SCHEMA: TEMPLATE_SCHEMA, ...env });
}

function testEnv(): Record<string, string> {
  const suffix = randomBytes(6).toString('hex');
  const base: Record<string, string> = { LOG_LEVEL: 'silent', DATABASE_URL: ':memory:', PORT: '0' };
  if (usingPostgres()) {
    base.DATABASE_URL = process.env.DATABASE_URL!;
    base.BOSUN_PG_SCHEMA = `t_${suffix}`;
  }
  if (usingRedis()) {
    base.REDIS_URL = process.env.REDIS_URL!;
    base.BOSUN_REDIS_PREFIX = `bosun-test-${suffix}:`;
  }
  return base;
}

export interface ApiResponse<D = any> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: D;
  text: string;
}

export interface TestApp {
  bosun: Bosun;
  clock: ManualClock;
  config: Config;
  api<D = any>(method: string, url: string, options?: { token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string>; ip?: string }): Promise<ApiResponse<D>>;
  /** Registers a fresh sandbox agent; `scopes` are then granted by the operator (e.g. ['vessels:live'] for live vessel data). */
  /** Registers an agent (from a fresh address unless `address` is given: agents registered from one address are linked). */
  registerAgent(name?: string, scopes?: readonly string[], address?: string): Promise<{ agentId: string; apiKey: string }>;
  operatorToken(): Promise<string>;
  close(): Promise<void>;
}

/**
 * Each test agent registers from its own /24 network: agents from one network within 24 h are linked
 * and may not answer or rate each other, so random addresses made tests fail now and then.
 */
let registrations = 0;
const nextRegistrationAddress = () => {
  registrations++;
  return `10.${(registrations >> 8) & 255}.${registrations & 255}.7`;
};

let sharedChecker: SchemaChecker | null = null;

/** Starts Bosun in-process (no socket) with a manual clock; every response is checked against OpenAPI. */
export async function startTestApp(options: { env?: Record<string, string>; bosun?: BosunOptions; now?: number } = {}): Promise<TestApp> {
  const config = await migratedTestConfig(options.env);
  const clock = new ManualClock(options.now ?? TEST_EPOCH);
  // the shipped resource_infra layer only where a test asks for it (tests of the ingest start from an empty layer)
  const bosun = await createBosun(config, { clock, infraLayerFile: null, ...options.bosun });
  // the operator's document: it also describes the closed operations the tests call
  sharedChecker ??= createSchemaChecker(buildOpenApi(bosun.ctx.catalog, 'http://localhost', { audience: 'operator' }));
  const checker = sharedChecker;

  const app: TestApp = {
    bosun,
    clock,
    config,
    async api(method, url, opts = {}) {
      const headers: Record<string, string> = { ...(opts.headers ?? {}) };
      if (opts.token) headers.authorization = `Bearer ${opts.token}`;
      let payload: string | undefined;
      if (opts.rawBody !== undefined) payload = opts.rawBody;
      else if (opts.body !== undefined) {
        payload = JSON.stringify(opts.body);
        headers['content-type'] ??= 'application/json';
      }
      const res = await bosun.http.inject({ method: method as 'GET', url, headers, payload, remoteAddress: opts.ip ?? '127.0.0.1' });
      let body: any = undefined;
      try {
        body = res.body ? JSON.parse(res.body) : undefined;
      } catch {
        body = undefined;
      }
      checker.check(method, url, res.statusCode, res.headers['content-type'] as string | undefined, body);
      recordProducedCodes(body);
      return { status: res.statusCode, headers: res.headers as ApiResponse['headers'], body, text: res.body };
    },
    async registerAgent(name = 'test-agent', scopes: readonly string[] = [], address = nextRegistrationAddress()) {
      const res = await app.api('POST', '/v1/agents/register', { body: { name, vendor: 'tests', description: 'test agent' }, ip: address });
      if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${res.text}`);
      for (const scope of scopes) await bosun.ctx.services.agents.grantScope(res.body.data.agent_id, scope, { kind: 'cli' });
      return { agentId: res.body.data.agent_id, apiKey: res.body.data.api_key };
    },
    async operatorToken() {
      return (await bosun.ctx.services.operator.issueToken('tests')).token;
    },
    async close() {
      await bosun.close();
      await dropTestSchema(config);
    },
  };
  return app;
}

/** Starts a test app (with `env` over the test configuration), runs `fn`, and closes the app even when `fn` throws. */
export async function withApp(fn: (app: TestApp) => Promise<void>, env: Record<string, string> = {}): Promise<void> {
  const app = await startTestApp({ env });
  try {
    await fn(app);
  } finally {
    await app.close();
  }
}

/** Drops a test's PostgreSQL store: the copy of the template database, or the fresh schema. */
export async function dropTestSchema(config: Config): Promise<void> {
  const store = config.database;
  if (store.kind !== 'postgres' || store.schema === 'public') return;
  const template = process.env.BOSUN_TEST_PG_TEMPLATE;
  const database = decodeURIComponent(new URL(store.url).pathname.slice(1));
  if (template && database.startsWith(`${template}_`)) {
    await onMaintenanceConnection((client) => client.query(`drop database if exists "${database}" with (force)`));
    return;
  }
  await onMaintenanceConnection((client) => client.query(`drop schema if exists "${store.schema}" cascade`), store.url);
}

/** A test app whose store the one-shot CLI opens too, with the environment that points `bosun …` at it. */
export interface TestAppWithCli {
  app: TestApp;
  /** The CLI's whole environment: the app's PostgreSQL schema, or its SQLite file in `dir`. */
  env: Record<string, string | undefined>;
  /** A temporary folder of the test's own (the SQLite file lives there); removed by `cleanup`. */
  dir: string;
  /** Closes the app and removes `dir`. */
  cleanup(): Promise<void>;
}

/** startTestApp on a store a second opener (the CLI, another app) can reach: an SQLite file instead of memory. */
export async function startTestAppWithCli(name: string, options: { env?: Record<string, string>; now?: number } = {}): Promise<TestAppWithCli> {
  const dir = mkdtempSync(join(tmpdir(), `bosun-${name}-`));
  const sqliteUrl = `sqlite:${join(dir, 'bosun.db')}`;
  const app = await startTestApp({ ...options, env: { ...options.env, ...(usingPostgres() ? {} : { DATABASE_URL: sqliteUrl }) } });
  const db = app.config.database;
  const env = {
    ...process.env,
    LOG_LEVEL: 'silent',
    DATABASE_URL: db.kind === 'postgres' ? db.url : sqliteUrl,
    ...(db.kind === 'postgres' ? { BOSUN_PG_SCHEMA: db.schema } : {}),
  };
  return {
    app,
    env,
    dir,
    async cleanup() {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Port positions for an events repo that sums no voyage cells (a migration test counting visit cells or bounds): no port is known. */
export const NO_PORTS: PortPositions = { byId: () => undefined };
