import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DAY, HOUR, MINUTE } from '../../src/platform/clock.js';
import type { EncounterWrite, PortCallWrite, TransitWrite } from '../../src/features/events/events-repo.js';
import { DELAY_SECONDS } from '../../src/features/vessels/entitlements.js';
import { startTestApp, TEST_EPOCH, type ApiResponse, type TestApp } from '../helpers/app.js';
import { identity, imo, ingest, position } from '../helpers/fleet.js';
import { createEventsRepo } from '../../src/features/events/events-repo.js';
import { HOUSTON } from '../helpers/houston-ports.js';

/**
 * GET /v1/events and /v1/events/{event_id} (decision 112) over rows written through the events repo:
 * every filter, paging at limit=1, one event by id, the 50,400 s edge on REST, MCP and dispatch, and
 * the refusals.
 */
const NOW = TEST_EPOCH;
const CUTOFF = NOW - DELAY_SECONDS * 1000;
const ROTTERDAM = 31140;
const VALLETTA = 40330;

const A = { mmsi: 636012345, imo: imo(931234), name: 'NORTHERN STAR' };
const B = { mmsi: 538012345, imo: null, name: 'SEA BRIDGE' };
const C = { mmsi: 244000101, imo: null, name: 'DATELINE' };

let app: TestApp;
let liveKey: string;
let plainKey: string;
const vsl: Record<'A' | 'B' | 'C', string> = { A: '', B: '', C: '' };
/** event_ids by name, filled after seeding. */
const ids: Record<string, string> = {};

function call(vslId: string, portId: number, arrival: number, departure: number | null, stops: Array<{ kind: 'anchorage' | 'berth'; start: number; end: number }>): PortCallWrite {
  return {
    vsl_id: vslId,
    port_id: portId,
    ship_type: 80,
    arrival,
    departure,
    last_fix_at: departure ?? NOW - MINUTE,
    anchorage_ms: stops.filter((s) => s.kind === 'anchorage').reduce((n, s) => n + s.end - s.start, 0),
    berth_ms: stops.filter((s) => s.kind === 'berth').reduce((n, s) => n + s.end - s.start, 0),
    stops: JSON.stringify(stops.map((s) => ({ ...s, navStatus: s.kind === 'anchorage' ? 1 : 5, lat: 29.7, lon: -95.0 }))),
    first_seq: 10,
    last_seq: 90,
    fixes: 80,
    gaps: 0,
    confidence: 0.95,
    simulated: 0,
    updated_at: NOW,
  };
}

function encounter(a: string, b: string, start: number, minutes: number, lat: number, lon: number, setting: string, zone: string | null = null): EncounterWrite {
  const [x, y] = [a, b].sort() as [string, string];
  return {
    vsl_a: x,
    vsl_b: y,
    start_at: start,
    end_at: start + minutes * MINUTE,
    median_distance_m: 250,
    lat,
    lon,
    zone,
    setting,
    observations: 40,
    first_seq: 5,
    last_seq: 50,
    confidence: 0.9,
    simulated: 0,
    updated_at: NOW,
  };
}

function transit(vslId: string, zone: string, entered: number, hours: number, simulated = 0): TransitWrite {
  return {
    vsl_id: vslId,
    zone,
    direction: 'inbound',
    entered_at: entered,
    exited_at: entered + hours * HOUR,
    mean_speed_kn: 11,
    stopped_ms: 0,
    first_seq: 7,
    last_seq: 70,
    fixes: 30,
    simulated,
    updated_at: NOW,
  };
}

