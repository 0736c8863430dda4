import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HOUR } from '../../src/platform/clock.js';
import { LIMIT_POLICIES } from '../../src/limits/policies.js';
import { startTestApp, withApp } from '../helpers/app.js';
import { seedSampleVessel } from '../helpers/fleet.js';

test('ping, status and capabilities describe this deployment from live state and the catalog', () =>
  withApp(async (app) => {
    const ping = await app.api('GET', '/v1/ping');
    assert.equal(ping.body.data.pong, true);
    assert.equal(ping.body.data.time, new Date(app.clock.now()).toISOString());

    app.clock.advance(90_500);
    const status = await app.api('GET', '/v1/status');
    const s = status.body.data;
    assert.equal(s.uptime_seconds, 90);
    assert.equal(s.store.healthy, true);
    assert.equal(s.store.dialect, app.config.database.kind);
    assert.equal(s.redis.configured, app.config.redis !== null);
    assert.equal(s.redis.healthy, app.config.redis ? true : null);
    assert.equal(s.status, 'ok');
    assert.equal(s.operations.implemented + s.operations.planned, 256, '253 of the interface documents and 3 Bosun extensions');
    assert.ok(Array.isArray(s.components.jobs.jobs));

    const caps = (await app.api('GET', '/v1/capabilities')).body.data;
    const ops = caps.sections.flatMap((x: { operations: unknown[] }) => x.operations);
    assert.equal(ops.length, app.bosun.ctx.catalog.discoverable.length);
    assert.equal(caps.counts.planned, app.bosun.ctx.catalog.planned.length);
    const register = ops.find((o: { operation_id: string }) => o.operation_id === 'postAgentsRegister');
    assert.deepEqual(
      { method: register.method, path: register.path, cost: register.cost_units_hint, access: register.access },
      { method: 'POST', path: '/v1/agents/register', cost: 0.3, access: 'P' },
    );
    // every catalogued operation is implemented (the planned answer itself: discovery-compat.test.ts)
    assert.deepEqual({ implemented: s.operations.implemented, planned: s.operations.planned, listed: ops.length }, { implemented: 256, planned: 0, listed: app.bosun.ctx.catalog.discoverable.length });
    assert.equal(caps.openapi_url, 'http://localhost:80/.well-known/openapi.json', 'links follow the Host the caller used');
  }));

test("limits are the limiter's own table", () =>
  withApp(async (app) => {
    const data = (await app.api('GET', '/v1/capabilities/limits')).body.data;
    assert.deepEqual(
      data.policies.map((p: { name: string; windows: unknown }) => [p.name, p.windows]),
      Object.values(LIMIT_POLICIES).map((p) => [p.name, p.windows.map((w) => ({ window: w.name, seconds: w.windowMs / 1000, limit: w.limit }))]),
    );
    assert.deepEqual(data.policies.find((p: { name: string }) => p.name === 'registration').operations, ['postAgentsRegister']);
    assert.equal(data.request.body_limit_bytes, 65536);
  }));

test('every published example works as published', () =>
  withApp(async (app) => {
    const operator = await app.operatorToken();
    const { apiKey, agentId } = await app.registerAgent('follows-examples');
    await seedSampleVessel(app.bosun.ctx.services.fleet, app.clock.now());
    const examples = (await app.api('GET', '/v1/capabilities/examples', { token: apiKey })).body.data.examples;
    assert.ok(examples.length >= app.bosun.ctx.catalog.discoverable.length);
    const covered = new Set<string>();
    const needPrerequisite = new Set<string>();
    for (const ex of examples) {
      if (ex.requires) {
        needPrerequisite.add(ex.operation_id);
        continue;
      }
      const url = new URL(ex.url);
      const token = ex.auth === 'none' ? undefined : ex.auth === 'agent_key' ? apiKey : operator;
      // a long poll answers at once when an event is pending (waiting out its timeout would only cost real seconds)
      if (url.searchParams.has('timeout')) await app.bosun.ctx.services.workspace.emit(agentId, 'feedback_ticket.changed', { example: ex.operation_id });
      for (const scope of ex.requires_scopes ?? []) await app.bosun.ctx.services.agents.grantScope(agentId, scope, { kind: 'cli' });
      const res = await app.api(ex.method, url.pathname + url.search, { token, ...(ex.body !== undefined ? { body: ex.body } : {}) });
      if (ex.expected_error) assert.equal(res.body.errors[0].code, ex.expected_error, `${ex.operation_id} (${ex.summary}): ${res.text.slice(0, 300)}`);
      else assert.ok(res.status >= 200 && res.status < 300, `${ex.operation_id} (${ex.summary}): ${res.status} ${res.text.slice(0, 300)}`);
      assert.match(ex.curl, new RegExp(`^curl -sS -X ${ex.method} `));
      covered.add(ex.operation_id);
    }
    for (const { entry } of app.bosun.ctx.catalog.discoverable) {
      assert.ok(covered.has(entry.operationId) || needPrerequisite.has(entry.operationId), `${entry.operationId} has a working example`);
    }
  }));

