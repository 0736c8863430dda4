import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Caller } from '../../src/access/principals.js';
import { DAY, HOUR, MINUTE } from '../../src/platform/clock.js';
import { createEventsRepo, type PortCallWrite } from '../../src/features/events/events-repo.js';
import { EXACT_VOYAGES_PER_DAY } from '../../src/events/voyage-cells.js';
import { createLanesRepo } from '../../src/features/routes/lanes/lanes-repo.js';
import type { LaneParts } from '../../src/features/routes/lanes/lane-stats.js';
import { startTestApp, TEST_EPOCH, type TestApp } from '../helpers/app.js';

/**
 * The answers split by period or ship category read from voyage cells beyond the exact size (docs/decisions/154
 * and 158): one lane with more voyages in one day than EXACT_VOYAGES_PER_DAY (a day cell of sketches). Their counts
 * per day, week, hour of departure and category stay exact (the cell keeps its voyages per day and per hour);
 * distinct vessels are estimates and the answer says so.
 */
const NOW = TEST_EPOCH;
const caller: Caller = { kind: 'operator', operator: { tokenPrefix: 'series' } };
const VESSELS = 300;
const DEPARTURE_DAY = NOW - 10 * DAY;
const APPROXIMATE = 'approximate_distinct_counts';

let app: TestApp;

before(async () => {
  app = await startTestApp({ now: NOW });
});
after(async () => {
  await app?.close();
});

const call = (vslId: string, portId: number, arrival: number, departure: number, seq: number): PortCallWrite => ({
  vsl_id: vslId,
  port_id: portId,
  ship_type: 70,
  arrival,
  departure,
  last_fix_at: departure,
  anchorage_ms: 0,
  berth_ms: 0,
  stops: '[]',
  first_seq: seq,
  last_seq: seq,
  fixes: 5,
  gaps: 0,
  confidence: 0.9,
  simulated: 0,
  updated_at: NOW,
});

const sum = (xs: readonly (number | null)[]) => xs.reduce<number>((total, x) => total + (x ?? 0), 0);
const nearVessels = (n: number) => Math.abs(n - VESSELS) / VESSELS < 0.1;

test('a lane of one day beyond the exact cell size: the series answers count it exactly per period and category, estimate its vessels, and say so', async () => {
  assert.ok(VESSELS > 2 * EXACT_VOYAGES_PER_DAY);
  const { services, store } = app.bosun.ctx;
  const rotterdam = services.routes.resolvePlace('NLRTM', 'x').port!.port_id;
  const hamburg = services.routes.resolvePlace('DEHAM', 'x').port!.port_id;
  const rows: PortCallWrite[] = [];
  for (let i = 0; i < VESSELS; i++) {
    // one departure every 2 minutes from midnight: 30 in each of the day's first ten hours
    const departure = DEPARTURE_DAY + i * 2 * MINUTE;
    const arrival = departure + (10 + (i % 23)) * HOUR;
    rows.push(call(`s${i}`, rotterdam, departure - 6 * HOUR, departure, 2 * i + 1), call(`s${i}`, hamburg, arrival, arrival + 5 * HOUR, 2 * i + 2));
  }
  // one call 60 days earlier (no voyage): the store's data begin then, so the answers' weeks are covered
  const singapore = services.routes.resolvePlace('SGSIN', 'x').port!.port_id;
  rows.push(call('early', singapore, NOW - 60 * DAY, NOW - 60 * DAY + HOUR, 0));
  await createEventsRepo(store.db, services.ports).upsertCalls(rows);
  const lanes = services.lanes;

  const forecast = await lanes.stabilityForecast({ weeks: 4 }, caller);
  assert.equal(sum(forecast.data.history.map((h) => h.voyages)), VESSELS);
  assert.equal(Math.max(...forecast.data.history.map((h) => h.voyages)), VESSELS);
  assert.equal(forecast.data.sample.voyages, VESSELS);
  assert.ok(nearVessels(forecast.data.sample.vessels), `vessels ${forecast.data.sample.vessels}`);
  assert.ok(forecast.qualityFlags.includes(APPROXIMATE));
  const stored = await store.db.selectFrom('voyage_cells').select(['period_days', 'exact']).where('period_days', '=', 1).execute();
  assert.deepEqual(
    stored.map((c) => Number(c.exact)),
    [0],
    'the day cell holds sketches',
  );

  const volatility = await lanes.laneVolatility({ days: 30, bucket: 'day', min_voyages: 1 }, caller);
  const counts = volatility.data.items[0]!.counts;
  assert.equal(counts[counts.length - 10], VESSELS, 'all on the tenth day before until');
  assert.equal(sum(counts), VESSELS);
  assert.deepEqual(volatility.data.overall.counts, counts);

  const trend = await lanes.weeklyTrend({ weeks: 4 }, caller);
  assert.equal(trend.data.overall.voyages, VESSELS);
  assert.equal(sum(trend.data.overall.weekly), VESSELS);
  assert.deepEqual(
    trend.data.by_ship_type.map((t) => [t.ship_type, t.voyages]),
    [['cargo', VESSELS]],
  );

  const summary = await lanes.weeklySummary({ weeks: 4 }, caller);
  const busy = summary.data.items.find((w) => w.voyages > 0)!;
  assert.equal(busy.voyages, VESSELS);
  assert.equal(busy.lanes, 1);
  assert.ok(nearVessels(busy.vessels), `vessels ${busy.vessels}`);
  assert.deepEqual(busy.by_ship_type, [{ ship_type: 'cargo', voyages: VESSELS }]);
  assert.ok(summary.qualityFlags.includes(APPROXIMATE));

  const trends = await lanes.laneTrends({ weeks: 4 }, caller);
  assert.equal(trends.data.items[0]!.voyages, VESSELS);
  assert.equal(sum(trends.data.items[0]!.weekly), VESSELS);

  const destinations = await lanes.destOpportunities({ from: 'NLRTM', days: 30 }, caller);
  assert.equal(destinations.data.items[0]!.to.port_id, hamburg);
  assert.equal(destinations.data.items[0]!.voyages_recent, VESSELS);
  assert.ok(nearVessels(destinations.data.items[0]!.vessels_recent), `vessels ${destinations.data.items[0]!.vessels_recent}`);
  assert.ok(destinations.qualityFlags.includes(APPROXIMATE));

  const seasons = await lanes.seasonality({ days: 30 }, caller);
  assert.deepEqual(
    seasons.data.by_hour.map((h) => h.voyages),
    Array.from({ length: 24 }, (_, h) => (h < 10 ? 30 : 0)),
  );
  assert.equal(seasons.data.sample.voyages, VESSELS);
  const weekday = (new Date(DEPARTURE_DAY).getUTCDay() + 6) % 7;
  assert.deepEqual(
    seasons.data.by_weekday.map((d) => d.voyages),
    Array.from({ length: 7 }, (_, i) => (i === weekday ? VESSELS : 0)),
  );
  assert.deepEqual(
    seasons.data.by_month.map((m) => [m.month, m.voyages]),
    [[new Date(DEPARTURE_DAY).toISOString().slice(0, 7), VESSELS]],
  );
  assert.ok(nearVessels(seasons.data.sample.vessels), `vessels ${seasons.data.sample.vessels}`);
  assert.ok(seasons.qualityFlags.includes(APPROXIMATE));
});

