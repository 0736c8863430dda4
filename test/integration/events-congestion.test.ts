import assert from 'node:assert/strict';
import { createReadStream } from 'node:fs';
import test from 'node:test';
import { createGunzip } from 'node:zlib';
import { HOUR } from '../../src/platform/clock.js';
import { importAisCsv } from '../../src/feeds/ais-csv.js';
import { callRow, completedCall, type CallSpec } from '../helpers/events-congestion.js';
import { startTestApp, TEST_EPOCH, withApp, type TestApp } from '../helpers/app.js';
import { sharedDataPath } from '../helpers/shared-data.js';
import { createEventsRepo } from '../../src/features/events/events-repo.js';
import { GALVESTON, HOUSTON, TEXAS_CITY } from '../helpers/houston-ports.js';

const CARGO = 70;
const TANKER = 80;
/** The moment analysed: 10 h before the test clock's now, so calls may have ended after it. */
const AT = TEST_EPOCH - 10 * HOUR;
const h = (hours: number) => AT + hours * HOUR;

/**
 * Houston's calls around AT, with waits and berth times chosen so that every figure is known:
 * completed in the window (AT-24h, AT]: waits 0, 1, 2, 4, 6 h and berths 6, 8, 10, 12, 20 h
 * (median wait 2, p90 6; median berth 10, p90 20); completed in the window before: waits 1, 3 and
 * berths 5, 7; open at AT: one waiting, two at berth (one leaves after AT), one between its wait
 * and its berth, one silent since AT-8h.
 */
const CALLS: CallSpec[] = [
  { vslId: 'o1', portId: HOUSTON, shipType: TANKER, arrival: h(-3), departure: null, stops: [{ kind: 'anchorage', start: h(-3), end: h(-1 / 6) }] },
  {
    vslId: 'o2',
    portId: HOUSTON,
    shipType: CARGO,
    arrival: h(-20),
    departure: null,
    stops: [
      { kind: 'anchorage', start: h(-20), end: h(-15) },
      { kind: 'berth', start: h(-14), end: h(-1 / 12) },
    ],
  },
  {
    vslId: 'o3',
    portId: HOUSTON,
    shipType: CARGO,
    arrival: h(-5),
    departure: h(7),
    stops: [
      { kind: 'anchorage', start: h(-5), end: h(-2) },
      { kind: 'berth', start: h(1), end: h(6) },
    ],
  },
  { vslId: 'o4', portId: HOUSTON, shipType: CARGO, arrival: h(-30), departure: null, stops: [{ kind: 'berth', start: h(-29), end: h(-8) }] },
  { vslId: 'o5', portId: HOUSTON, shipType: TANKER, arrival: h(-4), departure: h(3), stops: [{ kind: 'berth', start: h(-3), end: h(2) }] },
  completedCall('c1', HOUSTON, CARGO, h(-1), 0, 6),
  completedCall('c2', HOUSTON, CARGO, h(-2), 1, 8),
  completedCall('c3', HOUSTON, CARGO, h(-3), 2, 10),
  completedCall('c4', HOUSTON, CARGO, h(-4), 4, 12),
  completedCall('c5', HOUSTON, TANKER, h(-5), 6, 20),
  completedCall('p1', HOUSTON, CARGO, h(-30), 3, 5),
  completedCall('p2', HOUSTON, CARGO, h(-26), 1, 7),
  // before both windows, and at another port: never counted
  completedCall('z1', HOUSTON, CARGO, h(-50), 1, 1),
  completedCall('g1', GALVESTON, CARGO, h(-2), 5, 5),
];

async function seeded(): Promise<TestApp> {
  const app = await startTestApp();
  await createEventsRepo(app.bosun.ctx.store.db, app.bosun.ctx.services.ports).upsertCalls(CALLS.map(callRow));
  return app;
}

const summary = (w: Record<string, unknown>) => [w.arrivals, w.departures, w.calls_with_wait, w.median_wait_hours, w.p90_wait_hours, w.median_berth_hours, w.p90_berth_hours];

