import { test } from 'node:test';
import assert from 'node:assert/strict';
import { type ApiResponse, withApp } from '../helpers/app.js';

const ENVELOPE_KEYS = ['as_of', 'confidence', 'cost_units', 'data', 'errors', 'freshness_seconds', 'policy', 'quality_flags', 'request_id', 'status'];

function assertErrorEnvelope(res: ApiResponse, status: number, code: string) {
  assert.equal(res.status, status, res.text);
  assert.deepEqual(Object.keys(res.body).sort(), ENVELOPE_KEYS);
  assert.equal(res.body.status, 'error');
  assert.equal(res.body.cost_units, 0);
  assert.equal(res.body.errors.length, 1);
  assert.equal(res.body.errors[0].code, code);
  assert.equal(typeof res.body.errors[0].message, 'string');
  assert.equal(res.headers['x-request-id'], res.body.request_id);
  assert.ok(!/at .*\.js:\d+|stack|select |insert /i.test(res.text), 'no stack traces or SQL leak');
}

test('every failure mode answers the envelope with a stable code', () =>
  withApp(async (app) => {
    assertErrorEnvelope(await app.api('GET', '/v1/no/such/thing'), 404, 'route_not_found');
    const wrongMethod = await app.api('DELETE', '/v1/ping');
    assertErrorEnvelope(wrongMethod, 405, 'method_not_allowed');
    assert.equal(wrongMethod.headers.allow, 'GET, HEAD');
    assertErrorEnvelope(await app.api('POST', '/v1/agents/register', { rawBody: '{"name": "x",', headers: { 'content-type': 'application/json' } }), 400, 'invalid_json');
    assertErrorEnvelope(await app.api('POST', '/v1/agents/register', { rawBody: '', headers: { 'content-type': 'application/json' } }), 400, 'invalid_json');
    assertErrorEnvelope(await app.api('POST', '/v1/agents/register', { rawBody: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } }), 415, 'unsupported_media_type');
    assertErrorEnvelope(await app.api('POST', '/v1/agents/register', { body: { name: 'big', description: 'x'.repeat(70_000) } }), 413, 'body_too_large');
    assertErrorEnvelope(await app.api('POST', '/v1/agents/register', { rawBody: '[1,2]', headers: { 'content-type': 'application/json' } }), 400, 'invalid_request');
    assertErrorEnvelope(await app.api('GET', '/v1/ping?unexpected=1'), 400, 'invalid_request');
    assertErrorEnvelope(await app.api('GET', '/v1/quality?window_hours=abc'), 400, 'invalid_request');
    assertErrorEnvelope(await app.api('GET', '/v1/quality?window_hours=0'), 400, 'invalid_request');
    assertErrorEnvelope(await app.api('GET', '/v1/agents/me', { headers: { authorization: 'Token abc' } }), 401, 'auth_invalid');
    assertErrorEnvelope(await app.api('GET', '/v1/agents/me', { token: 'bsk_' + 'A'.repeat(43) }), 401, 'auth_invalid');
  }));

test('success envelope: request id echoed (or accepted from the caller), as_of from the clock, cost from the catalog', () =>
  withApp(async (app) => {
    const res = await app.api('GET', '/v1/capabilities/examples');
    assert.deepEqual(Object.keys(res.body).sort(), ENVELOPE_KEYS);
    assert.equal(res.body.status, 'ok');
    assert.equal(res.body.as_of, new Date(app.clock.now()).toISOString());
    assert.equal(res.body.cost_units, 0.07);
    assert.equal(res.body.freshness_seconds, 0);
    assert.deepEqual(res.body.errors, []);
    assert.deepEqual(res.body.quality_flags, []);
    assert.equal(res.body.confidence, null);
    assert.equal(res.body.policy.usage_tier, 'anonymous');
    assert.equal(res.body.policy.attribution_required, true);
    assert.match(res.body.request_id, /^req_[0-9a-f]{24}$/);
    assert.equal(res.headers['x-request-id'], res.body.request_id);

    const mine = await app.api('GET', '/v1/ping', { headers: { 'x-request-id': 'client-trace-0001' } });
    assert.equal(mine.body.request_id, 'client-trace-0001');
    assert.equal(mine.headers['x-request-id'], 'client-trace-0001');
    const hostile = await app.api('GET', '/v1/ping', { headers: { 'x-request-id': 'bad id <script>' } });
    assert.match(hostile.body.request_id, /^req_/);
    assert.equal((await app.api('GET', '/v1/ping')).body.cost_units, 0, 'ping is free');
  }));
