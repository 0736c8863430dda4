import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DAY, HOUR, SECOND } from '../../src/platform/clock.js';
import { withApp, type TestApp, startTestAppWithCli } from '../helpers/app.js';
import { runCli } from '../helpers/cli.js';
import { seedSampleVessel } from '../helpers/fleet.js';
import { FEEDBACK_LIMITS } from '../../src/features/feedback/feedback-service.js';

const ROTTERDAM = 31140;
const CLI = { kind: 'cli' } as const;
const correctName = (id = 'IMO:9811000', name = 'OCEAN PRIDE II') => ({
  subject: { kind: 'vessel', id },
  changes: [{ field: 'name', value: name }],
  body: 'The registry lists the renamed vessel.',
  evidence: ['https://example.org/registry/9811000'],
});

async function seeded(app: TestApp): Promise<string> {
  await seedSampleVessel(app.bosun.ctx.services.fleet, app.clock.now());
  return app.bosun.ctx.services.fleet.byImoNumber(9811000)!.vslId;
}

test('feedback: the three kinds open tickets the author reads back; another agent gets feedback_ticket_not_found', async () => {
  await withApp(async (app) => {
    const vslId = await seeded(app);
    const [a, b, c] = [await app.registerAgent('alpha'), await app.registerAgent('beta'), await app.registerAgent('gamma')];
    const correction = await app.api('POST', '/v1/feedback/correction', { token: a.apiKey, body: correctName() });
    assert.equal(correction.status, 201);
    const ticket = correction.body.data;
    assert.match(ticket.ticket_id, /^fbt_[0-9a-f]{20}$/);
    assert.deepEqual(
      [ticket.kind, ticket.subject, ticket.state, ticket.public_response, ticket.changes, ticket.evidence, ticket.overrides],
      ['correction', { kind: 'vessel', ref: vslId }, 'open', null, [{ field: 'name', value: 'OCEAN PRIDE II' }], ['https://example.org/registry/9811000'], []],
    );
    assert.equal(ticket.title, `Correct name of vessel ${vslId}`);

    const request = await app.api('POST', '/v1/feedback/request-data', {
      token: a.apiKey,
      body: { subject: { kind: 'port', id: String(ROTTERDAM) }, title: 'Berth occupancy', body: 'Please add berth occupancy for Rotterdam.' },
    });
    assert.equal(request.status, 201);
    assert.deepEqual([request.body.data.kind, request.body.data.subject], ['request_data', { kind: 'port', ref: String(ROTTERDAM) }]);
    const area = await app.api('POST', '/v1/feedback/request-data', { token: b.apiKey, body: { subject: { kind: 'area', id: ' Baltic Sea ' }, title: 'Ice', body: 'Sea ice extent.' } });
    assert.deepEqual(area.body.data.subject, { kind: 'area', ref: 'Baltic Sea' });

    const metric = await app.api('POST', '/v1/feedback/propose-metric', {
      token: c.apiKey,
      body: { metric_name: 'anchorage_dwell_p90', title: 'Anchorage dwell p90', body: 'Per port and week.', inputs: ['port calls'], evidence: ['paper'] },
    });
    assert.equal(metric.status, 201);
    assert.deepEqual([metric.body.data.kind, metric.body.data.subject, metric.body.data.evidence], ['propose_metric', { kind: 'metric', ref: 'anchorage_dwell_p90' }, ['paper', 'input: port calls']]);

    const own = await app.api('GET', `/v1/feedback/tickets/${ticket.ticket_id}`, { token: a.apiKey });
    assert.equal(own.status, 200);
    assert.deepEqual(own.body.data, ticket);
    for (const other of [b, c]) {
      const res = await app.api('GET', `/v1/feedback/tickets/${ticket.ticket_id}`, { token: other.apiKey });
      assert.equal(res.status, 404);
      assert.equal(res.body.errors[0].code, 'feedback_ticket_not_found');
      assert.ok(!res.text.includes('OCEAN PRIDE II'));
    }
    const missing = await app.api('GET', '/v1/feedback/tickets/fbt_00000000000000000000', { token: a.apiKey });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.errors[0].code, 'feedback_ticket_not_found');
  });
});

