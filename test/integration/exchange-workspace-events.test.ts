import { test } from 'node:test';
import assert from 'node:assert/strict';
import { type TestApp, withApp } from '../helpers/app.js';
import { createClaim, credit, ROTTERDAM, vote, type Agent } from './exchange-core-support.js';

const events = async (app: TestApp, agent: Agent) => {
  const res = await app.api('GET', '/v1/workspace/events?limit=100', { token: agent.apiKey });
  assert.equal(res.status, 200, res.text);
  return res.body.data.items.map((e: { kind: string; payload: Record<string, unknown> }) => ({ kind: e.kind, ...e.payload }));
};

test('the exchange writes workspace events: direct messages, replies, votes on claims, bounty claimed/submitted/rewarded — to the agent concerned only', () =>
  withApp(async (app) => {
    const [a, b, c] = [await app.registerAgent('ws-a'), await app.registerAgent('ws-b'), await app.registerAgent('ws-c')];

    const dm = await app.api('POST', '/v1/exchange/send_message', { token: a.apiKey, body: { to: b.agentId, body: 'Seen the berth lists?' } });
    assert.equal(dm.status, 201, dm.text);
    const topic = await app.api('POST', '/v1/exchange/messages', { token: a.apiKey, body: { channel: 'ports', body: 'Rotterdam is busy' } });
    const reply = await app.api('POST', '/v1/exchange/messages', { token: b.apiKey, body: { channel: 'ports', body: 'Agreed', reply_to: topic.body.data.message_id } });
    assert.equal(reply.status, 201, reply.text);

    const claimId = await createClaim(app, a);
    assert.equal((await vote(app, b, 'claim', claimId, 'up')).status, 200);

    await credit(app, a.agentId, 29);
    const bounty = await app.api('POST', '/v1/exchange/bounties', {
      token: a.apiKey,
      body: { title: 'Berth waiting times', text: 'Measure berth waiting at Rotterdam this week.', reward: 10, deadline_hours: 72, subject: { type: 'port', ref: String(ROTTERDAM) } },
    });
    assert.equal(bounty.status, 201, bounty.text);
    const bountyId = bounty.body.data.bounty_id as string;
    assert.equal((await app.api('POST', '/v1/exchange/bounties/claim', { token: c.apiKey, body: { bounty_id: bountyId } })).status, 200);
    assert.equal((await app.api('POST', '/v1/exchange/bounties/submit', { token: c.apiKey, body: { bounty_id: bountyId, text: 'Median 9 h', evidence: [] } })).status, 200);
    assert.equal((await vote(app, a, 'bounty_submission', bountyId, 'up')).status, 200);

    const forA = await events(app, a);
    assert.deepEqual(
      forA.map((e: { kind: string }) => e.kind),
      ['exchange.reply', 'exchange.claim_voted', 'exchange.bounty_claimed', 'exchange.bounty_submitted'],
    );
    assert.equal(forA[0].reply_to, topic.body.data.message_id);
    assert.deepEqual([forA[1].claim_id, forA[1].value], [claimId, 1]);
    assert.equal(forA[2].claimant, c.agentId);
    const forB = await events(app, b);
    assert.deepEqual(
      forB.map((e: { kind: string; from?: string }) => [e.kind, e.from]),
      [['exchange.direct_message', a.agentId]],
    );
    const forC = await events(app, c);
    assert.deepEqual(
      forC.map((e: { kind: string; bounty_id?: string; reward?: number }) => [e.kind, e.bounty_id, e.reward]),
      [['exchange.bounty_rewarded', bountyId, 10]],
    );
  }));

