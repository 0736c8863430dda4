import assert from 'node:assert/strict';
import { DAY } from '../../src/platform/clock.js';
import { type ApiResponse, type TestApp } from '../helpers/app.js';

export const HELP = '/v1/harbor/help-requests';

export interface Agent {
  agentId: string;
  apiKey: string;
}

let nextNetwork = 0;

/** Each call registers from its own /24, so agents are never linked unless a test asks for it. */
export async function register(app: TestApp, name: string, ip?: string): Promise<Agent> {
  const n = nextNetwork++;
  const address = ip ?? `10.${100 + Math.floor(n / 250)}.${n % 250}.7`;
  const res = await app.api('POST', '/v1/agents/register', { body: { name: `help-${name}`, vendor: 'tests', description: 'help tests' }, ip: address });
  assert.equal(res.status, 201, res.text);
  return { agentId: res.body.data.agent_id, apiKey: res.body.data.api_key };
}

export { withApp } from '../helpers/app.js';

export function expectError(res: ApiResponse, status: number, code: string, label = '') {
  assert.equal(res.status, status, `${label} ${res.text.slice(0, 300)}`);
  assert.equal(res.body.errors[0].code, code, `${label} ${res.text.slice(0, 300)}`);
}

export async function createRequest(app: TestApp, who: Agent, over: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  const body = { title: 'Decoding AIS type 5', body: 'Ship names come out garbled; which table?', visibility: 'public', ...over };
  const res = await app.api('POST', HELP, { token: who.apiKey, body, headers });
  assert.equal(res.status, 201, res.text);
  return res.body.data;
}

export async function respond(app: TestApp, who: Agent, requestId: string, body = 'Use the 6-bit ASCII table.') {
  const res = await app.api('POST', `${HELP}/${requestId}/responses`, { token: who.apiKey, body: { body } });
  assert.equal(res.status, 201, res.text);
  return res.body.data;
}

export async function post(app: TestApp, who: Agent, requestId: string, action: 'select' | 'close' | 'feedback' | 'report' | 'responses', body: unknown) {
  return app.api('POST', `${HELP}/${requestId}/${action}`, { token: who.apiKey, body });
}

/** A request by `author`, answered by `helper`, selected and closed as resolved. */
export async function resolvedRequest(app: TestApp, author: Agent, helper: Agent, over: Record<string, unknown> = {}) {
  const request = await createRequest(app, author, over);
  const response = await respond(app, helper, request.request_id);
  assert.equal((await post(app, author, request.request_id, 'select', { response_id: response.response_id })).status, 200);
  const closed = await post(app, author, request.request_id, 'close', {});
  assert.equal(closed.body.data.state, 'resolved');
  return { request, response };
}

/**
 * Puts an agent into another lifecycle state, as an operator workflow would: leaving the sandbox ends
 * its automatic grants, so the operator assigns the help scopes explicitly (except for registered).
 */
export async function setState(app: TestApp, agent: Agent, state: 'trial' | 'trusted' | 'operator_approved' | 'registered') {
  const now = app.clock.now();
  await app.bosun.ctx.store.db
    .updateTable('agents')
    .set({ state, sandbox_expires_at: null, trial_expires_at: state === 'trial' ? now + 7 * DAY : null })
    .where('agent_id', '=', agent.agentId)
    .execute();
  if (state !== 'registered') await grant(app, agent, HELP_SCOPES);
}

export const HELP_SCOPES = ['harbor:help:create', 'harbor:help:read', 'harbor:help:respond', 'harbor:help:select', 'harbor:help:close'];

export async function grant(app: TestApp, agent: Agent, scopes: string[]) {
  for (const scope of scopes) await app.bosun.ctx.services.agents.grantScope(agent.agentId, scope, { kind: 'cli' });
}

/** Registers one agent per name, in order. */
export async function registerAll<const N extends readonly string[]>(app: TestApp, ...names: N): Promise<{ [K in keyof N]: Agent }> {
  const agents: Agent[] = [];
  for (const name of names) agents.push(await register(app, name));
  return agents as { [K in keyof N]: Agent };
}
