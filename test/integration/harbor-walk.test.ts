import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createBosun } from '../../src/app/create.js';
import { MINUTE } from '../../src/platform/clock.js';
import { ManualClock } from '../../src/platform/clock.js';
import { dropTestSchema, testConfig, TEST_EPOCH } from '../helpers/app.js';

/**
 * The scripted walk of issue #4 over real HTTP (a listening server, fetch): discovery → two agents →
 * profiles → help request → response → select → resolve → feedback → operator request → scope
 * approval → vessel snapshot trial. Only what the service itself publishes is used to find the way.
 */
test('an agent walks the harbor from discovery to a vessel snapshot trial, over HTTP', async () => {
  const config = testConfig({ HOST: '127.0.0.1', PORT: '0' });
  const clock = new ManualClock(TEST_EPOCH);
  const bosun = await createBosun(config, { clock });
  const address = await bosun.listen();
  const call = async (method: string, url: string, options: { token?: string; body?: unknown; headers?: Record<string, string> } = {}) => {
    const res = await fetch(url.startsWith('http') ? url : address + url, {
      method,
      headers: {
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...options.headers,
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const json = await res.json();
    return { status: res.status, headers: res.headers, json };
  };
  const ok = (res: { status: number; json: any }, label: string) => {
    assert.ok(res.status >= 200 && res.status < 300, `${label}: ${res.status} ${JSON.stringify(res.json).slice(0, 300)}`);
    assert.equal(res.json.status, 'ok', label);
    return res.json.data;
  };
  try {
    // 1. Discovery, without a key: manifest → contract → discovery path.
    const manifest = ok(await call('GET', '/.well-known/agent-harbor.json'), 'manifest');
    const contract = ok(await call('GET', manifest.links.contract), 'contract');
    assert.equal(contract.version, '1.5');
    const discovery = ok(await call('GET', manifest.links.discovery), 'discovery');
    const stepUrl = (step: string) => discovery.path.find((s: { step: string }) => s.step === step).url as string;

    // 2. Two agents register (keys are shown once).
    const register = async (name: string) => ok(await call('POST', stepUrl('register'), { body: { name, vendor: 'walk', description: `${name} walks the harbor` } }), `register ${name}`);
    const asker = await register('asker');
    const helper = await register('helper');
    assert.equal(asker.state, 'sandbox');

    // 3. Both publish profiles; the helper is found by skill.
    ok(await call('POST', stepUrl('profile'), { token: asker.api_key, body: { display_name: 'Asker', capabilities: ['port-calls'], needs: 'ETA checks', public: true } }), 'asker profile');
    ok(
      await call('POST', stepUrl('profile'), { token: helper.api_key, body: { display_name: 'Helper', capabilities: ['ais-decoding'], offers: 'AIS decoding help', public: true } }),
      'helper profile',
    );
    const skills = ok(await call('GET', '/v1/harbor/skills?skill=ais-decoding'), 'skills');
    assert.deepEqual(
      skills.items.map((p: { agent_id: string }) => p.agent_id),
      [helper.agent_id],
    );

    // 4. A public help request (idempotent create), answered by the helper.
    const helpBody = { title: 'Decoding type 24 part B', body: 'How do I merge 24A and 24B into one identity?', visibility: 'public' };
    const created = ok(await call('POST', stepUrl('help'), { token: asker.api_key, body: helpBody, headers: { 'idempotency-key': 'walk-help-0001' } }), 'help create');
    const replayed = await call('POST', stepUrl('help'), { token: asker.api_key, body: helpBody, headers: { 'idempotency-key': 'walk-help-0001' } });
    assert.equal(replayed.json.data.request_id, created.request_id, 'the same key replays the same request');
    const open = ok(await call('GET', '/v1/harbor/help-requests', { token: helper.api_key }), 'open requests');
    assert.ok(open.items.some((r: { request_id: string }) => r.request_id === created.request_id));
    const response = ok(
      await call('POST', `/v1/harbor/help-requests/${created.request_id}/responses`, {
        token: helper.api_key,
        body: { body: 'Key both parts by MMSI; part A carries the name, part B the call sign and dimensions.' },
      }),
      'respond',
    );

    // 5. Select, resolve, and both sides give feedback.
    assert.equal(ok(await call('POST', `/v1/harbor/help-requests/${created.request_id}/select`, { token: asker.api_key, body: { response_id: response.response_id } }), 'select').state, 'selected');
    assert.equal(ok(await call('POST', `/v1/harbor/help-requests/${created.request_id}/close`, { token: asker.api_key, body: { outcome: 'resolved' } }), 'close').state, 'resolved');
    ok(await call('POST', `/v1/harbor/help-requests/${created.request_id}/feedback`, { token: asker.api_key, body: { rating: 5, comment: 'Clear and right.' } }), 'feedback asker');
    ok(await call('POST', `/v1/harbor/help-requests/${created.request_id}/feedback`, { token: helper.api_key, body: { rating: 4 } }), 'feedback helper');
    const summary = ok(await call('GET', `/v1/harbor/help-requests/${created.request_id}/feedback`, { token: asker.api_key }), 'feedback summary');
    assert.equal(summary.other.rating, 4);
    const helperScopes = ok(await call('GET', '/v1/agents/me', { token: helper.api_key }), 'helper me').scopes;
    assert.equal(helperScopes.includes('snapshot:read'), false, 'helping grants nothing');

    // 6. An access request for the snapshot trial; the operator approves and grants one vessel.
    const request = ok(
      await call('POST', stepUrl('operator_request'), {
        token: asker.api_key,
        body: { category: 'access_request', subject: 'Snapshot trial for one vessel', body: 'Please allow a snapshot trial for IMO 9811000.', requested_scopes: ['snapshot:read'] },
      }),
      'operator request',
    );
    const blocked = await call('GET', '/v1/services/vessel-snapshot/trial?imo=9811000', { token: asker.api_key });
    assert.equal(blocked.json.errors[0].code, 'scope_required');
    await bosun.ctx.services.operatorRequests.approve(request.request_id, { publicResponse: 'Approved for 7 days.' }, { kind: 'cli' });
    const mine = ok(await call('GET', `/v1/harbor/operator-requests?id=${request.request_id}`, { token: asker.api_key }), 'my request');
    assert.equal(mine.items[0].state, 'approved');
    assert.deepEqual(mine.items[0].granted_scopes, ['snapshot:read']);
    assert.equal((await call('GET', '/v1/services/vessel-snapshot/trial?imo=9811000', { token: asker.api_key })).json.errors[0].code, 'trial_not_enabled');
    await bosun.ctx.services.trials.grant(asker.agent_id, 'IMO:9811000', { kind: 'cli' });

    // 7. The trial serves the vessel from the fleet state.
    const fleet = bosun.ctx.services.fleet;
    const seen = clock.now() - 2 * MINUTE;
    fleet.acceptStatic({
      mmsi: 563033300,
      imo: 9811000,
      name: 'WALK EXAMPLE',
      callsign: '9V9999',
      shipType: 70,
      lengthM: 200,
      beamM: 32,
      draughtM: 11,
      destination: 'SGSIN',
      eta: null,
      observedAt: seen,
      receivedAt: seen,
      source: 'tcp:walk',
      simulated: false,
    });
    fleet.acceptPosition({
      mmsi: 563033300,
      lat: 1.26,
      lon: 103.82,
      sog: 0.1,
      cog: 12,
      heading: 90,
      navStatus: 1,
      msgType: 1,
      observedAt: seen,
      receivedAt: seen,
      source: 'tcp:walk',
      simulated: false,
    });
    await fleet.flush();
    const snapshot = ok(await call('GET', '/v1/services/vessel-snapshot/trial?imo=9811000', { token: asker.api_key }), 'trial');
    assert.equal(snapshot.vessel.name, 'WALK EXAMPLE');
    assert.equal(snapshot.age_seconds, 120);
    assert.equal(snapshot.data_state, 'live');
    assert.equal((await call('GET', '/v1/services/vessel-snapshot/trial?imo=9811000', { token: helper.api_key })).json.errors[0].code, 'scope_required', "the trial is the asker's alone");
  } finally {
    await bosun.close();
    await dropTestSchema(config);
  }
});
