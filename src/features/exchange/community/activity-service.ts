import { DAY, HOUR, MINUTE, iso, type Clock } from '../../../platform/clock.js';
import { CATALOG } from '../../../catalog/entries.js';
import type { Section } from '../../../catalog/types.js';
import type { CursorCodec } from '../../../http/cursor-codec.js';
import type { JobStatus } from '../../../jobs/scheduler.js';
import type { TelemetryService } from '../../telemetry/telemetry-service.js';
import type { ExchangeMember } from '../gate/exchange-gate.js';
import { LINKED_AGENTS_WINDOW_MS } from '../../agents/agents-service.js';
import type { ActivityRepo } from './activity-repo.js';
import { ALERT_RULES, evaluateAlerts, jobHealth, overallState } from './automation-rules.js';
import type { ChartersService } from './charters-service.js';
import type { SkillsService } from './skills-service.js';
import { continuationItems } from './continuations.js';

/**
 * A name or vendor with one of these words marks a test or tooling agent (decision 043): such agents
 * never count as real. Matched as whole words, case-insensitive.
 */
export const TEST_MARK = /(^|[^a-z0-9])(test|tests|testing|e2e|ci|qa|bench|benchmark|demo|example|sample|sim|simulator|simulated|mock|fake|dummy|probe)([^a-z0-9]|$)/i;

/**
 * Sections whose successful use is production activity. Registration, the agent's own record, meta
 * pages, the harbor (onboarding and sandbox) and payments are left out: an agent that only ever used
 * those has not used Bosun for real work.
 */
export const PRODUCTION_SECTIONS: ReadonlySet<Section> = new Set<Section>([
  'vessels',
  'ports',
  'sts',
  'events',
  'metrics',
  'routes',
  'layers',
  'exchange',
  'workspace',
  'services',
  'feedback',
  'discovery',
]);
export const PRODUCTION_OPERATIONS: readonly string[] = CATALOG.filter((e) => PRODUCTION_SECTIONS.has(e.section)).map((e) => e.operationId);

export const ACTIVE_LISTED_MAX = 100;
export const AUDIT_WINDOW_MS = 7 * DAY;
/** The UTC day (YYYY-MM-DD) of an instant, as the usage ledger keys its lines. */
const utcDay = (ms: number) => iso(ms).slice(0, 10);
/** An agent whose requests in the audit window failed at least this often (with at least 20 requests) is flagged. */
export const HIGH_FAILURE_RATE = 0.5;
/** How long after a UTC day ends its telemetry is taken as complete (every process flushes well within this). */
const TELEMETRY_SETTLE_MS = 10 * MINUTE;
/** Settled days kept in memory (real_agents_history asks for at most 30). */
const SETTLED_DAYS_KEPT = 40;

const utcDate = (day: number) => iso(day * DAY).slice(0, 10);

export const isTestMarked = (agent: { name: string; vendor: string | null }) => TEST_MARK.test(agent.name) || (agent.vendor !== null && TEST_MARK.test(agent.vendor));

/** The scheduler as the activity views read it (createBosun attaches its own). */
export interface JobStateSource {
  statuses(): JobStatus[];
  started(): boolean;
}

