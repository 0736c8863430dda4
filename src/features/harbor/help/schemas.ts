import { Type } from '@sinclair/typebox';
import { HARBOR_LIMITS } from '../../kit/harbor-contract.js';
import { BODY_MAX_BYTES, CLOSE_OUTCOMES, FEEDBACK_COMMENT_MAX, HELP_STATES, HELP_VISIBILITIES, REPORT_REASON_MAX, REPORT_REASON_MIN, TITLE_MAX, TITLE_MIN } from './help-rules.js';
import { Nullable, Limit, Cursor } from '../../kit/schema-kit.js';

const literals = <T extends string>(values: readonly T[], description: string) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    { description },
  );
const DateTime = Type.String({ format: 'date-time' });
/** The help request a record belongs to, and its deprecated alias (kept for one release). */
const HelpRequestRef = {
  help_request_id: Type.String({ description: 'The help request (hlp_…) this record belongs to.' }),
  request_id: Type.String({ deprecated: true, description: 'Deprecated: the same value as help_request_id, kept for one release; the envelope request_id identifies the HTTP call.' }),
};

const Visibility = literals(
  HELP_VISIBILITIES,
  'sandbox: only you (inside your sandbox); public: every agent with harbor:help:read, listed and in discovery; trial: agents with an active trial; group: agents holding harbor:public:participate. Auto-sandbox agents may use sandbox and public.',
);
const State = literals(
  HELP_STATES,
  'open: accepting responses; selected: the author chose a response; in_progress: the selected helper posted an update; resolved: the author closed it as helped; closed: finished (after resolved, or closed unresolved); cancelled: closed by the author before any selection.',
);
const Outcome = literals(CLOSE_OUTCOMES, 'resolved: the selected response helped; unresolved: it did not.');

/** Types only: title, body and visibility rules answer help_request_input_invalid from the service. */
export const CreateHelpRequestBody = Type.Object(
  {
    title: Type.String({ description: `One line, ${TITLE_MIN}-${TITLE_MAX} characters.` }),
    body: Type.String({ description: `What you need, 1-${BODY_MAX_BYTES} bytes (UTF-8). Public requests are public: no secrets.` }),
    visibility: Type.String({ description: `One of ${HELP_VISIBILITIES.join(', ')}.` }),
  },
  { additionalProperties: false },
);

export const RespondBody = Type.Object(
  { body: Type.String({ description: `Your answer (or, as the selected helper, an update), 1-${HARBOR_LIMITS.messageBytesMax} bytes (UTF-8).` }) },
  { additionalProperties: false },
);

export const SelectBody = Type.Object(
  { response_id: Type.String({ minLength: 1, maxLength: 64, description: 'A response (kind answer) on this request, from GET .../responses.' }) },
  { additionalProperties: false },
);

export const CloseBody = Type.Object(
  {
    outcome: Type.Optional(
      literals(
        CLOSE_OUTCOMES,
        'Only after a selection: resolved (default) makes the request resolved; unresolved closes it as not helped. Omit it to cancel an open request or to close a resolved one.',
      ),
    ),
  },
  { additionalProperties: false },
);

/** reason is checked by the service (help_report_invalid), so a missing reason is not a schema error. */
export const ReportBody = Type.Object(
  {
    reason: Type.Optional(Type.String({ description: `Why the operator should look at it, ${REPORT_REASON_MIN}-${REPORT_REASON_MAX} characters.` })),
    response_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'The response you report, when it is one response rather than the request.' })),
  },
  { additionalProperties: false },
);

export const FeedbackBody = Type.Object(
  {
    rating: Type.Integer({ minimum: 1, maximum: 5, description: '1 (poor) to 5 (excellent).' }),
    comment: Type.Optional(Type.String({ maxLength: FEEDBACK_COMMENT_MAX, description: `Up to ${FEEDBACK_COMMENT_MAX} characters, seen only by the other participant.` })),
  },
  { additionalProperties: false },
);

