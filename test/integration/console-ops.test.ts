import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CATALOG } from '../../src/catalog/entries.js';
import { startTestApp, type TestApp, withApp } from '../helpers/app.js';
import { consoleClient, CONSOLE_PASSWORD } from '../helpers/console-client.js';
import { identity, imo, ingest } from '../helpers/fleet.js';
import { createClaim } from './exchange-core-support.js';

const RAILS = JSON.stringify([{ rail_id: 'usdc-base', label: 'USDC on Base', network: 'base', token: 'USDC', address: '0x' + 'ab'.repeat(20), decimals: 6 }]);

async function signedIn(app: TestApp) {
  await app.bosun.ctx.services.operator.setPassword(CONSOLE_PASSWORD);
  const b = consoleClient(app);
  assert.equal((await b.signIn()).status, 303);
  return b;
}

/** The newest audit entry of an action: its actor kind and target. */
async function audited(app: TestApp, action: string) {
  const [entry] = await app.bosun.ctx.services.audit.list({ action, limit: 1 });
  assert.ok(entry, `${action} is audited`);
  return { actor: entry.actor_kind, target: entry.target };
}

test('console trials: grant and revoke through the trials service, audited as the operator; a refused revoke shows its code', () =>
  withApp(async (app) => {
    const b = await signedIn(app);
    const vesselImo = imo(981100);
    await ingest(app.bosun.ctx.services.fleet, identity(563033300, app.clock.now(), { imo: vesselImo, name: 'TRIAL SHIP' }));
    const { agentId, apiKey } = await app.registerAgent('trial-console');

    assert.match((await b.get('/console/trials')).text, /No snapshot trials/);
    const unknown = await b.post('/console/trials/grant', { csrf: b.csrf, agent_id: agentId, vessel: 'IMO:12' });
    assert.ok(unknown.status >= 400);
    assert.match(unknown.text, /<code>[a-z_]+<\/code>:/, 'the refusal shows its error code');

    const granted = await b.post('/console/trials/grant', { csrf: b.csrf, agent_id: agentId, vessel: `IMO:${vesselImo}` });
    assert.equal(granted.status, 303);
    assert.equal(granted.headers.location, '/console/trials');
    const me = await app.api('GET', '/v1/agents/me', { token: apiKey });
    assert.ok(me.body.data.scopes.includes('snapshot:read'), 'the agent has the trial scope');
    const list = await b.get('/console/trials');
    assert.match(list.text, new RegExp(`<td data-label="Agent"><code>${agentId}</code></td>\\s*<td data-label="Vessel">IMO:${vesselImo}</td>`));
    assert.deepEqual(await audited(app, 'harbor.snapshot_trial.grant'), { actor: 'operator', target: agentId });

    assert.equal((await b.post('/console/trials/revoke', { csrf: b.csrf, agent_id: agentId })).status, 303);
    assert.match((await b.get('/console/trials')).text, /<td data-label="State">revoked<\/td>/);
    assert.deepEqual(await audited(app, 'harbor.snapshot_trial.revoke'), { actor: 'operator', target: agentId });
    const again = await b.post('/console/trials/revoke', { csrf: b.csrf, agent_id: agentId });
    assert.equal(again.status, 404);
    assert.match(again.text, /<code>not_found<\/code>: .* has no active trial/);
  }));