before(async () => {
  app = await startTestApp({ now: NOW });
  const fleet = app.bosun.ctx.services.fleet;
  await ingest(
    fleet,
    identity(A.mmsi, NOW - 30 * DAY, { imo: A.imo, name: A.name, shipType: 80 }),
    identity(B.mmsi, NOW - 30 * DAY, { name: B.name, shipType: 70 }),
    identity(C.mmsi, NOW - 30 * DAY, { name: C.name, shipType: 70 }),
    position(A.mmsi, NOW - 30 * DAY, 10, 10),
    position(B.mmsi, NOW - 30 * DAY, 11, 11),
    position(C.mmsi, NOW - 30 * DAY, 12, 12),
  );
  vsl.A = fleet.byMmsiNumber(A.mmsi)!.vslId;
  vsl.B = fleet.byMmsiNumber(B.mmsi)!.vslId;
  vsl.C = fleet.byMmsiNumber(C.mmsi)!.vslId;
  const repo = createEventsRepo(app.bosun.ctx.store.db, app.bosun.ctx.services.ports);
  await repo.upsertCalls([
    call(vsl.A, HOUSTON, NOW - 10 * DAY, NOW - 8 * DAY, [
      { kind: 'anchorage', start: NOW - 10 * DAY, end: NOW - 10 * DAY + 12 * HOUR },
      { kind: 'berth', start: NOW - 9 * DAY, end: NOW - 8 * DAY - HOUR },
    ]),
    call(vsl.B, ROTTERDAM, NOW - 5 * DAY, NOW - 5 * DAY + 6 * HOUR, [{ kind: 'berth', start: NOW - 5 * DAY + HOUR, end: NOW - 5 * DAY + 5 * HOUR }]),
    // the edge: ends exactly at the anonymous horizon, and 1 ms after it
    call(vsl.C, VALLETTA, NOW - 20 * HOUR, CUTOFF, [{ kind: 'berth', start: NOW - 19 * HOUR, end: CUTOFF - HOUR }]),
    call(vsl.B, VALLETTA, NOW - 20 * HOUR, CUTOFF + 1, [{ kind: 'berth', start: NOW - 19 * HOUR, end: CUTOFF - HOUR }]),
    // under way: live callers only
    call(vsl.A, VALLETTA, NOW - 2 * HOUR, null, [{ kind: 'berth', start: NOW - 90 * MINUTE, end: NOW - MINUTE }]),
  ]);
  await repo.upsertEncounters([
    encounter(vsl.A, vsl.B, NOW - 3 * DAY, 180, 35.5, 14.0, 'open_sea'),
    encounter(vsl.B, vsl.C, NOW - 2 * DAY, 120, -25, 179.8, 'anchorage'),
    encounter(vsl.A, vsl.C, NOW - 7 * DAY, 150, -34.9, 20.9, 'open_sea', 'cape_of_good_hope'),
  ]);
  await repo.upsertTransits([transit(vsl.C, 'hormuz', NOW - 6 * DAY, 3), transit(vsl.C, 'suez', NOW - 40 * DAY, 12, 1)]);

  const db = app.bosun.ctx.store.db;
  const calls = await db.selectFrom('port_calls').select(['id', 'vsl_id', 'port_id', 'departure']).execute();
  const callId = (v: string, port: number) => `pc_${calls.find((c) => c.vsl_id === v && c.port_id === port)!.id}`;
  ids.houston = callId(vsl.A, HOUSTON);
  ids.rotterdam = callId(vsl.B, ROTTERDAM);
  ids.edge = callId(vsl.C, VALLETTA);
  ids.late = callId(vsl.B, VALLETTA);
  ids.ongoing = callId(vsl.A, VALLETTA);
  const encs = await db.selectFrom('encounters').select(['id', 'start_at']).execute();
  const encId = (start: number) => `enc_${encs.find((e) => e.start_at === start)!.id}`;
  ids.malta = encId(NOW - 3 * DAY);
  ids.dateline = encId(NOW - 2 * DAY);
  ids.cape = encId(NOW - 7 * DAY);
  const trs = await db.selectFrom('transits').select(['id', 'zone']).execute();
  ids.hormuz = `tr_${trs.find((t) => t.zone === 'hormuz')!.id}`;
  ids.suez = `tr_${trs.find((t) => t.zone === 'suez')!.id}`;

  liveKey = (await app.registerAgent('events-live', ['vessels:live'])).apiKey;
  plainKey = (await app.registerAgent('events-plain')).apiKey;
});

