import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { HOUR, MINUTE } from '../../src/platform/clock.js';
import { readPortTableFile } from '../../src/features/ports/port-table-file.js';
import { stsRoutes } from '../../src/features/sts/routes.js';
import { DELAY_SECONDS } from '../../src/features/vessels/entitlements.js';
import type { PositionReport, StaticReport } from '../../src/fleet/types.js';
import { destinationPoint } from '../../src/geo/distance.js';
import { startTestApp, TEST_EPOCH, type ApiResponse, type TestApp } from '../helpers/app.js';
import { meetingReports, type MeetingShape } from '../helpers/events-sts.js';
import { identity, imo, position, seedSampleVessel } from '../helpers/fleet.js';

const NOW = TEST_EPOCH;
const T0 = NOW - 2 * 24 * HOUR;
const PAPEETE = readPortTableFile().ports.find((p) => p.locode === 'PFPPT')!;
const NEAR_PAPEETE = destinationPoint(PAPEETE.lat, PAPEETE.lon, 0, 5_000);

const TANKER_IMO = imo(931234);
/** Meetings the detector must find, oldest end first. */
const FOUND: Record<string, { a: number; b: number; shape: MeetingShape }> = {
  atlantic: { a: 636012345, b: 538012345, shape: { lat: 20, lon: -40, start: T0, minutes: 180 } },
  cape: { a: 244000101, b: 244000102, shape: { lat: -35.2, lon: 20.9, start: T0 + HOUR, minutes: 150 } },
  dateline_east: { a: 244000103, b: 244000104, shape: { lat: -25, lon: 179.8, start: T0 + 2 * HOUR, minutes: 120 } },
  dateline_west: { a: 244000105, b: 244000106, shape: { lat: -25, lon: -179.8, start: T0 + 3 * HOUR, minutes: 130 } },
  tasman: { a: 244000107, b: 244000108, shape: { lat: -25, lon: 170, start: T0 + 4 * HOUR, minutes: 140, distanceM: 499 } },
};
/** Near misses of the GFW definition: none may be listed. */
const MISSED: Array<{ a: number; b: number; shape: MeetingShape }> = [
  { a: 244000201, b: 244000202, shape: { lat: 25, lon: -30, start: T0, minutes: 180, distanceM: 501 } },
  { a: 244000203, b: 244000204, shape: { lat: 25, lon: -33, start: T0, minutes: 119 } },
  { a: 244000205, b: 244000206, shape: { lat: 25, lon: -36, start: T0, minutes: 180, sogKn: 2.1 } },
  { a: 244000207, b: 244000208, shape: { lat: NEAR_PAPEETE.lat, lon: NEAR_PAPEETE.lon, start: T0, minutes: 180 } },
];
/** Ends two hours before now: inside the preview delay. */
const RECENT = { a: 244000301, b: 244000302, shape: { lat: 15, lon: -40, start: NOW - 5 * HOUR, minutes: 180 } };

let app: TestApp;
let liveKey: string;

before(async () => {
  app = await startTestApp({ now: NOW });
  const fleet = app.bosun.ctx.services.fleet;
  const statics: StaticReport[] = [identity(636012345, T0 - HOUR, { imo: TANKER_IMO, name: 'NORTHERN STAR', shipType: 80 }), identity(538012345, T0 - HOUR, { name: 'SEA BRIDGE', shipType: 70 })];
  for (const s of statics) fleet.acceptStatic(s);
  const reports: PositionReport[] = [...Object.values(FOUND), ...MISSED, RECENT].flatMap((m) => meetingReports(m.a, m.b, m.shape));
  // a vessel far away moves fleet time on, so every meeting has parted
  reports.push(position(244000999, NOW - MINUTE, 0, 0, { sog: 12 }));
  for (const r of reports.sort((x, y) => x.observedAt - y.observedAt)) fleet.acceptPosition(r);
  await fleet.flush();
  await seedSampleVessel(fleet, NOW);
  await app.bosun.ctx.services.events.runner.catchUp();
  liveKey = (await app.registerAgent('sts-live', ['vessels:live'])).apiKey;
});

