import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DAY, HOUR } from '../../src/platform/clock.js';
import type { AisGapWrite, LoiteringWrite } from '../../src/features/events/events-repo.js';
import { DELAY_SECONDS } from '../../src/features/vessels/entitlements.js';
import { startTestApp, TEST_EPOCH, type ApiResponse, type TestApp } from '../helpers/app.js';
import { identity, ingest, position } from '../helpers/fleet.js';
import { createEventsRepo } from '../../src/features/events/events-repo.js';

/** GET /v1/events with type=loitering and ais_gap (decision 114): fields, filters, paging, and the 50,400 s edge on REST, MCP and dispatch. */
const NOW = TEST_EPOCH;
const CUTOFF = NOW - DELAY_SECONDS * 1000;
const D = { mmsi: 636019999, name: 'QUIET WATERS' };

let app: TestApp;
let liveKey: string;
let plainKey: string;
let vslId = '';
const ids: Record<string, string> = {};

const loiter = (start: number, end: number, lat: number, lon: number, simulated = 0): LoiteringWrite => ({
  vsl_id: vslId,
  start_at: start,
  end_at: end,
  lat,
  lon,
  mean_speed_kn: 0.41234,
  distance_nm: 3.2109,
  min_shore_nm: 42.35,
  fixes: 37,
  first_seq: 100,
  last_seq: 136,
  simulated,
  updated_at: NOW,
});

const gap = (start: number, end: number, from: [number, number], to: [number, number], nearShore: number): AisGapWrite => ({
  vsl_id: vslId,
  start_at: start,
  end_at: end,
  start_lat: from[0],
  start_lon: from[1],
  end_lat: to[0],
  end_lon: to[1],
  distance_nm: 96.04,
  implied_speed_kn: 12.005,
  start_shore_nm: nearShore ? 12 : 100,
  end_shore_nm: nearShore ? 30 : 100,
  near_shore: nearShore,
  first_seq: 200,
  last_seq: 201,
  simulated: 0,
  updated_at: NOW,
});

before(async () => {
  app = await startTestApp({ now: NOW });
  const fleet = app.bosun.ctx.services.fleet;
  await ingest(fleet, identity(D.mmsi, NOW - 30 * DAY, { name: D.name, shipType: 70 }), position(D.mmsi, NOW - 30 * DAY, 24, 58));
  vslId = fleet.byMmsiNumber(D.mmsi)!.vslId;
  const repo = createEventsRepo(app.bosun.ctx.store.db, app.bosun.ctx.services.ports);
  await repo.upsertLoitering([loiter(NOW - 5 * DAY, NOW - 5 * DAY + 6 * HOUR, 24.5, 58.5), loiter(NOW - 20 * HOUR, CUTOFF + 1, -20, 179.5, 1)]);
  await repo.upsertGaps([gap(NOW - 4 * DAY, NOW - 4 * DAY + 8 * HOUR, [25, 57.5], [24, 59], 0), gap(NOW - 20 * HOUR, CUTOFF, [29.2, -94.6], [29.3, -94.7], 1)]);
  const db = app.bosun.ctx.store.db;
  const lts = await db.selectFrom('loitering_events').select(['id', 'start_at']).execute();
  ids.oman = `lt_${lts.find((l) => l.start_at === NOW - 5 * DAY)!.id}`;
  ids.dateline = `lt_${lts.find((l) => l.start_at === NOW - 20 * HOUR)!.id}`;
  const gs = await db.selectFrom('ais_gaps').select(['id', 'start_at']).execute();
  ids.dark = `gap_${gs.find((g) => g.start_at === NOW - 4 * DAY)!.id}`;
  ids.coverage = `gap_${gs.find((g) => g.start_at === NOW - 20 * HOUR)!.id}`;
  liveKey = (await app.registerAgent('lg-live', ['vessels:live'])).apiKey;
  plainKey = (await app.registerAgent('lg-plain')).apiKey;
});

after(async () => {
  await app?.close();
});

const get = (url: string, token?: string) => app.api('GET', url, token ? { token } : {});
const eventIds = (res: ApiResponse) => {
  assert.equal(res.status, 200, res.text);
  return (res.body.data.items as Array<{ event_id: string }>).map((i) => i.event_id);
};

