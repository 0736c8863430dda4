import { test } from 'node:test';
import assert from 'node:assert/strict';
import { authorize, bearerCredential } from '../../src/http/access.js';
import type { CatalogEntry } from '../../src/catalog/types.js';
import type { Caller } from '../../src/access/principals.js';

const entry = (access: CatalogEntry['access'], scopes: string[] = []): CatalogEntry => ({
  operationId: 'x',
  method: 'GET',
  path: '/x',
  stability: 'beta',
  cost: 0.1,
  access,
  scopes,
  section: 'meta',
  summary: 'x',
});
const agent = (scopes: string[]): Caller => ({ kind: 'agent', agent: { agentId: 'agt_1', name: 'a', state: 'sandbox', scopes: new Set(scopes), row: {} as never } });
const anonymous: Caller = { kind: 'anonymous' };
const operator: Caller = { kind: 'operator', operator: { tokenPrefix: 'bop_x' } };
const code = (e: ReturnType<typeof authorize>) => e?.code ?? null;

test('P allows everyone', () => {
  for (const c of [anonymous, agent([]), operator]) assert.equal(authorize(entry('P'), c), null);
});

test('K needs an agent key and every listed scope', () => {
  assert.equal(code(authorize(entry('K'), anonymous)), 'auth_required');
  assert.equal(code(authorize(entry('K'), operator)), 'agent_key_required');
  assert.equal(authorize(entry('K'), agent([])), null);
  assert.equal(code(authorize(entry('K', ['a:b', 'c:d']), agent(['a:b']))), 'scope_required');
  assert.equal(authorize(entry('K', ['a:b', 'c:d']), agent(['a:b', 'c:d'])), null);
});

test('an expired sandbox answers sandbox_access_denied for sandbox scopes, scope_required otherwise', () => {
  const expired: Caller = { kind: 'agent', agent: { agentId: 'agt_2', name: 'b', state: 'sandbox_expired', scopes: new Set(), row: { sandbox_expires_at: Date.UTC(2026, 0, 15) } as never } };
  const denied = authorize(entry('K', ['harbor:help:read']), expired);
  assert.equal(code(denied), 'sandbox_access_denied');
  assert.match(denied!.message, /2026-01-15T00:00:00.000Z/);
  assert.equal(code(authorize(entry('K', ['harbor:task:read']), expired)), 'scope_required');
});

test('a scope that cannot be granted yet says so', () => {
  const err = authorize(entry('K', ['harbor:vessel:research:read']), agent([]));
  assert.equal(code(err), 'scope_required');
  assert.match(err!.message, /unavailable on this service/);
});

test('U is for the operator or an agent holding ops:read', () => {
  assert.equal(code(authorize(entry('U'), anonymous)), 'auth_required');
  assert.equal(code(authorize(entry('U'), agent(['harbor:public:read']))), 'operator_required');
  assert.equal(authorize(entry('U'), agent(['ops:read'])), null);
  assert.equal(authorize(entry('U'), operator), null);
});

test('Bearer parsing: absent, malformed and well-formed headers', () => {
  assert.equal(bearerCredential(undefined), undefined);
  assert.equal(bearerCredential(''), undefined);
  assert.equal(bearerCredential('Basic abc'), null);
  assert.equal(bearerCredential('Bearer'), null);
  assert.equal(bearerCredential('Bearer a b'), null);
  assert.equal(bearerCredential('bearer bsk_abc'), 'bsk_abc');
});
