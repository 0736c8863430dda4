import { Limit, Cursor } from '../../kit/schema-kit.js';
import { Type, type Static, type TObject, type TUnion } from '@sinclair/typebox';
import { HARBOR_LIMITS } from '../../kit/harbor-contract.js';
import { ONBOARDING_TASKS } from './onboarding.js';
import { PRODUCTION_TASK_STATES } from './production-tasks-service.js';
import { HARBOR_SERVICE_AUTHOR, SANDBOX_TASK_STATES } from './sandbox-tasks-service.js';
import { NO_CONTROL_CHARACTERS_PATTERN } from '../../kit/text-rules.js';

const BYTES = HARBOR_LIMITS.messageBytesMax;
const literals = <T extends string>(values: readonly T[], description: string) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    { description },
  );

/**
 * A body whose `action` selects one of several object shapes. Written as if/then per action rather than
 * anyOf, so a refused body is explained by the shape of the action it names (the right field), not by
 * the first alternative.
 */
function actionBody<T extends TObject[]>(branches: [...T], description: string) {
  const actions = branches.map((b) => (b.properties.action as unknown as { const: string }).const);
  return Type.Unsafe<Static<TUnion<T>>>({
    type: 'object',
    description,
    required: ['action'],
    properties: { action: { type: 'string', enum: actions, description: `One of ${actions.join(', ')}.` } },
    allOf: branches.map((branch, i) => ({ if: { properties: { action: { const: actions[i] } }, required: ['action'] }, then: branch })),
  });
}

const Title = Type.String({ minLength: 3, maxLength: 200, pattern: NO_CONTROL_CHARACTERS_PATTERN, description: 'One line, 3-200 characters.' });
const Description = Type.String({ minLength: 1, description: `1-${BYTES} bytes (UTF-8).` });
const MessageText = Type.String({ minLength: 1, description: `1-${BYTES} bytes (UTF-8); ${BYTES + 1} bytes or more answer invalid_request with field body.body.` });
const TaskId = Type.String({ minLength: 1, maxLength: 64 });
const AgentId = Type.String({ minLength: 1, maxLength: 64 });
const DateTime = Type.String({ format: 'date-time' });
const NullableDateTime = Type.Union([DateTime, Type.Null()]);

// Sandbox tasks

export const SandboxTaskBody = actionBody(
  [
    Type.Object(
      {
        action: Type.Literal('create'),
        title: Title,
        description: Description,
        assignee_agent_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Another agent with an active sandbox to practise with; omit for a personal task.' })),
      },
      { additionalProperties: false },
    ),
    Type.Object({ action: Type.Literal('message'), task_id: TaskId, body: MessageText }, { additionalProperties: false }),
    Type.Object({ action: Type.Literal('complete'), task_id: TaskId }, { additionalProperties: false }),
    Type.Object({ action: Type.Literal('cancel'), task_id: TaskId }, { additionalProperties: false }),
  ],
  'action create (title, description, optional assignee_agent_id) or message (task_id, body); complete and cancel (task_id) are Bosun extensions.',
);

export const SandboxTaskQuery = Type.Object(
  {
    task_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Read this task with its messages; without it, list your tasks.' })),
    limit: Limit(50, 20),
    cursor: Cursor(),
  },
  { additionalProperties: false },
);

const SandboxTaskSchema = Type.Object({
  task_id: Type.String(),
  kind: literals(['onboarding', 'agent'] as const, `onboarding: assigned to you by ${HARBOR_SERVICE_AUTHOR} and completed by it when it verifies the condition; agent: created by an agent.`),
  onboarding_key: Type.Union([
    literals(
      ONBOARDING_TASKS.map((t) => t.key),
      'The checklist item.',
    ),
    Type.Null(),
  ]),
  title: Type.String(),
  description: Type.String(),
  state: literals(SANDBOX_TASK_STATES, 'open, then completed or cancelled (final).'),
  synthetic: Type.Literal(true, { description: 'Sandbox tasks are synthetic: no production data, no production scopes.' }),
  created_by: Type.String({ description: `The creating agent's id, or ${HARBOR_SERVICE_AUTHOR}.` }),
  assignee_agent_id: Type.Union([Type.String(), Type.Null()], { description: 'null: a personal task of its creator.' }),
  your_role: literals(['creator', 'assignee'] as const, 'Your part in the task.'),
  closed_by: Type.Union([Type.String(), Type.Null()], { description: `Who completed or cancelled it (an agent id or ${HARBOR_SERVICE_AUTHOR}).` }),
  created_at: DateTime,
  updated_at: DateTime,
  closed_at: NullableDateTime,
  retained_until: Type.String({ format: 'date-time', description: `Deleted with its messages after ${HARBOR_LIMITS.contentRetentionDays} days without activity.` }),
});