after(async () => {
  await app?.close();
});

type Item = {
  event_id: string;
  type: string;
  start_at: string;
  end_at: string | null;
  vessel: { vsl_id: string; name: string | null; imo: number | null; mmsi: number | null };
  other_vessel: { vsl_id: string } | null;
} & Record<string, any>;
const get = (url: string, token?: string) => app.api('GET', url, token ? { token } : {});
const eventIds = (res: ApiResponse) => {
  assert.equal(res.status, 200, res.text);
  return (res.body.data.items as Item[]).map((i) => i.event_id);
};

test('the default listing: the last 30 days, oldest first, every visible type; ongoing and newer events left out without vessels:live', async () => {
  const res = await get('/v1/events');
  assert.deepEqual(eventIds(res), [ids.houston, ids.cape, ids.hormuz, ids.rotterdam, ids.malta, ids.dateline, ids.edge]);
  assert.equal(res.body.cost_units, 1.2);
  assert.deepEqual(res.body.data.window, { from: new Date(NOW - 30 * DAY).toISOString(), to: new Date(NOW).toISOString() });
  assert.equal(res.body.data.visible_up_to, new Date(CUTOFF).toISOString());
  assert.deepEqual(res.body.data.types, ['port_call', 'encounter', 'chokepoint_transit', 'loitering', 'ais_gap']);
  assert.ok(res.body.quality_flags.includes('delayed_position'));
  assert.equal(res.body.data.next_cursor, null);

  const houston = (res.body.data.items as Item[])[0]!;
  assert.deepEqual(houston.vessel, { vsl_id: vsl.A, mmsi: A.mmsi, imo: A.imo, name: A.name });
  assert.deepEqual(houston.port, { port_id: HOUSTON, name: 'Houston', locode: 'USHOU' });
  assert.deepEqual([houston.start_at, houston.end_at, houston.duration_seconds], [new Date(NOW - 10 * DAY).toISOString(), new Date(NOW - 8 * DAY).toISOString(), 2 * 86_400]);
  assert.deepEqual(
    houston.stops.map((s: { kind: string; start_at: string; nav_status: number }) => [s.kind, s.start_at, s.nav_status]),
    [
      ['anchorage', new Date(NOW - 10 * DAY).toISOString(), 1],
      ['berth', new Date(NOW - 9 * DAY).toISOString(), 5],
    ],
  );
  assert.deepEqual(houston.durations, { anchorage_seconds: 12 * 3600, berth_seconds: 23 * 3600 });
  assert.deepEqual(houston.evidence, { observations: 80, first_seq: 10, last_seq: 90, gaps: 0 });
  assert.equal(houston.detector.name, 'port_call');
  assert.equal(houston.detector.parameters.enter_m, 3000);
  assert.equal(houston.other_vessel, null);

  const malta = (res.body.data.items as Item[]).find((i) => i.event_id === ids.malta)!;
  assert.deepEqual([malta.type, malta.setting, malta.position, malta.duration_seconds, malta.detector.parameters.max_distance_m], ['encounter', 'open_sea', { lat: 35.5, lon: 14 }, 3 * 3600, 500]);
  assert.deepEqual([malta.vessel.vsl_id, malta.other_vessel!.vsl_id].sort(), [vsl.A, vsl.B].sort());
  const hormuz = (res.body.data.items as Item[]).find((i) => i.event_id === ids.hormuz)!;
  assert.deepEqual([hormuz.type, hormuz.zone, hormuz.direction, hormuz.confidence, hormuz.detector.parameters.radius_km], ['chokepoint_transit', 'hormuz', 'inbound', null, 50]);
});

