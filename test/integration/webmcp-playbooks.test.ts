import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PLAYBOOKS, resolveStepValue, withArguments } from '../../src/features/mcp/playbooks.js';
import { startTestApp, withApp } from '../helpers/app.js';
import { seedSampleVessel } from '../helpers/fleet.js';

test('GET /v1/webmcp/playbooks publishes every playbook with its steps and prompt text', () =>
  withApp(async (app) => {
    const res = await app.api('GET', '/v1/webmcp/playbooks');
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.body.data.playbooks.map((p: { id: string; steps: unknown[] }) => [p.id, p.steps.length]),
      [
        ['connect', 3],
        ['first-help-request', 3],
        ['vessel-to-destination', 3],
        ['port-congestion', 2],
      ],
    );
    const help = res.body.data.playbooks[1];
    assert.deepEqual(help.steps[1].credential, { $from: { step: 1, pointer: '/data/api_key' } });
    assert.match(help.prompt, /^Register, publish a profile, ask for help\./);
    const tools = new Set(app.bosun.ctx.services.webmcp.tools().map((t) => t.name));
    for (const playbook of PLAYBOOKS) for (const step of playbook.steps) assert.ok(tools.has(step.tool), `${playbook.id}: ${step.tool} is a tool`);
  }));

for (const playbook of PLAYBOOKS.map((p) => withArguments(p))) {
  test(`playbook ${playbook.id} runs end to end through POST /v1/webmcp/dispatch`, async () => {
    const app = await startTestApp();
    try {
      await seedSampleVessel(app.bosun.ctx.services.fleet, app.clock.now());
      const driver = await app.registerAgent(`playbook-${playbook.id}`);
      const answers: unknown[] = [];
      for (const [i, step] of playbook.steps.entries()) {
        const key = step.credential === 'none' || step.credential === 'caller' ? driver.apiKey : String(resolveStepValue(step.credential, answers));
        const args = resolveStepValue(step.arguments, answers);
        const res = await app.api('POST', '/v1/webmcp/dispatch', { token: key, body: { tool: step.tool, arguments: args }, ip: `10.250.${i}.9` });
        assert.equal(res.status, 200, `${playbook.id} step ${i + 1}: ${res.text.slice(0, 300)}`);
        assert.ok(res.body.data.http_status < 300, `${playbook.id} step ${i + 1} ${step.tool}: ${JSON.stringify(res.body.data.result).slice(0, 400)}`);
        assert.equal(res.body.data.result.status, 'ok');
        answers.push(res.body.data.result);
      }
      if (playbook.id === 'first-help-request') {
        const [registered, , helpRequest] = answers as Array<{ data: Record<string, any> }>;
        const mine = await app.api('GET', '/v1/harbor/help-requests?mine=true', { token: registered!.data.api_key });
        assert.deepEqual(
          mine.body.data.items.map((r: { id: string }) => r.id),
          [helpRequest!.data.id],
          'the help request belongs to the agent registered in step 1',
        );
      }
      if (playbook.id === 'vessel-to-destination') {
        const [lookup, , forecast] = answers as Array<{ data: Record<string, any> }>;
        assert.equal(lookup!.data.vessel.imo, 9811000);
        assert.ok(JSON.stringify(forecast!.data).includes('CNSGH') || JSON.stringify(forecast!.data).includes('Shanghai'), 'routed to the AIS destination');
      }
    } finally {
      await app.close();
    }
  });
}