test('congestion at a chosen moment: now counts, window and previous window figures to the hour, trend; a silent vessel is left out of now', async () => {
  const app = await seeded();
  try {
    const { apiKey } = await app.registerAgent('live', ['vessels:live']);
    const res = await app.api('GET', `/v1/ports/${HOUSTON}/congestion?at=${new Date(AT).toISOString()}`, { token: apiKey });
    assert.equal(res.status, 200, res.text);
    const d = res.body.data;
    assert.deepEqual(d.port, { port_id: HOUSTON, name: 'Houston', locode: 'USHOU', country: 'US' });
    assert.equal(d.at, new Date(AT).toISOString());
    assert.equal(d.at_clamped, false);
    assert.equal(d.range, '24H', 'the default range');
    assert.deepEqual(d.now, { waiting_at_anchor: 1, at_berth: 2, moving_in_port: 1, silent_not_counted: 1 });
    assert.equal(d.window.from, new Date(h(-24)).toISOString());
    assert.deepEqual(summary(d.window), [8, 5, 4, 2, 6, 10, 20]);
    assert.deepEqual(summary(d.previous_window), [4, 2, 2, 1, 3, 5, 7]);
    assert.deepEqual(d.trend, { arrivals_change_pct: 100, median_wait_change_pct: 100, direction: 'rising' });
    assert.equal(d.calls_analysed, 12);
    assert.equal(d.analysed_up_to, null, 'the detector has not run in this store');
    assert.equal(d.data_age_seconds, null);
    assert.match(d.method.reference, /^docs\/events\.md#/);
    assert.equal(res.body.confidence, 0.9, 'the mean confidence of the calls used');
    assert.equal(res.body.cost_units, 1.1);

    const tankers = (await app.api('GET', `/v1/ports/${HOUSTON}/congestion?at=${AT}&vessel_type=tanker`, { token: apiKey })).body.data;
    assert.equal(tankers.vessel_type, 'tanker');
    assert.deepEqual(tankers.now, { waiting_at_anchor: 1, at_berth: 1, moving_in_port: 0, silent_not_counted: 0 });
    assert.deepEqual(summary(tankers.window), [2, 1, 1, 6, 6, 20, 20]);
    assert.deepEqual(summary(tankers.previous_window), [1, 0, 0, null, null, null, null]);
    assert.deepEqual(tankers.trend, { arrivals_change_pct: 100, median_wait_change_pct: null, direction: 'rising' });

    const none = await app.api('GET', `/v1/ports/${HOUSTON}/congestion?at=${AT}&vessel_type=passenger`, { token: apiKey });
    assert.deepEqual(none.body.data.now, { waiting_at_anchor: 0, at_berth: 0, moving_in_port: 0, silent_not_counted: 0 });
    assert.deepEqual(summary(none.body.data.window), [0, 0, 0, null, null, null, null]);
    assert.equal(none.body.data.trend.direction, 'unknown');
    assert.equal(none.body.confidence, null);

    // 7D: the week before AT holds every Houston call (z1 too: waits 0,1,1,1,2,3,4,6 h, berths 1,5,6,7,8,10,12,20 h); the week before that none
    const week = (await app.api('GET', `/v1/ports/${HOUSTON}/congestion?at=${AT}&range=7d`, { token: apiKey })).body.data;
    assert.equal(week.range, '7D');
    assert.deepEqual(summary(week.window), [13, 8, 7, 1, 6, 7, 20]);
    assert.equal(week.previous_window.arrivals, 0);
    assert.deepEqual(week.trend, { arrivals_change_pct: null, median_wait_change_pct: null, direction: 'unknown' });

    const galveston = (await app.api('GET', `/v1/ports/${GALVESTON}/congestion?at=${AT}`, { token: apiKey })).body.data;
    assert.deepEqual(summary(galveston.window), [1, 1, 1, 5, 5, 5, 5]);
  } finally {
    await app.close();
  }
});

test('congestion horizon: anonymous callers are analysed as of now minus the preview delay, vessels:live agents up to now', async () => {
  const app = await seeded();
  try {
    const anonymous = await app.api('GET', `/v1/ports/${HOUSTON}/congestion?at=${new Date(AT).toISOString()}`);
    assert.equal(anonymous.status, 200, anonymous.text);
    const d = anonymous.body.data;
    // the preview delay is 14 h: AT (now - 10 h) is clamped to now - 14 h = AT - 4 h
    assert.equal(d.at, new Date(h(-4)).toISOString());
    assert.equal(d.at_clamped, true);
    // c1-c3 left after the horizon: still at berth for this caller; o4 was last heard 4 h before it, not silent yet
    assert.deepEqual(d.now, { waiting_at_anchor: 1, at_berth: 5, moving_in_port: 1, silent_not_counted: 0 });
    assert.deepEqual(summary(d.window), [7, 3, 3, 4, 6, 12, 20]);

    const byDefault = await app.api('GET', `/v1/ports/${HOUSTON}/congestion`);
    assert.equal(byDefault.body.data.at, d.at, 'the default moment is the horizon');
    assert.equal(byDefault.body.data.at_clamped, false);

    const { apiKey } = await app.registerAgent('live', ['vessels:live']);
    const live = await app.api('GET', `/v1/ports/${HOUSTON}/congestion`, { token: apiKey });
    assert.equal(live.body.data.at, new Date(TEST_EPOCH).toISOString());
    const { apiKey: plainKey } = await app.registerAgent('plain');
    const plain = await app.api('GET', `/v1/ports/${HOUSTON}/congestion?at=${AT}`, { token: plainKey });
    assert.equal(plain.body.data.at, d.at, 'an agent without vessels:live has the anonymous horizon');
  } finally {
    await app.close();
  }
});

test('congestion refuses unknown ports, malformed ids, bad ranges, unknown vessel types and times with clear codes', async () => {
  await withApp(async (app) => {
    const unknown = await app.api('GET', '/v1/ports/999999/congestion');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.errors[0].code, 'port_not_found');
    for (const id of ['abc', '0', '12.5', '-3']) {
      const res = await app.api('GET', `/v1/ports/${id}/congestion`);
      assert.equal(res.status, 400, id);
      assert.equal(res.body.errors[0].code, 'invalid_request', id);
    }
    for (const range of ['foo', '31D', '0H', '7W', '1000D']) {
      const res = await app.api('GET', `/v1/ports/${HOUSTON}/congestion?range=${range}`);
      assert.equal(res.status, 400, range);
      assert.equal(res.body.errors[0].code, 'invalid_range', range);
    }
    const type = await app.api('GET', `/v1/ports/${HOUSTON}/congestion?vessel_type=submarine`);
    assert.equal(type.body.errors[0].code, 'invalid_request');
    assert.match(type.body.errors[0].message, /tanker/);
    assert.match(type.body.errors[0].message, /cargo/);
    const at = await app.api('GET', `/v1/ports/${HOUSTON}/congestion?at=yesterday`);
    assert.equal(at.body.errors[0].code, 'invalid_request');
    assert.equal(at.body.errors[0].field, 'query.at');
    const extra = await app.api('GET', `/v1/ports/${HOUSTON}/congestion?vessel=1`);
    assert.equal(extra.body.errors[0].code, 'invalid_request');

    const openapi = await app.api('GET', '/openapi.json');
    const responses = openapi.body.paths['/v1/ports/{port_id}/congestion'].get.responses;
    for (const status of ['400', '404']) assert.ok(responses[status], `OpenAPI lists ${status}`);
    assert.match(JSON.stringify(responses), /port_not_found/);
    assert.match(JSON.stringify(responses), /invalid_range/);
  });
});

