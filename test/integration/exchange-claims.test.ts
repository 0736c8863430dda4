import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DAY, HOUR } from '../../src/platform/clock.js';
import { TEST_EPOCH, withApp } from '../helpers/app.js';
import { createClaim, errorCode, portClaim, reputation, ROTTERDAM, seedRecords, VESSEL_IMO, VESSEL_MMSI, vote } from './exchange-core-support.js';
import { identity, imo, ingest, position } from '../helpers/fleet.js';

test('claims: evidence is checked against the store when the claim is created; subjects are normalised; each bad reference names itself', () =>
  withApp(async (app) => {
    const { vslId, seqs, portCallId } = await seedRecords(app);
    const a = await app.registerAgent('claims-a');
    const body = {
      subject: { type: 'vessel', ref: `IMO:${VESSEL_IMO}` },
      kind: 'behaviour',
      text: 'The vessel called at Rotterdam and berthed for an hour.',
      evidence: [
        { type: 'position', ref: String(seqs[0]), note: 'arrival fix' },
        { type: 'event', ref: `port_call:${portCallId}` },
        { type: 'vessel', ref: `MMSI:${VESSEL_MMSI}` },
        { type: 'port', ref: String(ROTTERDAM) },
      ],
    };
    const created = await app.api('POST', '/v1/exchange/claims', { token: a.apiKey, body });
    assert.equal(created.status, 201, created.text);
    const claim = created.body.data;
    assert.match(claim.claim_id, /^clm_[0-9a-f]{20}$/);
    assert.equal(claim.author_id, a.agentId);
    assert.deepEqual(claim.subject, { type: 'vessel', ref: vslId }, 'an IMO subject is stored as the vsl_id');
    assert.deepEqual(claim.evidence, [
      { type: 'position', ref: String(seqs[0]), note: 'arrival fix' },
      { type: 'event', ref: `port_call:${portCallId}`, note: null },
      { type: 'vessel', ref: vslId, note: null },
      { type: 'port', ref: String(ROTTERDAM), note: null },
    ]);
    assert.equal(claim.state, 'open');
    assert.deepEqual([claim.score, claim.voters, claim.my_vote], [0, 0, null]);
    assert.equal(claim.created_at, new Date(TEST_EPOCH).toISOString());
    assert.equal(claim.decidable_at, new Date(TEST_EPOCH + DAY).toISOString());
    assert.equal(claim.expires_at, new Date(TEST_EPOCH + 14 * DAY).toISOString());

    const lane = await app.api('POST', '/v1/exchange/claims', {
      token: a.apiKey,
      body: { subject: { type: 'lane', ref: 'nlrtm-sgsin' }, kind: 'forecast', text: 'This lane will be slower next week.', evidence: [{ type: 'claim', ref: claim.claim_id }] },
    });
    assert.equal(lane.status, 201, lane.text);
    assert.deepEqual(lane.body.data.subject, { type: 'lane', ref: 'NLRTM-SGSIN' });

    const bad = async (patch: Record<string, unknown>) => app.api('POST', '/v1/exchange/claims', { token: a.apiKey, body: { ...body, ...patch } });
    const cases: Array<[Record<string, unknown>, string, string, RegExp]> = [
      [{ subject: { type: 'vessel', ref: 'IMO:9999993' } }, 'claim_subject_not_found', 'body.subject.ref', /vessel IMO:9999993/],
      [{ subject: { type: 'port', ref: '999999999' } }, 'claim_subject_not_found', 'body.subject.ref', /port 999999999/],
      [{ subject: { type: 'event', ref: 'encounter:424242' } }, 'claim_subject_not_found', 'body.subject.ref', /encounter:424242/],
      [{ subject: { type: 'lane', ref: 'NLRTM-ZZZZZ' } }, 'claim_subject_not_found', 'body.subject.ref', /ZZZZZ/],
      [{ subject: { type: 'lane', ref: 'NLRTM' } }, 'invalid_request', 'body.subject.ref', /not a lane/],
      [{ subject: { type: 'planet', ref: 'x' } }, 'invalid_request', 'body.subject.type', /subject type/],
      [{ subject: { type: 'vessel', ref: 'boaty' } }, 'invalid_request', 'body.subject.ref', /not a vessel id/],
      [{ evidence: [{ type: 'position', ref: '987654321' }] }, 'evidence_not_found', 'body.evidence[0].ref', /position 987654321/],
      [
        {
          evidence: [
            { type: 'port', ref: String(ROTTERDAM) },
            { type: 'event', ref: 'transit:77' },
          ],
        },
        'evidence_not_found',
        'body.evidence[1].ref',
        /transit:77/,
      ],
      [{ evidence: [{ type: 'claim', ref: 'clm_nothing' }] }, 'evidence_not_found', 'body.evidence[0].ref', /claim clm_nothing/],
      [{ evidence: [{ type: 'event', ref: 'port_call' }] }, 'invalid_request', 'body.evidence[0].ref', /not an event reference/],
      [{ evidence: [{ type: 'rumour', ref: 'x' }] }, 'invalid_request', 'body.evidence[0].type', /evidence type/],
      [{ evidence: [] }, 'invalid_request', 'body.evidence', /at least one/],
      [{ evidence: Array.from({ length: 21 }, () => ({ type: 'port', ref: String(ROTTERDAM) })) }, 'invalid_request', 'body.evidence', /at most 20/],
      [{ kind: 'gossip' }, 'invalid_request', 'body.kind', /kind must be one of/],
      [{ text: 'short' }, 'invalid_request', 'body.text', /10-2000/],
    ];
    for (const [patch, code, field, message] of cases) {
      const res = await bad(patch);
      assert.equal(errorCode(res), code, `${JSON.stringify(patch).slice(0, 80)}: ${res.text}`);
      assert.equal(res.body.errors[0].field, field, JSON.stringify(patch).slice(0, 80));
      assert.match(res.body.errors[0].message, message);
    }
  }));