test('feedback: input is checked field by field (unknown field, bad value, vessel and port subjects)', async () => {
  await withApp(async (app) => {
    await seeded(app);
    const a = await app.registerAgent('alpha');
    const cases: Array<[string, unknown, number, string, string]> = [
      ['correction', { ...correctName(), changes: [{ field: 'destination', value: 'X' }] }, 400, 'invalid_request', 'body.changes[0].field'],
      ['correction', { ...correctName(), changes: [{ field: 'length_m', value: 9000 }] }, 400, 'invalid_request', 'body.changes[0].value'],
      ['correction', { ...correctName(), changes: [{ field: 'ship_type', value: 7.5 }] }, 400, 'invalid_request', 'body.changes[0].value'],
      [
        'correction',
        {
          ...correctName(),
          changes: [
            { field: 'name', value: 'A' },
            { field: 'name', value: 'B' },
          ],
        },
        400,
        'invalid_request',
        'body.changes[1].field',
      ],
      ['correction', correctName('IMO:1234568'), 400, 'invalid_vessel_id', 'body.subject.id'],
      ['correction', correctName('IMO:9321483'), 404, 'vessel_not_found', 'body.subject.id'],
      ['correction', { ...correctName(), subject: { kind: 'port', id: '99999999' }, changes: [{ field: 'lat', value: 10 }] }, 404, 'port_not_found', 'body.subject.id'],
      ['correction', { ...correctName(), subject: { kind: 'port', id: 'Rotterdam' }, changes: [{ field: 'lat', value: 10 }] }, 400, 'invalid_request', 'body.subject.id'],
      ['correction', { ...correctName(), body: '' }, 400, 'invalid_request', 'body.body'],
      ['request-data', { subject: { kind: 'vessel', id: 'MMSI:12' }, title: 'Hello', body: 'x' }, 400, 'invalid_vessel_id', 'body.subject.id'],
      ['request-data', { subject: { kind: 'area', id: 'x' }, title: 'Hi', body: 'x' }, 400, 'invalid_request', 'body.title'],
      ['propose-metric', { metric_name: 'Bad Name', title: 'Metric', body: 'x' }, 400, 'invalid_request', 'body.metric_name'],
    ];
    for (const [path, body, status, code, field] of cases) {
      const res = await app.api('POST', `/v1/feedback/${path}`, { token: a.apiKey, body });
      assert.equal(res.status, status, `${path} ${JSON.stringify(body)}: ${res.text}`);
      assert.equal(res.body.errors[0].code, code, JSON.stringify(body));
      assert.equal(res.body.errors[0].field, field, JSON.stringify(body));
    }
  });
});

test('feedback: 20 tickets per agent per rolling 24 hours, then feedback_daily_limit with Retry-After; other agents unaffected', async () => {
  await withApp(async (app) => {
    const [a, b] = [await app.registerAgent('alpha'), await app.registerAgent('beta')];
    const ask = (key: string, i: number) => app.api('POST', '/v1/feedback/request-data', { token: key, body: { subject: { kind: 'dataset', id: `set ${i}` }, title: `Request ${i}`, body: 'x' } });
    for (let i = 0; i < FEEDBACK_LIMITS.ticketsPer24h; i++) {
      const res = await ask(a.apiKey, i);
      assert.equal(res.status, 201, `ticket ${i}: ${res.text}`);
      app.clock.advance(HOUR / 2);
    }
    const over = await ask(a.apiKey, 99);
    assert.equal(over.status, 429);
    assert.equal(over.body.errors[0].code, 'feedback_daily_limit');
    // the oldest ticket was opened 10 h ago: it leaves the window in 14 h
    assert.equal(over.headers['retry-after'], String(14 * 3600));
    assert.equal((await ask(b.apiKey, 0)).status, 201);
    app.clock.advance(14 * HOUR - SECOND);
    assert.equal((await ask(a.apiKey, 100)).status, 429, 'one second before the oldest leaves the window');
    app.clock.advance(SECOND);
    assert.equal((await ask(a.apiKey, 101)).status, 201);
  });
});

