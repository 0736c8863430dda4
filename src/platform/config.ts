import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { resolve } from 'node:path';
import { FeedSpecError, parseFeedSpecs } from './feed-spec.js';
import type { LogLevel } from '../observability/logger.js';

const Bool = Type.Union([Type.Literal('true'), Type.Literal('false'), Type.Literal('1'), Type.Literal('0')]);

/** Every environment variable Bosun reads, declared once and validated at start. */
export const EnvSchema = Type.Object({
  HOST: Type.String({ default: '127.0.0.1', minLength: 1 }),
  PORT: Type.String({ default: '8080', pattern: '^[0-9]{1,5}$' }),
  BOSUN_DATA_DIR: Type.String({ default: './data', minLength: 1 }),
  DATABASE_URL: Type.Optional(Type.String({ pattern: '^(postgres(ql)?://|sqlite:|:memory:$)' })),
  BOSUN_PG_SCHEMA: Type.String({ default: 'public', pattern: '^[a-z_][a-z0-9_]{0,62}$' }),
  REDIS_URL: Type.Optional(Type.String({ pattern: '^rediss?://' })),
  BOSUN_REDIS_PREFIX: Type.String({ default: 'bosun:', pattern: '^[A-Za-z0-9:_-]{1,64}$' }),
  BOSUN_PUBLIC_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  BOSUN_SITE_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  BOSUN_AUTO_SANDBOX: Bool,
  BOSUN_TELEMETRY: Bool,
  BOSUN_BODY_LIMIT_BYTES: Type.String({ default: '65536', pattern: '^[0-9]{3,8}$' }),
  BOSUN_TRUST_PROXY: Type.String({ default: 'false', minLength: 1, maxLength: 1000 }),
  BOSUN_REQUEST_TIMEOUT_MS: Type.String({ default: '30000', pattern: '^[0-9]{1,7}$' }),
  BOSUN_HEADERS_TIMEOUT_MS: Type.String({ default: '10000', pattern: '^[0-9]{1,7}$' }),
  BOSUN_IDLE_TIMEOUT_MS: Type.String({ default: '65000', pattern: '^[0-9]{1,7}$' }),
  BOSUN_MAX_CONNECTIONS_PER_ADDRESS: Type.Optional(Type.String({ pattern: '^[0-9]{1,6}$' })),
  BOSUN_FEEDS: Type.Optional(Type.String()),
  /** Seconds the feed owner's lease holds (renewed every third): how long a dead holder's feeds stay silent (docs/decisions/100). */
  BOSUN_FEED_LEASE_SECONDS: Type.String({ default: '30', pattern: '^[0-9]{1,4}$' }),
  /**
   * Whether this process may run the live event detector (default true). Only one process detects at a time (a
   * store lease); false keeps a process out of the running, e.g. the feed owner of a busy feed (docs/decisions/156).
   */
  BOSUN_EVENT_DETECTION: Bool,
  BOSUN_PAYMENT_RAILS: Type.Optional(Type.String()),
  /** Days of raw positions kept (0: all); older ones go as whole daily partitions on PostgreSQL, in batches on SQLite (docs/decisions/101). */
  BOSUN_RETENTION_DAYS: Type.String({ default: '0', pattern: '^[0-9]{1,5}$' }),
  /** Thinning: positions older than this many days (0: never) keep one per vessel per BOSUN_THIN_MINUTES. */
  BOSUN_THIN_AFTER_DAYS: Type.String({ default: '0', pattern: '^[0-9]{1,5}$' }),
  BOSUN_THIN_MINUTES: Type.String({ default: '10', pattern: '^[0-9]{1,4}$' }),
  BOSUN_PAYMENT_INTENTS: Bool,
  BOSUN_DEMO_VESSELS: Type.String({ default: '300', pattern: '^[0-9]{1,4}$' }),
  BOSUN_DEMO_SEED: Type.String({ default: 'bosun', minLength: 1, maxLength: 100 }),
  BOSUN_DEMO_BACKFILL_DAYS: Type.String({ default: '7', pattern: '^[0-9]{1,2}(\\.[0-9]+)?$' }),
  /** Signs pagination cursors; without it a secret generated once per store is used (docs/decisions/010). */
  BOSUN_CURSOR_SECRET: Type.Optional(Type.String({ minLength: 32, maxLength: 256 })),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info' },
  ),
});
export type Env = Static<typeof EnvSchema>;