test('loitering and AIS gaps are listed with their fields and detector parameters', async () => {
  const res = await get('/v1/events?type=loitering,ais_gap');
  assert.deepEqual(eventIds(res), [ids.oman, ids.dark, ids.coverage]);
  const [oman, dark, coverage] = res.body.data.items;
  assert.deepEqual(
    [oman.type, oman.position, oman.duration_seconds, oman.evidence],
    ['loitering', { lat: 24.5, lon: 58.5 }, 6 * 3600, { observations: 37, first_seq: 100, last_seq: 136, gaps: null }],
  );
  assert.deepEqual(oman.loitering, { mean_speed_kn: 0.41, distance_nm: 3.21, min_shore_distance_nm: 42.4 });
  assert.deepEqual([oman.gap, oman.port, oman.confidence, oman.simulated], [null, null, null, false]);
  assert.deepEqual(oman.detector, {
    name: 'loitering',
    parameters: {
      source: 'Global Fishing Watch loitering',
      max_mean_speed_kn: 2,
      min_duration_seconds: 14_400,
      min_shore_distance_nm: 20,
      max_silence_seconds: 21_600,
      shore: 'Natural Earth 1:10m land',
    },
  });
  assert.deepEqual(dark.gap, {
    start_position: { lat: 25, lon: 57.5 },
    end_position: { lat: 24, lon: 59 },
    distance_nm: 96.04,
    implied_speed_kn: 12.01,
    start_shore_distance_nm: 100,
    end_shore_distance_nm: 100,
    near_shore: false,
  });
  assert.deepEqual([dark.type, dark.position, dark.duration_seconds, dark.loitering, dark.vessel.name], ['ais_gap', { lat: 25, lon: 57.5 }, 8 * 3600, null, D.name]);
  assert.deepEqual(dark.detector.parameters, { source: 'Global Fishing Watch AIS gaps', min_gap_seconds: 21_600, near_shore_nm: 50, shore: 'Natural Earth 1:10m land' });
  assert.equal(coverage.gap.near_shore, true, 'a coverage hole is flagged, not dropped');
  assert.deepEqual((await get(`/v1/events/${ids.dark}`)).body.data.event, dark);
});

test('filters: a box (by position, a gap by either end, across the antimeridian), a vessel, min_duration', async () => {
  const oman = encodeURIComponent('56,22,61,26.5');
  assert.deepEqual(eventIds(await get(`/v1/events?type=ais_gap,loitering&area=${oman}`)), [ids.oman, ids.dark]);
  // the gap ends inside this box only
  assert.deepEqual(eventIds(await get(`/v1/events?type=ais_gap&area=${encodeURIComponent('58.5,23.5,59.5,24.5')}`)), [ids.dark]);
  assert.deepEqual(eventIds(await get(`/v1/events?type=loitering&area=${encodeURIComponent('175,-25,-175,-15')}`, liveKey)), [ids.dateline]);
  assert.deepEqual(eventIds(await get('/v1/events?type=loitering&area=hormuz')), [], 'the Hormuz gate box (50 km round 26.30 N 56.86 E) holds neither');
  assert.deepEqual(eventIds(await get(`/v1/events?type=ais_gap&area=${encodeURIComponent('-95,29,-94.5,29.5')}`)), [ids.coverage]);
  assert.deepEqual(eventIds(await get(`/v1/events?vessel=MMSI:${D.mmsi}&min_duration=${7 * 3600}`)), [ids.dark]);
});

test('the 50,400 s edge: ended at now − 50,400 s is visible, 1 ms later is not (REST, MCP, dispatch); paging returns each once', async () => {
  assert.deepEqual(eventIds(await get(`/v1/events?type=loitering,ais_gap&from=${NOW - DAY}`, plainKey)), [ids.coverage]);
  assert.equal((await get(`/v1/events/${ids.dateline}`, plainKey)).body.errors[0].code, 'event_not_found');
  assert.deepEqual(eventIds(await get(`/v1/events?type=loitering,ais_gap&from=${NOW - DAY}`, liveKey)), [ids.dateline, ids.coverage], 'same start: loitering before gaps');
  const mcp = await app.api('POST', '/mcp', {
    token: plainKey,
    headers: { accept: 'application/json, text/event-stream' },
    body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'getEventsByEventId', arguments: { event_id: ids.dateline } } },
  });
  assert.equal(mcp.body.result.structuredContent.errors[0].code, 'event_not_found');
  const dispatch = await app.api('POST', '/v1/webmcp/dispatch', { token: plainKey, body: { tool: 'getEvents', arguments: { type: 'loitering', from: String(NOW - DAY) } } });
  assert.deepEqual(dispatch.body.data.result.data.items, []);
  app.clock.advance(1);
  try {
    assert.equal((await get(`/v1/events/${ids.dateline}`, plainKey)).status, 200);
  } finally {
    app.clock.set(NOW);
  }

  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const res: ApiResponse = await get(`/v1/events?type=loitering,ais_gap&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, liveKey);
    seen.push(...eventIds(res));
    cursor = res.body.data.next_cursor;
  } while (cursor);
  assert.deepEqual(seen, [ids.oman, ids.dark, ids.dateline, ids.coverage]);
});
