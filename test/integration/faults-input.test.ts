import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GRANTABLE_SCOPES } from '../../src/access/scopes.js';
import { INT_MAX } from '../../src/http/edge-input.js';
import { startTestApp, type ApiResponse, withApp } from '../helpers/app.js';

/**
 * Hostile input at the edge (issue 8 item 5; docs/decisions/012): NUL and other control characters,
 * lone UTF-16 surrogates and integers beyond int4 are refused with a 400 naming the field, on every
 * implemented operation's string and integer parameters, identically on SQLite and PostgreSQL
 * (PostgreSQL answered 500 to all of them before).
 */

type Json = Record<string, unknown>;
interface Field {
  part: 'query' | 'params' | 'body';
  path: string[];
  string: boolean;
  integer: boolean;
}

const typesOf = (schema: Json): string[] => {
  const own = Array.isArray(schema.type) ? (schema.type as string[]) : typeof schema.type === 'string' ? [schema.type] : [];
  const alternatives = [...((schema.anyOf as Json[]) ?? []), ...((schema.oneOf as Json[]) ?? [])].flatMap(typesOf);
  return [...own, ...alternatives];
};

/** String and integer leaves of a request schema (object properties, two levels deep; arrays by their first item). */
function fieldsOf(schema: Json | undefined, part: Field['part'], path: string[] = [], depth = 0): Field[] {
  if (!schema) return [];
  const out: Field[] = [];
  const properties = (schema.properties as Record<string, Json> | undefined) ?? {};
  for (const [name, prop] of Object.entries(properties)) {
    const types = typesOf(prop);
    const at = [...path, name];
    if (types.includes('string') || types.includes('integer')) out.push({ part, path: at, string: types.includes('string'), integer: types.includes('integer') });
    if (depth < 2 && types.includes('object')) out.push(...fieldsOf(prop, part, at, depth + 1));
    const items = prop.items as Json | undefined;
    if (depth < 2 && types.includes('array') && items) {
      const itemTypes = typesOf(items);
      if (itemTypes.includes('string') || itemTypes.includes('integer')) out.push({ part, path: [...at, '0'], string: itemTypes.includes('string'), integer: itemTypes.includes('integer') });
      if (itemTypes.includes('object')) out.push(...fieldsOf(items, part, [...at, '0'], depth + 1));
    }
  }
  return out;
}

function setAt(target: Json, path: string[], value: unknown): Json {
  let node: Record<string, unknown> = target;
  path.forEach((key, i) => {
    if (i === path.length - 1) node[key] = value;
    else {
      const next = /^\d+$/.test(path[i + 1]!) ? [] : {};
      node[key] ??= next;
      node = node[key] as Record<string, unknown>;
    }
  });
  return target;
}

const PARAM_PLACEHOLDER = 'x1';

function urlFor(path: string, params: Record<string, string>, query: Record<string, string>): string {
  const filled = path.replace(/\{([^}]+)\}/g, (_, name: string) => params[name] ?? PARAM_PLACEHOLDER);
  const qs = Object.entries(query)
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  return qs ? `${filled}?${qs}` : filled;
}