/** One public payment destination (display only: the server holds no keys and settles nothing). */
export const PaymentRailSchema = Type.Object(
  {
    rail_id: Type.String({ pattern: '^[a-z0-9][a-z0-9_-]{1,39}$' }),
    label: Type.String({ minLength: 1, maxLength: 80 }),
    network: Type.String({ pattern: '^[a-z0-9][a-z0-9_-]{1,31}$' }),
    token: Type.String({ pattern: '^[A-Za-z0-9.]{1,16}$' }),
    address: Type.String({ minLength: 8, maxLength: 128, pattern: '^[A-Za-z0-9:._-]+$' }),
    decimals: Type.Integer({ minimum: 0, maximum: 18 }),
  },
  { additionalProperties: false },
);
export type PaymentRail = Static<typeof PaymentRailSchema>;
const PaymentRailsSchema = Type.Array(PaymentRailSchema, { maxItems: 20 });

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  database: { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string; schema: string };
  redis: { url: string; prefix: string } | null;
  publicUrl: string | null;
  siteUrl: string | null;
  autoSandbox: boolean;
  telemetry: boolean;
  bodyLimitBytes: number;
  /**
   * Which hops of X-Forwarded-For are trusted (Fastify's trustProxy): false, the number of proxies in
   * front of Bosun, or their addresses/CIDRs. The client address is the nearest untrusted hop.
   */
  trustProxy: false | number | string[];
  /** Slow-client guards of the HTTP server (milliseconds; 0 disables one) and the per-address socket cap (0: none). */
  server: { requestTimeoutMs: number; headersTimeoutMs: number; idleTimeoutMs: number; maxConnectionsPerAddress: number };
  feeds: string | null;
  /** The one-feed-owner lease (docs/decisions/100): milliseconds a claim holds. */
  feedLeaseMs: number;
  /** Whether this process takes part in the live event detection (BOSUN_EVENT_DETECTION). */
  eventDetection: boolean;
  payments: { rails: PaymentRail[]; intentsEnabled: boolean };
  /**
   * Raw positions kept (docs/decisions/101): `retentionDays` (null: all), and thinning of positions older
   * than `thinAfterDays` to one per vessel per `thinMinutes` (null: none). Events and aggregates are kept.
   */
  positions: { retentionDays: number | null; thinAfterDays: number | null; thinMinutes: number };
  /** The demo fleet (the default feed): vessel count, seed text, days of history backfilled at first start. */
  demo: { vessels: number; seed: string; backfillDays: number };
  logLevel: LogLevel;
  version: string;
  /** BOSUN_CURSOR_SECRET, or null: the store's own generated secret signs cursors. */
  cursorSecret: string | null;
}

import { ConfigError } from './config-error.js';

export { ConfigError };

const DEFAULT_BOOLS = { BOSUN_AUTO_SANDBOX: 'true', BOSUN_TELEMETRY: 'true', BOSUN_PAYMENT_INTENTS: 'false', BOSUN_EVENT_DETECTION: 'true' } as const;

function parseRails(text: string | undefined): PaymentRail[] {
  if (text === undefined) return [];
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ConfigError('invalid configuration:\n  BOSUN_PAYMENT_RAILS: not valid JSON (expected an array of rails)');
  }
  const errors = [...Value.Errors(PaymentRailsSchema, value)];
  if (errors.length > 0) {
    throw new ConfigError(`invalid configuration:\n${errors.map((e) => `  BOSUN_PAYMENT_RAILS${e.path}: ${e.message}`).join('\n')}`);
  }
  const rails = value as PaymentRail[];
  const ids = new Set(rails.map((r) => r.rail_id));
  if (ids.size !== rails.length) throw new ConfigError('invalid configuration:\n  BOSUN_PAYMENT_RAILS: rail_id values must be unique');
  return rails;
}