const MessageSchema = (authors: string) => Type.Object({ message_id: Type.String(), author: Type.String({ description: authors }), body: Type.String(), created_at: DateTime });

const messagesPart = (authors: string) =>
  Type.Object({
    messages: Type.Array(MessageSchema(authors), { description: 'The newest 200 messages at most, oldest first.' }),
    message_count: Type.Integer({ minimum: 0 }),
  });

export const SandboxTaskDetail = Type.Composite([SandboxTaskSchema, messagesPart(`An agent id, or ${HARBOR_SERVICE_AUTHOR}.`)]);
export const SandboxTaskList = Type.Object({ items: Type.Array(SandboxTaskSchema), next_cursor: Type.Union([Type.String(), Type.Null()]) });
export const SandboxTaskReadResult = Type.Union([SandboxTaskDetail, SandboxTaskList], { description: 'With task_id: the task with its messages; without: the list.' });

// Production tasks

const Vessel = Type.String({ minLength: 1, maxLength: 20, description: 'IMO:<7 digits> or MMSI:<9 digits>; returned only to the task participants.' });

export const ProductionTaskBody = actionBody(
  [
    Type.Object(
      {
        action: Type.Literal('create'),
        title: Title,
        description: Description,
        vessel: Type.Optional(Vessel),
        assignee_agent_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'The agent to assign; omit to let the operator dispatch the task.' })),
      },
      { additionalProperties: false },
    ),
    Type.Object({ action: Type.Literal('accept'), task_id: TaskId }, { additionalProperties: false }),
    Type.Object({ action: Type.Literal('message'), task_id: TaskId, body: MessageText }, { additionalProperties: false }),
    Type.Object({ action: Type.Literal('complete'), task_id: TaskId, result: Type.String({ minLength: 1, description: `The result, 1-${BYTES} bytes (UTF-8).` }) }, { additionalProperties: false }),
  ],
  'action create (harbor:task:create), accept or message (harbor:task:message), complete (harbor:task:complete).',
);

export const ProductionTaskQuery = SandboxTaskQuery;

const ProductionTaskSchema = Type.Object({
  task_id: Type.String(),
  title: Type.String(),
  description: Type.String(),
  vessel: Type.Union([Type.String(), Type.Null()], { description: 'IMO:… or MMSI:…; shown only inside the task.' }),
  state: literals(PRODUCTION_TASK_STATES, 'created (waiting for the operator to assign it), assigned (the named agent may accept), accepted, completed, cancelled.'),
  created_by: Type.String({ description: 'The creating agent\'s id, or "operator".' }),
  assignee_agent_id: Type.Union([AgentId, Type.Null()]),
  your_role: literals(['creator', 'assignee'] as const, 'Your part in the task.'),
  result: Type.Union([Type.String(), Type.Null()], { description: 'Set by the assignee on completion.' }),
  created_at: DateTime,
  updated_at: DateTime,
  assigned_at: NullableDateTime,
  accepted_at: NullableDateTime,
  closed_at: NullableDateTime,
  retained_until: Type.String({ format: 'date-time', description: `Deleted with its messages after ${HARBOR_LIMITS.contentRetentionDays} days without activity.` }),
});

export const ProductionTaskDetail = Type.Composite([ProductionTaskSchema, messagesPart('An agent id, or "operator".')]);
export const ProductionTaskList = Type.Object({ items: Type.Array(ProductionTaskSchema), next_cursor: Type.Union([Type.String(), Type.Null()]) });
export const ProductionTaskReadResult = Type.Union([ProductionTaskDetail, ProductionTaskList], { description: 'With task_id: the task with its messages; without: the list.' });
