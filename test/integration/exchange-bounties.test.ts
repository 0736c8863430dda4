import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DAY, HOUR } from '../../src/platform/clock.js';
import { TEST_EPOCH, withApp } from '../helpers/app.js';
import { createClaim, credit, errorCode, reputation, ROTTERDAM, vote, type Agent } from './exchange-core-support.js';

const bountyBody = (extra: Record<string, unknown> = {}) => ({ title: 'Explain the Rotterdam wait', text: 'A claim with evidence about the anchorage wait.', reward: 10, ...extra });

test('bounties: a reward beyond the starter allowance needs the post_bounties privilege and escrows the reward; claim, lapse, submit, poster rejection and reward move reputation exactly', () =>
  withApp(async (app) => {
    const [poster, b, c] = [await app.registerAgent('bounty-poster'), await app.registerAgent('bounty-b'), await app.registerAgent('bounty-c')];
    const post = (agent: Agent, body: Record<string, unknown>) => app.api('POST', '/v1/exchange/bounties', { token: agent.apiKey, body });

    const tooNew = await post(poster, bountyBody({ reward: 21 }));
    assert.equal(tooNew.status, 403);
    assert.equal(errorCode(tooNew), 'exchange_insufficient_reputation');
    assert.match(tooNew.body.errors[0].message, /post_bounties privilege \(reputation 15, points in escrow included\); you have 1, and 20 of your starter allowance of 20 is left/);

    await credit(app, poster.agentId, 19);
    const tooRich = await post(poster, bountyBody({ reward: 21 }));
    assert.equal(errorCode(tooRich), 'exchange_insufficient_reputation');
    assert.match(tooRich.body.errors[0].message, /offer at most 19/);
    for (const [patch, field] of [
      [{ reward: 4 }, 'body.reward'],
      [{ deadline_hours: 23 }, 'body.deadline_hours'],
      [{ title: 'Hi' }, 'body.title'],
      [{ subject: { type: 'port', ref: '999999999' } }, 'body.subject.ref'],
    ] as const) {
      const res = await post(poster, bountyBody(patch));
      assert.ok(['invalid_request', 'claim_subject_not_found'].includes(errorCode(res)), res.text);
      assert.equal(res.body.errors[0].field, field);
    }

    const created = await post(poster, bountyBody({ deadline_hours: 72, subject: { type: 'port', ref: String(ROTTERDAM) } }));
    assert.equal(created.status, 201, created.text);
    const bounty = created.body.data;
    assert.deepEqual([bounty.state, bounty.reward, bounty.funding, bounty.claimant_id, bounty.submission], ['open', 10, 'reputation', null, null]);
    assert.equal(bounty.deadline_at, new Date(TEST_EPOCH + 72 * HOUR).toISOString());
    assert.equal((await reputation(app, poster)).reputation, 10, '20 − 10 escrowed');
    const id = bounty.bounty_id;

    const own = await app.api('POST', '/v1/exchange/bounties/claim', { token: poster.apiKey, body: { bounty_id: id } });
    assert.equal(errorCode(own), 'exchange_own_bounty');
    const unknown = await app.api('POST', '/v1/exchange/bounties/claim', { token: b.apiKey, body: { bounty_id: 'bty_missing' } });
    assert.equal(unknown.status, 404);
    assert.equal(errorCode(unknown), 'bounty_not_found');

    const claimed = await app.api('POST', '/v1/exchange/bounties/claim', { token: b.apiKey, body: { bounty_id: id } });
    assert.equal(claimed.status, 200, claimed.text);
    assert.deepEqual([claimed.body.data.state, claimed.body.data.claimant_id], ['claimed', b.agentId]);
    assert.equal(claimed.body.data.claim_expires_at, new Date(TEST_EPOCH + DAY).toISOString());
    const second = await app.api('POST', '/v1/exchange/bounties/claim', { token: c.apiKey, body: { bounty_id: id } });
    assert.equal(errorCode(second), 'exchange_state_invalid');
    assert.match(second.body.errors[0].message, /claimed by another agent/);
    const notClaimant = await app.api('POST', '/v1/exchange/bounties/submit', { token: c.apiKey, body: { bounty_id: id, text: 'mine', evidence: [] } });
    assert.equal(errorCode(notClaimant), 'exchange_claimant_required');

    // the claim lapses after 24 hours: the bounty is open again and b can no longer submit
    app.clock.set(TEST_EPOCH + DAY);
    const lapsed = await app.api('GET', '/v1/exchange/bounties?state=open', { token: c.apiKey });
    assert.deepEqual(
      lapsed.body.data.items.map((x: any) => [x.bounty_id, x.claimant_id]),
      [[id, null]],
    );
    const tooLate = await app.api('POST', '/v1/exchange/bounties/submit', { token: b.apiKey, body: { bounty_id: id, text: 'late', evidence: [] } });
    assert.equal(errorCode(tooLate), 'exchange_state_invalid');

    await app.api('POST', '/v1/exchange/bounties/claim', { token: c.apiKey, body: { bounty_id: id } });
    const badEvidence = await app.api('POST', '/v1/exchange/bounties/submit', { token: c.apiKey, body: { bounty_id: id, text: 'x', evidence: [{ type: 'position', ref: '99999' }] } });
    assert.equal(errorCode(badEvidence), 'evidence_not_found');
    const badClaim = await app.api('POST', '/v1/exchange/bounties/submit', { token: c.apiKey, body: { bounty_id: id, text: 'x', evidence: [], claim_id: 'clm_missing' } });
    assert.equal(errorCode(badClaim), 'claim_not_found');
    assert.equal(badClaim.body.errors[0].field, 'body.claim_id');
    const answer = await createClaim(app, c);
    const submitted = await app.api('POST', '/v1/exchange/bounties/submit', {
      token: c.apiKey,
      body: { bounty_id: id, text: 'My claim explains it.', evidence: [{ type: 'port', ref: String(ROTTERDAM) }], claim_id: answer },
    });
    assert.equal(submitted.status, 200, submitted.text);
    assert.equal(submitted.body.data.state, 'submitted');
    assert.deepEqual(submitted.body.data.submission.evidence, [{ type: 'port', ref: String(ROTTERDAM), note: null }]);
    assert.equal(submitted.body.data.submission.claim_id, answer);

    const selfVote = await vote(app, c, 'bounty_submission', id, 'up');
    assert.equal(errorCode(selfVote), 'exchange_self_vote');
    const advisory = await vote(app, b, 'bounty_submission', id, 'up');
    assert.equal(advisory.status, 200, advisory.text);
    assert.deepEqual([advisory.body.data.bounty.state, advisory.body.data.bounty.submission.score, advisory.body.data.bounty.submission.voters], ['submitted', 1, 1]);

    // the poster rejects: the bounty reopens, the submission and its votes are gone, c may not claim it again
    const refused = await vote(app, poster, 'bounty_submission', id, 'down', 'Does not explain the wait.');
    assert.equal(refused.status, 200, refused.text);
    assert.deepEqual([refused.body.data.bounty.state, refused.body.data.bounty.claimant_id, refused.body.data.bounty.submission], ['open', null, null]);
    const again = await app.api('POST', '/v1/exchange/bounties/claim', { token: c.apiKey, body: { bounty_id: id } });
    assert.equal(errorCode(again), 'exchange_state_invalid');
    assert.match(again.body.errors[0].message, /rejected your submission/);
    const noSubmission = await vote(app, b, 'bounty_submission', id, 'up');
    assert.equal(errorCode(noSubmission), 'exchange_state_invalid');

    await app.api('POST', '/v1/exchange/bounties/claim', { token: b.apiKey, body: { bounty_id: id } });
    await app.api('POST', '/v1/exchange/bounties/submit', { token: b.apiKey, body: { bounty_id: id, text: 'The anchorage was full.', evidence: [] } });
    const rewarded = await vote(app, poster, 'bounty_submission', id, 'up', 'Thanks');
    assert.equal(rewarded.body.data.bounty.state, 'rewarded');
    assert.deepEqual(rewarded.body.data.bounty.settlement, { by: 'poster', note: 'Thanks', at: new Date(TEST_EPOCH + DAY).toISOString() });
    const repB = await reputation(app, b);
    assert.equal(repB.reputation, 11);
    assert.deepEqual(
      repB.entries.map((e: any) => [e.reason, e.delta, e.reference]),
      [['bounty_reward', 10, id]],
    );
    assert.equal((await reputation(app, poster)).reputation, 10, 'the escrow was paid out, not refunded');
    const quality = await app.api('GET', '/v1/exchange/quality/mining/me', { token: b.apiKey });
    assert.equal(quality.body.data.bounties_rewarded, 1);
    const closed = await app.api('POST', '/v1/exchange/bounties/claim', { token: c.apiKey, body: { bounty_id: id } });
    assert.equal(errorCode(closed), 'exchange_state_invalid');
  }));

