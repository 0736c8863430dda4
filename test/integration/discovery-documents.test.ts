import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AgentCard } from '@a2a-js/sdk';
import { buildCatalogView } from '../../src/catalog/catalog.js';
import { ALL_ROUTES } from '../../src/features/index.js';
import { buildAgentCard, buildLlmsFullTxt, buildLlmsTxt } from '../../src/features/discovery/discovery-documents.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

const BASE = 'http://localhost:80';
const operationLines = (text: string) => [...text.matchAll(/^- \[(GET|POST|PUT|DELETE) (\S+)\]\((\S+)\): .*\((\w+); /gm)].map((m) => ({ method: m[1], path: m[2], url: m[3], id: m[4] }));
const fullHeadings = (text: string) => [...text.matchAll(/^### (GET|POST|PUT|DELETE) (\S+)$/gm)].map((m) => `${m[1]} ${m[2]}`);

describe('discovery documents', () => {
  let app: TestApp;
  let discoverable: string[];
  before(async () => {
    app = await startTestApp();
    discoverable = app.bosun.ctx.catalog.discoverable.map((o) => o.entry.operationId).sort();
  });
  after(() => app.close());

  test('llms.txt lists exactly the operations of public discovery, with links that work', async () => {
    const res = await app.api('GET', '/llms.txt');
    assert.equal(res.status, 200);
    assert.match(String(res.headers['content-type']), /^text\/plain; charset=utf-8/);
    assert.match(res.text, /^# Bosun\n\n> Bosun is a maritime information service/);
    const lines = operationLines(res.text);
    assert.deepEqual(lines.map((l) => l.id).sort(), discoverable);
    const closed = app.bosun.ctx.catalog.implemented.filter((o) => o.entry.discovery === 'closed');
    assert.ok(closed.length > 0);
    for (const { entry } of closed) assert.ok(!res.text.includes(entry.path), `closed ${entry.path} is not published`);
    for (const entry of app.bosun.ctx.catalog.planned) assert.ok(!lines.some((l) => l.id === entry.operationId), `planned ${entry.operationId}`);
    const pricing = lines.find((l) => l.id === 'getBillingPricing')!;
    assert.deepEqual(pricing, { method: 'GET', path: '/v1/billing/pricing', url: `${BASE}/v1/billing/pricing`, id: 'getBillingPricing' });
    assert.ok(res.text.includes(`- [Full text](${BASE}/llms-full.txt)`));
    const mcp = app.bosun.http.hasRoute({ method: 'POST', url: '/mcp' });
    assert.equal(res.text.includes(`(${BASE}/mcp)`), mcp, 'the MCP endpoint is linked exactly when it is served');
    for (const link of ['/v1/agents/quickstart', '/openapi.json', '/v1/capabilities', '/v1/billing/pricing', '/.well-known/agent-card.json']) {
      assert.ok(res.text.includes(`](${BASE}${link})`), link);
      assert.equal((await app.api('GET', link)).status, 200, link);
    }
  });

  test('llms-full.txt has one full section per operation of public discovery', async () => {
    const res = await app.api('GET', '/llms-full.txt');
    assert.equal(res.status, 200);
    const headings = fullHeadings(res.text);
    assert.deepEqual(headings.sort(), app.bosun.ctx.catalog.discoverable.map((o) => `${o.entry.method} ${o.entry.path}`).sort());
    const verify = res.text.slice(res.text.indexOf('### POST /v1/billing/x402/verify'));
    const section = verify.slice(0, verify.indexOf('\n### '));
    assert.match(section, /operationId postBillingX402Verify · section billing · access K \(agent API key\) · 0\.1 cost units · beta/);
    assert.match(section, /- paymentRequirements \(object, required\)/);
    assert.match(section, /- settlement_unavailable \(HTTP 503\): No payment facilitator is configured/);
    const ops = res.text.slice(res.text.indexOf('### GET /v1/billing/ops\n'));
    assert.match(ops.slice(0, ops.indexOf('\n### ')), /- period \("today" \| "week" \| "month"\): today/);
  });

  test('the A2A agent card is an AgentCard of @a2a-js/sdk with one skill per operation', async () => {
    const res = await app.api('GET', '/.well-known/agent-card.json');
    assert.equal(res.status, 200);
    assert.match(String(res.headers['content-type']), /^application\/json/);
    const card = res.body;
    // every field is one the SDK knows, in the form it writes: a parse and write give the same document back
    const parsed: AgentCard = AgentCard.fromJSON(card);
    assert.deepEqual(AgentCard.toJSON(parsed), card);
    assert.equal(parsed.name, 'Bosun');
    assert.deepEqual(parsed.supportedInterfaces, [{ url: `${BASE}/openapi.json`, protocolBinding: 'OPENAPI-3.1+HTTP', tenant: '', protocolVersion: '1.0' }]);
    assert.equal(parsed.securitySchemes.bearer?.scheme?.$case, 'httpAuthSecurityScheme');
    assert.deepEqual(parsed.skills.map((s) => s.id).sort(), discoverable);
    const status = parsed.skills.find((s) => s.id === 'getBillingStatus')!;
    assert.deepEqual(status.tags, ['billing', 'access:K', 'beta']);
    assert.deepEqual(Object.keys(status.securityRequirements[0]!.schemes), ['bearer']);
    assert.deepEqual(parsed.skills.find((s) => s.id === 'getPing')!.securityRequirements, []);
  });

  test('quickstart, capabilities and the OpenAPI info link the documents', async () => {
    const quick = (await app.api('GET', '/v1/agents/quickstart')).body.data.documents;
    assert.deepEqual([quick.llms_txt, quick.llms_full_txt, quick.agent_card], [`${BASE}/llms.txt`, `${BASE}/llms-full.txt`, `${BASE}/.well-known/agent-card.json`]);
    const caps = (await app.api('GET', '/v1/capabilities')).body.data.discovery;
    assert.deepEqual(caps, { llms_txt: `${BASE}/llms.txt`, llms_full_txt: `${BASE}/llms-full.txt`, agent_card: `${BASE}/.well-known/agent-card.json` });
    const doc = (await app.api('GET', '/openapi.json')).body;
    assert.equal(doc.info['x-llms-txt'], `${BASE}/llms.txt`);
    assert.equal(doc.info['x-agent-card'], `${BASE}/.well-known/agent-card.json`);
    assert.deepEqual(doc.externalDocs.url, `${BASE}/llms.txt`);
  });

  test('a configured public URL is used in every link', async () => {
    const other = await startTestApp({ env: { BOSUN_PUBLIC_URL: 'https://bosun.example' } });
    try {
      const text = (await other.api('GET', '/llms.txt')).text;
      assert.ok(operationLines(text).every((l) => String(l.url).startsWith('https://bosun.example/')));
      assert.equal((await other.api('GET', '/.well-known/agent-card.json')).body.supportedInterfaces[0].url, 'https://bosun.example/openapi.json');
    } finally {
      await other.close();
    }
  });
});

test('the documents follow the catalog: a catalog with fewer routes lists only those', () => {
  const some = ALL_ROUTES.filter((r) => r.operationId.startsWith('getBilling') || r.operationId === 'getPing');
  const catalog = buildCatalogView(some);
  const source = { catalog, version: 'test', mcpAvailable: () => false };
  const ids = some.map((r) => r.operationId).sort();
  assert.deepEqual(
    operationLines(buildLlmsTxt(source, BASE))
      .map((l) => l.id)
      .sort(),
    ids,
  );
  assert.equal(fullHeadings(buildLlmsFullTxt(source, BASE)).length, ids.length);
  assert.deepEqual(
    buildAgentCard(source, BASE, BASE)
      .skills.map((s) => s.id)
      .sort(),
    ids,
  );
  assert.ok(!buildLlmsTxt(source, BASE).includes('/v1/agents/quickstart'), 'links only to operations this catalog implements');
});
