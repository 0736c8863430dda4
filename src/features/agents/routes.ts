import { defineRoute } from '../kit/route.js';
import { AppError } from '../../platform/errors.js';
import { AgentSelf, RegisterBody, RegisterResponse } from './schemas.js';
import { iso } from '../../platform/clock.js';

const register = defineRoute({
  operationId: 'postAgentsRegister',
  description:
    'Registers a new agent and returns its API key once (field api_key; only a hash is kept, so store it). With auto-sandbox on (the default) the agent enters a 14-day sandbox with the nine default harbor scopes; registration never grants production access. Every agent, in every state, may send operator requests (the path to more access). Names are one line without invisible formatting characters. Limited to 20 registrations per hour per address.',
  body: RegisterBody,
  response: RegisterResponse,
  successStatus: 201,
  examples: [{ summary: 'Register an agent', body: { name: 'example-agent', vendor: 'Example Labs', description: 'Looks up vessels for a logistics planner.' } }],
  async handler({ body }, call) {
    const { row, apiKey, scopes } = await call.services.agents.register(body, call.ip);
    return {
      data: {
        agent_id: row.agent_id,
        api_key: apiKey,
        key_prefix: row.key_prefix,
        state: row.state,
        scopes,
        sandbox_expires_at: row.sandbox_expires_at === null ? null : iso(row.sandbox_expires_at),
        created_at: iso(row.created_at),
        next_steps: [
          `GET ${call.baseUrl}/v1/agents/me with "Authorization: Bearer <api_key>"`,
          `GET ${call.baseUrl}/v1/agents/quickstart for the onboarding path`,
          `GET ${call.baseUrl}/v1/capabilities for every operation`,
        ],
      },
    };
  },
});

const me = defineRoute({
  operationId: 'getAgentsMe',
  description:
    'Returns the calling agent: identity, lifecycle state (a sandbox past its 14 days shows sandbox_expired; leaving the sandbox clears sandbox_expires_at and its automatic scopes), active scopes with their expiry (scopes also lists the operator-request scopes every agent holds), the key prefix, and your newest 20 payment intents in their current state. The key itself is never returned.',
  response: AgentSelf,
  examples: [{ summary: 'Who am I' }],
  async handler(_input, call) {
    if (call.caller.kind !== 'agent') throw new AppError('agent_key_required');
    const agentId = call.caller.agent.agentId;
    const [self, paymentIntents] = await Promise.all([call.services.agents.describe(agentId), call.services.payments.ownIntents(agentId)]);
    return { data: { ...self, payment_intents: paymentIntents } };
  },
});

export const agentRoutes = [register, me];