test('claims: listing filters by state, subject (any accepted form), author and kind; signed cursors page newest first; one claim by id', () =>
  withApp(async (app) => {
    const { vslId } = await seedRecords(app);
    const a = await app.registerAgent('list-a');
    const b = await app.registerAgent('list-b');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      app.clock.advance(1000);
      ids.push(await createClaim(app, i % 2 === 0 ? a : b, portClaim(`Port observation number ${i}.`)));
    }
    app.clock.advance(1000);
    const vesselClaim = await createClaim(app, a, { subject: { type: 'vessel', ref: vslId }, kind: 'identity', text: 'The vessel name matches its IMO.', evidence: [{ type: 'vessel', ref: vslId }] });

    const all = await app.api('GET', '/v1/exchange/claims?limit=4', { token: a.apiKey });
    assert.equal(all.status, 200);
    assert.deepEqual(
      all.body.data.items.map((c: any) => c.claim_id),
      [vesselClaim, ids[4], ids[3], ids[2]],
    );
    const next = await app.api('GET', `/v1/exchange/claims?limit=4&cursor=${encodeURIComponent(all.body.data.next_cursor)}`, { token: a.apiKey });
    assert.deepEqual(
      next.body.data.items.map((c: any) => c.claim_id),
      [ids[1], ids[0]],
    );
    assert.equal(next.body.data.next_cursor, null);

    const byImo = await app.api('GET', `/v1/exchange/claims?subject_type=vessel&subject_ref=IMO:${VESSEL_IMO}`, { token: b.apiKey });
    assert.deepEqual(
      byImo.body.data.items.map((c: any) => c.claim_id),
      [vesselClaim],
    );
    const unknownVessel = await app.api('GET', '/v1/exchange/claims?subject_type=vessel&subject_ref=IMO:9999993', { token: b.apiKey });
    assert.deepEqual(unknownVessel.body.data.items, [], 'a subject Bosun does not know has no claims');
    const byAuthor = await app.api('GET', `/v1/exchange/claims?author=${b.agentId}`, { token: a.apiKey });
    assert.deepEqual(
      byAuthor.body.data.items.map((c: any) => c.claim_id),
      [ids[3], ids[1]],
    );
    const byKind = await app.api('GET', '/v1/exchange/claims?kind=identity', { token: a.apiKey });
    assert.deepEqual(
      byKind.body.data.items.map((c: any) => c.claim_id),
      [vesselClaim],
    );
    await vote(app, b, 'claim', ids[0]!, 'up');
    const supported = await app.api('GET', '/v1/exchange/claims?state=supported', { token: a.apiKey });
    assert.deepEqual(
      supported.body.data.items.map((c: any) => c.claim_id),
      [ids[0]],
    );
    const half = await app.api('GET', '/v1/exchange/claims?subject_type=port', { token: a.apiKey });
    assert.equal(errorCode(half), 'invalid_request');
    assert.equal(half.body.errors[0].field, 'query.subject_ref');

    const forged = await app.api('GET', '/v1/exchange/claims?cursor=abc.def', { token: a.apiKey });
    assert.equal(errorCode(forged), 'cursor_invalid');

    const one = await app.api('GET', `/v1/exchange/claims/${ids[0]}`, { token: b.apiKey });
    assert.equal(one.status, 200);
    assert.equal(one.body.data.state, 'supported');
    assert.equal(one.body.data.my_vote.value, 'up');
    const missing = await app.api('GET', '/v1/exchange/claims/clm_missing', { token: b.apiKey });
    assert.equal(missing.status, 404);
    assert.equal(errorCode(missing), 'claim_not_found');
  }));