test('the registers of an approximate cell are read only where the answer shows vessels (docs/decisions/168): the same voyages, no vessels elsewhere', async () => {
  // the store of the test above: one lane-day of sketches, ten days before NOW
  const repo = createLanesRepo(app.bosun.ctx.store.db);
  const until = Math.floor(NOW / DAY) * DAY;
  const w = { since: until - 28 * DAY, until, lookbackMs: 30 * DAY };
  const split = { boundaries: [until - 7 * DAY], byCategory: false };
  const voyagesOf = (parts: readonly LaneParts[]) => sum(parts.flatMap((p) => p.approximate.map((a) => a.voyages)));
  const vesselsOf = (parts: readonly LaneParts[]) => sum(parts.flatMap((p) => p.approximate.map((a) => a.vessels.count())));

  const all = await repo.datedLaneParts(w, { shipTypes: null }, split);
  assert.equal(voyagesOf(all), VESSELS);
  assert.ok(nearVessels(vesselsOf(all)), `vessels ${vesselsOf(all)}`);
  // the voyages departed before the boundary: counted, their vessels not read
  const later = await repo.datedLaneParts(w, { shipTypes: null }, { ...split, vesselsFrom: until - 7 * DAY });
  assert.equal(voyagesOf(later), VESSELS);
  assert.equal(vesselsOf(later), 0);
  const earlier = await repo.datedLaneParts(w, { shipTypes: null }, { boundaries: [until - 14 * DAY], byCategory: false, vesselsFrom: until - 14 * DAY });
  assert.ok(nearVessels(vesselsOf(earlier)), `vessels ${vesselsOf(earlier)}`);
  await assert.rejects(repo.datedLaneParts(w, { shipTypes: null }, { ...split, vesselsFrom: until - 3 * DAY }), /boundary/);

  // the lane cells: the same voyages and hours with or without their registers
  const withVessels = await repo.laneParts(w, { shipTypes: null });
  const countsOnly = await repo.laneParts(w, { shipTypes: null }, { countsOnly: true });
  assert.equal(voyagesOf(countsOnly), voyagesOf(withVessels));
  assert.equal(voyagesOf(countsOnly), VESSELS);
  assert.ok(nearVessels(vesselsOf(withVessels)), `vessels ${vesselsOf(withVessels)}`);
  assert.equal(vesselsOf(countsOnly), 0);
  assert.deepEqual(
    countsOnly.flatMap((p) => p.approximate.map((a) => a.hours.median())),
    withVessels.flatMap((p) => p.approximate.map((a) => a.hours.median())),
  );
});
