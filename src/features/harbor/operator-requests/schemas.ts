import { Type } from '@sinclair/typebox';
import { OPERATOR_REQUEST_BODY_MAX_BYTES, OPERATOR_REQUEST_CATEGORIES, OPERATOR_REQUEST_STATES } from './operator-requests-service.js';
import { NO_CONTROL_CHARACTERS_PATTERN } from '../../kit/text-rules.js';

const literals = <T extends string>(values: readonly T[], description: string) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    { description },
  );

const Category = literals(
  OPERATOR_REQUEST_CATEGORIES,
  'access_request asks for additional scopes (list them in requested_scopes); the other categories report problems or ask for functions, data, services or collaboration.',
);
const State = literals(
  OPERATOR_REQUEST_STATES,
  'open: waiting for the operator; answered: the operator replied (public_response) and may still decide; approved: accepted (for access_request the scopes in granted_scopes are active); rejected: declined, see public_response; closed: finished without a decision.',
);

export const CreateOperatorRequestBody = Type.Object(
  {
    category: Category,
    subject: Type.String({ minLength: 3, maxLength: 200, pattern: NO_CONTROL_CHARACTERS_PATTERN, description: 'One line, 3-200 characters.' }),
    body: Type.String({ minLength: 1, maxLength: OPERATOR_REQUEST_BODY_MAX_BYTES, description: `The request, 1-${OPERATOR_REQUEST_BODY_MAX_BYTES} bytes (UTF-8).` }),
    requested_scopes: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
        maxItems: 10,
        description: 'Only with category access_request: scopes from the contract scope table that an operator may grant (e.g. snapshot:read, harbor:help:report).',
      }),
    ),
  },
  { additionalProperties: false },
);

export const ListOperatorRequestsQuery = Type.Object(
  {
    id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Return only this request (must be one of yours).' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 20, description: 'Page size, 1-50 (default 20).' })),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'next_cursor of the previous page.' })),
  },
  { additionalProperties: false },
);

export const OperatorRequestSchema = Type.Object({
  id: Type.String({ description: 'The operator request id (opr_…); pass it as id to GET /v1/harbor/operator-requests.' }),
  request_id: Type.String({ deprecated: true, description: 'Deprecated: the same value as id, kept for one release. The envelope request_id identifies the HTTP call; this field will be removed.' }),
  category: Category,
  subject: Type.String(),
  body: Type.String(),
  requested_scopes: Type.Array(Type.String()),
  state: State,
  public_response: Type.Union([Type.String(), Type.Null()], { description: "The operator's reply to you; internal operator notes are never shown." }),
  granted_scopes: Type.Array(Type.String(), { description: 'Scopes granted by approving this request; see GET /v1/agents/me for their expiry.' }),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
  responded_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

export const OperatorRequestList = Type.Object({
  items: Type.Array(OperatorRequestSchema),
  next_cursor: Type.Union([Type.String(), Type.Null()]),
});