/** Activity views over stored activity: telemetry, agents, harbor and exchange records, and the scheduler's job state. */
export function createActivityService(deps: {
  repo: ActivityRepo;
  telemetry: TelemetryService;
  /** Writes the usage meter's pending ledger lines (the operator audit reads per-agent activity there). */
  flushUsage: () => Promise<void>;
  skills: SkillsService;
  charters: ChartersService;
  clock: Clock;
  cursors: CursorCodec;
}) {
  const { repo, telemetry, skills, charters, clock, cursors } = deps;
  let jobState: JobStateSource | null = null;

  /**
   * A UTC day's requests no longer change once every process has flushed its telemetry of that day, so
   * the per-agent activity of settled days is read once and kept; only the unsettled days are read again.
   * The agents' classification (test marker, revoked) is applied at answer time, never cached.
   */
  type DayActivity = Array<{ agentId: string; productive: boolean }>;
  const settled = new Map<number, DayActivity>();
  const activeDays = async (firstDay: number, lastDay: number, now: number) => {
    const lastSettled = Math.min(lastDay, Math.floor((now - TELEMETRY_SETTLE_MS) / DAY) - 1);
    let missingFrom = -1;
    for (let d = firstDay; d <= lastSettled; d++)
      if (!settled.has(d)) {
        missingFrom = d;
        break;
      }
    if (missingFrom >= 0) {
      const rows = await repo.activeDays(missingFrom * DAY, (lastSettled + 1) * DAY, PRODUCTION_OPERATIONS);
      for (let d = missingFrom; d <= lastSettled; d++) if (!settled.has(d)) settled.set(d, []);
      for (const r of rows) settled.get(r.day)?.push({ agentId: r.agentId, productive: r.productive });
      for (const d of settled.keys()) if (d < lastSettled - SETTLED_DAYS_KEPT) settled.delete(d);
    }
    const fresh = lastSettled < lastDay ? await repo.activeDays(Math.max(firstDay, lastSettled + 1) * DAY, (lastDay + 1) * DAY, PRODUCTION_OPERATIONS) : [];
    const out: Array<{ agentId: string; day: number; productive: boolean }> = [];
    for (let d = firstDay; d <= lastSettled; d++) for (const a of settled.get(d) ?? []) out.push({ agentId: a.agentId, day: d, productive: a.productive });
    return out.concat(fresh);
  };

  return {
    /** Called once by createBosun with its scheduler; without one (one-shot commands) the automation views report no scheduler. */
    observeScheduler(source: JobStateSource): void {
      jobState = source;
    },

    /** Agents with recorded requests in the last `minutes`: public names only, the rest counted. */
    async active(_member: ExchangeMember, minutes: number) {
      await telemetry.flush();
      const now = clock.now();
      const since = now - minutes * MINUTE;
      const active = await repo.activeAgents(since, 10_000);
      const ids = active.map((a) => a.agentId);
      const [names, banned, agents] = await Promise.all([repo.publicNames(ids), repo.bannedAmong(ids), repo.agentsById(ids, now)]);
      const revoked = new Set(agents.filter((a) => a.effective === 'revoked').map((a) => a.agent_id));
      const members = active.filter((a) => !banned.has(a.agentId) && !revoked.has(a.agentId));
      const listed = members.filter((a) => names.has(a.agentId));
      return {
        window: { minutes, since: iso(since), until: iso(now) },
        active_agents: members.length,
        listed: listed.slice(0, ACTIVE_LISTED_MAX).map((a) => ({ agent_id: a.agentId, display_name: names.get(a.agentId)!, last_active_at: iso(a.lastTs), requests: a.requests })),
        unlisted: members.length - listed.length,
      };
    },

    async swarmStats(_member: ExchangeMember) {
      await telemetry.flush();
      const now = clock.now();
      const [registered, byState, active1h, active24h, active7d, requests1h, requests24h, skillCount, charterCount, pendingTransfers, openHelp, core] = await Promise.all([
        repo.countAgents(),
        repo.agentsByState(now),
        repo.countActiveSince(now - HOUR),
        repo.countActiveSince(now - DAY),
        repo.countActiveSince(now - 7 * DAY),
        repo.countRequestsSince(now - HOUR),
        repo.countRequestsSince(now - DAY),
        skills.countVisible(),
        charters.countVisible(),
        skills.countPendingTransfers(),
        repo.countOpenHelpRequests(),
        repo.exchangeCoreCounts(),
      ]);
      return {
        generated_at: iso(now),
        agents: { registered, by_state: byState },
        active_agents: { last_1h: active1h, last_24h: active24h, last_7d: active7d },
        requests: { last_1h: requests1h, last_24h: requests24h },
        exchange: { skills: skillCount, charters: charterCount, pending_skill_transfers: pendingTransfers, claims_by_state: core.claims, bounties_by_state: core.bounties },
        harbor: { open_help_requests: openHelp },
      };
    },

    /** Daily counts of real agents over the last `days` UTC days, today included (rule: decision 043). */
    async realAgentsHistory(_member: ExchangeMember, days: number) {
      await telemetry.flush();
      const now = clock.now();
      const today = Math.floor(now / DAY);
      const firstDay = today - days + 1;
      const all = await activeDays(firstDay, today, now);
      const agents = new Map((await repo.agentsById([...new Set(all.map((r) => r.agentId))], now)).map((a) => [a.agent_id, a]));
      const perDay = new Map<number, { real: Set<string>; active: Set<string>; test: Set<string>; onboarding: Set<string>; revoked: Set<string> }>();
      for (let d = firstDay; d <= today; d++) perDay.set(d, { real: new Set(), active: new Set(), test: new Set(), onboarding: new Set(), revoked: new Set() });
      for (const { agentId, day, productive } of all) {
        const bucket = perDay.get(day);
        const agent = agents.get(agentId);
        if (!bucket || !agent) continue;
        bucket.active.add(agentId);
        if (isTestMarked(agent)) bucket.test.add(agentId);
        else if (agent.effective === 'revoked') bucket.revoked.add(agentId);
        else if (!productive) bucket.onboarding.add(agentId);
        else bucket.real.add(agentId);
      }
      return {
        days,
        rule: 'An agent counts on a UTC day when it made at least one successful request to a production operation that day (vessels, ports, sts, metrics, routes, layers, exchange, workspace, services, feedback, discovery), its name and vendor carry no test marker, and it is not revoked. Registration, meta, harbor (onboarding, sandbox) and payment calls alone do not count. Simulated and demo vessels are not agents and never appear.',
        items: [...perDay].map(([day, b]) => ({
          date: utcDate(day),
          real_agents: b.real.size,
          active_agents: b.active.size,
          excluded: { test_marked: b.test.size, onboarding_only: b.onboarding.size, revoked: b.revoked.size },
        })),
      };
    },

    /** The caller's unfinished work across the harbor and the exchange, most recently active first. */
    async continuations(member: ExchangeMember) {
      const me = member.agentId;
      const [help, tasks, sandbox, transfers, bounties, claims] = await Promise.all([
        repo.unfinishedHelp(me),
        repo.unfinishedTasks(me),
        repo.unfinishedSandboxTasks(me),
        skills.pendingTransfers(me),
        repo.unfinishedBounties(me),
        repo.undecidedClaims(me),
      ]);
      const items = continuationItems(me, { help, tasks, sandbox, transfers, bounties, claims });
      items.sort((a, b) => b.last_activity_at - a.last_activity_at || a.id.localeCompare(b.id));
      return { agent_id: me, count: items.length, items: items.map((i) => ({ ...i, last_activity_at: iso(i.last_activity_at) })) };
    },

    /** The operator's view of every registered agent: redacted registration origin, state, last activity and flags. */
    async externalAgentsAudit(query: { limit: number; cursor?: string }) {
      await deps.flushUsage();
      const now = clock.now();
      const after = cursors.decodePosition(query.cursor);
      const rows = await repo.agentsPage(now, query.limit + 1, after);
      const page = cursors.page(rows, query.limit, (r) => ({ createdAt: r.created_at, id: r.agent_id }));
      const ids = page.items.map((r) => r.agent_id);
      const [activity, banned, linked, lastEver] = await Promise.all([
        repo.activityOf(ids, utcDay(now - AUDIT_WINDOW_MS + DAY)),
        repo.bannedAmong(ids),
        repo.linkedCounts(page.items, LINKED_AGENTS_WINDOW_MS),
        repo.activityOf(ids, utcDay(0)),
      ]);
      const items = page.items.map((r) => {
        const recent = activity.get(r.agent_id);
        const flags: string[] = [];
        if (isTestMarked(r)) flags.push('test_marked');
        if (banned.has(r.agent_id)) flags.push('exchange_banned');
        if (r.effective === 'revoked') flags.push('revoked');
        if ((linked.get(r.agent_id) ?? 0) > 0) flags.push('linked');
        if (!lastEver.has(r.agent_id)) flags.push('never_active');
        if (recent && recent.requests >= 20 && recent.failures / recent.requests >= HIGH_FAILURE_RATE) flags.push('high_failure_rate');
        return {
          agent_id: r.agent_id,
          name: r.name,
          vendor: r.vendor,
          state: r.effective,
          registered_at: iso(r.created_at),
          registration_origin: r.registration_ip === null ? { kind: 'local' as const, network: null } : { kind: 'network' as const, network: r.registration_ip },
          linked_agents: linked.get(r.agent_id) ?? 0,
          last_active_at: lastEver.has(r.agent_id) ? iso(lastEver.get(r.agent_id)!.lastTs) : null,
          requests_7d: recent?.requests ?? 0,
          failed_requests_7d: recent?.failures ?? 0,
          flags,
        };
      });
      return { items, next_cursor: page.nextCursor };
    },

    automationHealth() {
      const now = clock.now();
      const statuses = jobState?.statuses() ?? [];
      return {
        generated_at: iso(now),
        scheduler: { attached: jobState !== null, running: jobState?.started() ?? false, jobs: statuses.length },
        jobs: statuses
          .map((j) => ({
            name: j.name,
            every_seconds: j.every_seconds,
            health: jobHealth(j, now),
            running: j.running,
            runs: j.runs,
            failures: j.failures,
            consecutive_failures: j.consecutive_failures,
            last_started_at: j.last_started_at,
            last_finished_at: j.last_run_at,
            last_duration_ms: j.last_duration_ms,
            last_success_at: j.last_success_at,
            last_failure_at: j.last_failure_at,
            last_error: j.last_error,
            next_run_at: j.next_run_at,
          }))
          .sort((a, b) => a.name.localeCompare(b.name)),
      };
    },

    alertStatus() {
      const now = clock.now();
      const statuses = jobState?.statuses() ?? [];
      const alerts = evaluateAlerts(statuses, now);
      return {
        generated_at: iso(now),
        state: overallState(alerts),
        scheduler_running: jobState?.started() ?? false,
        jobs_checked: statuses.length,
        alerts,
        rules: ALERT_RULES.map((r) => ({ ...r })),
      };
    },
  };
}

export type ActivityService = ReturnType<typeof createActivityService>;
