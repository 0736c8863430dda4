import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withApp } from '../helpers/app.js';
import { WORKSPACE_LIMITS } from '../../src/features/workspace/workspace-rules.js';

const DOC = '/v1/workspace/documents';

test('documents: create, read with ETag, replace with If-Match, list by name with cursor, delete', async () => {
  await withApp(async (app) => {
    const a = await app.registerAgent('alpha');
    const created = await app.api('PUT', `${DOC}/watch-notes`, { token: a.apiKey, body: { content: { vessels: ['IMO:9811000'], note: 'daily' } } });
    assert.equal(created.status, 200);
    assert.equal(created.body.data.created, true);
    assert.equal(created.body.data.revision, 1);
    assert.equal(created.body.data.media_type, 'application/json');
    assert.equal(created.body.data.size_bytes, Buffer.byteLength(JSON.stringify({ vessels: ['IMO:9811000'], note: 'daily' })));
    assert.match(created.body.data.etag, /^"1-[A-Za-z0-9_-]{16}"$/);
    assert.equal(created.headers.etag, created.body.data.etag);
    assert.equal(created.body.data.created_at, '2026-11-21T00:00:00.000Z');

    const read = await app.api('GET', `${DOC}/watch-notes`, { token: a.apiKey });
    assert.equal(read.status, 200);
    assert.deepEqual(read.body.data.content, { vessels: ['IMO:9811000'], note: 'daily' });
    assert.equal(read.headers.etag, created.body.data.etag);

    app.clock.advance(60_000);
    const replaced = await app.api('PUT', `${DOC}/watch-notes`, { token: a.apiKey, headers: { 'if-match': read.headers.etag as string }, body: { content: 'plain now', media_type: 'text/plain' } });
    assert.equal(replaced.status, 200);
    assert.equal(replaced.body.data.created, false);
    assert.equal(replaced.body.data.revision, 2);
    assert.equal(replaced.body.data.updated_at, '2026-11-21T00:01:00.000Z');
    assert.equal(replaced.body.data.created_at, '2026-11-21T00:00:00.000Z');
    assert.notEqual(replaced.body.data.etag, created.body.data.etag);
    assert.equal((await app.api('GET', `${DOC}/watch-notes`, { token: a.apiKey })).body.data.content, 'plain now');

    // the old ETag is stale now: 412, and the document is unchanged
    const stale = await app.api('PUT', `${DOC}/watch-notes`, { token: a.apiKey, headers: { 'if-match': created.body.data.etag }, body: { content: 'lost update' } });
    assert.equal(stale.status, 412);
    assert.equal(stale.body.errors[0].code, 'precondition_failed');
    assert.equal((await app.api('GET', `${DOC}/watch-notes`, { token: a.apiKey })).body.data.content, 'plain now');

    for (const name of ['b.json', 'a_1', 'c-2']) await app.api('PUT', `${DOC}/${name}`, { token: a.apiKey, body: { content: [name] } });
    const page1 = await app.api('GET', `${DOC}?limit=2`, { token: a.apiKey });
    assert.deepEqual(
      page1.body.data.items.map((d: any) => d.name),
      ['a_1', 'b.json'],
    );
    assert.equal(page1.body.data.items[0].content, undefined, 'listing carries no content');
    assert.equal(page1.body.data.next_cursor, 'b.json');
    const page2 = await app.api('GET', `${DOC}?limit=2&cursor=${page1.body.data.next_cursor}`, { token: a.apiKey });
    assert.deepEqual(
      page2.body.data.items.map((d: any) => d.name),
      ['c-2', 'watch-notes'],
    );
    assert.equal(page2.body.data.next_cursor, null);
    assert.equal(page2.body.data.usage.documents, 4);
    assert.equal(page2.body.data.usage.max_document_bytes, WORKSPACE_LIMITS.documentBytes);

    const wrongDelete = await app.api('DELETE', `${DOC}/watch-notes`, { token: a.apiKey, headers: { 'if-match': created.body.data.etag } });
    assert.equal(wrongDelete.status, 412);
    const deleted = await app.api('DELETE', `${DOC}/watch-notes`, { token: a.apiKey, headers: { 'if-match': replaced.body.data.etag } });
    assert.equal(deleted.status, 200);
    assert.deepEqual(deleted.body.data, { name: 'watch-notes', deleted: true });
    const gone = await app.api('GET', `${DOC}/watch-notes`, { token: a.apiKey });
    assert.equal(gone.status, 404);
    assert.equal(gone.body.errors[0].code, 'workspace_document_not_found');
    assert.equal((await app.api('DELETE', `${DOC}/watch-notes`, { token: a.apiKey })).body.errors[0].code, 'workspace_document_not_found');
  });
});