test('console payments: the documented state, proofs in manual_review, confirm and reject through the payments service; a second review is refused', async () => {
  const disabled = await startTestApp();
  try {
    const b = await signedIn(disabled);
    const page = await b.get('/console/payments');
    assert.match(page.text, /Payment intents are <strong>disabled<\/strong>/);
    assert.match(page.text, /payments_disabled/);
    assert.match(page.text, /No payment intents in manual_review/);
  } finally {
    await disabled.close();
  }

  const app = await startTestApp({ env: { BOSUN_PAYMENT_RAILS: RAILS, BOSUN_PAYMENT_INTENTS: 'true' } });
  try {
    const { apiKey } = await app.registerAgent('payer');
    const proofFor = async (key: string, amount: string) => {
      const intent = await app.api('POST', '/v1/payments/intents', {
        token: apiKey,
        body: { purpose: 'contribution', rail_id: 'usdc-base', amount_or_pay_what_you_want: '5.00', expiry: 900, idempotency_key: key },
      });
      assert.equal(intent.status, 201, intent.text);
      const id = intent.body.data.payment_id as string;
      const proof = await app.api('POST', `/v1/payments/intents/${id}/proof`, {
        token: apiKey,
        body: { network: 'base', token: 'USDC', tx_hash: '0x' + key.slice(-2).repeat(32), sender_address: '0x' + '12'.repeat(20), amount },
      });
      assert.equal(proof.body.data.state, 'manual_review', proof.text);
      return id;
    };
    const good = await proofFor('console-pay-01', '5.00');
    const odd = await proofFor('console-pay-02', '4.00');
    const b = await signedIn(app);
    const page = await b.get('/console/payments');
    assert.match(page.text, /Payment intents are <strong>enabled<\/strong>/);
    assert.ok(page.text.includes(good) && page.text.includes(odd));
    assert.match(page.text, /flags: amount_mismatch/);

    const mismatch = await b.post('/console/payments/review', { csrf: b.csrf, payment_id: odd, decision: 'confirm' });
    assert.equal(mismatch.status, 409);
    assert.match(mismatch.text, /<code>conflict<\/code>: .*amount_mismatch/);
    assert.equal((await b.post('/console/payments/review', { csrf: b.csrf, payment_id: odd, decision: 'confirm', accept_mismatch: 'yes', note: 'checked on chain' })).status, 303);
    assert.equal((await b.post('/console/payments/review', { csrf: b.csrf, payment_id: good, decision: 'reject', note: 'no such transfer' })).status, 303);
    const states = await app.bosun.ctx.services.payments.listForOperator({ limit: 10 });
    assert.deepEqual(Object.fromEntries(states.map((r) => [r.payment_id, [r.state, r.review_note]])), {
      [good]: ['rejected', 'no such transfer'],
      [odd]: ['contribution_recorded', 'checked on chain'],
    });
    assert.deepEqual(await audited(app, 'payments.review.reject'), { actor: 'operator', target: good });
    assert.deepEqual(await audited(app, 'payments.review.confirm'), { actor: 'operator', target: odd });
    const twice = await b.post('/console/payments/review', { csrf: b.csrf, payment_id: good, decision: 'confirm' });
    assert.equal(twice.status, 409);
    assert.match(twice.text, /is rejected, not manual_review/);
    assert.match((await b.get('/console/payments?state=rejected')).text, new RegExp(good));
  } finally {
    await app.close();
  }
});

test('console feedback: list, show, triage, a rejection needs a public answer, steps the state does not allow are not offered and are refused', () =>
  withApp(async (app) => {
    const a = await app.registerAgent('feedback-author');
    const ask = async (title: string) => {
      const res = await app.api('POST', '/v1/feedback/request-data', { token: a.apiKey, body: { subject: { kind: 'dataset', id: 'ice' }, title, body: 'Sea ice <extent>.' } });
      assert.equal(res.status, 201, res.text);
      return res.body.data.ticket_id as string;
    };
    const first = await ask('Sea ice please');
    const second = await ask('Another request');
    const b = await signedIn(app);
    const list = await b.get('/console/feedback');
    assert.ok(list.text.includes(first) && list.text.includes(second));
    const show = await b.get(`/console/feedback?ticket=${first}`);
    assert.match(show.text, /Sea ice &lt;extent&gt;\./);
    assert.deepEqual(
      [...show.text.matchAll(/name="step" value="([a-z]+)"/g)].map((m) => m[1]),
      ['triage', 'accept', 'reject', 'close'],
    );

    const triaged = await b.post('/console/feedback/step', { csrf: b.csrf, ticket_id: first, step: 'triage', internal_note: 'looking' });
    assert.equal(triaged.status, 303);
    assert.equal(triaged.headers.location, `/console/feedback?ticket=${first}`);
    const noWhy = await b.post('/console/feedback/step', { csrf: b.csrf, ticket_id: first, step: 'reject' });
    assert.equal(noWhy.status, 400);
    assert.match(noWhy.text, /<code>invalid_request<\/code>: a rejection needs a public response/);
    assert.equal((await b.post('/console/feedback/step', { csrf: b.csrf, ticket_id: first, step: 'reject', public_response: 'No ice source.' })).status, 303);
    const own = await app.api('GET', `/v1/feedback/tickets/${first}`, { token: a.apiKey });
    assert.deepEqual([own.body.data.state, own.body.data.public_response], ['rejected', 'No ice source.']);
    assert.match((await b.get(`/console/feedback?ticket=${first}`)).text, /No further step: the ticket is rejected/);
    const refused = await b.post('/console/feedback/step', { csrf: b.csrf, ticket_id: second, step: 'revert' });
    assert.equal(refused.status, 409);
    assert.match(refused.text, /<code>feedback_state_invalid<\/code>: .* revert needs applied/);
    assert.match((await b.get('/console/feedback?state=open')).text, new RegExp(second));
    assert.doesNotMatch((await b.get('/console/feedback?state=open')).text, new RegExp(first));
    const steps = await app.bosun.ctx.services.audit.list({ limit: 50 });
    assert.deepEqual(
      steps.filter((e) => e.action.startsWith('feedback.ticket.') && e.target === first).map((e) => [e.action, e.actor_kind]),
      [
        ['feedback.ticket.reject', 'operator'],
        ['feedback.ticket.triage', 'operator'],
      ],
    );
  }));