test('votes decide claims: supported/disputed by balance, accepted/rejected after 24 h at ±2 from 2 voters, expired after 14 days; the ledger pays authors and agreeing voters', () =>
  withApp(async (app) => {
    const [a, b, c] = [await app.registerAgent('vote-a'), await app.registerAgent('vote-b'), await app.registerAgent('vote-c')];
    const good = await createClaim(app, a, portClaim('A claim that turns out right.'));
    const poor = await createClaim(app, a, portClaim('A claim that turns out wrong.'));
    const quiet = await createClaim(app, a, portClaim('A claim nobody votes on.'));

    const self = await vote(app, a, 'claim', good, 'up');
    assert.equal(self.status, 403);
    assert.equal(errorCode(self), 'exchange_self_vote');

    let res = await vote(app, b, 'claim', good, 'up', 'The berth list agrees.');
    assert.equal(res.status, 200, res.text);
    assert.deepEqual([res.body.data.claim.state, res.body.data.claim.score, res.body.data.vote.weight], ['supported', 1, 1]);
    assert.equal(res.body.data.vote.changeable_until, new Date(TEST_EPOCH + HOUR).toISOString());
    res = await vote(app, c, 'claim', good, 'down');
    assert.deepEqual([res.body.data.claim.state, res.body.data.claim.score, res.body.data.claim.voters], ['open', 0, 2]);
    app.clock.advance(HOUR);
    res = await vote(app, c, 'claim', good, 'up', 'Changed my mind');
    assert.equal(res.status, 200, 'a vote changes until the end of its hour');
    assert.deepEqual([res.body.data.claim.state, res.body.data.claim.score, res.body.data.claim.voters, res.body.data.claim.up_weight], ['supported', 2, 2, 2]);
    app.clock.advance(1);
    res = await vote(app, c, 'claim', good, 'down');
    assert.equal(res.status, 409);
    assert.equal(errorCode(res), 'exchange_vote_locked');

    await vote(app, b, 'claim', poor, 'down');
    await vote(app, c, 'claim', poor, 'down');
    const early = await app.api('GET', `/v1/exchange/claims/${good}`, { token: a.apiKey });
    assert.equal(early.body.data.state, 'supported', 'no decision before the minimum voting period');

    app.clock.set(TEST_EPOCH + DAY);
    const decided = await app.api('GET', `/v1/exchange/claims/${good}`, { token: a.apiKey });
    assert.equal(decided.body.data.state, 'accepted');
    assert.equal(decided.body.data.decided_at, new Date(TEST_EPOCH + DAY).toISOString());
    const rejected = await app.api('GET', `/v1/exchange/claims/${poor}`, { token: a.apiKey });
    assert.equal(rejected.body.data.state, 'rejected');
    const late = await vote(app, b, 'claim', good, 'down');
    assert.equal(errorCode(late), 'exchange_state_invalid');

    const repA = await reputation(app, a);
    // base 1 + 10 (accepted) − 2 (rejected)
    assert.equal(repA.reputation, 9);
    assert.deepEqual(repA.entries.map((e: any) => [e.reason, e.delta, e.reference]).sort(), [
      ['claim_accepted', 10, good],
      ['claim_rejected', -2, poor],
    ]);
    const repB = await reputation(app, b);
    assert.deepEqual(
      repB.entries.map((e: any) => [e.reason, e.delta, e.reference]).sort(),
      [
        ['vote_agreed', 1, good],
        ['vote_agreed', 1, poor],
      ].sort(),
    );
    assert.equal(repB.reputation, 3);

    app.clock.set(TEST_EPOCH + 14 * DAY - 1);
    assert.equal((await app.api('GET', `/v1/exchange/claims/${quiet}`, { token: b.apiKey })).body.data.state, 'open');
    app.clock.advance(1);
    assert.equal((await app.api('GET', `/v1/exchange/claims/${quiet}`, { token: b.apiKey })).body.data.state, 'expired');

    const quality = await app.api('GET', '/v1/exchange/quality/mining/me', { token: a.apiKey });
    assert.deepEqual(quality.body.data.claims, { total: 3, pending: 0, accepted: 1, rejected: 1, expired: 1, acceptance_rate: 0.5 });
    const qualityC = await app.api('GET', '/v1/exchange/quality/mining/me', { token: c.apiKey });
    assert.deepEqual(qualityC.body.data.votes, { agreed: 2, disagreed: 0, pending: 0, agreement_rate: 1 });
    assert.equal(qualityC.body.data.bounties_rewarded, 0);
  }));