test('hostile strings and integers on every implemented operation: 4xx envelopes naming the field, never 5xx', async () => {
  const app = await startTestApp();
  let ipCounter = 0;
  const nextIp = () => `10.77.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;
  try {
    const operator = await app.operatorToken();
    let named = 0;
    let sent = 0;
    const unreachable = new Set<string>();
    for (const { entry, route } of app.bosun.ctx.catalog.implemented) {
      app.clock.advance(61_000); // a fresh minute of the error budget for each operation
      let agentKey: string | undefined;
      if (entry.access === 'K') {
        const agent = await app.registerAgent('hostile-input');
        for (const scope of GRANTABLE_SCOPES) await app.bosun.ctx.services.agents.grantScope(agent.agentId, scope, { kind: 'cli' });
        agentKey = agent.apiKey;
      }
      const token = entry.access === 'U' ? operator : agentKey;
      const label = `${entry.method} ${entry.path}`;
      const send = async (what: string, url: string, body?: Json): Promise<ApiResponse> => {
        sent++;
        const call = () => app.api(entry.method, url, { token, ip: nextIp(), ...(body ? { rawBody: JSON.stringify(body), headers: { 'content-type': 'application/json' } } : {}) });
        let res = await call();
        if (res.status === 429) {
          // an operation's own per-minute limit (the trial's 6/min): the next minute lets the check run
          app.clock.advance(61_000);
          res = await call();
        }
        assert.ok(res.status >= 400 && res.status < 500, `${label} ${what} → 4xx, got ${res.status} ${res.text.slice(0, 300)}`);
        assert.equal(res.body?.status, 'error', `${label} ${what}: an error envelope`);
        return res;
      };
      /** Text rules run before any schema: the 400 names exactly this field once the caller is let in. */
      const expectNamed = (res: ApiResponse, field: string, what: string) => {
        if (res.status === 401 || res.status === 403) {
          unreachable.add(label);
          return;
        }
        assert.equal(res.status, 400, `${label} ${what}: ${res.text.slice(0, 300)}`);
        // harbor operations answer body input in their own code (harbor-interface part 7)
        const ownCode = (route.errors ?? []).find((c) => ['help_request_input_invalid', 'help_response_invalid', 'help_report_invalid', 'profile_input_invalid'].includes(c));
        assert.equal(res.body.errors[0].code, field.startsWith('body') && ownCode ? ownCode : 'invalid_request', `${label} ${what}`);
        assert.equal(res.body.errors[0].field, field, `${label} ${what}`);
        named++;
      };
      const fields = [...fieldsOf(route.params, 'params'), ...fieldsOf(route.query, 'query'), ...(entry.method === 'GET' ? [] : fieldsOf(route.body, 'body'))];
      for (const field of fields) {
        const name = field.path.join('.');
        const fieldName = `${field.part}.${name}`;
        const request = (raw: string, json: unknown) => {
          if (field.part === 'params') return { url: urlFor(entry.path, { [name]: raw }, {}), body: entry.method === 'GET' ? undefined : {} };
          if (field.part === 'query') return { url: urlFor(entry.path, {}, { [name]: raw }), body: entry.method === 'GET' ? undefined : {} };
          return { url: urlFor(entry.path, {}, {}), body: setAt({}, field.path, json) };
        };
        if (field.string) {
          for (const [what, raw, json] of [
            ['NUL', 'a%00b', 'a\u0000b'],
            ['U+0001', 'a%01b', 'a\u0001b'],
            ['ESC', 'a%1Bb', 'a\u001bb'],
          ] as const) {
            const { url, body } = request(raw, json);
            expectNamed(await send(`${fieldName} ${what}`, url, body), fieldName, `${fieldName} ${what}`);
          }
          if (field.part === 'body') {
            for (const [what, json] of [
              ['lone high surrogate', 'a\ud800b'],
              ['lone low surrogate', '\udc00'],
              ['reversed pair', '\udc00\ud800'],
            ] as const) {
              const { url, body } = request('', json);
              expectNamed(await send(`${fieldName} ${what}`, url, body), fieldName, `${fieldName} ${what}`);
            }
          }
        }
        if (field.integer) {
          for (const [raw, json] of [
            [String(INT_MAX + 1), INT_MAX + 1],
            ['99999999999999999999', 1e20],
            [String(-(2 ** 31) - 1), -(2 ** 31) - 1],
          ] as const) {
            const { url, body } = request(raw, json);
            const res = await send(`${fieldName} = ${raw}`, url, body);
            // Path parameters are validated first, so a path integer's 400 always names it.
            if (field.part === 'params' && res.status === 400) assert.equal(res.body.errors[0].field, fieldName, `${label} ${fieldName} = ${raw}`);
          }
        }
      }
    }
    assert.ok(sent > 300, `hostile requests sent: ${sent}`);
    assert.ok(named > 200, `refusals naming the field: ${named}`);
    // Only operations behind a scope no agent can be granted yet stay out of reach.
    const ungrantable = app.bosun.ctx.catalog.implemented
      .filter(({ entry }) => entry.access === 'K' && entry.scopes.some((scope) => !GRANTABLE_SCOPES.has(scope)))
      .map(({ entry }) => `${entry.method} ${entry.path}`);
    assert.deepEqual([...unreachable].sort(), ungrantable.filter((op) => unreachable.has(op)).sort(), 'every other operation let its caller in far enough to check the input');
  } finally {
    await app.close();
  }
});

test('text rules: TAB, LF and CR pass the edge in JSON bodies but not in query strings; a valid surrogate pair passes; property names count', () =>
  withApp(async (app) => {
    const ok = await app.api('GET', '/v1/harbor/skills?text=' + encodeURIComponent('ship 🚢'));
    assert.equal(ok.status, 200, ok.text);
    const tab = await app.api('GET', '/v1/harbor/skills?text=a%09b');
    assert.equal(tab.status, 400);
    assert.equal(tab.body.errors[0].field, 'query.text');
    assert.match(tab.body.errors[0].message, /U\+0009/);
    const del = await app.api('GET', '/v1/harbor/skills?text=a%7Fb');
    assert.equal(del.status, 400, 'DEL is a control character too');

    // In a JSON body TAB, LF and CR are text: the edge lets them through to the field's own rules.
    const multiline = await app.api('POST', '/v1/agents/register', { body: { name: 'multiline', description: 'line one\r\nline\ttwo' }, ip: '10.1.2.3' });
    assert.doesNotMatch(JSON.stringify(multiline.body.errors), /control character/);
    const nulKey = await app.api('POST', '/v1/agents/register', { rawBody: '{"name":"x","a\\u0000b":1}', headers: { 'content-type': 'application/json' }, ip: '10.1.2.4' });
    assert.equal(nulKey.status, 400);
    assert.equal(nulKey.body.errors[0].field, 'body');
    assert.match(nulKey.body.errors[0].message, /property name/);
  }));

test('integers are bounded to int4 at the edge: group_id 2^31-1 reaches the handler, 2^31 is a 400 naming params.group_id', () =>
  withApp(async (app) => {
    const { apiKey } = await app.registerAgent('groups');
    const edge = await app.api('GET', `/v1/harbor/public/groups/${INT_MAX}/posts`, { token: apiKey });
    assert.equal(edge.status, 404, `2^31-1 is a valid id that matches no group: ${edge.text}`);
    assert.notEqual(edge.body.errors[0].code, 'invalid_request');
    for (const tooBig of [INT_MAX + 1, '99999999999999999999']) {
      const res = await app.api('GET', `/v1/harbor/public/groups/${tooBig}/posts`, { token: apiKey });
      assert.equal(res.status, 400, `${tooBig}: ${res.text}`);
      assert.equal(res.body.errors[0].field, 'params.group_id');
      assert.match(res.body.errors[0].message, /2147483647/);
    }
  }));

/** JSON text nesting `levels` arrays or objects, with a string at the bottom. */
const nested = (levels: number, kind: 'array' | 'object') => (kind === 'array' ? '['.repeat(levels) + '"x"' + ']'.repeat(levels) : '{"a":'.repeat(levels) + '"x"' + '}'.repeat(levels));

test('deeply nested JSON bodies (10,000 and 100,000 levels) on every operation taking a body and on /mcp: 400 invalid_request, never 5xx', async () => {
  // a body limit large enough that 100,000 levels of objects (600 KB) reach the parser
  const app = await startTestApp({ env: { BOSUN_BODY_LIMIT_BYTES: '1048576' } });
  try {
    const operator = await app.operatorToken();
    const agent = await app.registerAgent('deep-json');
    for (const scope of GRANTABLE_SCOPES) await app.bosun.ctx.services.agents.grantScope(agent.agentId, scope, { kind: 'cli' });
    const targets = app.bosun.ctx.catalog.implemented
      .filter(({ route }) => route.body !== undefined)
      .map(({ entry }) => ({ method: entry.method, url: entry.path.replace(/\{[^}]+\}/g, 'x1'), token: entry.access === 'U' ? operator : entry.access === 'K' ? agent.apiKey : undefined }));
    assert.ok(targets.length >= 30, `operations taking a body: ${targets.length}`);
    targets.push({ method: 'POST', url: '/mcp', token: undefined }, { method: 'POST', url: '/mcp', token: agent.apiKey });
    let sent = 0;
    for (const target of targets) {
      for (const levels of [10_000, 100_000]) {
        for (const kind of ['array', 'object'] as const) {
          app.clock.advance(61_000);
          const res = await app.api(target.method, target.url, {
            ...(target.token ? { token: target.token } : {}),
            rawBody: kind === 'array' ? nested(levels, kind) : `{"wrapper":${nested(levels, kind)}}`,
            headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
            ip: `10.78.${sent >> 8}.${sent & 255}`,
          });
          sent++;
          const what = `${target.method} ${target.url} ${levels} levels of ${kind}s${target.token ? '' : ' (anonymous)'}`;
          assert.equal(res.status, 400, `${what}: ${res.text.slice(0, 200)}`);
          assert.equal(res.body.errors[0].code, 'invalid_request', what);
          assert.equal(res.body.errors[0].field, 'body', what);
          assert.match(res.body.errors[0].message, /deeper than 64 levels/, what);
        }
      }
    }
    // nesting within the limit is ordinary input: the operation's own schema answers it
    const shallow = await app.api('POST', '/v1/agents/register', { rawBody: `{"name":"deep","extra":${nested(60, 'array')}}`, headers: { 'content-type': 'application/json' }, ip: '10.79.0.1' });
    assert.equal(shallow.status, 400);
    assert.equal(shallow.body.errors[0].field, 'body.extra');
  } finally {
    await app.close();
  }
});

test('with the default body limit a 100,000-level body is refused by size, a 10,000-level one by depth', () =>
  withApp(async (app) => {
    const big = await app.api('POST', '/v1/agents/register', { rawBody: nested(100_000, 'array'), headers: { 'content-type': 'application/json' }, ip: '10.79.0.2' });
    assert.equal(big.status, 413);
    assert.equal(big.body.errors[0].code, 'body_too_large');
    const deep = await app.api('POST', '/v1/agents/register', { rawBody: nested(10_000, 'object'), headers: { 'content-type': 'application/json' }, ip: '10.79.0.3' });
    assert.equal(deep.status, 400);
    assert.equal(deep.body.errors[0].code, 'invalid_request');
  }));

test('integer parameters are decimal only: 0x10, 1e2, " 16", 0b1 and 1.0 are refused with invalid_request naming the field; 16 passes', () =>
  withApp(async (app) => {
    const { apiKey } = await app.registerAgent('decimal', ['vessels:live']);
    for (const text of ['0x10', '1e1', ' 16', '16 ', '0b1', '0o7', '1.0', '+5']) {
      const poll = await app.api('GET', `/v1/vessels/updates?timeout=${encodeURIComponent(text)}`, { token: apiKey });
      assert.equal(poll.status, 400, `timeout=${text}: ${poll.text.slice(0, 200)}`);
      assert.equal(poll.body.errors[0].code, 'invalid_request');
      assert.equal(poll.body.errors[0].field, 'query.timeout');
      assert.match(poll.body.errors[0].message, /must be a decimal integer/);
      const page = await app.api('GET', `/v1/ports/search?q=Rotterdam&limit=${encodeURIComponent(text)}`);
      assert.equal(page.status, 400, `limit=${text}`);
      assert.equal(page.body.errors[0].field, 'query.limit');
      const path = await app.api('GET', `/v1/harbor/public/groups/${encodeURIComponent(text)}/posts`, { token: apiKey });
      assert.equal(path.status, 400, `group_id=${text}`);
      assert.equal(path.body.errors[0].field, 'params.group_id');
    }
    const decimal = await app.api('GET', '/v1/ports/search?q=Rotterdam&limit=2');
    assert.equal(decimal.status, 200, decimal.text);
    assert.ok(decimal.body.data.items.length <= 2);
    const instant = await app.api('GET', '/v1/vessels/updates?timeout=0', { token: apiKey });
    assert.equal(instant.status, 200, instant.text);
    const negative = await app.api('GET', '/v1/ports/search?q=Rotterdam&limit=-1');
    assert.equal(negative.status, 400, 'a decimal out of range is the schema’s refusal');
    assert.doesNotMatch(negative.body.errors[0].message, /decimal integer/);
  }));