test('bounties expire at their deadline (escrow refunded); 5 bounties per 24 hours; the operator settles, refunds and sweeps', () =>
  withApp(async (app) => {
    const [poster, b] = [await app.registerAgent('expiry-poster'), await app.registerAgent('expiry-b')];
    const operator = await app.operatorToken();
    await credit(app, poster.agentId, 100);
    const post = async (extra: Record<string, unknown> = {}) => {
      const res = await app.api('POST', '/v1/exchange/bounties', { token: poster.apiKey, body: bountyBody({ reward: 5, ...extra }) });
      assert.equal(res.status, 201, res.text);
      return res.body.data.bounty_id as string;
    };
    const expiring = await post({ deadline_hours: 24 });
    const disputed = await post();
    const refunded = await post();
    const rejected = await post();
    const fifth = await post();
    const sixth = await app.api('POST', '/v1/exchange/bounties', { token: poster.apiKey, body: bountyBody({ reward: 5 }) });
    assert.equal(sixth.status, 429);
    assert.equal(errorCode(sixth), 'exchange_daily_limit');
    assert.equal(sixth.headers['retry-after'], String(24 * 3600));
    assert.equal((await reputation(app, poster)).reputation, 101 - 25);

    for (const id of [disputed, rejected]) {
      await app.api('POST', '/v1/exchange/bounties/claim', { token: b.apiKey, body: { bounty_id: id } });
      await app.api('POST', '/v1/exchange/bounties/submit', { token: b.apiKey, body: { bounty_id: id, text: 'Delivered.', evidence: [] } });
    }
    await app.api('POST', '/v1/exchange/bounties/claim', { token: b.apiKey, body: { bounty_id: fifth } });

    const asAgent = await app.registerAgent('ops-reader', ['ops:read']);
    const notOperator = await app.api('POST', '/v1/exchange/bounties/reward', { token: asAgent.apiKey, body: {} });
    assert.equal(notOperator.status, 403);
    assert.equal(errorCode(notOperator), 'operator_required');
    const half = await app.api('POST', '/v1/exchange/bounties/reward', { token: operator, body: { bounty_id: disputed } });
    assert.equal(errorCode(half), 'invalid_request');
    const noNote = await app.api('POST', '/v1/exchange/bounties/reward', { token: operator, body: { bounty_id: disputed, decision: 'reward' } });
    assert.equal(errorCode(noNote), 'invalid_request');
    assert.equal(noNote.body.errors[0].field, 'body.note');
    const missing = await app.api('POST', '/v1/exchange/bounties/reward', { token: operator, body: { bounty_id: 'bty_missing', decision: 'refund', note: 'cleanup' } });
    assert.equal(errorCode(missing), 'bounty_not_found');
    const notSubmitted = await app.api('POST', '/v1/exchange/bounties/reward', { token: operator, body: { bounty_id: refunded, decision: 'reward', note: 'nothing to pay' } });
    assert.equal(errorCode(notSubmitted), 'exchange_state_invalid');

    const paid = await app.api('POST', '/v1/exchange/bounties/reward', { token: operator, body: { bounty_id: disputed, decision: 'reward', note: 'The poster did not answer.' } });
    assert.equal(paid.status, 200, paid.text);
    assert.equal(paid.body.data.bounty.state, 'rewarded');
    assert.equal(paid.body.data.bounty.settlement.by, 'operator');
    const back = await app.api('POST', '/v1/exchange/bounties/reward', { token: operator, body: { bounty_id: refunded, decision: 'refund', note: 'Asked by the poster.' } });
    assert.equal(back.body.data.bounty.state, 'closed');
    const reopened = await app.api('POST', '/v1/exchange/bounties/reward', { token: operator, body: { bounty_id: rejected, decision: 'reject', note: 'Empty delivery.' } });
    assert.deepEqual([reopened.body.data.bounty.state, reopened.body.data.bounty.claimant_id], ['open', null]);
    const closedAgain = await app.api('POST', '/v1/exchange/bounties/reward', { token: operator, body: { bounty_id: refunded, decision: 'refund', note: 'twice' } });
    assert.equal(errorCode(closedAgain), 'exchange_state_invalid');

    // at the deadline the open bounty expires with its escrow refunded; the claimed one's claim lapses
    app.clock.set(TEST_EPOCH + DAY);
    const swept = await app.api('POST', '/v1/exchange/bounties/reward', { token: operator });
    assert.equal(swept.status, 200, swept.text);
    assert.deepEqual(swept.body.data, { swept: { claims_decided: 0, claims_expired: 0, bounty_claims_lapsed: 1, bounties_expired: 1 }, bounty: null });
    const expired = await app.api('GET', `/v1/exchange/bounties?state=expired`, { token: b.apiKey });
    assert.deepEqual(
      expired.body.data.items.map((x: any) => [x.bounty_id, x.settlement.by]),
      [[expiring, 'deadline']],
    );
    const rep = await reputation(app, poster);
    // 101 − 25 escrowed + 5 refunded (closed) + 5 refunded (expired)
    assert.equal(rep.reputation, 86);
    assert.deepEqual(
      rep.entries
        .filter((e: any) => e.reason === 'bounty_refund')
        .map((e: any) => e.reference)
        .sort(),
      [expiring, refunded].sort(),
    );
    assert.equal((await reputation(app, b)).reputation, 6, 'one reward of 5');
    const nullBody = await app.api('POST', '/v1/exchange/bounties/reward', { token: operator, rawBody: 'null', headers: { 'content-type': 'application/json' } });
    assert.equal(errorCode(nullBody), 'invalid_request');
  }));

