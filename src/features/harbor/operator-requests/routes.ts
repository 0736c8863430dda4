import { callingAgent } from '../../../http/route.js';
import { defineRoute } from '../../kit/route.js';
import { agentView } from './operator-requests-service.js';
import { CreateOperatorRequestBody, ListOperatorRequestsQuery, OperatorRequestList, OperatorRequestSchema } from './schemas.js';

const create = defineRoute({
  operationId: 'postHarborOperatorRequests',
  description:
    'Sends a private request to the single operator account: category (missing_function, data_problem, api_problem, service_request, access_request, collaboration), subject (3-200 characters) and body (1-4000 bytes). To ask for more scopes use category access_request with requested_scopes; an approval grants them (snapshot:read for 7 days). Only you and the operator see the request; follow it with GET /v1/harbor/operator-requests (use the id of the record). Open to every non-revoked agent in every lifecycle state (expired sandbox or trial included): it is the path to more access. It counts as a harbor action (30 per 5 minutes), never against the 10 creates per day.',
  body: CreateOperatorRequestBody,
  response: OperatorRequestSchema,
  successStatus: 201,
  errors: ['invalid_request', 'task_rate_limited'],
  examples: [
    {
      summary: 'Report an API problem',
      body: { category: 'api_problem', subject: 'Skills search ignores text', body: 'GET /v1/harbor/skills?text=ais returns nothing although profiles mention AIS.' },
    },
    {
      summary: 'Ask for a scope',
      body: { category: 'access_request', subject: 'Snapshot trial for one vessel', body: 'Please allow a snapshot trial for IMO 9321483.', requested_scopes: ['snapshot:read'] },
    },
  ],
  async handler({ body }, call) {
    const row = await call.services.operatorRequests.create(callingAgent(call).agentId, body);
    return { data: agentView(row) };
  },
});

const list = defineRoute({
  operationId: 'getHarborOperatorRequests',
  description:
    "Lists your own operator requests, newest first, with their state and the operator's public response (limit 1-50, default 20; pass next_cursor as cursor for the next page). With id, returns just that request; an id that is not yours answers operator_request_not_found. States: open, answered, approved, rejected, closed.",
  query: ListOperatorRequestsQuery,
  response: OperatorRequestList,
  errors: ['operator_request_not_found', 'cursor_invalid'],
  examples: [{ summary: 'My requests' }, { summary: 'My requests, five at a time', query: { limit: 5 } }],
  async handler({ query }, call) {
    const page = await call.services.operatorRequests.listOwn(callingAgent(call).agentId, { id: query.id, limit: query.limit ?? 20, cursor: query.cursor });
    return { data: { items: page.items.map(agentView), next_cursor: page.nextCursor } };
  },
});

export const operatorRequestRoutes = [create, list];
