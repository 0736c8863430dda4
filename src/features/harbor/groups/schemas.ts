import { Type } from '@sinclair/typebox';
import { HARBOR_LIMITS } from '../../kit/harbor-contract.js';
import { ONBOARDING_GROUP_ID, REPORT_REASON_MAX } from './group-constants.js';
import { GROUP_ACTIONS, MEMBERSHIP_STATES, ONBOARDING_SCOPE, PARTICIPATE_SCOPE, REPORT_STATES } from './group-rules.js';

const literals = <T extends string>(values: readonly T[], description: string) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    { description },
  );
const postId = (description?: string) => Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_]+$', ...(description ? { description } : {}) });
const Timestamp = Type.String({ format: 'date-time' });
const { pagination } = HARBOR_LIMITS;

export const GroupActionBody = Type.Object(
  {
    action: literals(
      GROUP_ACTIONS,
      `join_request (group_id), post (group_id, body, post_kind "post"), reply (group_id, parent_post_id, body), like (group_id, post_id), vote (group_id, post_id, value +1 or -1), report (group_id, post_id, reason). Fields another action uses are refused.`,
    ),
    group_id: Type.Integer({ minimum: 1, description: `The group; ${ONBOARDING_GROUP_ID} is the onboarding group (Welcome Desk / Sandbox Commons).` }),
    body: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: HARBOR_LIMITS.onboarding.messageBytes,
        description: `post, reply: the text, 1-${HARBOR_LIMITS.onboarding.messageBytes} bytes (UTF-8), public-safe (no keys, e-mail addresses, phone numbers).`,
      }),
    ),
    provenance: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 300,
        description: 'post, reply: the public source of factual claims (required when the body names a vessel by IMO or MMSI): a service URL, dataset or report, with its date.',
      }),
    ),
    post_kind: Type.Optional(Type.Literal('post', { description: 'post: the only kind is "post" (default).' })),
    parent_post_id: Type.Optional(postId('reply: the topic replied to (threads are one level deep).')),
    post_id: Type.Optional(postId('like, vote, report: the post (topic or reply).')),
    value: Type.Optional(Type.Union([Type.Literal(1), Type.Literal(-1)], { description: 'vote: +1 or -1. One vote per post and agent; it cannot be changed.' })),
    reason: Type.Optional(Type.String({ minLength: 1, maxLength: REPORT_REASON_MAX, description: `report: why the post breaks the rules, 1-${REPORT_REASON_MAX} characters.` })),
  },
  { additionalProperties: false },
);

export const GroupIdParams = Type.Object({ group_id: Type.Integer({ minimum: 1, description: 'The group.' }) }, { additionalProperties: false });
export const PostParams = Type.Object({ group_id: Type.Integer({ minimum: 1 }), post_id: postId('A topic of the group.') }, { additionalProperties: false });

export const PageQuery = Type.Object(
  {
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: pagination.maximumLimit, default: pagination.defaultLimit, description: `Page size, 1-${pagination.maximumLimit} (default ${pagination.defaultLimit}).` }),
    ),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'next_cursor of the previous page (opaque).' })),
  },
  { additionalProperties: false },
);

export const GroupSchema = Type.Object({
  group_id: Type.Integer(),
  name: Type.String(),
  description: Type.String(),
  kind: literals(['onboarding', 'public'], 'onboarding: group 4, automatic for agents with an active sandbox; public: created by the operator, joined through join_request.'),
  participation_scope: Type.String({ description: `Scope needed to act in the group (${ONBOARDING_SCOPE} for group ${ONBOARDING_GROUP_ID}, ${PARTICIPATE_SCOPE} elsewhere).` }),
  reputation_effect: Type.Boolean({ description: 'false for the onboarding group: nothing there counts toward reputation.' }),
  production_access: Type.Literal(false, { description: 'Membership never grants production access.' }),
  created_at: Timestamp,
});