test('bounties: listing by poster and claimant with cursors; linked agents cannot claim each other’s bounties', () =>
  withApp(async (app) => {
    const register = (name: string) => app.registerAgent(name, [], '198.51.100.20');
    const poster = await register('bounty-linked-a');
    const twin = await register('bounty-linked-b');
    const other = await app.registerAgent('bounty-other');
    await credit(app, poster.agentId, 50);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      app.clock.advance(1000);
      const res = await app.api('POST', '/v1/exchange/bounties', { token: poster.apiKey, body: bountyBody({ reward: 5, title: `Bounty number ${i}` }) });
      ids.push(res.body.data.bounty_id);
    }
    const linked = await app.api('POST', '/v1/exchange/bounties/claim', { token: twin.apiKey, body: { bounty_id: ids[0] } });
    assert.equal(errorCode(linked), 'exchange_linked_agent_forbidden');
    await app.api('POST', '/v1/exchange/bounties/claim', { token: other.apiKey, body: { bounty_id: ids[1] } });
    const page1 = await app.api('GET', `/v1/exchange/bounties?poster=${poster.agentId}&limit=2`, { token: other.apiKey });
    assert.deepEqual(
      page1.body.data.items.map((x: any) => x.bounty_id),
      [ids[2], ids[1]],
    );
    const page2 = await app.api('GET', `/v1/exchange/bounties?poster=${poster.agentId}&limit=2&cursor=${encodeURIComponent(page1.body.data.next_cursor)}`, { token: other.apiKey });
    assert.deepEqual(
      page2.body.data.items.map((x: any) => x.bounty_id),
      [ids[0]],
    );
    const mine = await app.api('GET', `/v1/exchange/bounties?claimant=${other.agentId}`, { token: other.apiKey });
    assert.deepEqual(
      mine.body.data.items.map((x: any) => x.bounty_id),
      [ids[1]],
    );
    const forged = await app.api('GET', '/v1/exchange/bounties?cursor=nope', { token: other.apiKey });
    assert.equal(errorCode(forged), 'cursor_invalid');
  }));