const houstonDay = sharedDataPath('ais/tracks/AIS_2020_01_01_houston_galveston.csv.gz');

/**
 * The real day, imported and analysed by the live runner, asked at its end. Established by reading the
 * CSV (each vessel's rows in time order; stopped below 0.5 kn; swinging: positions over ≥ 30 m, headings over ≥ 15°):
 * - Texas City tankers: BOW CHAIN (257901000) stopped at 29.3615, −94.9167 from 00:00:33 to 14:44,
 *   under way for good from 14:58; STOLT CEDAR (636017835) stopped at 29.3778, −94.8921 05:17–17:18
 *   and left; GOLDEN RAY (636015587) came in from the offshore anchorage and is stopped at 29.3601,
 *   −94.9153 from 20:38 to its last fix 23:57; SILVER LINDA (356899000, type 80) lies at 29.3675,
 *   −94.8913 from its first fix 00:03 to its last 23:57 (0.0 kn, positions within 11 m, heading 69–70°:
 *   alongside, not swinging), 1.2 km south of STOLT CEDAR's berth. It is 3,028 m from Texas City's
 *   point (just beyond the 3 km entry distance; Galveston's nearest point 7.3 km), so before decision
 *   075 it made no call at all and this comment counted one tanker at berth. So at midnight two tankers
 *   at berth, two departures with 12.0 and 14.7 h alongside, four arrivals (BOW CHAIN's and SILVER
 *   LINDA's calls begin at their first fixes).
 * - Houston tankers, by the same geography (a stop belongs to the port with the nearest point, its own or a Global
 *   Fishing Watch anchorage point, within 30 km; decision 075): 28 stopped and swinging at the offshore anchorages
 *   at their last fixes. Nine lie within 3.3 km of a Houston point (the nine counted before decision 075):
 *   SWARNA MALA, LEGEND PROSPERITY, PRETTY JEWELRY, ZEMGALE, KHASAB SILVER, UNIQUE GUARDIAN, THEKLA SCHULTE,
 *   STOLT OCELOT, EAGLE KLANG; nineteen 4.7–14.7 km off, nearer Houston's points than any other port's:
 *   VALLE AZZURRA, LILLO SWAN, ESTHER SPIRIT, TORM THAMES, BAKER SPIRIT, CHALLENGE PASSAGE, MAERSK MISUMI,
 *   MAKRONISSOS, HELLESPONT PROMISE, MINERVA ALICE, CELSIUS MALAGA, SEA MAGIC, FPMC 29, STOLT AGUILA, STOLT CEDAR
 *   (in from Texas City), HORIZON APHRODITE, CHAMPLAIN, EAGLE FORD LADY (spread 40–530 m, heading range
 *   17–345°) and HELLESPONT PROTECTOR (swinging over 330 m since 08:23). Five alongside (spread ≤ 21 m, heading
 *   range ≤ 5°): NAVIGATOR NEPTUNE and NAVIGATOR ORION up the channel, BOW FAGUS, STOLT NORLAND and STOLT BASUTO
 *   at Bayport. Under way after waiting there: BRITISH SAILOR (235113767) waited until 19:18 and is up the
 *   channel at 6.4 kn at 23:58; KORTRIJK (anchored 17:32–22:10) and GIZEMDENIZ SULTAN (18:40–22:46) head west
 *   for Bolivar Roads at 7.6 and 11.2 kn. AUSTRALIAN SPIRIT (311498000) left its anchorage at 06:51 and was last
 *   heard at 07:53, heading out: silent. CELSIUS MANILA (left 16:06 out to sea, last heard 18:00 at the file's
 *   edge) and PTI RHINE (left 05:27, last heard 07:06) have departed.
 */
