import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from '@sinclair/typebox';
import type { AgentPrincipal } from '../../src/access/principals.js';
import { buildCatalogView } from '../../src/catalog/catalog.js';
import type { CatalogEntry } from '../../src/catalog/types.js';
import { ManualClock } from '../../src/platform/clock.js';
import { buildHttpApp, type HttpServices } from '../../src/http/app.js';
import type { IdempotentWrites } from '../../src/http/idempotency.js';
import { routeDefiner } from '../../src/http/route.js';
import { Limiter, MemoryLimiterBackend } from '../../src/limits/limiter.js';
import { createLogger } from '../../src/observability/logger.js';
import type { AgentsTable } from '../../src/store/schema.js';
import { TEST_EPOCH, testConfig } from '../helpers/app.js';

const ENTRY: CatalogEntry = {
  operationId: 'postTestNotes',
  method: 'POST',
  path: '/v1/test/notes',
  stability: 'stable',
  cost: 1,
  access: 'K',
  scopes: [],
  section: 'harbor',
  summary: 'test',
};
const AGENT: AgentPrincipal = { agentId: 'agt_registration', name: 'registration', state: 'sandbox', scopes: new Set(), row: {} as AgentsTable };

/** Results kept by caller and key, as the idempotency service keeps them (its own tests cover fingerprints and expiry). */
function rememberingWrites(): IdempotentWrites & { runs: string[] } {
  const stored = new Map<string, unknown>();
  const runs: string[] = [];
  return {
    runs,
    parseKey: (header) => (typeof header === 'string' ? header : undefined),
    async run<T>(key: string | undefined, request: { caller: string }, execute: () => Promise<T>) {
      runs.push(`${request.caller} ${key ?? '-'}`);
      if (key === undefined) return { result: await execute(), replayed: false };
      const id = `${request.caller} ${key}`;
      if (stored.has(id)) return { result: stored.get(id) as T, replayed: true };
      const result = await execute();
      stored.set(id, result);
      return { result, replayed: false };
    },
  };
}

function appWith(idempotencyKey: boolean) {
  const handled: string[] = [];
  const writes = rememberingWrites();
  const services: HttpServices = {
    agents: { authenticate: async () => AGENT, cachedPrincipal: () => undefined },
    operator: { authenticate: async () => undefined },
    audit: { record: async () => {} },
    telemetry: { record: () => {} },
    idempotency: writes,
  };
  const defineRoute = routeDefiner<HttpServices>();
  const route = defineRoute({
    operationId: ENTRY.operationId,
    description: 'test',
    body: Type.Object({ text: Type.String() }),
    response: Type.Object({ note: Type.Number(), text: Type.String() }),
    successStatus: 201,
    idempotencyKey,
    examples: [],
    async handler({ body }) {
      handled.push(body.text);
      return { data: { note: handled.length, text: body.text } };
    },
  });
  const http = buildHttpApp({
    config: testConfig(),
    clock: new ManualClock(TEST_EPOCH),
    logger: createLogger('silent'),
    limiter: new Limiter(new MemoryLimiterBackend()),
    catalog: buildCatalogView([route], [ENTRY]),
    services,
    ratePolicyOverrides: {},
  });
  const post = (text: string, key?: string) =>
    http.inject({ method: 'POST', url: ENTRY.path, payload: { text }, headers: { authorization: 'Bearer bsk_test', ...(key ? { 'idempotency-key': key } : {}) } });
  return { http, post, handled, writes };
}

test("a route declaring idempotencyKey is run under the caller's key by registration: a retry replays, the handler runs once", async () => {
  const { http, post, handled, writes } = appWith(true);
  try {
    const first = await post('hello', 'key-00000001');
    assert.equal(first.statusCode, 201);
    assert.equal(first.headers['idempotent-replayed'], undefined);
    assert.deepEqual(first.json().data, { note: 1, text: 'hello' });

    const retry = await post('hello', 'key-00000001');
    assert.equal(retry.statusCode, 201);
    assert.equal(retry.headers['idempotent-replayed'], 'true');
    assert.deepEqual(retry.json().data, { note: 1, text: 'hello' });

    const unkeyed = await post('again');
    assert.equal(unkeyed.headers['idempotent-replayed'], undefined);
    assert.deepEqual(unkeyed.json().data, { note: 2, text: 'again' });

    assert.deepEqual(handled, ['hello', 'again']);
    assert.deepEqual(writes.runs, ['agent:agt_registration key-00000001', 'agent:agt_registration key-00000001', 'agent:agt_registration -']);
  } finally {
    await http.close();
  }
});

test('a route without idempotencyKey is never wrapped: the same key runs the handler each time', async () => {
  const { http, post, handled, writes } = appWith(false);
  try {
    await post('hello', 'key-00000001');
    const second = await post('hello', 'key-00000001');
    assert.equal(second.headers['idempotent-replayed'], undefined);
    assert.deepEqual(second.json().data, { note: 2, text: 'hello' });
    assert.deepEqual(handled, ['hello', 'hello']);
    assert.deepEqual(writes.runs, []);
  } finally {
    await http.close();
  }
});