test('feedback: Idempotency-Key replays the first ticket; a different body with the same key is refused', async () => {
  await withApp(async (app) => {
    await seeded(app);
    const a = await app.registerAgent('alpha');
    const headers = { 'idempotency-key': 'fb-key-0001' };
    const first = await app.api('POST', '/v1/feedback/correction', { token: a.apiKey, headers, body: correctName() });
    const again = await app.api('POST', '/v1/feedback/correction', { token: a.apiKey, headers, body: correctName() });
    assert.equal(again.status, 201);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.equal(again.body.data.ticket_id, first.body.data.ticket_id);
    const reused = await app.api('POST', '/v1/feedback/correction', { token: a.apiKey, headers, body: correctName('IMO:9811000', 'OTHER') });
    assert.equal(reused.status, 409);
    assert.equal(reused.body.errors[0].code, 'idempotency_key_reused');
    const invalid = await app.api('POST', '/v1/feedback/propose-metric', { token: a.apiKey, headers: { 'idempotency-key': 'short' }, body: { metric_name: 'abc', title: 'Metric', body: 'x' } });
    assert.equal(invalid.body.errors[0].code, 'idempotency_key_invalid');
    const parallel = await Promise.all(
      [1, 2, 3].map(() => app.api('POST', '/v1/feedback/propose-metric', { token: a.apiKey, headers: { 'idempotency-key': 'fb-key-0002' }, body: { metric_name: 'abc', title: 'Metric', body: 'x' } })),
    );
    const ids = new Set(parallel.filter((r) => r.status === 201).map((r) => r.body.data.ticket_id));
    assert.equal(ids.size, 1, 'one ticket whatever the interleaving');
    for (const r of parallel.filter((r) => r.status !== 201)) assert.deepEqual([r.status, r.body.errors[0].code], [409, 'conflict']);
  });
});

