import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DAY } from '../../src/platform/clock.js';
import { TEST_EPOCH, withApp } from '../helpers/app.js';
import { createClaim, credit, errorCode, portClaim, reputation, vote, type Agent } from './exchange-core-support.js';

test('daily gain cap: 40 points per UTC day from claims and votes, cut at the last millisecond of the day, fresh at midnight; privileges follow the balance', () =>
  withApp(async (app) => {
    const [a, b, c] = [await app.registerAgent('cap-a'), await app.registerAgent('cap-b'), await app.registerAgent('cap-c')];
    const fresh = await app.api('GET', '/v1/exchange/reputation/privileges/me', { token: a.apiKey });
    assert.deepEqual(
      fresh.body.data.held.map((p: any) => p.name),
      ['participate'],
    );
    assert.deepEqual(fresh.body.data.next, { name: 'post_bounties', threshold: 15, grants: fresh.body.data.ladder[1].grants, needed: 14 });
    assert.deepEqual(
      fresh.body.data.ladder.map((p: any) => [p.name, p.threshold]),
      [
        ['participate', 1],
        ['post_bounties', 15],
        ['vote_weight_2', 50],
        ['vote_weight_3', 200],
      ],
    );

    // five claims become decidable at 23:59:59.999 of one UTC day, the sixth at 00:00 of the next
    app.clock.set(TEST_EPOCH + DAY - 1);
    const claims: string[] = [];
    for (let i = 0; i < 5; i++) claims.push(await createClaim(app, a, portClaim(`Capped claim number ${i}.`)));
    app.clock.advance(1);
    claims.push(await createClaim(app, a, portClaim('The claim of the next day.')));
    for (const id of claims) {
      assert.equal((await vote(app, b, 'claim', id, 'up')).status, 200);
      assert.equal((await vote(app, c, 'claim', id, 'up')).status, 200);
    }
    app.clock.set(TEST_EPOCH + 2 * DAY - 1);
    let rep = await reputation(app, a);
    assert.equal(rep.earned_today, 40);
    assert.equal(rep.daily_cap, 40);
    assert.equal(rep.reputation, 41);
    assert.deepEqual(rep.entries.map((e: any) => [e.reason, e.delta, e.requested, e.capped]).sort(), [
      ['claim_accepted', 0, 10, true],
      ['claim_accepted', 10, 10, false],
      ['claim_accepted', 10, 10, false],
      ['claim_accepted', 10, 10, false],
      ['claim_accepted', 10, 10, false],
    ]);
    assert.equal(rep.level, 'post_bounties');
    app.clock.advance(1);
    rep = await reputation(app, a);
    assert.equal(rep.earned_today, 10, 'a new UTC day');
    assert.equal(rep.reputation, 51);
    assert.equal(rep.level, 'vote_weight_2');
    assert.equal(rep.vote_weight, 2);
    const page = await app.api('GET', '/v1/exchange/reputation/me?limit=2', { token: a.apiKey });
    assert.equal(page.body.data.entries.length, 2);
    assert.equal(page.body.data.entries[0].created_at, new Date(TEST_EPOCH + 2 * DAY).toISOString(), 'newest first');
    const rest = await app.api('GET', `/v1/exchange/reputation/me?limit=50&cursor=${encodeURIComponent(page.body.data.next_cursor)}`, { token: a.apiKey });
    assert.equal(rest.body.data.entries.length, 4);
    assert.equal(errorCode(await app.api('GET', '/v1/exchange/reputation/me?cursor=zz', { token: a.apiKey })), 'cursor_invalid');

    const held = await app.api('GET', '/v1/exchange/reputation/privileges/me', { token: a.apiKey });
    assert.deepEqual(
      held.body.data.held.map((p: any) => p.name),
      ['participate', 'post_bounties', 'vote_weight_2'],
    );
    assert.deepEqual([held.body.data.next.name, held.body.data.next.needed], ['vote_weight_3', 149]);
    const bClaim = await createClaim(app, b);
    const weighted = await vote(app, a, 'claim', bClaim, 'up');
    assert.deepEqual([weighted.body.data.vote.weight, weighted.body.data.claim.score], [2, 2]);
  }));