test('the 50,400 s edge: an event that ended exactly at now − 50,400 s is listed and readable, 1 ms later it is not; vessels:live sees both and the ongoing call', async () => {
  for (const token of [undefined, plainKey]) {
    const listed = eventIds(await get(`/v1/events?from=${NOW - DAY}`, token));
    assert.deepEqual(listed, [ids.edge], 'only the call that ended at the cutoff');
    assert.equal((await get(`/v1/events/${ids.edge}`, token)).status, 200);
    for (const hidden of [ids.late, ids.ongoing]) {
      const res = await get(`/v1/events/${hidden}`, token);
      assert.equal(res.status, 404);
      assert.equal(res.body.errors[0].code, 'event_not_found');
    }
  }
  const unknown = await get('/v1/events/pc_999999');
  assert.deepEqual([unknown.status, unknown.body.errors[0].code], [404, 'event_not_found']);
  assert.equal(unknown.body.errors[0].message.replace('pc_999999', ids.late!), (await get(`/v1/events/${ids.late}`)).body.errors[0].message, 'a hidden event answers as an unknown one');

  const live = await get(`/v1/events?from=${NOW - DAY}`, liveKey);
  assert.deepEqual(eventIds(live), [ids.edge, ids.late, ids.ongoing], 'same arrival: by id (the edge call was written first)');
  const ongoing = (live.body.data.items as Item[]).find((i) => i.event_id === ids.ongoing)!;
  assert.equal(ongoing.end_at, null);
  assert.equal(ongoing.duration_seconds, 2 * 3600);
  assert.ok(!live.body.quality_flags.includes('delayed_position'));
  assert.equal((await get(`/v1/events/${ids.ongoing}`, liveKey)).body.data.event.end_at, null);
  const operator = await app.operatorToken();
  assert.equal((await get(`/v1/events/${ids.late}`, operator)).status, 200);

  // the same edge through MCP tools/call and webmcp dispatch
  const viaMcp = async (name: string, args: Record<string, unknown>, token: string) => {
    const res = await app.api('POST', '/mcp', {
      token,
      headers: { accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } },
    });
    assert.equal(res.status, 200, res.text);
    return res.body.result;
  };
  const mcpPlain = await viaMcp('getEvents', { from: String(NOW - DAY) }, plainKey);
  assert.deepEqual(
    mcpPlain.structuredContent.data.items.map((i: Item) => i.event_id),
    [ids.edge],
  );
  assert.ok(!JSON.stringify(mcpPlain).includes(ids.late!) && !JSON.stringify(mcpPlain).includes(ids.ongoing!));
  const mcpHidden = await viaMcp('getEventsByEventId', { event_id: ids.late }, plainKey);
  assert.equal(mcpHidden.isError, true);
  assert.equal(mcpHidden.structuredContent.errors[0].code, 'event_not_found');
  const mcpLive = await viaMcp('getEvents', { from: String(NOW - DAY) }, liveKey);
  assert.equal(mcpLive.structuredContent.data.items.length, 3);

  const dispatch = async (tool: string, args: Record<string, unknown>, token: string) => app.api('POST', '/v1/webmcp/dispatch', { token, body: { tool, arguments: args } });
  const dPlain = await dispatch('getEvents', { from: String(NOW - DAY) }, plainKey);
  assert.equal(dPlain.status, 200, dPlain.text);
  assert.deepEqual(
    dPlain.body.data.result.data.items.map((i: Item) => i.event_id),
    [ids.edge],
  );
  const dHidden = await dispatch('getEventsByEventId', { event_id: ids.ongoing }, plainKey);
  assert.equal(JSON.stringify(dHidden.body).includes('event_not_found'), true, dHidden.text);
  assert.ok(!dHidden.text.includes(new Date(NOW - 2 * HOUR).toISOString()), 'nothing of the ongoing call shows');
  const dLive = await dispatch('getEventsByEventId', { event_id: ids.ongoing }, liveKey);
  assert.equal(dLive.body.data.result.data.event.event_id, ids.ongoing);

  // the clock moves on by 1 ms: the call that ended 1 ms after the old cutoff is now at the edge
  app.clock.advance(1);
  try {
    assert.equal((await get(`/v1/events/${ids.late}`, plainKey)).status, 200);
    assert.deepEqual(eventIds(await get(`/v1/events?from=${NOW - DAY}`)).sort(), [ids.edge, ids.late].sort());
  } finally {
    app.clock.set(NOW);
  }
});