test('a rejected claim never takes its author below the base of 1 (the entry records what was asked)', () =>
  withApp(async (app) => {
    const [a, b, c] = [await app.registerAgent('floor-a'), await app.registerAgent('floor-b'), await app.registerAgent('floor-c')];
    const claim = await createClaim(app, a);
    await vote(app, b, 'claim', claim, 'down');
    await vote(app, c, 'claim', claim, 'down');
    app.clock.advance(DAY);
    const rep = await reputation(app, a);
    assert.equal(rep.reputation, 1);
    assert.deepEqual(
      rep.entries.map((e: any) => [e.reason, e.delta, e.requested, e.capped]),
      [['claim_rejected', 0, -2, true]],
    );
  }));

test('linked agents (same network within 24 hours) cannot vote on each other’s claims', () =>
  withApp(async (app) => {
    const register = (name: string) => app.registerAgent(name, [], '192.0.2.10');
    const a = await register('linked-a');
    const b = await register('linked-b');
    const claim = await createClaim(app, a);
    const res = await vote(app, b, 'claim', claim, 'up');
    assert.equal(res.status, 403);
    assert.equal(errorCode(res), 'exchange_linked_agent_forbidden');
  }));

test('claims: a position offered for a claim about a vessel must be a fix of that vessel (evidence_not_relevant names both)', () =>
  withApp(async (app) => {
    const { vslId, seqs } = await seedRecords(app);
    const now = app.clock.now();
    await ingest(app.bosun.ctx.services.fleet, identity(244770000, now - HOUR, { imo: imo(931235), name: 'OTHER SHIP', shipType: 70 }), position(244770000, now - HOUR, 51.97, 4.1));
    const other = (await app.bosun.ctx.services.fleet.loadVessel({ mmsi: 244770000 }))!.vslId;
    const db = app.bosun.ctx.store.db;
    const otherSeq = Number((await db.selectFrom('positions').select('seq').where('vsl_id', '=', other).executeTakeFirstOrThrow()).seq);
    const a = await app.registerAgent('relevance-a');
    const claim = (evidence: Array<{ type: string; ref: string }>, subject = { type: 'vessel', ref: `IMO:${VESSEL_IMO}` }) =>
      app.api('POST', '/v1/exchange/claims', { token: a.apiKey, body: { subject, kind: 'behaviour', text: 'The vessel waited off Rotterdam for an hour.', evidence } });

    const refused = await claim([
      { type: 'position', ref: String(seqs[0]) },
      { type: 'position', ref: String(otherSeq) },
    ]);
    assert.equal(refused.status, 422, refused.text);
    assert.equal(errorCode(refused), 'evidence_not_relevant');
    assert.equal(refused.body.errors[0].field, 'body.evidence[1].ref');
    assert.match(refused.body.errors[0].message, new RegExp(`position ${otherSeq} is a fix of vessel ${other}, not of the claim's vessel ${vslId}`));
    // the vessel's own fixes are accepted; another vessel's fix supports a claim about a port
    assert.equal((await claim([{ type: 'position', ref: String(seqs[1]) }])).status, 201);
    assert.equal((await claim([{ type: 'position', ref: String(otherSeq) }], { type: 'port', ref: String(ROTTERDAM) })).status, 201);
  }));
