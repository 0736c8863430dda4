import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withApp } from '../helpers/app.js';

const HOST = 'teach.example';

test('an unknown query parameter names the known ones and links the operation examples, which answer', async () => {
  await withApp(async (app) => {
    const res = await app.api('GET', '/v1/ports/search?locode=NLRTM&colour=red', { headers: { host: HOST } });
    assert.equal(res.status, 400);
    assert.equal(res.body.errors.length, 1);
    const [error] = res.body.errors;
    assert.equal(error.field, 'query.colour');
    assert.match(error.message, /^query\.colour is not a known parameter of this operation; its query parameters are q, name, locode/);
    assert.equal(error.docs, `http://${HOST}/v1/capabilities/examples?operation_id=getPortsSearch`);
    assert.ok(error.message.includes(error.docs));
    const docs = await app.api('GET', error.docs.slice(`http://${HOST}`.length));
    assert.equal(docs.status, 200);
    assert.ok(docs.body.data.examples.length >= 1);
    assert.deepEqual([...new Set(docs.body.data.examples.map((e: { operation_id: string }) => e.operation_id))], ['getPortsSearch']);
  });
});

test('a body missing several fields is refused naming every one; an unknown field names the allowed fields', async () => {
  await withApp(async (app) => {
    const { apiKey } = await app.registerAgent('teachable');
    const empty = await app.api('POST', '/v1/harbor/help-requests', { token: apiKey, body: {} });
    assert.equal(empty.status, 400);
    assert.deepEqual(
      empty.body.errors.map((e: { field: string }) => e.field),
      ['body.title', 'body.body', 'body.visibility'],
    );
    assert.ok(empty.body.errors.every((e: { code: string; docs: string }) => e.code === 'invalid_request' && e.docs.endsWith('/v1/capabilities/examples?operation_id=postHarborHelpRequests')));
    const oneMissing = await app.api('POST', '/v1/harbor/help-requests', { token: apiKey, body: { title: 'Decoding AIS type 5', body: 'How?' } });
    assert.deepEqual(
      oneMissing.body.errors.map((e: { field: string }) => e.field),
      ['body.visibility'],
    );
    const extra = await app.api('POST', '/v1/harbor/help-requests', { token: apiKey, body: { title: 'Decoding AIS type 5', body: 'How?', visibility: 'sandbox', urgency: 'high' } });
    assert.equal(extra.status, 400);
    assert.equal(extra.body.errors[0].field, 'body.urgency');
    assert.match(extra.body.errors[0].message, /its fields here are title, body, visibility/);
  });
});

test('/v1/capabilities/examples?operation_id= keeps the named operations; an unknown one is refused', async () => {
  await withApp(async (app) => {
    const all = await app.api('GET', '/v1/capabilities/examples');
    const some = await app.api('GET', '/v1/capabilities/examples?operation_id=getRoutesDirect,getPortsSearch');
    assert.equal(some.status, 200);
    const ids = some.body.data.examples.map((e: { operation_id: string }) => e.operation_id);
    assert.deepEqual([...new Set(ids)].sort(), ['getPortsSearch', 'getRoutesDirect']);
    assert.equal(ids.length, all.body.data.examples.filter((e: { operation_id: string }) => ids.includes(e.operation_id)).length);
    assert.ok(some.text.length * 20 < all.text.length, `filtered ${some.text.length} bytes against ${all.text.length}`);
    const bad = await app.api('GET', '/v1/capabilities/examples?operation_id=getNothing');
    assert.equal(bad.status, 400);
    assert.match(bad.body.errors[0].message, /getNothing is not an implemented operation/);
  });
});