test('daily limits: 20 claims and 100 new votes per agent per 24 hours, at their edges (vote changes do not count)', () =>
  withApp(async (app) => {
    const author = await app.registerAgent('limit-author');
    for (let i = 0; i < 20; i++) await createClaim(app, author, portClaim(`Limit claim number ${i}.`));
    const over = await app.api('POST', '/v1/exchange/claims', { token: author.apiKey, body: portClaim() });
    assert.equal(over.status, 429);
    assert.equal(errorCode(over), 'exchange_daily_limit');
    assert.equal(over.headers['retry-after'], String(24 * 3600));
    app.clock.advance(DAY - 1);
    assert.equal(errorCode(await app.api('POST', '/v1/exchange/claims', { token: author.apiKey, body: portClaim() })), 'exchange_daily_limit');
    app.clock.advance(1);
    assert.equal((await app.api('POST', '/v1/exchange/claims', { token: author.apiKey, body: portClaim() })).status, 201);

    const voter = await app.registerAgent('limit-voter');
    const targets: string[] = [];
    for (let n = 0; n < 6; n++) {
      const writer = await app.registerAgent(`limit-writer-${n}`);
      for (let i = 0; i < 17; i++) targets.push(await createClaim(app, writer, portClaim(`Writer ${n} claim ${i}.`)));
    }
    for (let i = 0; i < 100; i++) assert.equal((await vote(app, voter, 'claim', targets[i]!, 'up')).status, 200, `vote ${i}`);
    const hundredFirst = await vote(app, voter, 'claim', targets[100]!, 'up');
    assert.equal(errorCode(hundredFirst), 'exchange_daily_limit');
    assert.equal((await vote(app, voter, 'claim', targets[0]!, 'down')).status, 200, 'changing a vote is not a new vote');
  }));

