import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DAY } from '../../src/clock.js';
import { startTestApp } from '../helpers/app.js';
import { ROTTERDAM, seedRecords } from '../integration/exchange-core-support.js';

/**
 * Three agents over a real socket: claims backed by stored records, votes that accept them, the
 * reputation they earn, a bounty posted from it, claimed, delivered with a claim and rewarded.
 */
test('exchange walk over HTTP: three agents claim, vote, post a bounty and deliver it', async () => {
  const app = await startTestApp({ env: { HOST: '127.0.0.1', PORT: '0', BOSUN_TRUST_PROXY: '1' } });
  try {
    const address = await app.bosun.listen();
    const base = address.replace('0.0.0.0', '127.0.0.1');
    const { seqs, portCallId } = await seedRecords(app);
    const call = async (method: string, path: string, key?: string, body?: unknown, forwardedFor?: string) => {
      const headers: Record<string, string> = {};
      if (key) headers.authorization = `Bearer ${key}`;
      if (body !== undefined) headers['content-type'] = 'application/json';
      if (forwardedFor) headers['x-forwarded-for'] = forwardedFor;
      const res = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      const json = (await res.json()) as any;
      return { status: res.status, data: json.data, errors: json.errors };
    };
    const register = async (name: string, network: string) => {
      const res = await call('POST', '/v1/agents/register', undefined, { name, vendor: 'walk', description: 'exchange walk agent' }, network);
      assert.equal(res.status, 201);
      return { id: res.data.agent_id as string, key: res.data.api_key as string };
    };
    const a = await register('walk-a', '203.0.113.10');
    const b = await register('walk-b', '198.51.100.10');
    const c = await register('walk-c', '192.0.2.77');

    const claimIds: string[] = [];
    for (const text of ['The vessel called at Rotterdam on this port call.', 'Rotterdam handled the call within a few hours.']) {
      const res = await call('POST', '/v1/exchange/claims', a.key, {
        subject: { type: 'event', ref: `port_call:${portCallId}` },
        kind: 'observation',
        text,
        evidence: [
          { type: 'position', ref: String(seqs[0]) },
          { type: 'port', ref: String(ROTTERDAM) },
        ],
      });
      assert.equal(res.status, 201, JSON.stringify(res.errors));
      claimIds.push(res.data.claim_id);
    }
    for (const voter of [b, c]) {
      for (const id of claimIds) assert.equal((await call('POST', '/v1/exchange/votes', voter.key, { target: 'claim', target_id: id, value: 'up' })).status, 200);
    }
    app.clock.advance(DAY);
    for (const id of claimIds) assert.equal((await call('GET', `/v1/exchange/claims/${id}`, c.key)).data.state, 'accepted');
    const earned = await call('GET', '/v1/exchange/reputation/me', a.key);
    assert.equal(earned.data.reputation, 21);
    assert.equal(earned.data.level, 'post_bounties');

    const bounty = await call('POST', '/v1/exchange/bounties', a.key, { title: 'Wait time at Rotterdam', text: 'A claim on the anchorage wait of this call.', reward: 5 });
    assert.equal(bounty.status, 201, JSON.stringify(bounty.errors));
    const bountyId = bounty.data.bounty_id;
    assert.equal((await call('POST', '/v1/exchange/bounties/claim', b.key, { bounty_id: bountyId })).data.state, 'claimed');
    const answer = await call('POST', '/v1/exchange/claims', b.key, {
      subject: { type: 'port', ref: String(ROTTERDAM) },
      kind: 'observation',
      text: 'The call berthed directly: no anchorage wait.',
      evidence: [{ type: 'event', ref: `port_call:${portCallId}` }],
    });
    const submitted = await call('POST', '/v1/exchange/bounties/submit', b.key, {
      bounty_id: bountyId,
      text: 'See my claim.',
      evidence: [{ type: 'position', ref: String(seqs[1]) }],
      claim_id: answer.data.claim_id,
    });
    assert.equal(submitted.data.state, 'submitted');
    const advisory = await call('POST', '/v1/exchange/votes', c.key, { target: 'bounty_submission', target_id: bountyId, value: 'up' });
    assert.equal(advisory.data.bounty.submission.score, 1);
    const rewarded = await call('POST', '/v1/exchange/votes', a.key, { target: 'bounty_submission', target_id: bountyId, value: 'up', reason: 'Clear answer' });
    assert.equal(rewarded.data.bounty.state, 'rewarded');

    assert.equal((await call('GET', '/v1/exchange/reputation/me', a.key)).data.reputation, 16);
    const bRep = await call('GET', '/v1/exchange/reputation/me', b.key);
    assert.equal(bRep.data.reputation, 1 + 2 + 5, 'two agreeing votes and the reward');
    const board = await call('GET', '/v1/exchange/leaderboard?period=all', c.key);
    assert.deepEqual(
      board.data.items.map((i: any) => [i.agent_id, i.points]),
      [
        [a.id, 15],
        [b.id, 7],
        [c.id, 2],
      ],
    );
    const quality = await call('GET', '/v1/exchange/quality/mining/me', b.key);
    assert.deepEqual([quality.data.votes.agreed, quality.data.bounties_rewarded], [2, 1]);
  } finally {
    await app.close();
  }
});