after(async () => {
  await app?.close();
});

type Item = {
  id: number;
  start: string;
  end: string;
  duration_minutes: number;
  median_distance_m: number;
  zone: string | null;
  vessels: Array<{ mmsi: number; name: string | null; imo: number | null; flag: string | null; category: string | null; ship_type: number | null }>;
};
const items = (res: { body: { data: { items: Item[] } } }) => res.body.data.items;
const mmsis = (list: Item[]) => list.map((e) => e.vessels.map((v) => v.mmsi).join('+'));
const pairOf = (name: keyof typeof FOUND) => `${FOUND[name]!.a}+${FOUND[name]!.b}`.split('+').sort().join('+');
const pairs = (list: Item[]) =>
  list.map((e) =>
    e.vessels
      .map((v) => String(v.mmsi))
      .sort()
      .join('+'),
  );

test('sts/events lists the true meetings newest first with both identities, and none of the near misses (501 m, 1 h 59 min, 2.1 kn, near an anchorage)', async () => {
  const res = await app.api('GET', '/v1/sts/events?limit=100');
  assert.equal(res.status, 200);
  assert.equal(res.body.cost_units, 1.2);
  assert.deepEqual(pairs(items(res)), [pairOf('tasman'), pairOf('dateline_west'), pairOf('dateline_east'), pairOf('cape'), pairOf('atlantic')]);
  const atlantic = items(res).find((e) => e.vessels.some((v) => v.mmsi === 636012345))!;
  assert.equal(atlantic.start, new Date(T0).toISOString());
  assert.equal(atlantic.end, new Date(T0 + 180 * MINUTE).toISOString());
  assert.equal(atlantic.duration_minutes, 180);
  assert.ok(Math.abs(atlantic.median_distance_m - 300) <= 2, `median ${atlantic.median_distance_m}`);
  assert.equal(atlantic.zone, null);
  const tanker = atlantic.vessels.find((v) => v.mmsi === 636012345)!;
  assert.deepEqual([tanker.name, tanker.imo, tanker.flag, tanker.ship_type, tanker.category], ['NORTHERN STAR', TANKER_IMO, 'LR', 80, 'tanker']);
  const cargo = atlantic.vessels.find((v) => v.mmsi === 538012345)!;
  assert.deepEqual([cargo.name, cargo.flag, cargo.category], ['SEA BRIDGE', 'MH', 'cargo']);
  const full = res.body.data.items[4];
  assert.ok(full.observations >= 180 && full.evidence.first_seq < full.evidence.last_seq && full.confidence > 0.9 && full.simulated === false);
  const tasman = items(res)[0]!;
  assert.ok(tasman.median_distance_m <= 500 && tasman.median_distance_m >= 498, `499 m apart: ${tasman.median_distance_m}`);
  assert.equal(items(res).find((e) => e.vessels.some((v) => v.mmsi === FOUND.cape!.a))!.zone, 'cape_of_good_hope');
  for (const miss of MISSED) assert.ok(!mmsis(items(res)).some((p) => p.includes(String(miss.a))), `near miss ${miss.a} not listed`);
  // the window: 7 days back from the anonymous horizon
  const to = NOW - DELAY_SECONDS * 1000;
  assert.deepEqual(res.body.data.window, { from: new Date(to - 7 * 24 * HOUR).toISOString(), to: new Date(to).toISOString() });
  assert.ok(res.body.quality_flags.includes('delayed_position'));
});