const asBool = (v: string) => v === 'true' || v === '1';

const ADDRESS_OR_CIDR = /^(loopback|linklocal|uniquelocal|[0-9.]+(\/[0-9]{1,2})?|[0-9a-fA-F:.]+(\/[0-9]{1,3})?)$/;

/**
 * BOSUN_TRUST_PROXY (docs/decisions/012): `false`/`0` (default), a hop count (`1` for one nginx), or a
 * comma list of proxy addresses/CIDRs. `true` is refused: it trusted every hop, so the client's own
 * leftmost X-Forwarded-For entry became its address.
 */
export function parseTrustProxy(text: string): Config['trustProxy'] {
  const value = text.trim();
  if (value === 'false' || value === '0') return false;
  if (/^[0-9]{1,2}$/.test(value)) return Number(value);
  if (value === 'true') {
    throw new ConfigError(
      'invalid configuration:\n  BOSUN_TRUST_PROXY: "true" would trust every X-Forwarded-For hop, which the client writes; give the number of proxies in front of Bosun (e.g. 1) or their addresses (e.g. 127.0.0.1,10.0.0.0/8)',
    );
  }
  const list = value.split(',').map((part) => part.trim());
  const bad = list.filter((part) => !ADDRESS_OR_CIDR.test(part));
  if (bad.length > 0) {
    throw new ConfigError(`invalid configuration:\n  BOSUN_TRUST_PROXY: not a hop count or a list of addresses/CIDRs: ${bad.map((b) => JSON.stringify(b)).join(', ')}`);
  }
  return list;
}

/** Sockets one address may hold open at once; off by default behind a proxy (every socket is the proxy's). */
const DEFAULT_MAX_CONNECTIONS_PER_ADDRESS = 64;

function positionsConfig(env: Env): Config['positions'] {
  const retention = Number(env.BOSUN_RETENTION_DAYS);
  const thinAfter = Number(env.BOSUN_THIN_AFTER_DAYS);
  const thinMinutes = Number(env.BOSUN_THIN_MINUTES);
  const problems: string[] = [];
  if (thinMinutes < 1 || thinMinutes > 1440) problems.push(`  BOSUN_THIN_MINUTES: must be 1-1440 (got ${env.BOSUN_THIN_MINUTES})`);
  if (retention > 0 && thinAfter >= retention)
    problems.push(`  BOSUN_THIN_AFTER_DAYS: must be less than BOSUN_RETENTION_DAYS (${thinAfter} ≥ ${retention}): positions would be dropped before they are thinned`);
  if (problems.length > 0) throw new ConfigError(`invalid configuration:\n${problems.join('\n')}`);
  return { retentionDays: retention > 0 ? retention : null, thinAfterDays: thinAfter > 0 ? thinAfter : null, thinMinutes };
}

