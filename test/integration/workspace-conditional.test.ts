import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withApp } from '../helpers/app.js';

test('GET a workspace document with If-None-Match naming its ETag: 304 without a body; a changed document answers 200 again', async () => {
  await withApp(async (app) => {
    const { apiKey } = await app.registerAgent('conditional');
    const put = await app.api('PUT', '/v1/workspace/documents/notes', { token: apiKey, body: { content: { a: 1 } } });
    assert.ok(put.status === 200 || put.status === 201, put.text);
    const first = await app.api('GET', '/v1/workspace/documents/notes', { token: apiKey });
    const etag = first.headers.etag as string;
    assert.match(etag, /^"1-[A-Za-z0-9_-]{16}"$/);
    for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const same = await app.api('GET', '/v1/workspace/documents/notes', { token: apiKey, headers: { 'if-none-match': header } });
      assert.equal(same.status, 304, header);
      assert.equal(same.text, '', `${header}: no body`);
      assert.equal(same.headers.etag, etag);
    }
    const other = await app.api('GET', '/v1/workspace/documents/notes', { token: apiKey, headers: { 'if-none-match': '"1-somethingelse00"' } });
    assert.equal(other.status, 200);
    assert.deepEqual(other.body.data.content, { a: 1 });
    await app.api('PUT', '/v1/workspace/documents/notes', { token: apiKey, body: { content: { a: 2 } } });
    const changed = await app.api('GET', '/v1/workspace/documents/notes', { token: apiKey, headers: { 'if-none-match': etag } });
    assert.equal(changed.status, 200, 'the stored version changed');
    assert.deepEqual(changed.body.data.content, { a: 2 });
    assert.notEqual(changed.headers.etag, etag);
    const missing = await app.api('GET', '/v1/workspace/documents/absent', { token: apiKey, headers: { 'if-none-match': '*' } });
    assert.equal(missing.status, 404, 'no document: no 304');
  });
});

test('the events inbox keeps its cursor once everything is acknowledged: next_after is the last sequence, never 0', async () => {
  await withApp(async (app) => {
    const a = await app.registerAgent('inbox');
    const none = await app.api('GET', '/v1/workspace/events', { token: a.apiKey });
    assert.equal(none.body.data.next_after, 0, 'no events ever: 0');
    const emit = app.bosun.ctx.services.workspace.emit;
    for (let i = 1; i <= 3; i++) await emit(a.agentId, 'test.kind', { n: i });
    assert.equal((await app.api('POST', '/v1/workspace/events/ack', { token: a.apiKey, body: { up_to: 3 } })).body.data.pending, 0);
    const caughtUp = await app.api('GET', '/v1/workspace/events', { token: a.apiKey });
    assert.deepEqual([caughtUp.body.data.items, caughtUp.body.data.next_after], [[], 3]);
    const fromCursor = await app.api('GET', '/v1/workspace/events?after=2', { token: a.apiKey });
    assert.equal(fromCursor.body.data.next_after, 3);
    const beyond = await app.api('GET', '/v1/workspace/events?after=9', { token: a.apiKey });
    assert.equal(beyond.body.data.next_after, 9, 'a cursor beyond the last sequence is kept');
    // reading on from the kept cursor loses nothing
    await emit(a.agentId, 'test.kind', { n: 4 });
    const next = await app.api('GET', `/v1/workspace/events?after=${caughtUp.body.data.next_after}`, { token: a.apiKey });
    assert.deepEqual(
      next.body.data.items.map((e: { seq: number }) => e.seq),
      [4],
    );
    // one unacknowledged event below the cursor of an empty page is not skipped
    await emit(a.agentId, 'test.kind', { n: 5 });
    await app.api('POST', '/v1/workspace/events/ack', { token: a.apiKey, body: { event_ids: [next.body.data.items[0].event_id] } });
    const partial = await app.api('GET', '/v1/workspace/events?after=4', { token: a.apiKey });
    assert.deepEqual(
      partial.body.data.items.map((e: { seq: number }) => e.seq),
      [5],
    );
  });
});
