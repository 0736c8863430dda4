import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { type TestApp, withApp } from '../helpers/app.js';

/**
 * Harbor-interface 1.6 across every harbor feature at once: agent A leaves private traces everywhere
 * (sandbox tasks, a sandbox-only help request, an unpublished profile, operator requests with an
 * internal note, a production task, a snapshot trial, extra scopes). Agents B and C then read every
 * list, feed, discovery document, single item and error they can reach; none of it may carry A's
 * private text, key, scopes or entitlements.
 */
const MARK = 'PRIVMARK';
const secret = (what: string) => `${MARK}-${what}`;
/** Every private text leavePrivateTraces writes (the internal note is the operator's; A never sees it). */
const PRIVATE_TEXTS = ['profile-summary', 'task-title', 'task-description', 'task-message', 'help-title', 'help-body', 'operator-body', 'prod-title', 'prod-description'];

async function leavePrivateTraces(app: TestApp, a: { agentId: string; apiKey: string }) {
  const post = (url: string, body: unknown, headers: Record<string, string> = {}) => app.api('POST', url, { token: a.apiKey, body, headers });
  await post('/v1/harbor/profiles', { display_name: 'Agent A', summary: secret('profile-summary'), public: false });
  const task = await post('/experimental/agent-harbor-sandbox-tasks.php', { action: 'create', title: secret('task-title'), description: secret('task-description') });
  await post('/experimental/agent-harbor-sandbox-tasks.php', { action: 'message', task_id: task.body.data.task_id, body: secret('task-message') });
  const help = await post('/v1/harbor/help-requests', { title: secret('help-title'), body: secret('help-body'), visibility: 'sandbox' });
  const opr = await post('/v1/harbor/operator-requests', { category: 'access_request', subject: 'Snapshot please', body: secret('operator-body'), requested_scopes: ['snapshot:read'] });
  const services = app.bosun.ctx.services;
  await services.operatorRequests.respond(opr.body.data.request_id, { publicResponse: 'Looking at it.', internalNote: secret('internal-note') }, { kind: 'cli' });
  await services.agents.grantScope(a.agentId, 'harbor:task:read', { kind: 'cli' });
  const production = await services.harborTasks.createByOperator({ title: secret('prod-title'), description: secret('prod-description'), vessel: 'IMO:9811000', assignee: a.agentId }, { kind: 'cli' });
  await services.trials.grant(a.agentId, 'IMO:9811000', { kind: 'cli' });
  return { taskId: task.body.data.task_id as string, helpId: help.body.data.request_id as string, requestId: opr.body.data.request_id as string, productionId: production.task_id };
}