test('an applied vessel correction is served as an override with flag and provenance; revert restores the observed value', async () => {
  await withApp(async (app) => {
    const vslId = await seeded(app);
    const [a, live] = [await app.registerAgent('alpha'), await app.registerAgent('reader', ['vessels:live'])];
    const body = {
      ...correctName(),
      changes: [
        { field: 'name', value: 'OCEAN PRIDE II' },
        { field: 'length_m', value: 190 },
      ],
    };
    const ticketId = (await app.api('POST', '/v1/feedback/correction', { token: a.apiKey, body })).body.data.ticket_id as string;
    const feedback = app.bosun.ctx.services.feedback;
    const lookup = () => app.api('GET', '/v1/vessels/lookup?imo=9811000', { token: live.apiKey });

    await feedback.step(ticketId, 'accept', { publicResponse: 'Thanks, checking.' }, CLI);
    const beforeApply = await lookup();
    assert.equal(beforeApply.body.data.vessel.name, 'OCEAN PRIDE', 'accepted is not yet applied');
    assert.ok(!beforeApply.body.quality_flags.includes('operator_corrected'));

    app.clock.advance(HOUR);
    const applied = await feedback.step(ticketId, 'apply', { publicResponse: 'Applied.', internalNote: 'registry checked' }, CLI);
    assert.equal(applied.state, 'applied');
    const after = await lookup();
    assert.equal(after.body.data.vessel.name, 'OCEAN PRIDE II');
    assert.equal(after.body.data.vessel.length_m, 190);
    assert.equal(after.body.data.vessel.beam_m, 32, 'uncorrected fields stay observed');
    assert.ok(after.body.quality_flags.includes('operator_corrected'));
    assert.deepEqual(
      after.body.data.vessel.corrections.map((c: any) => [c.field, c.value, c.ticket_id, c.provenance, c.applied_at]),
      [
        ['length_m', 190, ticketId, `corrected by the operator from feedback ticket ${ticketId}`, '2026-11-21T01:00:00.000Z'],
        ['name', 'OCEAN PRIDE II', ticketId, `corrected by the operator from feedback ticket ${ticketId}`, '2026-11-21T01:00:00.000Z'],
      ],
    );
    const last = await app.api('GET', '/v1/vessels/last_position?imo=9811000', { token: live.apiKey });
    assert.equal(last.body.data.name, 'OCEAN PRIDE II');
    assert.ok(last.body.quality_flags.includes('operator_corrected'));
    const search = await app.api('GET', '/v1/vessels/search?q=OCEAN', { token: live.apiKey });
    assert.equal(search.body.data.items[0].name, 'OCEAN PRIDE II');
    assert.ok(search.body.quality_flags.includes('operator_corrected'));
    // the raw observation is untouched
    assert.equal(app.bosun.ctx.services.fleet.byVesselId(vslId)!.name, 'OCEAN PRIDE');

    const authorView = await app.api('GET', `/v1/feedback/tickets/${ticketId}`, { token: a.apiKey });
    assert.deepEqual([authorView.body.data.state, authorView.body.data.public_response], ['applied', 'Applied.']);
    assert.deepEqual(
      authorView.body.data.overrides.map((o: any) => [o.field, o.value, o.reverted_at]),
      [
        ['length_m', 190, null],
        ['name', 'OCEAN PRIDE II', null],
      ],
    );
    assert.ok(!authorView.text.includes('registry checked'), 'the internal note stays internal');

    app.clock.advance(HOUR);
    await feedback.step(ticketId, 'revert', { publicResponse: 'Reverted: the rename was not registered.' }, CLI);
    const reverted = await lookup();
    assert.equal(reverted.body.data.vessel.name, 'OCEAN PRIDE');
    assert.equal(reverted.body.data.vessel.length_m, 183);
    assert.equal(reverted.body.data.vessel.corrections, undefined);
    assert.ok(!reverted.body.quality_flags.includes('operator_corrected'));
    const final = await app.api('GET', `/v1/feedback/tickets/${ticketId}`, { token: a.apiKey });
    assert.equal(final.body.data.state, 'reverted');
    assert.ok(final.body.data.overrides.every((o: any) => o.reverted_at === '2026-11-21T02:00:00.000Z'));
  });
});

test('a port correction changes what /v1/ports/search serves; a newer correction of the same field replaces the older', async () => {
  await withApp(async (app) => {
    const a = await app.registerAgent('alpha');
    const feedback = app.bosun.ctx.services.feedback;
    const search = () => app.api('GET', '/v1/ports/search?locode=NLRTM');
    const observed = (await search()).body.data.items[0];
    const open = async (lat: number) =>
      (
        await app.api('POST', '/v1/feedback/correction', {
          token: a.apiKey,
          body: { subject: { kind: 'port', id: String(ROTTERDAM) }, changes: [{ field: 'lat', value: lat }], body: 'Harbour entrance position.' },
        })
      ).body.data.ticket_id as string;
    const first = await open(51.95);
    await feedback.step(first, 'accept', {}, CLI);
    await feedback.step(first, 'apply', {}, CLI);
    let served = await search();
    assert.equal(served.body.data.items[0].lat, 51.95);
    assert.equal(served.body.data.items[0].lon, observed.lon);
    assert.deepEqual(served.body.quality_flags, ['operator_corrected']);
    assert.equal(served.body.data.items[0].corrections[0].ticket_id, first);

    const second = await open(51.96);
    await feedback.step(second, 'accept', {}, CLI);
    await feedback.step(second, 'apply', {}, CLI);
    served = await search();
    assert.equal(served.body.data.items[0].lat, 51.96);
    assert.equal(served.body.data.items[0].corrections[0].ticket_id, second);
    const firstView = await app.api('GET', `/v1/feedback/tickets/${first}`, { token: a.apiKey });
    assert.notEqual(firstView.body.data.overrides[0].reverted_at, null, 'the replaced override is recorded as reverted');

    await feedback.step(second, 'revert', {}, CLI);
    served = await search();
    assert.equal(served.body.data.items[0].lat, observed.lat, 'reverting the newest serves the observed value, not an older correction');
    assert.deepEqual(served.body.quality_flags, []);
  });
});