test('documents: If-None-Match: * creates only; If-Match on a missing document fails; names and media types are checked', async () => {
  await withApp(async (app) => {
    const a = await app.registerAgent('alpha');
    const first = await app.api('PUT', `${DOC}/only-once`, { token: a.apiKey, headers: { 'if-none-match': '*' }, body: { content: 1 } });
    assert.equal(first.status, 200);
    const second = await app.api('PUT', `${DOC}/only-once`, { token: a.apiKey, headers: { 'if-none-match': '*' }, body: { content: 2 } });
    assert.equal(second.status, 412);
    assert.equal(second.body.errors[0].code, 'precondition_failed');
    const missing = await app.api('PUT', `${DOC}/not-there`, { token: a.apiKey, headers: { 'if-match': '*' }, body: { content: 1 } });
    assert.equal(missing.status, 412);
    assert.equal((await app.api('GET', `${DOC}/not-there`, { token: a.apiKey })).status, 404, 'a refused write creates nothing');
    const star = await app.api('PUT', `${DOC}/only-once`, { token: a.apiKey, headers: { 'if-match': '*' }, body: { content: 3 } });
    assert.equal(star.status, 200);
    assert.equal(star.body.data.revision, 2);

    const badName = await app.api('PUT', `${DOC}/.hidden`, { token: a.apiKey, body: { content: 1 } });
    assert.equal(badName.status, 400);
    assert.equal(badName.body.errors[0].code, 'invalid_request');
    assert.equal(badName.body.errors[0].field, 'params.name');
    const tooLong = await app.api('GET', `${DOC}/${'x'.repeat(129)}`, { token: a.apiKey });
    assert.equal(tooLong.status, 400);
    const textNotString = await app.api('PUT', `${DOC}/t`, { token: a.apiKey, body: { content: { a: 1 }, media_type: 'text/plain' } });
    assert.equal(textNotString.status, 400);
    assert.equal(textNotString.body.errors[0].field, 'body.content');
    const noContent = await app.api('PUT', `${DOC}/t`, { token: a.apiKey, body: {} });
    assert.equal(noContent.status, 400);
    assert.equal(noContent.body.errors[0].field, 'body.content');
  });
});

test('documents: the per-document cap at its edge, and the per-agent caps of documents and bytes', async () => {
  await withApp(async (app) => {
    const a = await app.registerAgent('alpha');
    const atCap = 'x'.repeat(WORKSPACE_LIMITS.documentBytes);
    const ok = await app.api('PUT', `${DOC}/big`, { token: a.apiKey, body: { content: atCap, media_type: 'text/plain' } });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.data.size_bytes, WORKSPACE_LIMITS.documentBytes);
    const over = await app.api('PUT', `${DOC}/big2`, { token: a.apiKey, body: { content: atCap + 'y', media_type: 'text/plain' } });
    assert.equal(over.status, 413);
    assert.equal(over.body.errors[0].code, 'workspace_document_too_large');

    // bytes: 31 full documents fit in 1 MiB (32 KiB each = 32 documents), the 33rd does not
    const perAgent = WORKSPACE_LIMITS.agentBytes / WORKSPACE_LIMITS.documentBytes;
    for (let i = 1; i < perAgent; i++) {
      const res = await app.api('PUT', `${DOC}/big-${i}`, { token: a.apiKey, body: { content: atCap, media_type: 'text/plain' } });
      assert.equal(res.status, 200, `document ${i}`);
    }
    const full = await app.api('PUT', `${DOC}/one-more`, { token: a.apiKey, body: { content: 'z', media_type: 'text/plain' } });
    assert.equal(full.status, 409);
    assert.equal(full.body.errors[0].code, 'workspace_quota_exceeded');
    // replacing a document by one of the same size still fits
    assert.equal((await app.api('PUT', `${DOC}/big`, { token: a.apiKey, body: { content: atCap.replace(/^x/, 'w'), media_type: 'text/plain' } })).status, 200);
    assert.equal((await app.api('DELETE', `${DOC}/big`, { token: a.apiKey })).status, 200);
    assert.equal((await app.api('PUT', `${DOC}/one-more`, { token: a.apiKey, body: { content: 'z', media_type: 'text/plain' } })).status, 200);

    // documents: a second agent fills the count cap with small documents
    const b = await app.registerAgent('beta');
    for (let i = 0; i < WORKSPACE_LIMITS.agentDocuments; i++) {
      const res = await app.api('PUT', `${DOC}/n${i}`, { token: b.apiKey, body: { content: i } });
      assert.equal(res.status, 200, `document ${i}`);
    }
    const tooMany = await app.api('PUT', `${DOC}/n-extra`, { token: b.apiKey, body: { content: 0 } });
    assert.equal(tooMany.status, 409);
    assert.equal(tooMany.body.errors[0].code, 'workspace_quota_exceeded');
    assert.equal((await app.api('PUT', `${DOC}/n0`, { token: b.apiKey, body: { content: 'replaced' } })).status, 200, 'replacing needs no new slot');
  });
});

