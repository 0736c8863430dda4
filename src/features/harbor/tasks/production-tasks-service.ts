import { isoOrNull, iso, DAY, type Clock } from '../../../platform/clock.js';
import { AppError } from '../../../platform/errors.js';
import type { AgentsService } from '../../agents/agents-service.js';
import { newId } from '../../../access/credentials.js';
import type { AuditService } from '../../audit/audit-service.js';
import { agentLock, type Executor, type TransactionRunner, type Trx } from '../../../store/transaction.js';
import type { CursorCodec } from '../../../http/cursor-codec.js';
import { HARBOR_LIMITS } from '../../kit/harbor-contract.js';
import type { QuotaService } from '../quota/quota-service.js';
import type { ProductionMessageRow, ProductionTaskRow, ProductionTasksRepo } from './production-tasks-repo.js';
import type { TaskCompletionsRepo } from './task-completions-repo.js';
import { checkTextBytes, checkTitle } from './task-text.js';
import { participantRole } from './task-upkeep.js';

/**
 * created: no assignee yet (an agent's task waiting for the operator to dispatch it, or an operator draft).
 * assigned: an explicitly named agent may accept it. accepted: the assignee works on it.
 * completed (with a result) and cancelled are final.
 */
export const PRODUCTION_TASK_STATES = ['created', 'assigned', 'accepted', 'completed', 'cancelled'] as const;
export type ProductionTaskState = (typeof PRODUCTION_TASK_STATES)[number];
const LIVE_STATES = ['created', 'assigned', 'accepted'] as const;
export const OPERATOR_AUTHOR = 'operator';
export const PRODUCTION_MESSAGES_SHOWN = 200;
const RETENTION_MS = HARBOR_LIMITS.contentRetentionDays * DAY;
const OPERATION = 'postExperimentalAgentHarborTasksPhp';

/** The scope each agent action needs (harbor-interface 4.3). */
export const TASK_ACTION_SCOPES = {
  create: 'harbor:task:create',
  accept: 'harbor:task:message',
  message: 'harbor:task:message',
  complete: 'harbor:task:complete',
} as const;
export type TaskAction = keyof typeof TASK_ACTION_SCOPES;

export interface TaskCaller {
  agentId: string;
  scopes: ReadonlySet<string>;
}
export type TaskOperatorActor = { kind: 'operator' | 'cli'; id?: string };

/** IMO numbers carry a check digit: the first six digits weighted 7..2, summed, modulo 10. */
function validImo(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < 6; i++) sum += Number(digits[i]) * (7 - i);
  return sum % 10 === Number(digits[6]);
}

/** "IMO:9321483" or "MMSI:211234567" (prefix in any case) → the canonical form; otherwise invalid_vessel_id. */
export function parseVesselRef(text: string, field: string): string {
  const match = /^(imo|mmsi):(\d+)$/i.exec(text.trim());
  const scheme = match?.[1]!.toUpperCase();
  const digits = match?.[2] ?? '';
  if (scheme === 'IMO' && digits.length === 7 && validImo(digits)) return `IMO:${digits}`;
  if (scheme === 'MMSI' && digits.length === 9) return `MMSI:${digits}`;
  throw new AppError('invalid_vessel_id', 'vessel must be IMO:<7 digits with a valid check digit> or MMSI:<9 digits>', { field });
}

/** What a participant (creator or assignee) sees; nobody else sees anything of the task. */
export function productionTaskView(row: ProductionTaskRow, agentId: string) {
  return {
    task_id: row.task_id,
    title: row.title,
    description: row.description,
    vessel: row.vessel_ref,
    state: row.state as ProductionTaskState,
    created_by: row.creator_id ?? OPERATOR_AUTHOR,
    assignee_agent_id: row.assignee_id,
    your_role: participantRole(row, agentId) ?? 'creator',
    result: row.result,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    assigned_at: isoOrNull(row.assigned_at),
    accepted_at: isoOrNull(row.accepted_at),
    closed_at: isoOrNull(row.closed_at),
    retained_until: iso(row.last_activity_at + RETENTION_MS),
  };
}