test('ticket states: only the documented steps; every change reaches the author as a workspace event', async () => {
  await withApp(async (app) => {
    await seeded(app);
    const [a, b] = [await app.registerAgent('alpha'), await app.registerAgent('beta')];
    const feedback = app.bosun.ctx.services.feedback;
    const open = async (body: object, path = 'correction') => (await app.api('POST', `/v1/feedback/${path}`, { token: a.apiKey, body })).body.data.ticket_id as string;
    const correction = await open(correctName());
    const request = await open({ subject: { kind: 'other', id: 'x' }, title: 'Some data', body: 'x' }, 'request-data');

    await assert.rejects(feedback.step(correction, 'apply', {}, CLI), (e: any) => e.code === 'feedback_state_invalid');
    await assert.rejects(feedback.step(correction, 'revert', {}, CLI), (e: any) => e.code === 'feedback_state_invalid');
    await feedback.step(correction, 'triage', {}, CLI);
    await assert.rejects(feedback.step(correction, 'triage', {}, CLI), (e: any) => e.code === 'feedback_state_invalid');
    await feedback.step(correction, 'reject', { publicResponse: 'The registry still lists the old name.' }, CLI);
    await assert.rejects(feedback.step(correction, 'close', {}, CLI), (e: any) => e.code === 'feedback_state_invalid', 'rejected is final');
    await feedback.step(request, 'accept', {}, CLI);
    await assert.rejects(feedback.step(request, 'apply', {}, CLI), (e: any) => e.code === 'feedback_state_invalid' && /only corrections/.test(e.message));
    await feedback.step(request, 'close', { publicResponse: 'Added to the roadmap.' }, CLI);
    await assert.rejects(feedback.step('fbt_missing', 'close', {}, CLI), (e: any) => e.code === 'feedback_ticket_not_found');

    const events = await app.api('GET', '/v1/workspace/events', { token: a.apiKey });
    assert.deepEqual(
      events.body.data.items.map((e: any) => [e.seq, e.kind, e.payload.ticket_id, e.payload.previous_state, e.payload.state]),
      [
        [1, 'feedback_ticket.changed', correction, 'open', 'triaged'],
        [2, 'feedback_ticket.changed', correction, 'triaged', 'rejected'],
        [3, 'feedback_ticket.changed', request, 'open', 'accepted'],
        [4, 'feedback_ticket.changed', request, 'accepted', 'closed'],
      ],
    );
    assert.equal(events.body.data.items[1].payload.public_response, 'The registry still lists the old name.');
    assert.deepEqual((await app.api('GET', '/v1/workspace/events', { token: b.apiKey })).body.data.items, [], 'nothing reaches another agent');
    const audit = await app.bosun.ctx.store.db.selectFrom('audit_log').select(['action', 'target']).where('action', 'like', 'feedback.ticket.%').execute();
    assert.equal(audit.length, 4);
  });
});