test('swarm_stats counts claims and bounties by state; continuations list the caller’s undecided claims and bounties in play, nobody else’s', () =>
  withApp(async (app) => {
    const [a, b, c] = [await app.registerAgent('cont-a'), await app.registerAgent('cont-b'), await app.registerAgent('cont-c')];
    const claimId = await createClaim(app, a);
    await credit(app, a.agentId, 29);
    const bounty = await app.api('POST', '/v1/exchange/bounties', {
      token: a.apiKey,
      body: { title: 'Anchorage counts', text: 'Count vessels at anchor off Rotterdam daily.', reward: 10, deadline_hours: 48, subject: { type: 'port', ref: String(ROTTERDAM) } },
    });
    const bountyId = bounty.body.data.bounty_id as string;
    assert.equal((await app.api('POST', '/v1/exchange/bounties/claim', { token: c.apiKey, body: { bounty_id: bountyId } })).status, 200);

    const stats = (await app.api('GET', '/v1/exchange/swarm_stats', { token: b.apiKey })).body.data;
    assert.deepEqual([stats.exchange.claims_by_state, stats.exchange.bounties_by_state], [{ open: 1 }, { claimed: 1 }]);

    const continuations = async (agent: Agent) =>
      (await app.api('GET', '/v1/exchange/builds/continuations', { token: agent.apiKey })).body.data.items.map((i: { kind: string; id: string; role: string }) => [i.kind, i.id, i.role]);
    assert.deepEqual((await continuations(a)).sort(), [
      ['bounty_posted', bountyId, 'poster'],
      ['claim_undecided', claimId, 'author'],
    ]);
    assert.deepEqual(await continuations(c), [['bounty_claimed', bountyId, 'claimant']]);
    assert.deepEqual(await continuations(b), []);
  }));

test('the operator closing or refunding a bounty sends exchange.bounty_closed to the poster and, on a refund, to the claimant', () =>
  withApp(async (app) => {
    const [poster, claimant] = [await app.registerAgent('close-poster'), await app.registerAgent('close-claimant')];
    const operator = await app.operatorToken();
    await credit(app, poster.agentId, 39);
    const post = async (title: string) => {
      const res = await app.api('POST', '/v1/exchange/bounties', {
        token: poster.apiKey,
        body: { title, text: 'Measure berth waiting at Rotterdam this week.', reward: 10, deadline_hours: 72, subject: { type: 'port', ref: String(ROTTERDAM) } },
      });
      assert.equal(res.status, 201, res.text);
      return res.body.data.bounty_id as string;
    };
    const refunded = await post('Berth waiting times');
    assert.equal((await app.api('POST', '/v1/exchange/bounties/claim', { token: claimant.apiKey, body: { bounty_id: refunded } })).status, 200);
    const refund = await app.api('POST', '/v1/exchange/bounties/reward', { token: operator, body: { bounty_id: refunded, decision: 'refund', note: 'Asked by the poster.' } });
    assert.equal(refund.status, 200, refund.text);
    const closed = { kind: 'exchange.bounty_closed', bounty_id: refunded, decision: 'refund', state: 'closed', by: 'operator', note: 'Asked by the poster.', refunded: 10, funding: 'reputation' };
    assert.deepEqual(
      (await events(app, poster)).filter((e: { kind: string }) => e.kind === 'exchange.bounty_closed'),
      [closed],
    );
    assert.deepEqual(
      (await events(app, claimant)).filter((e: { kind: string }) => e.kind === 'exchange.bounty_closed'),
      [closed],
    );

    // an operator reward: the claimant is told by bounty_rewarded, the poster by bounty_closed
    const rewarded = await post('Anchorage counts');
    assert.equal((await app.api('POST', '/v1/exchange/bounties/claim', { token: claimant.apiKey, body: { bounty_id: rewarded } })).status, 200);
    assert.equal((await app.api('POST', '/v1/exchange/bounties/submit', { token: claimant.apiKey, body: { bounty_id: rewarded, text: 'Median 9 h', evidence: [] } })).status, 200);
    assert.equal((await app.api('POST', '/v1/exchange/bounties/reward', { token: operator, body: { bounty_id: rewarded, decision: 'reward', note: 'Settled for the poster.' } })).status, 200);
    const forPoster = (await events(app, poster)).filter((e: { kind: string; bounty_id: string }) => e.bounty_id === rewarded).map((e: { kind: string; decision?: string }) => [e.kind, e.decision]);
    assert.deepEqual(forPoster, [
      ['exchange.bounty_claimed', undefined],
      ['exchange.bounty_submitted', undefined],
      ['exchange.bounty_closed', 'reward'],
    ]);
    const forClaimant = (await events(app, claimant)).filter((e: { kind: string; bounty_id: string }) => e.bounty_id === rewarded).map((e: { kind: string }) => e.kind);
    assert.deepEqual(forClaimant, ['exchange.bounty_rewarded']);
  }));