/** The operator's view: every field, without a caller role. */
export function operatorTaskView(row: ProductionTaskRow) {
  const { your_role: _role, ...rest } = productionTaskView(row, '');
  return rest;
}

export interface ProductionMessageView {
  message_id: string;
  author: string;
  body: string;
  created_at: string;
}

const messageView = (m: ProductionMessageRow): ProductionMessageView => ({
  message_id: m.message_id,
  author: m.author_kind === 'operator' ? OPERATOR_AUTHOR : m.author_id!,
  body: m.body,
  created_at: iso(m.created_at),
});

/**
 * Production tasks (harbor-interface 4.3): a closed canary with explicit assignment only. The operator
 * creates and assigns tasks (CLI); an agent holding harbor:task:create may create one too, naming an
 * assignee or leaving it to the operator to dispatch. Invisible tasks answer not_found, the same as
 * missing ones; a participant acting outside its role or the task's state gets conflict.
 */
export function createProductionTasksService(deps: {
  cursors: CursorCodec;
  repo: ProductionTasksRepo;
  completions: TaskCompletionsRepo;
  clock: Clock;
  audit: AuditService;
  quota: QuotaService;
  agents: AgentsService;
  transaction: TransactionRunner;
}) {
  const { repo, completions, clock, audit, quota, agents, transaction } = deps;

  function requireScope(caller: TaskCaller, action: TaskAction): void {
    const scope = TASK_ACTION_SCOPES[action];
    if (!caller.scopes.has(scope)) {
      throw new AppError('scope_required', `action ${action} needs scope ${scope}; ask for it with an operator request of category access_request`);
    }
  }

  async function visibleTask(taskId: string, agentId: string, field: string): Promise<ProductionTaskRow> {
    const row = await repo.findById(taskId);
    if (!row || participantRole(row, agentId) === null) throw new AppError('not_found', `no task ${taskId} assigned to or created by you`, { field });
    return row;
  }

  async function requireTask(taskId: string): Promise<ProductionTaskRow> {
    const row = await repo.findById(taskId);
    if (!row) throw new AppError('not_found', `no task ${taskId}`);
    return row;
  }

  /** The agent a task may be assigned to: it exists and is not revoked. */
  async function requireAssignable(agentId: string, field: string): Promise<void> {
    const agent = await agents.describe(agentId).catch(() => undefined);
    if (!agent || agent.state === 'revoked') throw new AppError('invalid_request', `no active agent ${agentId} to assign the task to`, { field });
  }

  function requireLive(row: ProductionTaskRow, doing: string): void {
    if (!(LIVE_STATES as readonly string[]).includes(row.state)) throw new AppError('conflict', `task ${row.task_id} is ${row.state}; it can no longer ${doing}`);
  }

  async function detail(row: ProductionTaskRow) {
    const [messages, count] = await Promise.all([repo.recentMessages(row.task_id, PRODUCTION_MESSAGES_SHOWN), repo.countMessages(row.task_id)]);
    return { row, messages: messages.map(messageView), messageCount: count };
  }

  async function moved(taskId: string, from: readonly string[], patch: Partial<ProductionTaskRow>, assigneeId?: string, trx?: Trx): Promise<void> {
    if (!(await repo.transition(taskId, from, patch, assigneeId, trx))) throw new AppError('conflict', `task ${taskId} changed meanwhile; read it again`);
  }

  function newTask(input: { title: string; description: string; vessel?: string }, creatorId: string | null, assigneeId: string | null): ProductionTaskRow {
    const now = clock.now();
    return {
      task_id: newId('tsk_'),
      creator_id: creatorId,
      assignee_id: assigneeId,
      title: input.title,
      description: input.description,
      vessel_ref: input.vessel ?? null,
      state: assigneeId ? 'assigned' : 'created',
      result: null,
      created_at: now,
      updated_at: now,
      assigned_at: assigneeId ? now : null,
      accepted_at: null,
      closed_at: null,
      last_activity_at: now,
    };
  }

  return {
    async list(caller: TaskCaller, query: { limit: number; cursor?: string }) {
      const after = deps.cursors.decodePosition(query.cursor);
      const rows = await repo.listForParticipant(caller.agentId, query.limit + 1, after);
      const page = deps.cursors.page(rows, query.limit, (r) => ({ createdAt: r.created_at, id: r.task_id }));
      return { items: page.items, nextCursor: page.nextCursor };
    },

    async read(caller: TaskCaller, taskId: string) {
      return detail(await visibleTask(taskId, caller.agentId, 'query.task_id'));
    },

    async create(caller: TaskCaller, raw: { title: string; description: string; vessel?: string; assignee_agent_id?: string }) {
      requireScope(caller, 'create');
      const input = { ...raw, title: checkTitle(raw.title, 'body.title'), description: checkTextBytes('description', raw.description) };
      const vessel = input.vessel === undefined ? undefined : parseVesselRef(input.vessel, 'body.vessel');
      const assignee = input.assignee_agent_id;
      if (assignee !== undefined) {
        if (assignee === caller.agentId) throw new AppError('invalid_request', 'name another agent as assignee, or none to let the operator dispatch the task', { field: 'body.assignee_agent_id' });
        await requireAssignable(assignee, 'body.assignee_agent_id');
      }
      const row = await transaction(agentLock(caller.agentId), async (trx) => {
        await quota.charge(caller.agentId, `${OPERATION}.create`, { creates: true }, trx);
        const row = newTask({ ...input, vessel }, caller.agentId, assignee ?? null);
        await repo.insert(row, trx);
        await audit.record({ actor: { kind: 'agent', id: caller.agentId }, action: 'harbor.task.create', target: row.task_id, details: { assignee: row.assignee_id } }, trx);
        return row;
      });
      return detail(row);
    },

    async accept(caller: TaskCaller, taskId: string) {
      requireScope(caller, 'accept');
      const row = await visibleTask(taskId, caller.agentId, 'body.task_id');
      if (row.assignee_id !== caller.agentId) throw new AppError('conflict', `task ${taskId} is not assigned to you; only its assigned candidate accepts it`, { field: 'body.task_id' });
      if (row.state !== 'assigned') throw new AppError('conflict', `task ${taskId} is ${row.state}; only an assigned task can be accepted`, { field: 'body.task_id' });
      const patch = await transaction(agentLock(caller.agentId), async (trx) => {
        await quota.assertActiveCapacity(caller.agentId, trx);
        await quota.charge(caller.agentId, `${OPERATION}.accept`, {}, trx);
        const now = clock.now();
        const patch = { state: 'accepted', accepted_at: now, updated_at: now, last_activity_at: now };
        await moved(taskId, ['assigned'], patch, caller.agentId, trx);
        await audit.record({ actor: { kind: 'agent', id: caller.agentId }, action: 'harbor.task.accept', target: taskId }, trx);
        return patch;
      });
      return detail({ ...row, ...patch });
    },

    async message(caller: TaskCaller, taskId: string, text: string) {
      requireScope(caller, 'message');
      const body = checkTextBytes('body', text);
      const row = await visibleTask(taskId, caller.agentId, 'body.task_id');
      requireLive(row, 'take messages');
      const now = clock.now();
      await transaction(agentLock(caller.agentId), async (trx) => {
        await quota.charge(caller.agentId, `${OPERATION}.message`, {}, trx);
        await repo.insertMessage({ message_id: newId('tkm_'), task_id: taskId, author_kind: 'agent', author_id: caller.agentId, body, created_at: now }, trx);
        await repo.touch(taskId, now, trx);
      });
      return detail({ ...row, updated_at: now, last_activity_at: now });
    },

    async complete(caller: TaskCaller, taskId: string, text: string) {
      requireScope(caller, 'complete');
      const result = checkTextBytes('result', text);
      const row = await visibleTask(taskId, caller.agentId, 'body.task_id');
      if (row.assignee_id !== caller.agentId) throw new AppError('conflict', `only the assignee completes task ${taskId}; you are its creator`, { field: 'body.task_id' });
      if (row.state !== 'accepted') {
        throw new AppError('conflict', row.state === 'assigned' ? `accept task ${taskId} before completing it` : `task ${taskId} is ${row.state}; it can no longer be completed`, {
          field: 'body.task_id',
        });
      }
      const patch = await transaction(agentLock(caller.agentId), async (trx) => {
        await quota.charge(caller.agentId, `${OPERATION}.complete`, {}, trx);
        const now = clock.now();
        const patch = { state: 'completed', result, closed_at: now, updated_at: now, last_activity_at: now };
        await moved(taskId, ['accepted'], patch, caller.agentId, trx);
        await completions.record({ task_id: taskId, agent_id: caller.agentId, kind: 'production', onboarding_key: null, completed_at: now }, trx);
        await audit.record({ actor: { kind: 'agent', id: caller.agentId }, action: 'harbor.task.complete', target: taskId }, trx);
        return patch;
      });
      return detail({ ...row, ...patch });
    },

    /** Accepted tasks count as active items of their assignee. */
    activeItems: {
      name: 'production_tasks',
      countActive: (agentId: string, trx?: Executor) => repo.countAcceptedBy(agentId, trx),
    },

    // The operator (CLI).

    async createByOperator(input: { title: string; description: string; vessel?: string; assignee?: string }, actor: TaskOperatorActor) {
      const title = checkTitle(input.title, 'title');
      const description = checkTextBytes('description', input.description);
      const vessel = input.vessel === undefined ? undefined : parseVesselRef(input.vessel, 'vessel');
      if (input.assignee !== undefined) await requireAssignable(input.assignee, 'assign');
      const row = newTask({ ...input, title, description, vessel }, null, input.assignee ?? null);
      await repo.insert(row);
      await audit.record({ actor, action: 'harbor.task.create', target: row.task_id, details: { assignee: row.assignee_id } });
      return row;
    },

    listForOperator(filter: { state?: string; limit: number }) {
      if (filter.state !== undefined && !(PRODUCTION_TASK_STATES as readonly string[]).includes(filter.state)) {
        throw new AppError('invalid_request', `state must be one of ${PRODUCTION_TASK_STATES.join(', ')}`, { field: 'state' });
      }
      return repo.listForOperator(filter);
    },

    async showForOperator(taskId: string) {
      return detail(await requireTask(taskId));
    },

    /** Assigns or reassigns a live task; a new assignee must accept it again, the previous one loses sight of it. */
    async assign(taskId: string, agentId: string, actor: TaskOperatorActor) {
      const row = await requireTask(taskId);
      requireLive(row, 'be assigned');
      await requireAssignable(agentId, 'agent_id');
      const now = clock.now();
      const patch = { assignee_id: agentId, state: 'assigned', assigned_at: now, accepted_at: null, updated_at: now, last_activity_at: now };
      await moved(taskId, [row.state], patch);
      await audit.record({ actor, action: 'harbor.task.assign', target: taskId, details: { assignee: agentId, previous: row.assignee_id } });
      return { ...row, ...patch };
    },

    async cancel(taskId: string, actor: TaskOperatorActor) {
      const row = await requireTask(taskId);
      requireLive(row, 'be cancelled');
      const now = clock.now();
      const patch = { state: 'cancelled', closed_at: now, updated_at: now, last_activity_at: now };
      await moved(taskId, [row.state], patch);
      await audit.record({ actor, action: 'harbor.task.cancel', target: taskId, details: { assignee: row.assignee_id } });
      return { ...row, ...patch };
    },

    async messageByOperator(taskId: string, text: string, actor: TaskOperatorActor) {
      const body = checkTextBytes('body', text);
      const row = await requireTask(taskId);
      requireLive(row, 'take messages');
      const now = clock.now();
      await repo.insertMessage({ message_id: newId('tkm_'), task_id: taskId, author_kind: 'operator', author_id: null, body, created_at: now });
      await repo.touch(taskId, now);
      await audit.record({ actor, action: 'harbor.task.message', target: taskId });
      return detail({ ...row, updated_at: now, last_activity_at: now });
    },

    /** Deletes tasks, with their messages, whose last activity is older than the content retention. */
    enforceRetention(): Promise<number> {
      return repo.deleteInactiveSince(clock.now() - RETENTION_MS);
    },
  };
}
export type ProductionTasksService = ReturnType<typeof createProductionTasksService>;