test('sts/events: an event that ended within the preview delay is listed for a vessels:live agent only', async () => {
  const recent = [String(RECENT.a), String(RECENT.b)].sort().join('+');
  const anonymous = await app.api('GET', '/v1/sts/events?range=24H');
  assert.equal(anonymous.status, 200);
  assert.ok(!pairs(items(anonymous)).includes(recent));
  const late = await app.api('GET', `/v1/sts/events?from=${NOW - 20 * HOUR}&to=${NOW}`);
  assert.deepEqual(items(late), [], 'a later to is clamped to the horizon');
  assert.equal(late.body.data.window.to, new Date(NOW - DELAY_SECONDS * 1000).toISOString());

  const plain = await app.registerAgent('sts-plain');
  const keyed = await app.api('GET', '/v1/sts/events?range=24H', { token: plain.apiKey });
  assert.ok(!pairs(items(keyed)).includes(recent), 'a key without vessels:live sees what anonymous callers see');

  const live = await app.api('GET', '/v1/sts/events?range=24H', { token: liveKey });
  assert.deepEqual(pairs(items(live)), [recent]);
  assert.equal(items(live)[0]!.end, new Date(NOW - 2 * HOUR).toISOString());
  assert.equal(live.body.data.window.to, new Date(NOW).toISOString());
  assert.ok(!live.body.quality_flags.includes('delayed_position'));
});

test('sts/events filters: zone key, bbox across the antimeridian, vessel by IMO, MMSI and vsl_id, min_duration at its edge', async () => {
  const cape = await app.api('GET', '/v1/sts/events?zone=cape_of_good_hope');
  assert.deepEqual(pairs(items(cape)), [pairOf('cape')]);
  assert.deepEqual(items(await app.api('GET', '/v1/sts/events?zone=suez')), []);

  const dateline = await app.api('GET', `/v1/sts/events?zone=${encodeURIComponent('175,-30,-175,-20')}`);
  assert.deepEqual(pairs(items(dateline)), [pairOf('dateline_west'), pairOf('dateline_east')]);
  const west = await app.api('GET', `/v1/sts/events?zone=${encodeURIComponent('165,-30,179.9,-20')}`);
  assert.deepEqual(pairs(items(west)), [pairOf('tasman'), pairOf('dateline_east')]);

  const byImo = await app.api('GET', `/v1/sts/events?vessel=IMO:${TANKER_IMO}`);
  assert.deepEqual(pairs(items(byImo)), [pairOf('atlantic')]);
  const byMmsi = await app.api('GET', `/v1/sts/events?vessel=MMSI:${FOUND.cape!.b}`);
  assert.deepEqual(pairs(items(byMmsi)), [pairOf('cape')]);
  const vslId = app.bosun.ctx.services.fleet.byMmsiNumber(FOUND.tasman!.a)!.vslId;
  assert.deepEqual(pairs(items(await app.api('GET', `/v1/sts/events?vessel=${vslId}`))), [pairOf('tasman')]);

  // cape met for exactly 150 minutes
  assert.deepEqual(pairs(items(await app.api('GET', '/v1/sts/events?min_duration=150'))), [pairOf('cape'), pairOf('atlantic')]);
  assert.deepEqual(pairs(items(await app.api('GET', '/v1/sts/events?min_duration=2H30M'))), [pairOf('cape'), pairOf('atlantic')]);
  assert.deepEqual(pairs(items(await app.api('GET', '/v1/sts/events?min_duration=151M'))), [pairOf('atlantic')]);
  assert.deepEqual(pairs(items(await app.api('GET', '/v1/sts/events?min_duration=3H'))), [pairOf('atlantic')]);
  assert.equal(items(await app.api('GET', '/v1/sts/events?min_duration=181')).length, 0);
  // a window that ends before the later meetings
  const early = await app.api('GET', `/v1/sts/events?from=${new Date(T0).toISOString()}&to=${new Date(T0 + 4 * HOUR).toISOString()}`);
  assert.deepEqual(pairs(items(early)), [pairOf('dateline_east'), pairOf('cape'), pairOf('atlantic')]);
});