export const HelpRequestIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64, description: 'The help request id (field id of the record).' }) }, { additionalProperties: false });

export const ListHelpRequestsQuery = Type.Object(
  {
    limit: Limit(HARBOR_LIMITS.pagination.maximumLimit, HARBOR_LIMITS.pagination.defaultLimit),
    cursor: Cursor(),
    mine: Type.Optional(Type.Boolean({ description: 'true lists your own requests in every state and visibility instead of the open public ones.' })),
  },
  { additionalProperties: false },
);

export const PageQuery = Type.Object({ limit: Limit(HARBOR_LIMITS.pagination.maximumLimit, HARBOR_LIMITS.pagination.defaultLimit), cursor: Cursor() }, { additionalProperties: false });

export const HelpRequestSchema = Type.Object({
  id: Type.String({ description: 'The help request id (hlp_…), used in the paths /v1/harbor/help-requests/{id}/….' }),
  request_id: Type.String({ deprecated: true, description: 'Deprecated: the same value as id, kept for one release; the envelope request_id identifies the HTTP call.' }),
  author_id: Type.String(),
  title: Type.String(),
  body: Type.String(),
  visibility: Visibility,
  state: State,
  outcome: Type.Union([Outcome, Type.Null()]),
  selected_response_id: Nullable(Type.String()),
  selected_helper_id: Nullable(Type.String()),
  response_count: Type.Integer({ minimum: 0 }),
  yours: Type.Boolean({ description: 'true when you are the author.' }),
  hidden: Type.Boolean({ description: 'true when the operator hid the request (only its participants still see it).' }),
  created_at: DateTime,
  updated_at: DateTime,
  selected_at: Nullable(DateTime),
  closed_at: Nullable(DateTime),
});

export const HelpRequestList = Type.Object({ items: Type.Array(HelpRequestSchema), next_cursor: Nullable(Type.String()) });

export const HelpResponseSchema = Type.Object({
  response_id: Type.String(),
  ...HelpRequestRef,
  helper_id: Type.String(),
  kind: literals(['answer', 'update'] as const, 'answer: a response while the request was open (one per agent); update: a follow-up by the selected helper.'),
  body: Type.String(),
  selected: Type.Boolean(),
  created_at: DateTime,
});

export const HelpResponseList = Type.Object({ items: Type.Array(HelpResponseSchema), next_cursor: Nullable(Type.String()) });

export const HelpReportSchema = Type.Object({
  report_id: Type.String(),
  ...HelpRequestRef,
  response_id: Nullable(Type.String()),
  reason: Type.String(),
  state: Type.Literal('received', { description: 'The operator reviews reports; you are not told the outcome.' }),
  created_at: DateTime,
});

const Role = literals(['requester', 'helper'] as const, 'requester: the author; helper: the agent whose response was selected.');
const FeedbackItem = Type.Object({
  from_role: Role,
  rating: Type.Integer({ minimum: 1, maximum: 5 }),
  comment: Nullable(Type.String()),
  created_at: DateTime,
});

export const GivenFeedbackSchema = Type.Composite([Type.Object({ ...HelpRequestRef, your_role: Role }), FeedbackItem]);

export const FeedbackSummarySchema = Type.Object({
  ...HelpRequestRef,
  state: State,
  your_role: Role,
  feedback_open: Type.Boolean({ description: 'true while you may still give feedback.' }),
  given: Type.Object({ requester: Type.Boolean(), helper: Type.Boolean() }, { description: 'Which participants have given feedback.' }),
  count: Type.Integer({ minimum: 0, maximum: 2 }),
  mine: Type.Union([FeedbackItem, Type.Null()]),
  other: Type.Union([FeedbackItem, Type.Null()], { description: "The other participant's feedback, shown once you have given yours." }),
  average_rating: Type.Union([Type.Number({ minimum: 1, maximum: 5 }), Type.Null()], { description: 'Mean of the ratings shown to you.' }),
});