test('documents: parallel PUTs with the same If-Match: exactly one wins, the others get 412 and nothing is lost silently', async () => {
  await withApp(async (app) => {
    const a = await app.registerAgent('alpha');
    const base = await app.api('PUT', `${DOC}/counter`, { token: a.apiKey, body: { content: { n: 0 } } });
    const etag = base.body.data.etag as string;
    const writers = Array.from({ length: 8 }, (_, i) => app.api('PUT', `${DOC}/counter`, { token: a.apiKey, headers: { 'if-match': etag }, body: { content: { n: i + 1 } } }));
    const results = await Promise.all(writers);
    const winners = results.filter((r) => r.status === 200);
    assert.equal(winners.length, 1, results.map((r) => r.status).join(','));
    assert.ok(results.filter((r) => r.status !== 200).every((r) => r.status === 412 && r.body.errors[0].code === 'precondition_failed'));
    const final = await app.api('GET', `${DOC}/counter`, { token: a.apiKey });
    assert.equal(final.body.data.revision, 2);
    assert.deepEqual(final.body.data.content, { n: results.findIndex((r) => r.status === 200) + 1 }, 'the stored content is the winning write');
    assert.equal(final.headers.etag, winners[0]!.body.data.etag);

    // read-modify-write with retries: eight increments all land
    const increment = async () => {
      for (;;) {
        const cur = await app.api('GET', `${DOC}/counter`, { token: a.apiKey });
        const res = await app.api('PUT', `${DOC}/counter`, { token: a.apiKey, headers: { 'if-match': cur.headers.etag as string }, body: { content: { n: cur.body.data.content.n + 100 } } });
        if (res.status === 200) return;
        assert.equal(res.status, 412);
      }
    };
    const before = final.body.data.content.n as number;
    await Promise.all(Array.from({ length: 8 }, increment));
    const after = await app.api('GET', `${DOC}/counter`, { token: a.apiKey });
    assert.equal(after.body.data.content.n, before + 800);
    assert.equal(after.body.data.revision, 10);
  });
});

test('documents are private: three agents with the same names never see each other', async () => {
  await withApp(async (app) => {
    const agents = [await app.registerAgent('alpha'), await app.registerAgent('beta'), await app.registerAgent('gamma')];
    for (const [i, agent] of agents.entries()) {
      await app.api('PUT', `${DOC}/shared-name`, { token: agent.apiKey, body: { content: { owner: i } } });
      await app.api('PUT', `${DOC}/own-${i}`, { token: agent.apiKey, body: { content: { secret: `s${i}` } } });
    }
    for (const [i, agent] of agents.entries()) {
      const read = await app.api('GET', `${DOC}/shared-name`, { token: agent.apiKey });
      assert.deepEqual(read.body.data.content, { owner: i });
      const list = await app.api('GET', DOC, { token: agent.apiKey });
      assert.deepEqual(
        list.body.data.items.map((d: any) => d.name),
        [`own-${i}`, 'shared-name'],
      );
      for (const j of [0, 1, 2].filter((j) => j !== i)) {
        const other = await app.api('GET', `${DOC}/own-${j}`, { token: agent.apiKey });
        assert.equal(other.status, 404);
        assert.ok(!other.text.includes(`s${j}`));
        assert.equal((await app.api('DELETE', `${DOC}/own-${j}`, { token: agent.apiKey })).status, 404);
      }
    }
    // an ETag of another agent's document does not let a write through to one's own
    const etagB = (await app.api('GET', `${DOC}/shared-name`, { token: agents[1]!.apiKey })).headers.etag as string;
    const cross = await app.api('PUT', `${DOC}/shared-name`, { token: agents[0]!.apiKey, headers: { 'if-match': etagB }, body: { content: 'x' } });
    assert.equal(cross.status, 412);
    assert.deepEqual((await app.api('GET', `${DOC}/shared-name`, { token: agents[1]!.apiKey })).body.data.content, { owner: 1 });
  });
});