test('quality and telemetry summary are views over recorded requests', () =>
  withApp(async (app) => {
    const operator = await app.operatorToken();
    for (let i = 0; i < 3; i++) await app.api('GET', '/v1/ping');
    await app.api('GET', '/v1/no-such-route');
    const { apiKey, agentId } = await app.registerAgent();
    await app.api('GET', '/v1/agents/me', { token: apiKey });
    await app.api('GET', '/v1/agents/me');
    app.clock.advance(1000);

    const quality = (await app.api('GET', '/v1/quality?window_hours=1')).body.data;
    const ping = quality.operations.find((o: { operation_id: string }) => o.operation_id === 'getPing');
    assert.equal(ping.requests, 3);
    assert.equal(ping.success_rate, 1);
    const me = quality.operations.find((o: { operation_id: string }) => o.operation_id === 'getAgentsMe');
    assert.equal(me.requests, 2);
    assert.equal(me.client_error_rate, 0.5);
    assert.equal(quality.window.hours, 1);

    const summary = (await app.api('GET', '/v1/telemetry/summary?window_hours=1', { token: operator })).body.data;
    assert.equal(summary.requests, 8, 'ping×3, unmatched, register, me×2, quality');
    assert.equal(summary.by_status_class['4xx'], 2);
    assert.equal(summary.distinct_agents, 1);
    assert.deepEqual(summary.error_codes.map((e: { code: string }) => e.code).sort(), ['auth_required', 'route_not_found']);
    assert.equal(summary.cost_units_charged, 0.3 + 0.2 + 0.2, 'register 0.3, me 0.2, quality 0.2; ping is free, failures charge 0');
    assert.ok(!JSON.stringify(summary).includes(apiKey));
    assert.ok(summary.operations.some((o: { operation_id: string }) => o.operation_id === 'unmatched'));
    void agentId;

    app.clock.advance(2 * HOUR);
    const later = (await app.api('GET', '/v1/quality?window_hours=1')).body.data;
    assert.equal(
      later.operations.find((o: { operation_id: string }) => o.operation_id === 'getPing'),
      undefined,
      'outside the window',
    );
  }));

test('policy, quickstart, services, feature flags and connectors', async () => {
  const app = await startTestApp({ env: { BOSUN_PUBLIC_URL: 'https://bosun.example.org' } });
  try {
    const operator = await app.operatorToken();
    const policy = (await app.api('GET', '/v1/policy')).body.data;
    assert.equal(policy.data_delays[0].delay_seconds, 50400);
    assert.ok(policy.cost_units.free_operations.includes('getPing'));
    assert.ok(!policy.cost_units.free_operations.includes('postAgentsRegister'));
    assert.equal(policy.retention.find((r: { data: string }) => r.data === 'security audit log').days, 90);

    const quick = (await app.api('GET', '/v1/agents/quickstart')).body.data;
    assert.equal(quick.base_url, 'https://bosun.example.org');
    const register = quick.steps.find((s: { url: string }) => s.url.endsWith('/v1/agents/register'));
    assert.equal(register.url, 'https://bosun.example.org/v1/agents/register');
    for (const step of quick.steps)
      assert.ok(
        app.bosun.ctx.catalog.implemented.some(({ entry }) => step.url.split('?')[0].endsWith(entry.path)),
        step.url,
      );

    const all = (await app.api('GET', '/v1/services')).body.data.services;
    assert.ok(all.some((s: { service_id: string }) => s.service_id === 'agent.harbor'));
    const harbor = (await app.api('GET', '/v1/services?service_id=agent.harbor')).body.data.services;
    assert.equal(harbor.length, 1);
    assert.equal(harbor[0].links.contract_version, '1.5');
    assert.ok(harbor[0].operations.some((o: { path: string }) => o.path === '/v1/agents/register'));
    const unknown = await app.api('GET', '/v1/services?service_id=no.such');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.errors[0].code, 'service_not_found');

    const flags = (await app.api('GET', '/v1/feature_flags', { token: operator })).body.data.flags;
    assert.equal(flags.find((f: { flag: string }) => f.flag === 'auto_sandbox').enabled, true);
    const connectors = (await app.api('GET', '/v1/experimental/llm/connectors', { token: operator })).body.data.connectors;
    assert.equal(connectors.find((c: { connector_id: string }) => c.connector_id === 'openapi').status, 'available');
    assert.equal(connectors.find((c: { connector_id: string }) => c.connector_id === 'openapi').url, 'https://bosun.example.org/openapi.json', 'LLM clients import the bare document');

    const { agentId, apiKey } = await app.registerAgent();
    assert.equal((await app.api('GET', '/v1/feature_flags', { token: apiKey })).status, 403);
    await app.bosun.ctx.services.agents.grantScope(agentId, 'ops:read', { kind: 'cli' });
    assert.equal((await app.api('GET', '/v1/feature_flags', { token: apiKey })).status, 200, 'ops:read opens U operations');

    const openapi = await app.api('GET', '/.well-known/openapi.json');
    assert.equal(openapi.body.data.openapi, '3.1.0');
    assert.equal(openapi.body.data.servers[0].url, 'https://bosun.example.org');
  } finally {
    await app.close();
  }
});
