/**
 * GET /v1/exchange/claims at scale: the claim listing (the service, as the route calls it, with its
 * due-decision sweep) over a SQLite store of N claims (default 1,000,000, inserted in bulk through the
 * repo once into bench/out/exchange-claims-<n>/ and reopened afterwards). Reports p50/p99 of first
 * pages (unfiltered and filtered) and of keyset-cursor pages deep in the listing, against the baseline
 * of the same page fetched with OFFSET in the same run.
 * Usage: node dist/bench/exchange/claims-list-main.js [--claims 1000000] [--rounds 200] [--rebuild]
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createCore } from '../../src/app/create.js';
import { DAY, ManualClock } from '../../src/platform/clock.js';
import { loadConfig } from '../../src/platform/config.js';
import { createExchangeCoreRepo, type ClaimRow } from '../../src/features/exchange/core/exchange-core-repo.js';
import { CLAIM_KINDS, EXCHANGE_CORE_LIMITS } from '../../src/features/exchange/core/exchange-rules.js';

const { values } = parseArgs({ options: { claims: { type: 'string', default: '1000000' }, rounds: { type: 'string', default: '200' }, rebuild: { type: 'boolean', default: false } } });
const total = Number(values.claims);
const rounds = Number(values.rounds);
const END = Date.UTC(2026, 10, 1);
const AUTHORS = 2000;

const dir = join(resolve(import.meta.dirname, '..', '..', '..'), 'bench', 'out', `exchange-claims-${total}`);
if (values.rebuild) rmSync(dir, { recursive: true, force: true });
const fresh = !existsSync(join(dir, 'bosun.sqlite'));
mkdirSync(dir, { recursive: true });
const clock = new ManualClock(END);
const core = await createCore(loadConfig({ DATABASE_URL: `sqlite:${join(dir, 'bosun.sqlite')}`, LOG_LEVEL: 'silent' }), { clock });
const repo = createExchangeCoreRepo(core.store.db);
const portIds = core.services.ports
  .table()
  .slice(0, 2000)
  .map((p) => p.port_id);

if (fresh) {
  const started = performance.now();
  const batch = 50_000;
  const span = 13 * DAY;
  for (let start = 0; start < total; start += batch) {
    const rows: ClaimRow[] = [];
    for (let i = start; i < Math.min(total, start + batch); i++) {
      const createdAt = END - span + Math.floor((i * span) / total);
      const roll = i % 10;
      const state = roll < 2 ? 'accepted' : roll < 3 ? 'rejected' : roll < 5 ? 'supported' : roll < 6 ? 'disputed' : 'open';
      const decided = state === 'accepted' || state === 'rejected';
      const score = state === 'accepted' || state === 'supported' ? 2 : state === 'open' ? 0 : -2;
      rows.push({
        claim_id: `clm_${i.toString(16).padStart(20, '0')}`,
        author_id: `agt_bench${(i % AUTHORS).toString().padStart(5, '0')}`,
        subject_kind: 'port',
        subject_ref: String(portIds[i % portIds.length]),
        kind: CLAIM_KINDS[i % CLAIM_KINDS.length]!,
        text: `Benchmark claim ${i} about a port, long enough to look like a real statement.`,
        evidence: JSON.stringify([{ type: 'port', ref: String(portIds[i % portIds.length]), note: null }]),
        state,
        score,
        up_weight: Math.max(0, score),
        down_weight: Math.max(0, -score),
        voters: state === 'open' ? 0 : 2,
        hidden: i % 997 === 0 ? 1 : 0,
        created_at: createdAt,
        updated_at: createdAt,
        decidable_at: createdAt + EXCHANGE_CORE_LIMITS.votingMinMs,
        expires_at: createdAt + EXCHANGE_CORE_LIMITS.claimLifetimeMs,
        // undecided claims of this store fall due at their expiry (after END), decided ones never
        due_at: decided ? createdAt + EXCHANGE_CORE_LIMITS.votingMinMs : createdAt + EXCHANGE_CORE_LIMITS.claimLifetimeMs,
        decided_at: decided ? createdAt + DAY : null,
      });
    }
    await core.store.db.transaction().execute((trx) => repo.insertClaims(rows, trx));
  }
  console.log(`built ${total} claims in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

const member = { agentId: 'agt_viewer', state: 'sandbox', scopes: new Set<string>() } as const;
const service = core.services.exchangeCore;
const cursors = core.services.cursors;

async function time(run: () => Promise<number>): Promise<{ p50: number; p99: number; rows: number }> {
  const times: number[] = [];
  let rows = 0;
  for (let i = 0; i < 5; i++) await run();
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    rows = await run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const pct = (p: number) => times[Math.min(times.length - 1, Math.floor((times.length * p) / 100))]!;
  return { p50: pct(50), p99: pct(99), rows };
}

/** The cursor the listing would hand out after `offset` visible rows (the row just before the page). */
async function cursorAt(offset: number): Promise<string> {
  const row = await core.store.db
    .selectFrom('exchange_claims')
    .select(['created_at', 'claim_id'])
    .where('hidden', '=', 0)
    .orderBy('created_at', 'desc')
    .orderBy('claim_id', 'desc')
    .offset(offset - 1)
    .limit(1)
    .executeTakeFirstOrThrow();
  return cursors.encodePosition({ createdAt: Number(row.created_at), id: row.claim_id });
}

const offsetPage = (offset: number) => async () =>
  (await core.store.db.selectFrom('exchange_claims').selectAll().where('hidden', '=', 0).orderBy('created_at', 'desc').orderBy('claim_id', 'desc').offset(offset).limit(21).execute()).length;
const list = (query: Record<string, unknown>) => async () => (await service.listClaims(member as never, { limit: 20, ...query })).items.length;

console.log(`claims: ${total}; rounds ${rounds}; load ${readFileSync('/proc/loadavg', 'utf8').trim()}`);
console.log('| listing | rows | service p50 ms | service p99 ms | keyset query p50 ms | OFFSET query p50 ms (baseline) | ratio OFFSET / keyset |');
console.log('|---|---|---|---|---|---|---|');
const firstPages: Array<[string, Record<string, unknown>]> = [
  ['first page, no filter', {}],
  ['first page, state=accepted', { state: 'accepted' }],
  ['first page, author', { author: 'agt_bench00042' }],
  ['first page, kind=forecast', { kind: 'forecast' }],
  ['first page, subject port', { subject_type: 'port', subject_ref: String(portIds[7]) }],
];
for (const [label, query] of firstPages) {
  const r = await time(list(query));
  console.log(`| ${label} | ${r.rows} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | | | |`);
}
for (const depth of [1_000, Math.floor(total / 10), Math.floor(total * 0.9)]) {
  const cursor = await cursorAt(depth);
  const r = await time(list({ cursor }));
  const position = cursors.decodePosition(cursor);
  const keyset = await time(async () => (await repo.listClaims({}, 21, position)).length);
  const base = await time(offsetPage(depth));
  console.log(
    `| cursor page after ${depth.toLocaleString('en')} rows | ${r.rows} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${keyset.p50.toFixed(2)} | ${base.p50.toFixed(2)} | ${(base.p50 / keyset.p50).toFixed(1)} |`,
  );
}
console.log(`load after: ${readFileSync('/proc/loadavg', 'utf8').trim()}`);
await core.close();