test('public reputation, leaderboard and top agents show public names and points only; moderation hides a claim with a penalty that restore reverses', () =>
  withApp(async (app) => {
    const [a, b, c] = [await app.registerAgent('public-a'), await app.registerAgent('public-b'), await app.registerAgent('public-c')];
    const profile = await app.api('POST', '/v1/harbor/profiles', { token: a.apiKey, body: { display_name: 'Harbour Watcher', public: true } });
    assert.ok(profile.status < 300, profile.text);
    const good = await createClaim(app, a);
    await vote(app, b, 'claim', good, 'up', 'private reason of b');
    await vote(app, c, 'claim', good, 'up');
    app.clock.advance(DAY);
    await credit(app, c.agentId, 3);

    const pub = await app.api('GET', `/v1/exchange/reputation/${a.agentId}`, { token: c.apiKey });
    assert.deepEqual(pub.body.data, { agent_id: a.agentId, public_name: 'Harbour Watcher', reputation: 11, level: 'participate', claims_accepted: 1, claims_rejected: 0, bounties_rewarded: 0 });
    const pubB = await app.api('GET', `/v1/exchange/reputation/${b.agentId}`, { token: c.apiKey });
    assert.equal(pubB.body.data.public_name, null);
    assert.doesNotMatch(pubB.text, /private reason|vote_agreed|entries/);
    const nobody = await app.api('GET', '/v1/exchange/reputation/agt_nobody', { token: c.apiKey });
    assert.equal(nobody.status, 404);
    assert.equal(errorCode(nobody), 'not_found');

    const board = await app.api('GET', '/v1/exchange/leaderboard?period=week&limit=2', { token: b.apiKey });
    assert.equal(board.body.data.period, 'week');
    assert.equal(board.body.data.since, new Date(TEST_EPOCH + DAY - 7 * DAY).toISOString());
    const [first, second] = board.body.data.items;
    assert.deepEqual(first, { rank: 1, agent_id: a.agentId, public_name: 'Harbour Watcher', points: 10 });
    assert.deepEqual([second.rank, second.agent_id, second.points], [2, c.agentId, 4]);
    const rest = await app.api('GET', `/v1/exchange/leaderboard?period=week&limit=2&cursor=${encodeURIComponent(board.body.data.next_cursor)}`, { token: b.apiKey });
    assert.deepEqual(
      rest.body.data.items.map((i: any) => [i.rank, i.agent_id, i.points]),
      [[3, b.agentId, 1]],
    );
    assert.equal(rest.body.data.next_cursor, null);
    const otherPeriod = await app.api('GET', `/v1/exchange/leaderboard?period=day&cursor=${encodeURIComponent(board.body.data.next_cursor)}`, { token: b.apiKey });
    assert.equal(errorCode(otherPeriod), 'cursor_invalid');
    const today = await app.api('GET', '/v1/exchange/leaderboard?period=day', { token: b.apiKey });
    assert.deepEqual(
      today.body.data.items.map((i: any) => i.agent_id),
      [a.agentId, c.agentId, b.agentId],
    );

    const top = await app.api('GET', '/v1/exchange/top_agents?limit=2', { token: c.apiKey });
    assert.deepEqual(top.body.data.items, [
      { rank: 1, name: 'Harbour Watcher', reputation: 11, level: 'participate' },
      { rank: 2, name: c.agentId, reputation: 5, level: 'participate' },
    ]);

    // the operator hides the claim: nobody sees it, the author loses 20 points; restoring gives them back
    const gate = app.bosun.ctx.services.exchangeGate;
    assert.deepEqual(
      gate.kinds().filter((k) => k === 'claim' || k === 'bounty'),
      ['bounty', 'claim'],
    );
    app.clock.advance(1000);
    assert.equal(await gate.hide('claim', good, 'misleading'), true);
    assert.equal(await gate.hide('claim', good, 'again'), false);
    for (const agent of [a, b, c]) {
      assert.equal(errorCode(await app.api('GET', `/v1/exchange/claims/${good}`, { token: agent.apiKey })), 'claim_not_found');
      const list = await app.api('GET', '/v1/exchange/claims', { token: agent.apiKey });
      assert.deepEqual(list.body.data.items, []);
    }
    assert.equal(errorCode(await vote(app, b, 'claim', good, 'down')), 'claim_not_found');
    let repA = await reputation(app, a);
    assert.equal(repA.reputation, -9);
    assert.deepEqual([repA.entries[0].reason, repA.entries[0].delta, repA.entries[0].reference], ['moderation_penalty', -20, good]);
    const blocked = await app.api('POST', '/v1/exchange/claims', { token: a.apiKey, body: portClaim() });
    assert.equal(errorCode(blocked), 'exchange_insufficient_reputation', 'below 1 an agent loses participate');
    app.clock.advance(1000);
    assert.equal(await gate.restore('claim', good), true);
    repA = await reputation(app, a);
    assert.equal(repA.reputation, 11);
    assert.deepEqual([repA.entries[0].reason, repA.entries[0].delta], ['moderation_reversal', 20]);
    assert.equal((await app.api('GET', `/v1/exchange/claims/${good}`, { token: c.apiKey })).status, 200);
    const audit = await app.bosun.ctx.store.db.selectFrom('audit_log').select(['action', 'target']).where('action', 'in', ['exchange.hide', 'exchange.restore']).orderBy('id').execute();
    assert.deepEqual(
      audit.map((r) => [r.action, r.target]),
      [
        ['exchange.hide', `claim:${good}`],
        ['exchange.restore', `claim:${good}`],
      ],
    );
  }));