test('bosun feedback list|show|accept|apply|revert|reject|close on the shared store', async () => {
  const { app, env, cleanup } = await startTestAppWithCli('feedback-cli');
  const run = (...args: string[]) => runCli(['feedback', ...args], { env });
  try {
    await seeded(app);
    const a = await app.registerAgent('alpha');
    const ticketId = (await app.api('POST', '/v1/feedback/correction', { token: a.apiKey, body: correctName() })).body.data.ticket_id as string;
    const list = await run('list', '--state', 'open');
    assert.equal(list.status, 0, list.stderr);
    assert.match(list.stdout, new RegExp(`^${ticketId}  open  correction  vessel:vsl_[0-9a-f]{16}  ${a.agentId}`, 'm'));
    assert.match(list.stdout, /change: name = "OCEAN PRIDE II"/);
    assert.match((await run('list', '--state', 'applied')).stdout, /no feedback tickets/);
    assert.notEqual((await run('list', '--state', 'bogus')).status, 0);
    assert.match((await run('show', ticketId)).stdout, /evidence: https:\/\/example\.org\/registry\/9811000/);
    assert.equal((await run('accept', ticketId, '--note', 'looks right')).status, 0);
    const applied = await run('apply', ticketId, '--public', 'Corrected.');
    assert.equal(applied.status, 0, applied.stderr);
    assert.match(applied.stdout, /override: name = "OCEAN PRIDE II" applied/);
    assert.match(applied.stdout, /internal note: looks right/);
    // the serving process sees the other process's apply at its next refresh (the 5-second job)
    await app.bosun.ctx.services.overrides.refresh();
    const live = await app.registerAgent('reader', ['vessels:live']);
    assert.equal((await app.api('GET', '/v1/vessels/lookup?imo=9811000', { token: live.apiKey })).body.data.vessel.name, 'OCEAN PRIDE II');
    assert.equal((await run('revert', ticketId)).status, 0);
    await app.bosun.ctx.services.overrides.refresh();
    assert.equal((await app.api('GET', '/v1/vessels/lookup?imo=9811000', { token: live.apiKey })).body.data.vessel.name, 'OCEAN PRIDE');
    const noReason = await run('reject', ticketId);
    assert.notEqual(noReason.status, 0);
    assert.match(noReason.stderr, /--public/);
    const closed = await run('close', ticketId);
    assert.notEqual(closed.status, 0, 'a reverted ticket is final');
    assert.match(closed.stderr, /reverted/);
    const events = await app.api('GET', '/v1/workspace/events', { token: a.apiKey });
    assert.deepEqual(
      events.body.data.items.map((e: any) => e.payload.state),
      ['accepted', 'applied', 'reverted'],
    );
  } finally {
    await cleanup();
  }
});

test('feedback tickets expire from no one: a day later the author still reads them', async () => {
  await withApp(async (app) => {
    const a = await app.registerAgent('alpha');
    const id = (await app.api('POST', '/v1/feedback/propose-metric', { token: a.apiKey, body: { metric_name: 'abc', title: 'Metric', body: 'x' } })).body.data.ticket_id;
    app.clock.advance(40 * DAY);
    assert.equal((await app.api('GET', `/v1/feedback/tickets/${id}`, { token: a.apiKey })).status, 200);
  });
});

test('a name correction that looks like markup is refused with correction_markup_refused; plain names with & and < pass', async () => {
  await withApp(async (app) => {
    await seeded(app);
    const { apiKey } = await app.registerAgent('markup');
    for (const name of ['<img src=x onerror=alert(1)>', 'OCEAN </b>PRIDE', 'A &lt;b&gt;', 'X &#60;script', '<!-- c -->']) {
      const res = await app.api('POST', '/v1/feedback/correction', { token: apiKey, body: correctName('IMO:9811000', name) });
      assert.equal(res.status, 400, `${name}: ${res.text.slice(0, 200)}`);
      assert.equal(res.body.errors[0].code, 'correction_markup_refused', name);
      assert.equal(res.body.errors[0].field, 'body.changes[0].value');
      assert.match(res.body.errors[0].message, /^name looks like HTML or XML markup/);
    }
    const tickets = await app.api('GET', '/v1/feedback/mine', { token: apiKey });
    if (tickets.status === 200) assert.equal(tickets.body.data.items.length, 0, 'nothing was filed');
    for (const name of ['M&M TRADER', 'A < B', 'ST. JOHN-S']) {
      const res = await app.api('POST', '/v1/feedback/correction', { token: apiKey, body: correctName('IMO:9811000', name) });
      assert.equal(res.status, 201, `${name}: ${res.text.slice(0, 200)}`);
      assert.equal(res.body.data.changes[0].value, name);
    }
  });
});
