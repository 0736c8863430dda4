import { isoOrNull, iso, DAY, type Clock } from '../../../platform/clock.js';
import { AppError } from '../../../platform/errors.js';
import type { AgentsService } from '../../agents/agents-service.js';
import type { EffectiveState } from '../../../access/principals.js';
import { newId } from '../../../access/credentials.js';
import type { AuditService } from '../../audit/audit-service.js';
import { agentLock, type Executor, type TransactionRunner } from '../../../store/transaction.js';
import type { CursorCodec } from '../../../http/cursor-codec.js';
import { HARBOR_LIMITS } from '../../kit/harbor-contract.js';
import type { QuotaService } from '../quota/quota-service.js';
import { ONBOARDING_TASKS, type OnboardingCheck, type OnboardingTaskKey } from './onboarding.js';
import type { SandboxMessageRow, SandboxTaskRow, SandboxTasksRepo } from './sandbox-tasks-repo.js';
import type { TaskCompletionsRepo } from './task-completions-repo.js';
import { checkTextBytes, checkTitle } from './task-text.js';
import { participantRole } from './task-upkeep.js';

/** How the service signs the onboarding tasks it creates and the messages it posts. */
export const HARBOR_SERVICE_AUTHOR = 'harbor-service';
export const SANDBOX_TASK_STATES = ['open', 'completed', 'cancelled'] as const;
export type SandboxTaskState = (typeof SANDBOX_TASK_STATES)[number];
/** A task read returns at most this many of its newest messages. */
export const SANDBOX_MESSAGES_SHOWN = 200;

export interface SandboxCaller {
  agentId: string;
  state: EffectiveState;
}

/** Lifecycle states that may use synthetic tasks: an active sandbox or an active trial. */
const TASK_STATES: ReadonlySet<string> = new Set<EffectiveState>(['sandbox', 'trial']);
const RETENTION_MS = HARBOR_LIMITS.contentRetentionDays * DAY;

/** What a participant sees of a task. */
export function sandboxTaskView(row: SandboxTaskRow, agentId: string) {
  return {
    task_id: row.task_id,
    kind: row.onboarding_key === null ? ('agent' as const) : ('onboarding' as const),
    onboarding_key: row.onboarding_key as OnboardingTaskKey | null,
    title: row.title,
    description: row.description,
    state: row.state as SandboxTaskState,
    synthetic: true as const,
    created_by: row.creator_id ?? HARBOR_SERVICE_AUTHOR,
    assignee_agent_id: row.assignee_id,
    your_role: participantRole(row, agentId) ?? 'assignee',
    closed_by: row.closed_by,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    closed_at: isoOrNull(row.closed_at),
    retained_until: iso(row.last_activity_at + RETENTION_MS),
  };
}

/** A new task as stored: open, created, updated and last active now. */
export function openTaskRow(task: Pick<SandboxTaskRow, 'creator_id' | 'assignee_id' | 'onboarding_key' | 'title' | 'description'>, now: number): SandboxTaskRow {
  return {
    task_id: newId('sbt_'),
    creator_id: task.creator_id,
    assignee_id: task.assignee_id,
    onboarding_key: task.onboarding_key,
    title: task.title,
    description: task.description,
    state: 'open',
    closed_by: null,
    created_at: now,
    updated_at: now,
    closed_at: null,
    last_activity_at: now,
  };
}

const messageView = (m: SandboxMessageRow) => ({ message_id: m.message_id, author: m.author_id ?? HARBOR_SERVICE_AUTHOR, body: m.body, created_at: iso(m.created_at) });

/**
 * Synthetic sandbox tasks (harbor-interface 4.2). Every task belongs to the tenant of the agent that
 * created it (or, for onboarding tasks, of the agent it was made for) and is visible to its creator and
 * assignee only; anyone else gets sandbox_task_not_found, exactly as for a task that does not exist.
 */