test('real Houston–Galveston day: congestion at Houston and Texas City at the end of the day', { skip: houstonDay.skip, timeout: 600_000 }, async () => {
  const app = await startTestApp({ now: Date.UTC(2020, 0, 2, 12) });
  try {
    const summaryOfImport = await importAisCsv(createReadStream(houstonDay.path).pipe(createGunzip()), { sink: app.bosun.ctx.services.fleet, clock: app.clock, source: 'csv:houston' });
    assert.ok(summaryOfImport.positions > 400_000);
    await app.bosun.ctx.services.events.runner.catchUp();
    const { apiKey } = await app.registerAgent('live', ['vessels:live']);
    const ask = async (portId: number, extra = '') => {
      const res = await app.api('GET', `/v1/ports/${portId}/congestion?at=2020-01-02T00:00:00Z${extra}`, { token: apiKey });
      assert.equal(res.status, 200, res.text);
      return res.body;
    };

    const texasCity = (await ask(TEXAS_CITY, '&vessel_type=tanker')).data;
    assert.deepEqual(texasCity.port, { port_id: TEXAS_CITY, name: 'Texas City', locode: 'USTXT', country: 'US' });
    assert.deepEqual(texasCity.now, { waiting_at_anchor: 0, at_berth: 2, moving_in_port: 0, silent_not_counted: 0 });
    assert.deepEqual(summary(texasCity.window), [4, 2, 0, 0, 0, 12, 14.7]);

    const houston = await ask(HOUSTON, '&vessel_type=tanker');
    assert.deepEqual(houston.data.now, { waiting_at_anchor: 28, at_berth: 5, moving_in_port: 3, silent_not_counted: 1 });
    // the newest row of the file is at 23:59:59
    assert.equal(houston.data.analysed_up_to, '2020-01-01T23:59:59.000Z');
    assert.equal(houston.data.data_age_seconds, 1);
    assert.equal(houston.freshness_seconds, 12 * 3600 + 1);

    // every vessel type: tugs and service craft too
    const all = (await ask(HOUSTON)).data;
    assert.ok(all.now.waiting_at_anchor >= 28 && all.now.moving_in_port >= 3 && all.now.silent_not_counted >= 1);
    assert.ok(all.window.arrivals > houston.data.window.arrivals);
    const galveston = (await ask(GALVESTON)).data;
    assert.equal(galveston.port.locode, 'USGLS');
    assert.ok(galveston.window.arrivals > 50, `${galveston.window.arrivals} arrivals at Galveston`);

    const leaders = await app.api('GET', `/v1/vessels/visit_rank?by=vessel&port_id=${HOUSTON}&from=2020-01-01T00:00:00Z&to=2020-01-02T00:00:00Z&limit=1`, { token: apiKey });
    // KING ARTHUR (367160030, type 60), a launch berthed at Galveston (29.3147, −94.7788), ran twice out to the offshore
    // anchorage Global Fishing Watch assigns to Houston (stopped at 29.212, −94.697 04:00–05:20 and 29.246, −94.605
    // 11:46–14:48; back alongside at Galveston 06:31–10:23 and from 15:57): two Houston calls, the only vessel with two.
    // JUPITER (366921780), a tug, shifts between spots within 4 km of each other up the channel all day: since
    // decision 075 (a call's stops count as its port's area) one call, where it made three before.
    assert.deepEqual(leaders.body.data.items[0], {
      rank: 1,
      vessel: { vsl_id: leaders.body.data.items[0].vessel.vsl_id, name: 'KING ARTHUR', imo: null, mmsi: 367160030, ship_category: 'passenger' },
      calls: 2,
      distinct_ports: 1,
    });
    // visit rank by port (decision 079): the Houston channel's entries roll up to Houston, which ranks above Galveston
    const ports = await app.api('GET', '/v1/vessels/visit_rank?from=2020-01-01T00:00:00Z&to=2020-01-02T00:00:00Z&limit=3', { token: apiKey });
    const ranked = (ports.body.data.items as Array<{ port: { port_id: number }; calls: number }>).map((r) => r.port.port_id);
    assert.deepEqual(ranked.slice(0, 2), [HOUSTON, GALVESTON], JSON.stringify(ports.body.data.items.map((r: { port: { name: string }; calls: number }) => [r.port.name, r.calls])));
  } finally {
    await app.close();
  }
});