/** Parses configuration from an environment map (process.env at the entry point; explicit maps in tests). */
export function loadConfig(source: Record<string, string | undefined>): Config {
  const raw: Record<string, string> = {};
  for (const key of Object.keys(EnvSchema.properties)) {
    const value = source[key];
    if (value !== undefined && value !== '') raw[key] = value;
  }
  const withDefaults = Value.Default(EnvSchema, { ...DEFAULT_BOOLS, ...raw }) as Record<string, unknown>;
  const errors = [...Value.Errors(EnvSchema, withDefaults)];
  if (errors.length > 0) {
    const lines = errors.map((e) => `  ${e.path.slice(1) || '(root)'}: ${e.message} (got ${JSON.stringify(e.value)})`);
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
  const env = withDefaults as Env;
  const port = Number(env.PORT);
  if (port < 0 || port > 65535) throw new ConfigError(`invalid configuration:\n  PORT: out of range (${env.PORT})`);
  if (env.BOSUN_FEEDS !== undefined) {
    try {
      parseFeedSpecs(env.BOSUN_FEEDS);
    } catch (e) {
      if (e instanceof FeedSpecError) throw new ConfigError(`invalid configuration:\n  BOSUN_FEEDS: ${e.message}`);
      throw e;
    }
  }
  const trustProxy = parseTrustProxy(env.BOSUN_TRUST_PROXY);
  const feedLeaseSeconds = Number(env.BOSUN_FEED_LEASE_SECONDS);
  if (feedLeaseSeconds < 3 || feedLeaseSeconds > 3600) throw new ConfigError(`invalid configuration:\n  BOSUN_FEED_LEASE_SECONDS: must be 3-3600 (got ${env.BOSUN_FEED_LEASE_SECONDS})`);
  const positions = positionsConfig(env);
  const dataDir = resolve(env.BOSUN_DATA_DIR);
  let database: Config['database'];
  const url = env.DATABASE_URL;
  if (url && /^postgres(ql)?:\/\//.test(url)) database = { kind: 'postgres', url, schema: env.BOSUN_PG_SCHEMA };
  else if (url === ':memory:' || url === 'sqlite::memory:') database = { kind: 'sqlite', file: ':memory:' };
  else if (url && url.startsWith('sqlite:')) database = { kind: 'sqlite', file: resolve(url.slice('sqlite:'.length)) };
  else database = { kind: 'sqlite', file: resolve(dataDir, 'bosun.sqlite') };
  return {
    host: env.HOST,
    port,
    dataDir,
    database,
    redis: env.REDIS_URL ? { url: env.REDIS_URL, prefix: env.BOSUN_REDIS_PREFIX } : null,
    publicUrl: env.BOSUN_PUBLIC_URL?.replace(/\/+$/, '') ?? null,
    siteUrl: env.BOSUN_SITE_URL?.replace(/\/+$/, '') ?? null,
    autoSandbox: asBool(env.BOSUN_AUTO_SANDBOX),
    telemetry: asBool(env.BOSUN_TELEMETRY),
    bodyLimitBytes: Number(env.BOSUN_BODY_LIMIT_BYTES),
    trustProxy,
    server: {
      requestTimeoutMs: Number(env.BOSUN_REQUEST_TIMEOUT_MS),
      headersTimeoutMs: Math.min(Number(env.BOSUN_HEADERS_TIMEOUT_MS), Number(env.BOSUN_REQUEST_TIMEOUT_MS) || Infinity),
      idleTimeoutMs: Number(env.BOSUN_IDLE_TIMEOUT_MS),
      maxConnectionsPerAddress: env.BOSUN_MAX_CONNECTIONS_PER_ADDRESS !== undefined ? Number(env.BOSUN_MAX_CONNECTIONS_PER_ADDRESS) : trustProxy === false ? DEFAULT_MAX_CONNECTIONS_PER_ADDRESS : 0,
    },
    feeds: env.BOSUN_FEEDS ?? null,
    feedLeaseMs: feedLeaseSeconds * 1000,
    eventDetection: asBool(env.BOSUN_EVENT_DETECTION),
    payments: { rails: parseRails(env.BOSUN_PAYMENT_RAILS), intentsEnabled: asBool(env.BOSUN_PAYMENT_INTENTS) },
    positions,
    demo: { vessels: Number(env.BOSUN_DEMO_VESSELS), seed: env.BOSUN_DEMO_SEED, backfillDays: Number(env.BOSUN_DEMO_BACKFILL_DAYS) },
    logLevel: env.LOG_LEVEL as LogLevel, // one of LOG_LEVEL's literals (checked against EnvSchema)
    version: '1.0.0',
    cursorSecret: env.BOSUN_CURSOR_SECRET ?? null,
  };
}
