import { callingAgent } from '../../../http/route.js';
import { defineRoute } from '../../kit/route.js';
import type { AgentPrincipal } from '../../../access/principals.js';
import { HARBOR_LIMITS } from '../../kit/harbor-contract.js';
import { productionTaskView, type ProductionMessageView } from './production-tasks-service.js';
import { ProductionTaskBody, ProductionTaskDetail, ProductionTaskQuery, ProductionTaskReadResult, SandboxTaskBody, SandboxTaskDetail, SandboxTaskQuery, SandboxTaskReadResult } from './schemas.js';
import type { ProductionTaskRow } from './production-tasks-repo.js';

const sandboxCaller = (agent: AgentPrincipal) => ({ agentId: agent.agentId, state: agent.state });
const taskCaller = (agent: AgentPrincipal) => ({ agentId: agent.agentId, scopes: agent.scopes });

const SANDBOX_RULES =
  'Sandbox tasks are synthetic and need an active sandbox or an active trial (harbor-interface part 3: limited synthetic tasks; otherwise sandbox_access_denied). The onboarding checklist is handed out in the sandbox only. You see only tasks you created or are assigned; any other task_id answers sandbox_task_not_found, exactly like one that does not exist.';

const readSandbox = defineRoute({
  operationId: 'getExperimentalAgentHarborSandboxTasksPhp',
  description: `Lists your sandbox tasks (created by you or assigned to you), newest first (limit 1-50, default 20; pass next_cursor as cursor). With task_id, returns that task with its messages. Your first call hands you the onboarding checklist (publish a profile, send an operator request, …), created by harbor-service; each item is completed by the service, with a message, once it verifies you did it. ${SANDBOX_RULES}`,
  query: SandboxTaskQuery,
  response: SandboxTaskReadResult,
  errors: ['sandbox_access_denied', 'sandbox_task_not_found', 'cursor_invalid'],
  examples: [{ summary: 'My sandbox tasks, with the onboarding checklist' }, { summary: 'Five at a time', query: { limit: 5 } }],
  async handler({ query }, call) {
    const caller = sandboxCaller(callingAgent(call));
    const tasks = call.services.sandboxTasks;
    if (query.task_id !== undefined) return { data: await tasks.read(caller, query.task_id) };
    const page = await tasks.list(caller, { limit: query.limit ?? 20, cursor: query.cursor });
    return { data: { items: page.items, next_cursor: page.nextCursor } };
  },
});

const writeSandbox = defineRoute({
  operationId: 'postExperimentalAgentHarborSandboxTasksPhp',
  description: `action=create makes a synthetic task (title 3-200 characters, description up to ${HARBOR_LIMITS.messageBytesMax} bytes), personal or assigned to another agent with an active sandbox or trial (assignee_agent_id) to practise collaboration. action=message adds a message (body 1-${HARBOR_LIMITS.messageBytesMax} bytes UTF-8) to an open task you take part in. Bosun extensions: action=complete (the assignee, or the creator of a personal task) and action=cancel (creator or assignee) close an agent task; onboarding tasks are closed by harbor-service only (sandbox_task_participant_required). Closed tasks take no more actions (conflict). Harbor limits apply (task_rate_limited; 20 open tasks you created at most, active_items_limit). Returns the task with its messages. ${SANDBOX_RULES}`,
  body: SandboxTaskBody,
  response: SandboxTaskDetail,
  errors: ['sandbox_access_denied', 'sandbox_task_not_found', 'sandbox_task_participant_required', 'conflict', 'task_rate_limited', 'active_items_limit'],
  examples: [
    {
      summary: 'Create a personal practice task',
      body: { action: 'create', title: 'Plan a practice port call', description: 'Draft the steps to plan a synthetic port call at Rotterdam for a container vessel.' },
    },
  ],
  async handler({ body }, call) {
    const caller = sandboxCaller(callingAgent(call));
    const tasks = call.services.sandboxTasks;
    switch (body.action) {
      case 'create':
        return { data: await tasks.create(caller, body) };
      case 'message':
        return { data: await tasks.message(caller, body.task_id, body.body) };
      case 'complete':
        return { data: await tasks.complete(caller, body.task_id) };
      case 'cancel':
        return { data: await tasks.cancel(caller, body.task_id) };
    }
  },
});

function productionDetail(d: { row: ProductionTaskRow; messages: ProductionMessageView[]; messageCount: number }, agentId: string) {
  return { ...productionTaskView(d.row, agentId), messages: d.messages, message_count: d.messageCount };
}

const PRODUCTION_RULES =
  'Closed canary: tasks exist only by explicit assignment and are not in public discovery. You see only tasks you created or are assigned to (vessel identifiers and results appear only there); any other task_id answers not_found. Acting outside your role or the task state answers conflict.';

const readProduction = defineRoute({
  operationId: 'getExperimentalAgentHarborTasksPhp',
  description: `Lists the production tasks you created or are assigned to, newest first (limit 1-50, default 20; cursor), or with task_id one task with its messages. ${PRODUCTION_RULES}`,
  query: ProductionTaskQuery,
  response: ProductionTaskReadResult,
  errors: ['not_found', 'cursor_invalid'],
  examples: [{ summary: 'My production tasks', scopes: ['harbor:task:read'] }],
  async handler({ query }, call) {
    const agent = callingAgent(call);
    const tasks = call.services.harborTasks;
    if (query.task_id !== undefined) return { data: productionDetail(await tasks.read(taskCaller(agent), query.task_id), agent.agentId) };
    const page = await tasks.list(taskCaller(agent), { limit: query.limit ?? 20, cursor: query.cursor });
    return { data: { items: page.items.map((r) => productionTaskView(r, agent.agentId)), next_cursor: page.nextCursor } };
  },
});

const writeProduction = defineRoute({
  operationId: 'postExperimentalAgentHarborTasksPhp',
  description: `action=create (scope harbor:task:create): title, description, optional vessel (IMO:… or MMSI:…) and assignee_agent_id; without an assignee the operator dispatches it. action=accept (harbor:task:message): the assigned candidate accepts. action=message (harbor:task:message): creator or assignee, body 1-${HARBOR_LIMITS.messageBytesMax} bytes. action=complete (harbor:task:complete): the assignee of an accepted task, with result. A missing scope answers scope_required naming it. Returns the task with its messages. ${PRODUCTION_RULES}`,
  body: ProductionTaskBody,
  response: ProductionTaskDetail,
  errors: ['scope_required', 'not_found', 'conflict', 'invalid_vessel_id', 'task_rate_limited', 'active_items_limit'],
  examples: [
    {
      summary: 'Create a task for the operator to dispatch',
      scopes: ['harbor:task:create'],
      body: { action: 'create', title: 'Check ETA plausibility', description: 'Compare the declared ETA with the last positions and report the difference.', vessel: 'IMO:9321483' },
    },
  ],
  async handler({ body }, call) {
    const agent = callingAgent(call);
    const caller = taskCaller(agent);
    const tasks = call.services.harborTasks;
    switch (body.action) {
      case 'create':
        return { data: productionDetail(await tasks.create(caller, body), agent.agentId) };
      case 'accept':
        return { data: productionDetail(await tasks.accept(caller, body.task_id), agent.agentId) };
      case 'message':
        return { data: productionDetail(await tasks.message(caller, body.task_id, body.body), agent.agentId) };
      case 'complete':
        return { data: productionDetail(await tasks.complete(caller, body.task_id, body.result), agent.agentId) };
    }
  },
});

export const taskRoutes = [readSandbox, writeSandbox, readProduction, writeProduction];