test('privacy with three agents: votes, reasons and ledgers stay with their owner; hidden bounties vanish; banned agents are refused everywhere', () =>
  withApp(async (app) => {
    const [a, b, c] = [await app.registerAgent('privacy-a'), await app.registerAgent('privacy-b'), await app.registerAgent('privacy-c')];
    const claim = await createClaim(app, a);
    await vote(app, b, 'claim', claim, 'up', 'b-secret-reason');
    const seenBy = async (agent: Agent) => (await app.api('GET', `/v1/exchange/claims/${claim}`, { token: agent.apiKey })).body.data;
    assert.equal((await seenBy(b)).my_vote.reason, 'b-secret-reason');
    for (const agent of [a, c]) {
      const view = await seenBy(agent);
      assert.equal(view.my_vote, null);
      assert.equal(view.voters, 1);
      const text = JSON.stringify(view) + JSON.stringify((await app.api('GET', '/v1/exchange/claims', { token: agent.apiKey })).body);
      assert.ok(!text.includes(b.agentId), 'no voter id anywhere');
      assert.ok(!text.includes('b-secret-reason'));
    }
    await credit(app, c.agentId, 30);
    const bounty = (await app.api('POST', '/v1/exchange/bounties', { token: c.apiKey, body: { title: 'A hidden bounty', text: 'Soon hidden.', reward: 5 } })).body.data.bounty_id;
    assert.equal(await app.bosun.ctx.services.exchangeGate.hide('bounty', bounty, 'spam'), true);
    for (const agent of [a, b, c]) {
      assert.deepEqual((await app.api('GET', '/v1/exchange/bounties', { token: agent.apiKey })).body.data.items, []);
    }
    assert.equal(errorCode(await app.api('POST', '/v1/exchange/bounties/claim', { token: a.apiKey, body: { bounty_id: bounty } })), 'bounty_not_found');
    assert.equal(await app.bosun.ctx.services.exchangeGate.restore('bounty', bounty), true);
    assert.equal((await app.api('GET', '/v1/exchange/bounties', { token: a.apiKey })).body.data.items.length, 1);
    const repC = (await app.api('GET', `/v1/exchange/reputation/${c.agentId}`, { token: a.apiKey })).body.data;
    assert.deepEqual(Object.keys(repC).sort(), ['agent_id', 'bounties_rewarded', 'claims_accepted', 'claims_rejected', 'level', 'public_name', 'reputation']);

    await app.bosun.ctx.services.exchangeGate.ban(c.agentId, 'vote farming');
    const calls: Array<[string, string, unknown?]> = [
      ['GET', '/v1/exchange/claims'],
      ['POST', '/v1/exchange/claims', portClaim()],
      ['GET', `/v1/exchange/claims/${claim}`],
      ['GET', '/v1/exchange/bounties'],
      ['POST', '/v1/exchange/bounties', { title: 'Banned bounty', text: 'x', reward: 5 }],
      ['POST', '/v1/exchange/bounties/claim', { bounty_id: bounty }],
      ['POST', '/v1/exchange/bounties/submit', { bounty_id: bounty, text: 'x', evidence: [] }],
      ['POST', '/v1/exchange/votes', { target: 'claim', target_id: claim, value: 'up' }],
      ['GET', '/v1/exchange/reputation/me'],
      ['GET', '/v1/exchange/reputation/privileges/me'],
      ['GET', '/v1/exchange/quality/mining/me'],
      ['GET', `/v1/exchange/reputation/${a.agentId}`],
      ['GET', '/v1/exchange/leaderboard'],
      ['GET', '/v1/exchange/top_agents'],
    ];
    for (const [method, url, body] of calls) {
      const res = await app.api(method, url, { token: c.apiKey, body });
      assert.equal(errorCode(res), 'exchange_banned', `${method} ${url}`);
    }
  }));

test('creating claims and bounties is idempotent with an Idempotency-Key', () =>
  withApp(async (app) => {
    const a = await app.registerAgent('idem-a');
    const headers = { 'idempotency-key': 'claim-key-0001' };
    const first = await app.api('POST', '/v1/exchange/claims', { token: a.apiKey, body: portClaim(), headers });
    const replay = await app.api('POST', '/v1/exchange/claims', { token: a.apiKey, body: portClaim(), headers });
    assert.equal(first.status, 201);
    assert.equal(replay.body.data.claim_id, first.body.data.claim_id);
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    const reused = await app.api('POST', '/v1/exchange/claims', { token: a.apiKey, body: portClaim('A different statement.'), headers });
    assert.equal(errorCode(reused), 'idempotency_key_reused');
    const invalid = await app.api('POST', '/v1/exchange/claims', { token: a.apiKey, body: portClaim(), headers: { 'idempotency-key': 'short' } });
    assert.equal(errorCode(invalid), 'idempotency_key_invalid');
    const list = await app.api('GET', '/v1/exchange/claims', { token: a.apiKey });
    assert.equal(list.body.data.items.length, 1);
  }));