test('filters: type, vessel by IMO/MMSI/vsl_id (several), port_id, area box (across the antimeridian) and chokepoint key, from/to, min_duration, setting', async () => {
  assert.deepEqual(eventIds(await get('/v1/events?type=port_call')), [ids.houston, ids.rotterdam, ids.edge]);
  assert.deepEqual(eventIds(await get('/v1/events?type=encounter,chokepoint_transit')), [ids.cape, ids.hormuz, ids.malta, ids.dateline]);
  assert.deepEqual(eventIds(await get(`/v1/events?type=port_call&vessel=IMO:${A.imo}`)), [ids.houston]);
  const byMmsi = await get(`/v1/events?vessel=MMSI:${B.mmsi}`);
  assert.deepEqual(eventIds(byMmsi), [ids.rotterdam, ids.malta, ids.dateline]);
  for (const item of byMmsi.body.data.items as Item[]) assert.equal(item.vessel.vsl_id, vsl.B, `${item.event_id}: the vessel asked for comes first`);
  assert.deepEqual(eventIds(await get(`/v1/events?vessel=${vsl.C},IMO:${A.imo}&type=chokepoint_transit,port_call`)), [ids.houston, ids.hormuz, ids.edge]);
  assert.deepEqual(eventIds(await get(`/v1/events?port_id=${HOUSTON}`)), [ids.houston]);
  assert.deepEqual(eventIds(await get(`/v1/events?port_id=${VALLETTA}`, liveKey)).length, 3);

  assert.deepEqual(eventIds(await get(`/v1/events?area=${encodeURIComponent('175,-30,-175,-20')}`)), [ids.dateline], 'a box across the antimeridian');
  assert.deepEqual(eventIds(await get(`/v1/events?area=${encodeURIComponent('-96,29,-94,30.5')}`)), [ids.houston], "a port call by its port's position");
  assert.deepEqual(eventIds(await get(`/v1/events?area=${encodeURIComponent('13.5,35,15.5,36.5')}`)), [ids.malta, ids.edge], 'near Malta: the encounter and the Valletta call');
  assert.deepEqual(eventIds(await get('/v1/events?area=hormuz')), [ids.hormuz]);
  assert.deepEqual(eventIds(await get('/v1/events?area=cape_of_good_hope')), [ids.cape]);
  assert.deepEqual(eventIds(await get(`/v1/events?area=${encodeURIComponent('-180,-90,180,90')}&type=port_call`)), [ids.houston, ids.rotterdam, ids.edge], 'a world box: every port, read in batches');

  // under way at some moment of the window: the Houston call overlaps a window inside it
  assert.deepEqual(eventIds(await get(`/v1/events?from=${new Date(NOW - 9 * DAY).toISOString()}&to=${new Date(NOW - 8.5 * DAY).toISOString()}`)), [ids.houston]);
  assert.deepEqual(eventIds(await get(`/v1/events?from=${NOW - 60 * DAY}&to=${NOW - 20 * DAY}`)), [ids.suez]);
  const suez = (await get(`/v1/events?from=${NOW - 60 * DAY}&to=${NOW - 20 * DAY}`)).body;
  assert.equal(suez.data.items[0].simulated, true);
  assert.ok(suez.quality_flags.includes('simulated_source'));

  assert.deepEqual(eventIds(await get('/v1/events?min_duration=10800')), [ids.houston, ids.hormuz, ids.rotterdam, ids.malta, ids.edge], '3 h or longer: the 2 h 30 and 2 h encounters left out');
  assert.deepEqual(eventIds(await get('/v1/events?min_duration=10801')), [ids.houston, ids.rotterdam, ids.edge]);
  assert.deepEqual(eventIds(await get('/v1/events?setting=anchorage')), [ids.dateline]);
  assert.deepEqual(eventIds(await get('/v1/events?setting=all')), [ids.cape, ids.malta, ids.dateline]);
});