test('console exchange moderation: ban and unban, hide and restore a claim through the exchange gate, audited as the operator; unknown kinds and ids refused with their code', () =>
  withApp(async (app) => {
    const [author, reader] = [await app.registerAgent('xmod-author'), await app.registerAgent('xmod-reader')];
    const claimId = await createClaim(app, author);
    const b = await signedIn(app);
    const page = await b.get('/console/exchange');
    assert.match(page.text, /No agent is banned/);
    assert.match(page.text, /<option>claim<\/option>/);

    assert.equal((await b.post('/console/exchange/hide', { csrf: b.csrf, kind: 'claim', id: claimId, reason: 'off topic' })).status, 303);
    assert.equal((await app.api('GET', `/v1/exchange/claims/${claimId}`, { token: reader.apiKey })).status, 404);
    assert.deepEqual(await audited(app, 'exchange.hide'), { actor: 'operator', target: `claim:${claimId}` });
    assert.equal((await b.post('/console/exchange/restore', { csrf: b.csrf, kind: 'claim', id: claimId })).status, 303);
    assert.equal((await app.api('GET', `/v1/exchange/claims/${claimId}`, { token: reader.apiKey })).status, 200);
    assert.deepEqual(await audited(app, 'exchange.restore'), { actor: 'operator', target: `claim:${claimId}` });

    const badKind = await b.post('/console/exchange/hide', { csrf: b.csrf, kind: 'planet', id: 'x', reason: 'r' });
    assert.equal(badKind.status, 400);
    assert.match(badKind.text, /<code>invalid_request<\/code>: unknown exchange record kind/);
    const missing = await b.post('/console/exchange/restore', { csrf: b.csrf, kind: 'claim', id: 'clm_missing' });
    assert.equal(missing.status, 404);
    assert.match(missing.text, /<code>not_found<\/code>/);

    assert.equal((await b.post('/console/exchange/ban', { csrf: b.csrf, agent_id: author.agentId, reason: 'spam claims' })).status, 303);
    const banned = await app.api('GET', '/v1/exchange/claims', { token: author.apiKey });
    assert.equal(banned.body.errors[0].code, 'exchange_banned');
    assert.match((await b.get('/console/exchange')).text, new RegExp(`<td data-label="Agent"><code>${author.agentId}</code></td>[\\s\\S]*spam claims`));
    assert.deepEqual(await audited(app, 'exchange.ban'), { actor: 'operator', target: author.agentId });
    assert.equal((await b.post('/console/exchange/unban', { csrf: b.csrf, agent_id: author.agentId })).status, 303);
    assert.equal((await app.api('GET', '/v1/exchange/claims', { token: author.apiKey })).status, 200);
    assert.deepEqual(await audited(app, 'exchange.unban'), { actor: 'operator', target: author.agentId });
    const notBanned = await b.post('/console/exchange/unban', { csrf: b.csrf, agent_id: author.agentId });
    assert.equal(notBanned.status, 404);

    const stale = await b.post('/console/exchange/ban', { csrf: 'not-the-token', agent_id: reader.agentId, reason: 'x' });
    assert.equal(stale.status, 403, 'a form without the session token is refused');
    const foreign = await b.post('/console/exchange/ban', { csrf: b.csrf, agent_id: reader.agentId, reason: 'x' }, { origin: 'https://evil.example' });
    assert.equal(foreign.status, 403, 'a form from another origin is refused');
    assert.equal(await app.bosun.ctx.services.exchangeGate.isBanned(reader.agentId), false);
  }));

test('console feeds and routes views: feed state from the status report, route operations telemetry from the routes section', () =>
  withApp(async (app) => {
    const b = await signedIn(app);
    const feeds = await b.get('/console/feeds');
    assert.equal(feeds.status, 200);
    assert.match(feeds.text, /<h1>Feeds and ingest<\/h1>/);
    assert.match(feeds.text, /No AIS feed is configured in this process/);
    const routeOps = CATALOG.filter((e) => e.section === 'routes').length;
    const routes = await b.get('/console/routes');
    assert.match(routes.text, new RegExp(`Telemetry of the ${routeOps} operations of the routes section`));
    assert.match(routes.text, /not loaded yet/);
    assert.match(routes.text, /data-figure="cache-hits">0 \/ 0</);
    const key = (await app.registerAgent('route-asker')).apiKey;
    for (let i = 0; i < 3; i++) assert.equal((await app.api('GET', '/v1/routes/direct?from=NLRTM&to=SGSIN', { token: key })).status, 200);
    const after = await b.get('/console/routes');
    assert.match(after.text, /Sea network<\/dt>\s*<dd>loaded in \d+ ms/);
    assert.match(after.text, /data-figure="cache-entries">1 of \d+</);
    assert.match(after.text, /data-figure="cache-hits">2 \/ 1 \(hit rate 66\.7 %\)</);
    for (const path of ['/console/feeds', '/console/trials', '/console/payments', '/console/feedback', '/console/exchange', '/console/routes']) {
      const anonymous = await app.api('GET', path);
      assert.equal(anonymous.status, 401, `${path} needs a session`);
      assert.match(anonymous.text, /type="password"/);
    }
  }));
