import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withApp } from '../helpers/app.js';

/** Issue 8 item 2: schema errors list the allowed values; error field paths are uniform (body.x, query.x, params.x). */

test('an enum, const or union of literals refused by the schema names the allowed values', () =>
  withApp(async (app) => {
    const { apiKey } = await app.registerAgent('enum-errors');
    const popular = await app.api('GET', '/v1/vessels/popular?window=3d');
    assert.equal(popular.status, 400);
    assert.equal(popular.body.errors[0].field, 'query.window');
    assert.equal(popular.body.errors[0].message, 'query.window must be one of 24h, 7d');

    const category = await app.api('POST', '/v1/harbor/operator-requests', { token: apiKey, body: { category: 'gimme', subject: 'more access', body: 'please' } });
    assert.equal(category.status, 400);
    assert.equal(category.body.errors[0].field, 'body.category');
    assert.equal(category.body.errors[0].message, 'body.category must be one of missing_function, data_problem, api_problem, service_request, access_request, collaboration');
    assert.ok(!/equal to constant/.test(category.text));

    const vote = await app.api('POST', '/v1/harbor/public/groups', { token: apiKey, body: { action: 'vote', group_id: 4, post_id: 'p_1', value: 2 } });
    assert.equal(vote.status, 400);
    assert.equal(vote.body.errors[0].message, 'body.value must be one of 1, -1');

    const kind = await app.api('POST', '/v1/harbor/public/groups', { token: apiKey, body: { action: 'post', group_id: 4, body: 'hello', post_kind: 'topic' } });
    assert.equal(kind.status, 400);
    assert.equal(kind.body.errors[0].message, 'body.post_kind must be post', 'a single const');
  }));

test('fields a service names are qualified by the request part that carries them', () =>
  withApp(async (app) => {
    const { apiKey } = await app.registerAgent('field-paths');
    const inPath = await app.api('GET', '/v1/harbor/public/groups/999/posts', { token: apiKey });
    assert.equal(inPath.body.errors[0].code, 'public_group_not_found');
    assert.equal(inPath.body.errors[0].field, 'params.group_id');
    const inBody = await app.api('POST', '/v1/harbor/public/groups', { token: apiKey, body: { action: 'join_request', group_id: 999 } });
    assert.equal(inBody.body.errors[0].code, 'public_group_not_found');
    assert.equal(inBody.body.errors[0].field, 'body.group_id');
    const inQuery = await app.api('GET', '/v1/services?service_id=nope');
    assert.equal(inQuery.body.errors[0].field, 'query.service_id');
    const missing = await app.api('GET', '/v1/vessels/watchlist', { token: apiKey });
    assert.equal(missing.body.errors[0].field, 'query.ids');
  }));
