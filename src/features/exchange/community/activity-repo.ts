import { sql } from 'kysely';
import type { Db } from '../../../store/db.js';
import { DAY } from '../../../platform/clock.js';

/**
 * The tables the activity read model reads, by the area that owns and writes them (decision 043): it writes
 * none of them and reads no table missing here (test/unit/exchange/activity-read-model.test.ts).
 */
export const ACTIVITY_READ_TABLES = {
  telemetry: ['request_telemetry'],
  agents: ['agents'],
  usage: ['usage_ledger'],
  harbor: ['harbor_profiles', 'harbor_help_requests', 'harbor_tasks', 'harbor_sandbox_tasks'],
  exchange: ['exchange_bans', 'exchange_claims', 'exchange_bounties'],
} as const;

/**
 * Read-only aggregates over stored activity for the exchange activity views (docs/exchange-community.md):
 * request telemetry, agents, harbor records and exchange records. Nothing here writes; each query
 * reads only the columns its view needs.
 */
export function createActivityRepo(db: Db) {
  /** The agent's lifecycle state at `now`, as agents-service effectiveState computes it. */
  const effectiveState = (now: number) =>
    sql<string>`case when revoked_at is not null then 'revoked' when state = 'sandbox' and sandbox_expires_at is not null and sandbox_expires_at <= ${now} then 'sandbox_expired' when state = 'trial' and trial_expires_at is not null and trial_expires_at <= ${now} then 'trial_expired' else state end`;

  return {
    /** Agents with at least one recorded request since `since`: last request time and count, most recent first. */
    async activeAgents(since: number, cap: number) {
      // The window's rows first (the ts index), grouped after: grouping straight from the table made
      // SQLite walk the whole (agent_id, ts) index to avoid a sort.
      const rows = await db
        .with(
          (cte) => cte('recent').materialized(),
          (qb) => qb.selectFrom('request_telemetry').select(['agent_id', 'ts']).where('ts', '>=', since).where('agent_id', 'is not', null),
        )
        .selectFrom('recent')
        .select((eb) => ['agent_id', eb.fn.max('ts').as('last_ts'), eb.fn.countAll<number>().as('requests')])
        .groupBy('agent_id')
        .orderBy('last_ts', 'desc')
        .limit(cap)
        .execute();
      return rows.map((r) => ({ agentId: r.agent_id!, lastTs: Number(r.last_ts), requests: Number(r.requests) }));
    },
    async countActiveSince(since: number): Promise<number> {
      const row = await db
        .selectFrom('request_telemetry')
        .select(sql<number>`count(distinct agent_id)`.as('n'))
        .where('ts', '>=', since)
        .where('agent_id', 'is not', null)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async countRequestsSince(since: number): Promise<number> {
      const row = await db
        .selectFrom('request_telemetry')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('ts', '>=', since)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    /** Public harbor profile names of these agents (agents without a public profile are absent). */
    async publicNames(agentIds: readonly string[]): Promise<Map<string, string>> {
      if (agentIds.length === 0) return new Map();
      const rows = await db.selectFrom('harbor_profiles').select(['agent_id', 'display_name']).where('agent_id', 'in', agentIds).where('is_public', '=', 1).execute();
      return new Map(rows.map((r) => [r.agent_id, r.display_name]));
    },
    async bannedAmong(agentIds: readonly string[]): Promise<Set<string>> {
      if (agentIds.length === 0) return new Set();
      const rows = await db.selectFrom('exchange_bans').select('agent_id').where('agent_id', 'in', agentIds).execute();
      return new Set(rows.map((r) => r.agent_id));
    },
    async agentsByState(now: number): Promise<Array<{ state: string; count: number }>> {
      const rows = await db
        .selectFrom('agents')
        .select([effectiveState(now).as('effective'), (eb) => eb.fn.countAll<number>().as('n')])
        .groupBy('effective')
        .execute();
      return rows.map((r) => ({ state: r.effective, count: Number(r.n) })).sort((a, b) => a.state.localeCompare(b.state));
    },
    async agentsById(agentIds: readonly string[], now: number) {
      if (agentIds.length === 0) return [];
      return db
        .selectFrom('agents')
        .select(['agent_id', 'name', 'vendor', 'created_at', effectiveState(now).as('effective')])
        .where('agent_id', 'in', agentIds)
        .execute();
    },
    /** A page of agents, newest registration first, for the operator's audit. */
    async agentsPage(now: number, limit: number, after: { createdAt: number; id: string } | undefined) {
      let q = db.selectFrom('agents').select(['agent_id', 'name', 'vendor', 'created_at', 'registration_ip', effectiveState(now).as('effective')]);
      if (after) q = q.where((eb) => eb.or([eb('created_at', '<', after.createdAt), eb.and([eb('created_at', '=', after.createdAt), eb('agent_id', '<', after.id)])]));
      return q.orderBy('created_at', 'desc').orderBy('agent_id', 'desc').limit(limit).execute();
    },
    /** Other agents registered from the same network within `windowMs` of each of these registrations. */
    async linkedCounts(agents: ReadonlyArray<{ agent_id: string; registration_ip: string | null; created_at: number }>, windowMs: number): Promise<Map<string, number>> {
      const networks = [...new Set(agents.flatMap((a) => (a.registration_ip ? [a.registration_ip] : [])))];
      if (networks.length === 0) return new Map();
      const peers = await db.selectFrom('agents').select(['agent_id', 'registration_ip', 'created_at']).where('registration_ip', 'in', networks).execute();
      const counts = new Map<string, number>();
      for (const a of agents) {
        if (!a.registration_ip) continue;
        counts.set(a.agent_id, peers.filter((p) => p.agent_id !== a.agent_id && p.registration_ip === a.registration_ip && Math.abs(p.created_at - a.created_at) < windowMs).length);
      }
      return counts;
    },
    /**
     * Last request time, requests and failed requests (4xx and 5xx) of these agents on the UTC days from
     * `sinceDay` (YYYY-MM-DD) on, from the usage ledger (decision 071).
     */
    async activityOf(agentIds: readonly string[], sinceDay: string) {
      if (agentIds.length === 0) return new Map<string, { lastTs: number; requests: number; failures: number }>();
      const rows = await db
        .selectFrom('usage_ledger')
        .select((eb) => ['agent_id', eb.fn.max('last_call_at').as('last_ts'), eb.fn.sum<number | string>('calls').as('requests'), eb.fn.sum<number | string>('failed_calls').as('failures')])
        .where('caller_kind', '=', 'agent')
        .where('agent_id', 'in', agentIds)
        .where('day', '>=', sinceDay)
        .groupBy('agent_id')
        .execute();
      return new Map(rows.map((r) => [r.agent_id, { lastTs: Number(r.last_ts), requests: Number(r.requests), failures: Number(r.failures) }]));
    },
    /** Agent and UTC day (days since the epoch) of every request in [since, until), and whether that day had a successful request to one of `production`. */
    async activeDays(since: number, until: number, production: readonly string[]) {
      // integer division on both stores (a bound number is a REAL on SQLite: the groups were fractions of a day)
      const day = sql<number>`cast(ts / ${sql.lit(DAY)} as integer)`;
      const productive = sql<number>`max(case when status < 400 and operation_id in (${sql.join(production.length > 0 ? production : ['-'])}) then 1 else 0 end)`;
      const rows = await db
        .selectFrom('request_telemetry')
        .select(['agent_id', day.as('day'), productive.as('productive')])
        .where('ts', '>=', since)
        .where('ts', '<', until)
        .where('agent_id', 'is not', null)
        .groupBy(['agent_id', 'day'])
        .execute();
      return rows.map((r) => ({ agentId: r.agent_id!, day: Math.floor(Number(r.day)), productive: Number(r.productive) === 1 }));
    },
    async countAgents(): Promise<number> {
      const row = await db
        .selectFrom('agents')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    /** Visible exchange claims and bounties by state (exchange-core's tables, read only). */
    async exchangeCoreCounts(): Promise<{ claims: Record<string, number>; bounties: Record<string, number> }> {
      const [claims, bounties] = await Promise.all([
        db
          .selectFrom('exchange_claims')
          .select(['state', (eb) => eb.fn.countAll<number>().as('n')])
          .where('hidden', '=', 0)
          .groupBy('state')
          .execute(),
        db
          .selectFrom('exchange_bounties')
          .select(['state', (eb) => eb.fn.countAll<number>().as('n')])
          .where('hidden', '=', 0)
          .groupBy('state')
          .execute(),
      ]);
      const byState = (rows: Array<{ state: string; n: number | string }>) => Object.fromEntries(rows.map((r) => [r.state, Number(r.n)]));
      return { claims: byState(claims), bounties: byState(bounties) };
    },
    /** The agent's bounties still in play: posted by it (open, claimed, submitted) or held by it as claimant (claimed, submitted). */
    async unfinishedBounties(agentId: string) {
      return db
        .selectFrom('exchange_bounties')
        .select(['bounty_id', 'poster_id', 'claimant_id', 'title', 'state', 'deadline_at', 'updated_at'])
        .where('hidden', '=', 0)
        .where((eb) =>
          eb.or([eb.and([eb('poster_id', '=', agentId), eb('state', 'in', ['open', 'claimed', 'submitted'])]), eb.and([eb('claimant_id', '=', agentId), eb('state', 'in', ['claimed', 'submitted'])])]),
        )
        .execute();
    },
    /** The agent's claims not decided yet (open, supported, disputed). */
    async undecidedClaims(agentId: string) {
      return db
        .selectFrom('exchange_claims')
        .select(['claim_id', 'text', 'state', 'expires_at', 'updated_at'])
        .where('author_id', '=', agentId)
        .where('hidden', '=', 0)
        .where('state', 'in', ['open', 'supported', 'disputed'])
        .execute();
    },
    async countOpenHelpRequests(): Promise<number> {
      const row = await db
        .selectFrom('harbor_help_requests')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('state', 'in', ['open', 'selected', 'in_progress'])
        .where('hidden', '=', 0)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** The agent's unfinished harbor help requests, as author or as the selected helper. */
    async unfinishedHelp(agentId: string) {
      return db
        .selectFrom('harbor_help_requests')
        .select(['request_id', 'author_id', 'selected_helper_id', 'title', 'state', 'hidden', 'last_activity_at'])
        .where((eb) =>
          eb.or([
            eb.and([eb('author_id', '=', agentId), eb('state', 'in', ['open', 'selected', 'in_progress'])]),
            eb.and([eb('selected_helper_id', '=', agentId), eb('state', 'in', ['selected', 'in_progress']), eb('hidden', '=', 0)]),
          ]),
        )
        .execute();
    },
    /** The agent's live harbor production tasks (created by it, or assigned to it). */
    async unfinishedTasks(agentId: string) {
      return db
        .selectFrom('harbor_tasks')
        .select(['task_id', 'creator_id', 'assignee_id', 'title', 'state', 'last_activity_at'])
        .where('state', 'in', ['created', 'assigned', 'accepted'])
        .where((eb) => eb.or([eb('creator_id', '=', agentId), eb('assignee_id', '=', agentId)]))
        .execute();
    },
    /** The agent's open harbor sandbox tasks. */
    async unfinishedSandboxTasks(agentId: string) {
      return db
        .selectFrom('harbor_sandbox_tasks')
        .select(['task_id', 'creator_id', 'assignee_id', 'title', 'state', 'last_activity_at'])
        .where('state', '=', 'open')
        .where((eb) => eb.or([eb('creator_id', '=', agentId), eb('assignee_id', '=', agentId)]))
        .execute();
    },
  };
}

export type ActivityRepo = ReturnType<typeof createActivityRepo>;