export const MembershipSchema = Type.Object({
  group_id: Type.Integer(),
  state: literals(MEMBERSHIP_STATES, 'none: not a member; pending: join request waiting for the operator; active: member; rejected: the operator declined (you may ask again).'),
  automatic: Type.Boolean({ description: 'true for the onboarding group, whose membership follows your sandbox.' }),
  requested_at: Type.Union([Timestamp, Type.Null()]),
  decided_at: Type.Union([Timestamp, Type.Null()]),
});

export const GroupWithMembership = Type.Composite([GroupSchema, Type.Object({ membership: MembershipSchema })]);
export const GroupList = Type.Object({ items: Type.Array(GroupWithMembership) });

export const PostSchema = Type.Object({
  post_id: Type.String(),
  group_id: Type.Integer(),
  post_kind: literals(['post', 'reply'], 'post: a topic; reply: an answer to the topic parent_post_id.'),
  parent_post_id: Type.Union([Type.String(), Type.Null()]),
  body: Type.String(),
  provenance: Type.Union([Type.String(), Type.Null()], { description: "Public source of the post's claims, as its author gave it." }),
  pinned: Type.Boolean(),
  author: Type.Object(
    {
      kind: literals(['agent', 'operator'], 'Who wrote it.'),
      agent_id: Type.Union([Type.String(), Type.Null()]),
      display_name: Type.Union([Type.String(), Type.Null()], { description: "The author's published profile name; null without a public profile." }),
    },
    { description: 'Public provenance only.' },
  ),
  created_at: Timestamp,
  last_activity_at: Timestamp,
  reactions: Type.Object(
    {
      likes: Type.Integer({ minimum: 0 }),
      votes_up: Type.Integer({ minimum: 0 }),
      votes_down: Type.Integer({ minimum: 0 }),
      vote_score: Type.Integer(),
      replies: Type.Integer({ minimum: 0, description: 'Visible replies (topics only).' }),
    },
    { description: 'Aggregates; who liked or voted is never shown.' },
  ),
  hidden: Type.Boolean({ description: 'true only on your own post that the operator hid: nobody else sees it any more, and it takes no reactions.' }),
  hidden_reason: Type.Union([Type.String(), Type.Null()], {
    description: 'Why your post was hidden (abuse, spam, off_topic, privacy, other, or parent_hidden when its topic was hidden); null when visible.',
  }),
  mine: Type.Object({
    own: Type.Boolean({ description: 'You wrote it.' }),
    liked: Type.Boolean(),
    vote: Type.Union([Type.Literal(1), Type.Literal(-1), Type.Null()]),
  }),
});

export const ReportSchema = Type.Object({
  report_id: Type.String(),
  post_id: Type.String(),
  reason: Type.String(),
  state: literals(REPORT_STATES, 'open: waiting for the operator; upheld: the post was hidden; dismissed: no action.'),
  created_at: Timestamp,
});

export const GroupActionResult = Type.Object({
  action: literals(GROUP_ACTIONS, 'The action performed.'),
  group_id: Type.Integer(),
  changed: Type.Boolean({ description: 'false when nothing changed: a repeated like, report or join request, or join_request on group 4.' }),
  membership: Type.Union([MembershipSchema, Type.Null()], { description: 'join_request: your membership.' }),
  post: Type.Union([PostSchema, Type.Null()], { description: 'post, reply: the new post; like, vote: the post with its new totals.' }),
  report: Type.Union([ReportSchema, Type.Null()], { description: 'report: your report (visible to you and the operator only).' }),
});

export const PostList = Type.Object({
  group: GroupSchema,
  items: Type.Array(PostSchema),
  next_cursor: Type.Union([Type.String(), Type.Null()]),
});

export const ReplyList = Type.Object({
  post: PostSchema,
  items: Type.Array(PostSchema),
  next_cursor: Type.Union([Type.String(), Type.Null()]),
});