test('paging with limit=1 returns every event exactly once, for anonymous and live callers; a cursor belongs to its query and its caller', async () => {
  for (const token of [undefined, liveKey]) {
    const all = eventIds(await get(`/v1/events?from=${NOW - 60 * DAY}`, token));
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 50; page++) {
      const res: ApiResponse = await get(`/v1/events?from=${NOW - 60 * DAY}&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, token);
      seen.push(...eventIds(res));
      cursor = res.body.data.next_cursor;
      if (!cursor) break;
    }
    assert.deepEqual(seen, all);
    assert.equal(new Set(seen).size, token ? 10 : 8);
  }
  const first = await get(`/v1/events?from=${NOW - 60 * DAY}&limit=2`, liveKey);
  const cursor = encodeURIComponent(first.body.data.next_cursor);
  const other = await get(`/v1/events?from=${NOW - 60 * DAY}&limit=2&type=port_call&cursor=${cursor}`, liveKey);
  assert.deepEqual([other.status, other.body.errors[0].code], [400, 'cursor_invalid']);
  const anonymous = await get(`/v1/events?from=${NOW - 60 * DAY}&limit=2&cursor=${cursor}`);
  assert.deepEqual([anonymous.status, anonymous.body.errors[0].code], [400, 'cursor_invalid'], "a live caller's cursor is not an anonymous caller's");
  const forged = await get(`/v1/events?cursor=${encodeURIComponent('ev:1:2:0:3:0123456789abcdef.AAAAAAAAAAAAAAAAAAAAAA')}`);
  assert.equal(forged.body.errors[0].code, 'cursor_invalid');
});

test('one event by id has the fields of the listing', async () => {
  const listed = ((await get('/v1/events?type=port_call')).body.data.items as Item[]).find((i) => i.event_id === ids.rotterdam);
  const one = await get(`/v1/events/${ids.rotterdam}`);
  assert.equal(one.status, 200, one.text);
  assert.deepEqual(one.body.data.event, listed);
  assert.equal(one.body.cost_units, 0.4);
  const enc = await get(`/v1/events/${ids.dateline}`);
  assert.deepEqual([enc.body.data.event.type, enc.body.data.event.setting, enc.body.data.event.position], ['encounter', 'anchorage', { lat: -25, lon: 179.8 }]);
  const malformed = await get('/v1/events/xyz_1');
  assert.equal(malformed.status, 400);
});

test('bad input answers a clear envelope error', async () => {
  const cases: Array<[string, number, string, RegExp]> = [
    ['type=port_visit', 400, 'invalid_request', /unknown event type "port_visit"/],
    ['type=loitering,ais_gaps', 400, 'invalid_request', /unknown event type "ais_gaps"/],
    [`from=${NOW}&to=${NOW - DAY}`, 400, 'invalid_range', /from must not be after to/],
    [`from=${NOW - 367 * DAY}&to=${NOW}`, 400, 'invalid_range', /366 days/],
    ['from=yesterday', 400, 'invalid_request', /ISO 8601/],
    ['area=atlantis', 400, 'unknown_zone', /chokepoint key/],
    [`area=${encodeURIComponent('10,50,20,40')}`, 400, 'invalid_request', /minLat ≤ maxLat/],
    ['vessel=IMO:1234568', 400, 'invalid_vessel_id', /IMO/],
    ['vessel=MMSI:999999999', 404, 'vessel_not_found', /MMSI:999999999/],
    [`vessel=${Array.from({ length: 21 }, (_, i) => `MMSI:2440001${String(i).padStart(2, '0')}`).join(',')}`, 400, 'invalid_request', /1 to 20 vessels/],
    ['port_id=1', 404, 'port_not_found', /port_id 1/],
    ['port_id=9240&type=encounter', 400, 'invalid_request', /port_id filters port_call/],
    ['setting=port&port_id=9240', 400, 'invalid_request', /give one of them/],
    ['min_duration=-5', 400, 'invalid_request', /min_duration/],
    ['limit=1001', 400, 'invalid_request', /limit/],
  ];
  for (const [query, status, code, message] of cases) {
    const res = await get(`/v1/events?${query}`);
    assert.equal(res.status, status, `${query}: ${res.text}`);
    assert.equal(res.body.errors[0].code, code, query);
    assert.match(res.body.errors[0].message + ' ' + (res.body.errors[0].field ?? ''), message, query);
  }
  // a vessel first heard within the delay is unknown to a caller under it, and has no events yet for a live one
  await ingest(app.bosun.ctx.services.fleet, identity(244000999, NOW - HOUR, { name: 'NEWCOMER' }), position(244000999, NOW - HOUR, 1, 1));
  const newcomer = await get('/v1/events?vessel=MMSI:244000999', plainKey);
  assert.deepEqual([newcomer.status, newcomer.body.errors?.[0]?.code], [404, 'vessel_not_found']);
  assert.deepEqual(eventIds(await get('/v1/events?vessel=MMSI:244000999', liveKey)), []);

  const full = await get(`/v1/events?from=${NOW - 366 * DAY}&to=${NOW}`);
  assert.equal(full.status, 200, 'exactly 366 days is accepted');
});

test('the operation is a Bosun extension in OpenAPI and capabilities, and its tool is in the default ports toolset', async () => {
  const doc = (await get('/openapi.json')).body;
  assert.equal(doc.paths['/v1/events'].get['x-bosun-extension'], true);
  assert.equal(doc.paths['/v1/events/{event_id}'].get['x-bosun-extension'], true);
  assert.equal(doc.paths['/v1/ports/{port_id}/areas'].get['x-bosun-extension'], true);
  assert.equal(doc.paths['/v1/sts/events'].get['x-bosun-extension'], undefined);
  const caps = (await get('/v1/capabilities')).body.data.capabilities as Array<{ operation_id: string; extension: boolean }>;
  assert.deepEqual(
    caps.filter((c) => c.extension).map((c) => c.operation_id),
    ['getPortsByPortIdAreas', 'getEvents', 'getEventsByEventId'],
  );
  const tools = await app.api('POST', '/mcp', { token: plainKey, headers: { accept: 'application/json, text/event-stream' }, body: { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} } });
  const names = (tools.body.result.tools as Array<{ name: string; description: string }>).map((t) => t.name);
  assert.ok(names.includes('getEvents') && names.includes('getEventsByEventId'), 'listed to a client naming no toolset');
  const llms = (await get('/llms.txt')).text;
  assert.match(llms, /GET \/v1\/events\]\([^)]*\): Bosun extension/);
});

test("an applied correction of a vessel's name is the name its events show", async () => {
  const res = await app.api('POST', '/v1/feedback/correction', {
    token: plainKey,
    body: { subject: { kind: 'vessel', id: `IMO:${A.imo}` }, changes: [{ field: 'name', value: 'NORDIC STAR' }], body: 'Renamed.' },
  });
  assert.equal(res.status, 201, res.text);
  const ticketId = res.body.data.ticket_id as string;
  await app.bosun.ctx.services.feedback.step(ticketId, 'accept', {}, { kind: 'cli' });
  await app.bosun.ctx.services.feedback.step(ticketId, 'apply', {}, { kind: 'cli' });
  const one = await get(`/v1/events/${ids.houston}`);
  assert.equal(one.body.data.event.vessel.name, 'NORDIC STAR');
  const malta = await get(`/v1/events/${ids.malta}`);
  const names = [malta.body.data.event.vessel, malta.body.data.event.other_vessel].map((v: { vsl_id: string; name: string }) => [v.vsl_id === vsl.A, v.name]);
  assert.ok(
    names.some(([isA, name]) => isA && name === 'NORDIC STAR'),
    JSON.stringify(names),
  );
});