test('decision 117: a new agent posts on its first day from the starter allowance, returned on expiry; points in escrow count toward post_bounties', () =>
  withApp(async (app) => {
    const [newcomer, helper, regular] = [await app.registerAgent('allowance-new'), await app.registerAgent('allowance-helper'), await app.registerAgent('allowance-regular')];
    const post = (agent: Agent, body: Record<string, unknown>) => app.api('POST', '/v1/exchange/bounties', { token: agent.apiKey, body });
    const funds = async (agent: Agent) => (await app.api('GET', '/v1/exchange/reputation/privileges/me', { token: agent.apiKey })).body.data.bounty_funds;
    assert.deepEqual(await funds(newcomer), { escrowed: 0, standing: 1, starter_allowance: 20, allowance_left: 20 });

    // minutes after registering, reputation 1: the allowance pays
    const first = await post(newcomer, bountyBody({ reward: 15, deadline_hours: 48 }));
    assert.equal(first.status, 201, first.text);
    assert.equal(first.body.data.funding, 'allowance');
    const short = await post(newcomer, bountyBody({ reward: 5, deadline_hours: 24 }));
    assert.equal(short.body.data.funding, 'allowance');
    const beyond = await post(newcomer, bountyBody({ reward: 5 }));
    assert.equal(beyond.status, 403);
    assert.equal(errorCode(beyond), 'exchange_insufficient_reputation');
    assert.match(beyond.body.errors[0].message, /you have 1, and 0 of your starter allowance of 20 is left/);
    const newcomerRep = await reputation(app, newcomer);
    assert.deepEqual([newcomerRep.reputation, newcomerRep.entries], [1, []], 'nothing escrowed from reputation');
    assert.deepEqual(await funds(newcomer), { escrowed: 0, standing: 1, starter_allowance: 20, allowance_left: 0 });

    // the allowance bounty pays its claimant like any other
    const id = first.body.data.bounty_id;
    assert.equal((await app.api('POST', '/v1/exchange/bounties/claim', { token: helper.apiKey, body: { bounty_id: id } })).status, 200);
    assert.equal((await app.api('POST', '/v1/exchange/bounties/submit', { token: helper.apiKey, body: { bounty_id: id, text: 'The anchorage was full.', evidence: [] } })).status, 200);
    const paid = await vote(app, newcomer, 'bounty_submission', id, 'up', 'Thanks');
    assert.equal(paid.body.data.bounty.state, 'rewarded');
    assert.deepEqual(
      (await reputation(app, helper)).entries.map((e: any) => [e.reason, e.delta]),
      [['bounty_reward', 15]],
    );

    // one millisecond before its deadline the short bounty still holds 5 points; at the deadline they return to the allowance, not to reputation
    app.clock.set(TEST_EPOCH + DAY - 1);
    assert.equal((await funds(newcomer)).allowance_left, 0);
    app.clock.set(TEST_EPOCH + DAY);
    const expired = await app.api('GET', '/v1/exchange/bounties?state=expired', { token: newcomer.apiKey });
    assert.deepEqual(
      expired.body.data.items.map((b: any) => [b.bounty_id, b.funding]),
      [[short.body.data.bounty_id, 'allowance']],
    );
    assert.deepEqual(await funds(newcomer), { escrowed: 0, standing: 1, starter_allowance: 20, allowance_left: 5 });
    assert.equal((await reputation(app, newcomer)).reputation, 1);
    assert.equal((await post(newcomer, bountyBody({ reward: 5 }))).body.data.funding, 'allowance');

    // 19 points: escrowing 10 leaves 9, yet the 10 in escrow keep the agent at post_bounties for a second bounty
    await credit(app, regular.agentId, 18);
    assert.equal((await post(regular, bountyBody({ reward: 10 }))).body.data.funding, 'reputation');
    const second = await post(regular, bountyBody({ reward: 5 }));
    assert.equal(second.status, 201, second.text);
    assert.equal(second.body.data.funding, 'reputation');
    assert.equal((await reputation(app, regular)).reputation, 4);
    assert.deepEqual(await funds(regular), { escrowed: 15, standing: 19, starter_allowance: 20, allowance_left: 20 });
    // balance 4 cannot escrow 5 more (it must keep 1): the allowance pays instead
    assert.equal((await post(regular, bountyBody({ reward: 5 }))).body.data.funding, 'allowance');

    // an operator refund returns an allowance reward to the allowance, a reputation one to reputation
    const operator = await app.operatorToken();
    const refund = await app.api('POST', '/v1/exchange/bounties/reward', { token: operator, body: { bounty_id: second.body.data.bounty_id, decision: 'refund', note: 'Asked by the poster.' } });
    assert.equal(refund.status, 200, refund.text);
    assert.equal((await reputation(app, regular)).reputation, 9);
    assert.deepEqual(await funds(regular), { escrowed: 10, standing: 19, starter_allowance: 20, allowance_left: 15 });
  }));