test("no list, feed, discovery, profile, item or error shows another agent's private data, key or entitlements", () =>
  withApp(async (app) => {
    const a = await app.registerAgent('agent-a');
    const ids = await leavePrivateTraces(app, a);
    const b = await app.registerAgent('agent-b');
    const c = await app.registerAgent('agent-c');
    await app.bosun.ctx.services.agents.grantScope(c.agentId, 'harbor:task:read', { kind: 'cli' });

    const seen: string[] = [];
    const ownSeen: string[] = [];
    const read = async (token: string | undefined, url: string, method = 'GET', body?: unknown) => {
      const res = await app.api(method, url, { token, ...(body === undefined ? {} : { body }) });
      (token === a.apiKey ? ownSeen : seen).push(`${method} ${url} → ${res.status} ${res.text}`);
      return res;
    };
    for (const viewer of [a.apiKey, undefined, b.apiKey, c.apiKey]) {
      for (const url of [
        '/v1/harbor/discovery',
        '/v1/harbor/skills?text=agent',
        '/.well-known/agent-harbor.json',
        '/v1/harbor/profiles',
        '/v1/harbor/profiles/me',
        `/v1/harbor/profiles/${a.agentId}`,
        '/v1/harbor/feed',
        '/v1/harbor/help-requests',
        `/v1/harbor/help-requests/${ids.helpId}`,
        `/v1/harbor/help-requests/${ids.helpId}/responses`,
        `/v1/harbor/help-requests/${ids.helpId}/feedback`,
        '/v1/harbor/public/groups',
        '/v1/harbor/public/groups/4/posts',
        '/experimental/agent-harbor-sandbox-tasks.php',
        `/experimental/agent-harbor-sandbox-tasks.php?task_id=${ids.taskId}`,
        '/experimental/agent-harbor-tasks.php',
        `/experimental/agent-harbor-tasks.php?task_id=${ids.productionId}`,
        '/v1/harbor/operator-requests',
        `/v1/harbor/operator-requests?id=${ids.requestId}`,
        '/v1/services/vessel-snapshot/trial?imo=9811000',
        '/v1/agents/me',
      ]) {
        await read(viewer, url);
      }
      if (viewer && viewer !== a.apiKey) {
        await read(viewer, '/experimental/agent-harbor-sandbox-tasks.php', 'POST', { action: 'message', task_id: ids.taskId, body: 'let me in' });
        await read(viewer, `/v1/harbor/help-requests/${ids.helpId}/responses`, 'POST', { body: 'let me in' });
        await read(viewer, `/v1/harbor/help-requests/${ids.helpId}/select`, 'POST', { response_id: 'hrs_nope' });
        await read(viewer, '/experimental/agent-harbor-tasks.php', 'POST', { action: 'message', task_id: ids.productionId, body: 'let me in' });
      }
    }
    // Positive control: the same reads, made by A, do show A's private data, so its absence below means
    // the others are refused it (not that the setup created nothing or the reads miss it).
    const ownTranscript = ownSeen.map((s) => s.split(' → ')[1]).join('\n');
    for (const what of PRIVATE_TEXTS) assert.ok(ownTranscript.includes(secret(what)), `A's own reads show ${secret(what)}`);
    assert.ok(ownTranscript.includes('9811000'), "A's own reads show the vessel of its task and trial");
    const ownMe = JSON.parse(
      ownSeen
        .find((s) => s.startsWith('GET /v1/agents/me'))!
        .split(' → ')[1]!
        .slice(4),
    );
    assert.ok(ownMe.data.scopes.includes('harbor:task:read'), "A's granted scope is visible to A");

    // Only what the service answered counts (the request lines themselves name the ids and the vessel).
    const transcript = seen.map((s) => s.split(' → ')[1]).join('\n');
    assert.equal(
      transcript.includes(MARK),
      false,
      `private text leaked:\n${seen
        .filter((s) => s.includes(MARK))
        .join('\n')
        .slice(0, 2000)}`,
    );
    assert.equal(transcript.includes(a.apiKey), false, 'an API key leaked');
    assert.equal(transcript.includes('9811000'), false, 'the vessel of a task or trial leaked');
    const me = JSON.parse(
      seen
        .find((s) => s.startsWith('GET /v1/agents/me') && s.includes(b.agentId))!
        .split(' → ')[1]!
        .slice(4),
    );
    assert.deepEqual(me.data.scopes.includes('snapshot:read') || me.data.scopes.includes('harbor:task:read'), false, "B's scopes are its own");
    for (const foreign of [ids.taskId, ids.helpId, ids.productionId, ids.requestId]) {
      const lines = seen.filter((s) => s.includes(`?task_id=${foreign}`) || s.includes(`/help-requests/${foreign}`) || s.includes(`?id=${foreign}`));
      assert.ok(lines.length > 0);
      for (const line of lines) assert.match(line, / → (401|403|404) /, `a foreign item is invisible: ${line.slice(0, 200)}`);
    }

    // A itself sees its own data, but never the operator's internal note.
    const own = await app.api('GET', `/v1/harbor/operator-requests?id=${ids.requestId}`, { token: a.apiKey });
    assert.equal(own.body.data.items[0].public_response, 'Looking at it.');
    assert.equal(own.text.includes(secret('internal-note')), false);
  }));

test('keys are stored only as hashes and audit addresses are redacted', () =>
  withApp(async (app) => {
    const res = await app.api('POST', '/v1/agents/register', { body: { name: 'hashed' }, ip: '198.51.100.23' });
    const apiKey: string = res.body.data.api_key;
    const rotated = await app.bosun.ctx.services.agents.rotateKey(res.body.data.agent_id, { kind: 'cli' });
    const db = app.bosun.ctx.store.db;
    const tables = ['agents', 'agent_scopes', 'audit_log', 'request_telemetry', 'idempotency_records', 'harbor_action_ledger'] as const;
    for (const table of tables) {
      const rows = await db.selectFrom(table).selectAll().execute();
      const text = JSON.stringify(rows);
      assert.equal(text.includes(apiKey), false, `${table} holds a plain key`);
      assert.equal(text.includes(rotated.apiKey), false, `${table} holds a plain rotated key`);
    }
    const audit = await db.selectFrom('audit_log').select(['ip', 'action']).where('action', '=', 'agent.register').execute();
    assert.ok(audit.length >= 1);
    assert.deepEqual(
      [...new Set(audit.map((r) => r.ip))].filter((ip) => ip !== null && ip.startsWith('198.51.100')),
      ['198.51.100.0/24'],
    );
    const raw = await sql<{ n: number }>`select count(*) as n from audit_log where ip like ${'%198.51.100.23%'}`.execute(db);
    assert.equal(Number(raw.rows[0]!.n), 0, 'no full address anywhere in the audit log');
  }));
