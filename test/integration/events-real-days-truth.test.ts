import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { isCargoOrTanker, portAttribution, readDay, stopsOf, type TruthDay, type TruthStop } from '../../bench/truth/ground-truth.js';
import { portPoints } from '../../src/features/events/event-detection.js';
import { readPortTableFile } from '../../src/features/ports/port-table-file.js';
import { startTestApp, type ApiResponse, type TestApp } from '../helpers/app.js';
import { position } from '../helpers/fleet.js';
import { sharedDataPath } from '../helpers/shared-data.js';

/**
 * The real days of ../shared/data/ais/tracks (Houston–Galveston and the Lower Mississippi, 2020-01-01)
 * through GET /v1/events: the cargo and tanker vessels' positions stored and detected by the live runner;
 * every stop of theirs at a port in the independent truth (bench/truth/ground-truth.ts: SOG < 0.5 kn for
 * 30 min, attributed to the port within 30 km) is looked for among the port calls listed for that vessel;
 * paging through the day lists every event once.
 */
const NOW = Date.UTC(2020, 0, 3);
const DAYS: Array<[string, string, number]> = [
  ['Houston–Galveston', 'ais/tracks/AIS_2020_01_01_houston_galveston.csv.gz', 100],
  ['Lower Mississippi', 'ais/tracks/AIS_2020_01_01_lower_mississippi.csv.gz', 30],
];

for (const [name, file, minimum] of DAYS)
  describe(`the ${name} day through /v1/events`, () => {
    const data = sharedDataPath(file);
    let app: TestApp;
    let operator: string;
    let day: TruthDay;
    let truth: Array<TruthStop & { portId: number }> = [];

    before(async () => {
      if (data.skip) return;
      day = await readDay(data.path);
      app = await startTestApp({ now: NOW });
      const cargo = [...day.vessels.values()].filter((v) => isCargoOrTanker(v.type));
      const fleet = app.bosun.ctx.services.fleet;
      const rows = cargo.flatMap((v) =>
        v.rows.map((r) => position(v.mmsi, r.t, r.lat, r.lon, { sog: r.sog ?? undefined, heading: r.heading ?? undefined, navStatus: undefined, source: `file:${file}` })),
      );
      for (const r of rows.sort((a, b) => a.observedAt - b.observedAt)) fleet.acceptPosition(r);
      await fleet.flush();
      await app.bosun.ctx.services.events.runner.catchUp();
      operator = await app.operatorToken();
      const stops = cargo.flatMap((v) => stopsOf(v, day));
      const ports = portAttribution(stops, portPoints(readPortTableFile().ports));
      truth = stops.flatMap((s) => (ports.get(s) != null ? [{ ...s, portId: ports.get(s)! }] : []));
    });

    after(async () => {
      await app?.close();
    });

    const window = () => `from=${new Date(day.firstT).toISOString()}&to=${new Date(day.lastT).toISOString()}`;

    test('every truth stop of a cargo ship or tanker at a port lies in a port call listed for that vessel, with its stop', { skip: data.skip }, async () => {
      const byVessel = new Map<number, Array<{ start_at: string; end_at: string | null; stops: Array<{ start_at: string; end_at: string }> }>>();
      for (const mmsi of new Set(truth.map((s) => s.mmsi))) {
        const res = await app.api('GET', `/v1/events?type=port_call&vessel=MMSI:${mmsi}&limit=1000&${window()}`, { token: operator });
        assert.equal(res.status, 200, res.text);
        byVessel.set(mmsi, res.body.data.items);
      }
      const found = truth.filter((s) => (byVessel.get(s.mmsi) ?? []).some((call) => call.stops.some((stop) => Date.parse(stop.start_at) <= s.end && Date.parse(stop.end_at) >= s.start)));
      const missed = truth.filter((s) => !found.includes(s)).map((s) => `${s.mmsi} ${new Date(s.start).toISOString()}–${new Date(s.end).toISOString()} at ${s.portId}`);
      assert.ok(truth.length > minimum, `${truth.length} truth stops at ports`);
      assert.deepEqual(missed, [], `${found.length} of ${truth.length} found`);
    });

    test('paging through the day at 25 a page lists every event exactly once, as one page of 1,000 does', { skip: data.skip }, async () => {
      const whole: ApiResponse = await app.api('GET', `/v1/events?limit=1000&${window()}`, { token: operator });
      const all = (whole.body.data.items as Array<{ event_id: string }>).map((i) => i.event_id);
      assert.equal(whole.body.data.next_cursor, null);
      const paged: string[] = [];
      let cursor: string | null = null;
      do {
        const res: ApiResponse = await app.api('GET', `/v1/events?limit=25&${window()}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { token: operator });
        assert.equal(res.status, 200, res.text);
        paged.push(...(res.body.data.items as Array<{ event_id: string }>).map((i) => i.event_id));
        cursor = res.body.data.next_cursor;
      } while (cursor);
      assert.ok(all.length > minimum, `${all.length} events`);
      assert.deepEqual(paged, all);
      assert.equal(new Set(paged).size, paged.length);
    });
  });