export function createSandboxTasksService(deps: {
  cursors: CursorCodec;
  repo: SandboxTasksRepo;
  completions: TaskCompletionsRepo;
  clock: Clock;
  audit: AuditService;
  quota: QuotaService;
  agents: AgentsService;
  /** The verifiable onboarding items; features add theirs in src/app/create.ts. */
  onboardingChecks: readonly OnboardingCheck[];
  transaction: TransactionRunner;
}) {
  const { repo, completions, clock, audit, quota, agents, transaction } = deps;

  /** Synthetic tasks are open to an active sandbox and, as harbor-interface part 3 says, to an active trial. */
  function requireSandbox(caller: SandboxCaller): void {
    if (TASK_STATES.has(caller.state)) return;
    const why = caller.state === 'sandbox_expired' ? 'your sandbox has expired' : caller.state === 'trial_expired' ? 'your trial has ended' : `your agent is in state ${caller.state}`;
    throw new AppError('sandbox_access_denied', `${why}; synthetic tasks need an active sandbox or trial (ask the operator for a trial with an operator request of category access_request)`);
  }

  function checkFor(key: string): OnboardingCheck | undefined {
    return deps.onboardingChecks.find((c) => c.taskKey === key);
  }

  /** Hands out the checklist items the agent does not have yet (none that it completed before). */
  async function provisionOnboarding(agentId: string, existing: SandboxTaskRow[]): Promise<void> {
    const have = new Set(existing.map((t) => t.onboarding_key));
    const missing = ONBOARDING_TASKS.filter((t) => !have.has(t.key) && checkFor(t.key));
    if (missing.length === 0) return;
    const done = await completions.completedOnboardingKeys(agentId);
    const now = clock.now();
    for (const task of missing) {
      if (done.has(task.key)) continue;
      await repo.insertOnboarding(openTaskRow({ creator_id: null, assignee_id: agentId, onboarding_key: task.key, title: task.title, description: task.description }, now));
    }
  }

  /** Completes open onboarding tasks whose condition now holds, with a message from the service. */
  async function verifyOnboarding(agentId: string, tasks: SandboxTaskRow[]): Promise<void> {
    for (const task of tasks) {
      if (task.state !== 'open' || task.onboarding_key === null) continue;
      const check = checkFor(task.onboarding_key);
      if (!check || !(await check.isDone(agentId))) continue;
      const now = clock.now();
      const moved = await repo.transition(task.task_id, 'open', {
        state: 'completed',
        closed_by: HARBOR_SERVICE_AUTHOR,
        closed_at: now,
        updated_at: now,
        last_activity_at: now,
      });
      if (!moved) continue;
      await repo.insertMessage({
        message_id: newId('sbm_'),
        task_id: task.task_id,
        author_id: null,
        body: `Verified: "${task.title}" is done. This onboarding task is complete.`,
        created_at: now,
      });
      await completions.record({ task_id: task.task_id, agent_id: agentId, kind: 'onboarding', onboarding_key: task.onboarding_key, completed_at: now });
      await audit.record({ actor: { kind: 'system' }, action: 'harbor.sandbox_task.onboarding_complete', target: task.task_id, details: { agent_id: agentId, key: task.onboarding_key } });
    }
  }

  async function refreshOnboarding(agentId: string, provision: boolean): Promise<void> {
    let tasks = await repo.onboardingOf(agentId);
    if (provision) {
      await provisionOnboarding(agentId, tasks);
      tasks = await repo.onboardingOf(agentId);
    }
    await verifyOnboarding(agentId, tasks);
  }

  /** The onboarding checklist is handed out in the sandbox only; a trial agent keeps (and may finish) what it had. */
  async function enter(caller: SandboxCaller): Promise<void> {
    requireSandbox(caller);
    await refreshOnboarding(caller.agentId, caller.state === 'sandbox');
  }

  /** The task if the agent takes part in it; otherwise the same not-found as for a missing id. */
  async function visibleTask(taskId: string, agentId: string, field = 'body.task_id'): Promise<SandboxTaskRow> {
    const row = await repo.findById(taskId);
    if (!row || participantRole(row, agentId) === null) {
      throw new AppError('sandbox_task_not_found', `no sandbox task ${taskId} in your sandbox`, { field });
    }
    return row;
  }

  function requireOpen(row: SandboxTaskRow, doing: string): void {
    if (row.state !== 'open') throw new AppError('conflict', `sandbox task ${row.task_id} is ${row.state}; it can no longer ${doing}`);
  }

  async function detail(row: SandboxTaskRow, agentId: string) {
    const [messages, count] = await Promise.all([repo.recentMessages(row.task_id, SANDBOX_MESSAGES_SHOWN), repo.countMessages(row.task_id)]);
    return { ...sandboxTaskView(row, agentId), messages: messages.map(messageView), message_count: count };
  }

  async function close(caller: SandboxCaller, taskId: string, to: 'completed' | 'cancelled') {
    await enter(caller);
    const row = await visibleTask(taskId, caller.agentId);
    if (row.onboarding_key !== null) {
      throw new AppError(
        'sandbox_task_participant_required',
        to === 'completed'
          ? `onboarding task ${taskId} is completed by ${HARBOR_SERVICE_AUTHOR} when it verifies the condition; do what it describes, then read it again`
          : `only its creator (${HARBOR_SERVICE_AUTHOR}) may cancel onboarding task ${taskId}`,
        { field: 'body.task_id' },
      );
    }
    const worker = row.assignee_id ?? row.creator_id;
    if (to === 'completed' && worker !== caller.agentId) {
      throw new AppError('sandbox_task_participant_required', `only the assignee (${worker}) may complete sandbox task ${taskId}`, { field: 'body.task_id' });
    }
    requireOpen(row, to === 'completed' ? 'be completed' : 'be cancelled');
    const patch = await transaction(agentLock(caller.agentId), async (trx) => {
      await quota.charge(caller.agentId, `postExperimentalAgentHarborSandboxTasksPhp.${to === 'completed' ? 'complete' : 'cancel'}`, {}, trx);
      const now = clock.now();
      const patch = { state: to, closed_by: caller.agentId, closed_at: now, updated_at: now, last_activity_at: now };
      if (!(await repo.transition(taskId, 'open', patch, trx))) throw new AppError('conflict', `sandbox task ${taskId} changed meanwhile; read it again`);
      await audit.record({ actor: { kind: 'agent', id: caller.agentId }, action: `harbor.sandbox_task.${to === 'completed' ? 'complete' : 'cancel'}`, target: taskId }, trx);
      return patch;
    });
    return detail({ ...row, ...patch }, caller.agentId);
  }

  return {
    /** The caller's tasks (created or assigned), newest first; hands out and verifies onboarding tasks first. */
    async list(caller: SandboxCaller, query: { limit: number; cursor?: string }) {
      requireSandbox(caller);
      const after = deps.cursors.decodePosition(query.cursor);
      await enter(caller);
      const rows = await repo.listForParticipant(caller.agentId, query.limit + 1, after);
      const page = deps.cursors.page(rows, query.limit, (r) => ({ createdAt: r.created_at, id: r.task_id }));
      return { items: page.items.map((r) => sandboxTaskView(r, caller.agentId)), nextCursor: page.nextCursor };
    },

    async read(caller: SandboxCaller, taskId: string) {
      await enter(caller);
      return detail(await visibleTask(taskId, caller.agentId, 'query.task_id'), caller.agentId);
    },

    async create(caller: SandboxCaller, raw: { title: string; description: string; assignee_agent_id?: string }) {
      await enter(caller);
      const input = { ...raw, title: checkTitle(raw.title, 'body.title'), description: checkTextBytes('description', raw.description) };
      const assignee = input.assignee_agent_id;
      if (assignee !== undefined) {
        const invalid = () => new AppError('invalid_request', 'assignee_agent_id must name another agent whose sandbox or trial is active', { field: 'body.assignee_agent_id' });
        if (assignee === caller.agentId) throw invalid();
        const other = await agents.describe(assignee).catch(() => undefined);
        if (!other || !TASK_STATES.has(other.state)) throw invalid();
      }
      // The new task is an active item of its assignee too: both agents' locks are held.
      const row = await transaction([caller.agentId, ...(assignee === undefined ? [] : [assignee])].map(agentLock), async (trx) => {
        await quota.assertActiveCapacity(caller.agentId, trx);
        await quota.charge(caller.agentId, 'postExperimentalAgentHarborSandboxTasksPhp.create', { creates: true }, trx);
        const now = clock.now();
        const row = openTaskRow({ creator_id: caller.agentId, assignee_id: assignee ?? null, onboarding_key: null, title: input.title, description: input.description }, now);
        await repo.insert(row, trx);
        await audit.record({ actor: { kind: 'agent', id: caller.agentId }, action: 'harbor.sandbox_task.create', target: row.task_id, details: { assignee: row.assignee_id } }, trx);
        return row;
      });
      return detail(row, caller.agentId);
    },

    async message(caller: SandboxCaller, taskId: string, text: string) {
      await enter(caller);
      const body = checkTextBytes('body', text);
      const row = await visibleTask(taskId, caller.agentId);
      requireOpen(row, 'take messages');
      const now = clock.now();
      await transaction(agentLock(caller.agentId), async (trx) => {
        await quota.charge(caller.agentId, 'postExperimentalAgentHarborSandboxTasksPhp.message', {}, trx);
        await repo.insertMessage({ message_id: newId('sbm_'), task_id: taskId, author_id: caller.agentId, body, created_at: now }, trx);
        await repo.touch(taskId, now, trx);
      });
      return detail({ ...row, updated_at: now, last_activity_at: now }, caller.agentId);
    },

    complete: (caller: SandboxCaller, taskId: string) => close(caller, taskId, 'completed'),
    cancel: (caller: SandboxCaller, taskId: string) => close(caller, taskId, 'cancelled'),

    /**
     * The participation gate's count: production tasks completed as assignee. Onboarding chores and
     * practice tasks are not completed tasks (they stay visible as completed in the sandbox list).
     */
    async completedTaskCount(agentId: string): Promise<number> {
      return completions.count(agentId, 'production');
    },

    /**
     * Open agent-created tasks count as active items of their creator only: another agent assigning
     * you tasks cannot fill your slots (the assigner's own slots cap what it can hand out).
     */
    activeItems: {
      name: 'sandbox_tasks',
      countActive: (agentId: string, trx?: Executor) => repo.countOpenCreatedBy(agentId, trx),
    },

    /** Deletes tasks, with their messages, whose last activity is older than the content retention. */
    enforceRetention(): Promise<number> {
      return repo.deleteInactiveSince(clock.now() - RETENTION_MS);
    },
  };
}
export type SandboxTasksService = ReturnType<typeof createSandboxTasksService>;
