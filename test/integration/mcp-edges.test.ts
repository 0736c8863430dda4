import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withApp } from '../helpers/app.js';

const MCP_HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };

test('/mcp protocol edges: refused text and invalid params are JSON-RPC errors with the request id; DELETE with a JSON type is 405', async () => {
  await withApp(async (app) => {
    const { apiKey } = await app.registerAgent('mcp-edges');
    const send = (rawBody: string) => app.api('POST', '/mcp', { token: apiKey, headers: MCP_HEADERS, rawBody });

    // NUL and a lone surrogate: the JSON-RPC error names the field and carries the id
    const nul = await send('{"jsonrpc":"2.0","id":41,"method":"tools/call","params":{"name":"getPing","arguments":{"x":"a\\u0000b"}}}');
    assert.equal(nul.status, 400);
    assert.deepEqual(nul.body, {
      jsonrpc: '2.0',
      id: 41,
      error: { code: -32602, message: 'params.arguments.x contains the control character U+0000, which is not accepted' },
    });
    const surrogate = await send('{"jsonrpc":"2.0","id":"s-1","method":"tools/call","params":{"name":"getPing\\ud800"}}');
    assert.equal(surrogate.status, 400);
    assert.equal(surrogate.body.id, 's-1');
    assert.equal(surrogate.body.error.code, -32602);
    assert.equal(surrogate.body.error.message, 'params.name contains a lone UTF-16 surrogate (not valid Unicode text)');
    const inMethod = await send('{"jsonrpc":"2.0","id":3,"method":"tools/\\u0001list"}');
    assert.equal(inMethod.body.error.code, -32600, 'outside params: an invalid request');
    assert.equal(inMethod.body.id, 3);

    // invalid params: -32602 with one short readable sentence
    const noName = await send('{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"arguments":{}}}');
    assert.equal(noName.status, 400);
    assert.equal(noName.body.id, 42);
    assert.equal(noName.body.error.code, -32602);
    assert.match(noName.body.error.message, /^invalid params for tools\/call: params\.name: /);
    assert.ok(noName.body.error.message.length < 160, `short: ${noName.body.error.message}`);
    assert.doesNotMatch(noName.body.error.message, /[[{]/, 'no schema dump');
    const badUri = await send('{"jsonrpc":"2.0","id":43,"method":"resources/read","params":{"uri":7}}');
    assert.equal(badUri.body.error.code, -32602);
    assert.match(badUri.body.error.message, /^invalid params for resources\/read: params\.uri: /);

    // valid messages still reach the server
    const ok = await send('{"jsonrpc":"2.0","id":44,"method":"tools/call","params":{"name":"getPing","arguments":{}}}');
    assert.equal(ok.status, 200);
    assert.equal(ok.body.id, 44);
    assert.equal(ok.body.result.isError, false);

    for (const method of ['DELETE', 'GET']) {
      for (const headers of [{ 'content-type': 'application/json' }, {}] as Array<Record<string, string>>) {
        const res = await app.api(method, '/mcp', { token: apiKey, headers });
        assert.equal(res.status, 405, `${method} ${JSON.stringify(headers)}: ${res.text}`);
        assert.equal(res.headers.allow, 'POST');
        assert.equal(res.body.error.code, -32000);
      }
    }
  });
});
