import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withApp } from '../helpers/app.js';
import { seedSampleVessel } from '../helpers/fleet.js';

const HOST = 'entry.example';
const BASE = `http://${HOST}`;

test('GET / with Accept: application/json: the JSON root links OpenAPI, llms.txt, /mcp, the agent card and the quickstart, each answering', async () => {
  await withApp(async (app) => {
    const json = await app.api('GET', '/', { headers: { host: HOST, accept: 'application/json' } });
    assert.equal(json.status, 200);
    assert.match(String(json.headers['content-type']), /^application\/json/);
    assert.match(String(json.headers.vary), /Accept/);
    const { links } = json.body;
    for (const key of ['openapi', 'llms_txt', 'mcp', 'agent_card', 'quickstart']) assert.ok(String(links[key]).startsWith(`${BASE}/`), key);
    for (const [key, url] of Object.entries(links as Record<string, string>)) {
      if (key === 'mcp' || key === 'register') continue;
      const res = await app.api('GET', url.slice(BASE.length), { headers: { host: HOST } });
      assert.equal(res.status, 200, `${key}: ${url}`);
    }
    const mcp = await app.api('POST', links.mcp.slice(BASE.length), {
      headers: { host: HOST, accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } },
    });
    assert.equal(mcp.body.result.serverInfo.name, 'bosun');
    // a browser still gets the page, which links the same entry points
    const page = await app.api('GET', '/', { headers: { accept: 'text/html,application/xhtml+xml,application/json;q=0.9,*/*;q=0.8' } });
    assert.match(String(page.headers['content-type']), /^text\/html/);
    for (const href of ['/llms.txt', '/v1/webmcp/bootstrap', '/.well-known/agent-card.json', '/v1/agents/quickstart']) assert.ok(page.text.includes(`href="${href}"`), href);
    assert.match(String((await app.api('GET', '/', { headers: { accept: 'text/html;q=0.5, application/json' } })).headers['content-type']), /^application\/json/);
  });
});

test('the quickstart works as written on a default install: every step answers, bodies shown, the vessel steps name the demo vessel', async () => {
  await withApp(async (app) => {
    await seedSampleVessel(app.bosun.ctx.services.fleet, app.clock.now());
    const quick = await app.api('GET', '/v1/agents/quickstart', { headers: { host: HOST } });
    const steps = quick.body.data.steps as Array<{ method: string; url: string; auth: string; body?: unknown; title: string; expect: string }>;
    assert.ok(steps.length >= 8);
    for (const step of steps.filter((s) => s.method === 'POST')) assert.ok(step.body !== undefined, `${step.title} shows its body`);
    const preview = steps.find((s) => s.url.includes('/v1/bootstrap/vessels/search'))!;
    assert.match(preview.url, /q=ocean&/, 'the preview searches the name of the sample vessel');
    assert.match(preview.expect, /OCEAN PRIDE \(IMO 9811000/);
    // the step that answers a help request needs one by another agent
    const asker = await app.registerAgent('quickstart-asker');
    const asked = await app.api('POST', '/v1/harbor/help-requests', { token: asker.apiKey, body: { title: 'Decoding AIS names', body: 'How are type 5 names encoded?', visibility: 'public' } });
    assert.equal(asked.status, 201, asked.text);
    let apiKey: string | undefined;
    for (const [i, step] of steps.entries()) {
      const res = await app.api(step.method, step.url.slice(BASE.length).replace('{id}', asked.body.data.id), {
        headers: { host: HOST },
        ...(step.auth.startsWith('Bearer') ? { token: apiKey } : {}),
        ...(step.body !== undefined ? { body: step.body } : {}),
        ip: `10.77.0.${i + 1}`,
      });
      assert.ok(res.status < 300, `step ${i + 1} ${step.title}: ${res.status} ${res.text.slice(0, 300)}`);
      if (step.url.endsWith('/v1/agents/register')) apiKey = res.body.data.api_key;
      if (step.url.includes('/v1/bootstrap/vessels/search')) assert.ok(res.body.data.items.some((v: { imo: number }) => v.imo === 9811000));
      if (step.url.includes('/v1/routes/forecast-lite')) assert.ok(res.body.data.remaining_nm > 0, 'routed to its AIS destination');
    }
    assert.ok(apiKey, 'the quickstart registers an agent');
  });
});