test('sts/events pages newest first with signed cursors bound to the query: no duplicates, no gaps', async () => {
  const all = items(await app.api('GET', '/v1/sts/events?limit=100')).map((e) => e.id);
  const seen: number[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const res: ApiResponse = await app.api('GET', `/v1/sts/events?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    assert.equal(res.status, 200);
    seen.push(...items(res).map((e) => e.id));
    cursor = res.body.data.next_cursor;
    pages++;
  } while (cursor);
  assert.equal(pages, 3);
  assert.deepEqual(seen, all);

  const first = await app.api('GET', '/v1/sts/events?limit=2&range=7D');
  const next = first.body.data.next_cursor as string;
  const other = await app.api('GET', `/v1/sts/events?limit=2&range=30D&cursor=${encodeURIComponent(next)}`);
  assert.equal(other.status, 400);
  assert.equal(other.body.errors[0].code, 'cursor_invalid');
  const otherZone = await app.api('GET', `/v1/sts/events?limit=2&range=7D&zone=malacca&cursor=${encodeURIComponent(next)}`);
  assert.equal(otherZone.body.errors[0].code, 'cursor_invalid');
  const forged = await app.api('GET', `/v1/sts/events?limit=2&range=7D&cursor=${encodeURIComponent(next.slice(0, -2) + 'AA')}`);
  assert.equal(forged.body.errors[0].code, 'cursor_invalid');
  const same = await app.api('GET', `/v1/sts/events?limit=5&range=7D&cursor=${encodeURIComponent(next)}`);
  assert.deepEqual(
    items(same).map((e) => e.id),
    all.slice(2),
    'the page size may change between pages',
  );
});

test('sts/events errors: unknown zone, bad box, bad range, bad vessel, unknown vessel, bad min_duration', async () => {
  const cases: Array<[string, number, string, string]> = [
    ['zone=atlantis', 400, 'unknown_zone', 'query.zone'],
    [`zone=${encodeURIComponent('10,95,20,30')}`, 400, 'invalid_request', 'query.zone'],
    [`zone=${encodeURIComponent('10,30,20,20')}`, 400, 'invalid_request', 'query.zone'],
    ['range=45D', 400, 'invalid_range', 'query.range'],
    ['range=7W', 400, 'invalid_request', 'query.range'],
    ['range=7D&from=2026-11-01T00:00:00Z', 400, 'invalid_request', 'query.range'],
    ['from=2026-11-20T00:00:00Z&to=2026-11-10T00:00:00Z', 400, 'invalid_range', 'query.from'],
    ['from=yesterday', 400, 'invalid_request', 'query.from'],
    ['vessel=IMO:1234568', 400, 'invalid_vessel_id', 'query.vessel'],
    [`vessel=MMSI:${999000111}`, 404, 'vessel_not_found', 'query.vessel'],
    ['min_duration=abc', 400, 'invalid_request', 'query.min_duration'],
    ['limit=101', 400, 'invalid_request', 'query.limit'],
  ];
  for (const [qs, status, code, field] of cases) {
    const res = await app.api('GET', `/v1/sts/events?${qs}`);
    assert.equal(res.status, status, qs);
    assert.equal(res.body.errors[0].code, code, qs);
    assert.equal(res.body.errors[0].field, field, qs);
  }
  const unknown = await app.api('GET', '/v1/sts/events?zone=atlantis');
  assert.match(unknown.body.errors[0].message, /gibraltar/);
});

test('sts/events: the published examples answer 200', async () => {
  for (const example of stsRoutes[0]!.examples) {
    const qs = new URLSearchParams(Object.entries(example.query ?? {}).map(([k, v]) => [k, String(v)])).toString();
    const res = await app.api('GET', `/v1/sts/events?${qs}`);
    assert.equal(res.status, 200, example.summary);
  }
});

test('sts/events: a vessels:live key never gets delayed_position, even when the clock moves while the store is read', async () => {
  const events = app.bosun.ctx.services.events;
  const analysedUpTo = events.analysedUpTo;
  // the store read takes time: the clock moves on by one millisecond meanwhile
  events.analysedUpTo = async () => {
    app.clock.advance(1);
    return analysedUpTo();
  };
  try {
    const live = await app.api('GET', '/v1/sts/events?range=24H', { token: liveKey });
    assert.equal(live.status, 200);
    assert.deepEqual(live.body.quality_flags, [], 'a live answer is not flagged delayed_position');
    const plain = await app.registerAgent('sts-plain-moving');
    const keyed = await app.api('GET', '/v1/sts/events?range=24H', { token: plain.apiKey });
    assert.ok(keyed.body.quality_flags.includes('delayed_position'), 'without vessels:live the flag stays');
  } finally {
    events.analysedUpTo = analysedUpTo;
  }
});
