import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DAY, HOUR } from '../../src/platform/clock.js';
import { SAMPLE_VESSEL } from '../../src/fleet/sample-vessel.js';
import { createDemoFeed } from '../../src/sim/start.js';
import { DELAY_SECONDS } from '../../src/features/vessels/entitlements.js';
import { startTestApp, TEST_EPOCH, type ApiResponse } from '../helpers/app.js';

/**
 * An agent that knows only the base URL reaches its four goals — registered with a profile, a help request
 * answered, a vessel's port calls, a route to the vessel's destination — in at most 12 requests, following
 * only the links and the advice the service returned (issue 29). The service runs as a default install
 * does: the demo fleet with its backfill, the event detector caught up.
 */
test('an agent from nothing: base URL → registered and profiled → a help request answered → port calls → a route, in ≤ 12 requests', async () => {
  const app = await startTestApp({ env: { BOSUN_DEMO_VESSELS: '30', BOSUN_DEMO_BACKFILL_DAYS: '3', BOSUN_DEMO_SEED: 'walk' } });
  try {
    const ctx = app.bosun.ctx;
    const demo = createDemoFeed({ settings: ctx.config.demo, fleet: ctx.services.fleet, logger: ctx.logger, sink: ctx.services.fleet, clock: app.clock });
    await demo.start(() => {});
    await demo.stop();
    await ctx.services.events.runner.catchUp();
    // another agent asked for help earlier
    const asker = await app.registerAgent('eta-asker');
    const asked = await app.api('POST', '/v1/harbor/help-requests', {
      token: asker.apiKey,
      body: { title: 'Where is this tanker going?', body: `Which port is IMO ${SAMPLE_VESSEL.imo} heading for, and how far is it?`, visibility: 'public' },
    });
    assert.equal(asked.status, 201, asked.text);

    let requests = 0;
    let apiKey = '';
    /** One request to an absolute URL the service gave (the test app answers in process: its path is used). */
    const follow = async <D = any>(method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse<D>> => {
      requests++;
      const target = new URL(url);
      const res = await app.api<D>(method, target.pathname + target.search, { body, headers, ...(apiKey ? { token: apiKey } : {}), ip: '10.201.3.7' });
      assert.ok(res.status < 400, `${method} ${url}: ${res.status} ${res.text.slice(0, 400)}`);
      return res;
    };
    type Step = { method: string; url: string; body?: Record<string, unknown>; expect: string };
    const stepTo = (steps: Step[], method: string, path: RegExp): Step => {
      const step = steps.find((s) => s.method === method && path.test(new URL(s.url).pathname));
      assert.ok(step, `the quickstart has a step ${method} ${path}`);
      return step;
    };

    // 1-2. the root (as JSON) names the quickstart; the quickstart lists each request with its body
    const root = await follow('GET', 'http://localhost/', undefined, { accept: 'application/json' });
    const quickstart = await follow('GET', root.body.links.quickstart);
    const steps = quickstart.body.data.steps as Step[];

    // 3. register (the step's body, with this agent's own name)
    const register = stepTo(steps, 'POST', /^\/v1\/agents\/register$/);
    const registered = await follow('POST', register.url, { ...register.body, name: 'walking-agent', description: 'follows ships for a freight desk' });
    apiKey = registered.body.data.api_key;
    assert.match(apiKey, /^bsk_/);

    // 4. publish a profile
    const profileStep = stepTo(steps, 'POST', /^\/v1\/harbor\/profiles$/);
    const profile = await follow('POST', profileStep.url, { ...profileStep.body, display_name: 'Walking Agent' });
    assert.equal(profile.body.data.display_name, 'Walking Agent');

    // 5-6. find an open request by another agent and answer it
    const open = await follow('GET', stepTo(steps, 'GET', /^\/v1\/harbor\/help-requests$/).url);
    const request = (open.body.data.items as Array<{ id: string; yours: boolean; body: string }>).find((r) => !r.yours);
    assert.ok(request, 'an open request by another agent is listed');
    const answerStep = stepTo(steps, 'POST', /^\/v1\/harbor\/help-requests\/%7Bid%7D\/responses$/);
    assert.match(answerStep.expect, /replace \{id\}/);
    const answer = await follow('POST', answerStep.url.replace('%7Bid%7D', request.id).replace('{id}', request.id), { body: 'I will look its port calls and route up and answer here.' });
    assert.equal(answer.status, 201);
    assert.equal(answer.body.data.kind, 'answer');

    // 7. the vessel
    const lookup = await follow('GET', stepTo(steps, 'GET', /^\/v1\/vessels\/lookup$/).url);
    assert.equal(lookup.body.data.vessel.imo, SAMPLE_VESSEL.imo);
    assert.equal(lookup.body.data.vessel.simulated, true);

    // 8. its port calls: every one ended at least the preview delay ago (no vessels:live), with its stops
    const calls = await follow('GET', stepTo(steps, 'GET', /^\/v1\/events$/).url);
    const items = calls.body.data.items as Array<{ type: string; vessel: { imo: number | null }; end_at: string | null; port: { port_id: number; name: string } | null; stops: unknown[] }>;
    assert.ok(items.length >= 1, 'the sample vessel called at a port in the backfilled days');
    for (const call of items) {
      assert.equal(call.type, 'port_call');
      assert.equal(call.vessel.imo, SAMPLE_VESSEL.imo);
      assert.ok(call.port && call.port.name.length > 0);
      assert.ok(Array.isArray(call.stops) && call.stops.length >= 1);
      assert.ok(call.end_at !== null && Date.parse(call.end_at) <= TEST_EPOCH - DELAY_SECONDS * 1000, `${call.end_at} ended before the delay`);
      assert.ok(Date.parse(call.end_at) >= TEST_EPOCH - 3 * DAY - HOUR);
    }

    // 9. a route to its destination
    const route = await follow('GET', stepTo(steps, 'GET', /^\/v1\/routes\/forecast-lite$/).url);
    const forecast = route.body.data;
    assert.equal(forecast.vessel.imo, SAMPLE_VESSEL.imo);
    assert.equal(forecast.position.delayed, true);
    assert.ok(forecast.destination.port.port_id > 0, 'the AIS destination resolved to a port');
    assert.ok(forecast.remaining_nm > 0);
    const line = forecast.route.geometry.coordinates as Array<[number, number]>;
    assert.deepEqual(
      line.at(-1),
      [forecast.destination.lon, forecast.destination.lat].map((v: number) => Math.round(v * 1e5) / 1e5),
    );

    assert.ok(requests <= 12, `${requests} requests`);
  } finally {
    await app.close();
  }
});
