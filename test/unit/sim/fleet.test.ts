import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AisDecoder, type DecodedMessage } from '../../../src/ais/index.js';
import { isValidImo } from '../../../src/ais/imo.js';
import { flagForMmsi } from '../../../src/ais/mid.js';
import { DAY, HOUR, MINUTE, ManualClock } from '../../../src/platform/clock.js';
import { distanceM, distanceToSegmentM, type LatLon } from '../../../src/geo/distance.js';
import { BACKFILL_RATES, DemoFleet, type EmissionRates } from '../../../src/sim/fleet.js';
import { DemoFeedSource } from '../../../src/sim/live-source.js';
import { progressBar } from '../../../src/sim/progress.js';

const T0 = Date.UTC(2026, 10, 14);
/** Frequent enough to see meetings and waits, sparse enough to keep the test fast. */
const TEST_RATES: EmissionRates = { underwaySeconds: 240, classBUnderwaySeconds: 240, stationarySeconds: 300, staticSeconds: 1800 };

interface Report {
  mmsi: number;
  t: number;
  lat: number;
  lon: number;
  sog: number;
  status: number | null;
}

function run(seed: number, vessels: number, hours: number, rates = TEST_RATES): { lines: string[]; fleet: DemoFleet } {
  const fleet = new DemoFleet({ seed, vessels, startMs: T0, rates });
  const lines: string[] = [];
  fleet.advanceTo(T0 + hours * HOUR, (line) => lines.push(line));
  return { lines, fleet };
}

function decode(lines: string[]): { messages: DecodedMessage[]; decoder: AisDecoder } {
  const decoder = new AisDecoder();
  return { messages: lines.flatMap((line) => decoder.push(line)), decoder };
}

function positions(messages: DecodedMessage[]): Report[] {
  return messages
    .filter((m) => [1, 2, 3, 18].includes(m.fields.type))
    .map((m) => ({
      mmsi: m.fields.mmsi,
      t: m.meta.receivedAtMs!,
      lat: m.fields.lat as number,
      lon: m.fields.lon as number,
      sog: m.fields.speed as number,
      status: m.fields.type === 18 ? null : (m.fields.status as number),
    }));
}

// One two-day run of a small fleet, shared by the behaviour tests below.
const TWO_DAYS = run(7, 40, 48);
const DECODED = decode(TWO_DAYS.lines);
const REPORTS = positions(DECODED.messages);

test('deterministic: the same seed gives the same sentences, however the time is stepped; another seed differs', () => {
  const again = new DemoFleet({ seed: 7, vessels: 40, startMs: T0, rates: TEST_RATES });
  const stepped: string[] = [];
  for (let t = T0; t < T0 + 6 * HOUR; t += 7 * MINUTE) again.advanceTo(Math.min(t + 7 * MINUTE, T0 + 6 * HOUR), (line) => stepped.push(line));
  const firstSixHours = TWO_DAYS.lines.filter((line) => Number(/c:(\d+)/.exec(line)![1]) * 1000 <= T0 + 6 * HOUR);
  assert.ok(firstSixHours.length > 1000);
  assert.deepEqual(stepped, firstSixHours);
  const other = run(8, 40, 6).lines;
  assert.notDeepEqual(other.slice(0, 50), firstSixHours.slice(0, 50));
});

test('sentences: every line decodes without a single error, in time order, tagged demo-simulator, all message kinds present', () => {
  const stats = DECODED.decoder.stats();
  assert.equal(stats.lines, TWO_DAYS.lines.length);
  assert.equal(
    Object.values(stats.errors).reduce((a, b) => a + b, 0),
    0,
    JSON.stringify(stats.errors),
  );
  assert.equal(
    Object.values(stats.flagged).reduce((a, b) => a + b, 0),
    0,
  );
  assert.equal(stats.fragments_pending, 0);
  for (const type of ['1', '5', '18', '24']) assert.ok((stats.by_type[type] ?? 0) > 0, `type ${type}`);
  let previous = 0;
  for (const message of DECODED.messages) {
    assert.equal(message.meta.source, 'demo-simulator');
    assert.ok(message.meta.receivedAtMs! >= previous && message.meta.receivedAtMs! > T0 && message.meta.receivedAtMs! <= T0 + 48 * HOUR);
    previous = message.meta.receivedAtMs!;
  }
  for (const line of TWO_DAYS.lines) assert.ok(line.length - line.indexOf('!') <= 82, 'NMEA sentences are at most 82 characters');
});

test('identities: unique valid MMSIs with the MID of the flag, valid IMO numbers, plausible names, types and sizes', () => {
  const fleet = new DemoFleet({ seed: 1, vessels: 300, startMs: T0, rates: BACKFILL_RATES });
  // 300 and the labelled vessels added after them: 6 loiterers and 6 that go dark
  assert.equal(fleet.vessels.length, 312);
  assert.equal(fleet.vessels.slice(300).filter((v) => v.kind === 'loiterer').length, 6);
  assert.equal(new Set(fleet.vessels.map((v) => v.mmsi)).size, 312);
  assert.equal(new Set(fleet.vessels.map((v) => v.name)).size, 312);
  const kinds = new Map<string, number>();
  for (const v of fleet.vessels) {
    kinds.set(v.kind, (kinds.get(v.kind) ?? 0) + 1);
    assert.ok(v.mmsi >= 201_000_000 && v.mmsi <= 775_999_999, String(v.mmsi));
    assert.equal(flagForMmsi(v.mmsi), v.flag, `${v.mmsi} is flagged ${v.flag}`);
    if (v.kind === 'fishing') {
      assert.equal(v.imo, null);
      assert.equal(v.classB, true);
    } else {
      assert.ok(v.imo !== null && isValidImo(v.imo), `${v.name} IMO ${v.imo}`);
    }
    assert.match(v.name, /^[A-Z0-9 ]{3,20}$/);
    assert.match(v.callsign, /^[A-Z0-9]{4,7}$/);
    assert.equal(v.toBow + v.toStern, v.lengthM);
    assert.equal(v.toPort + v.toStarboard, v.beamM);
  }
  assert.equal(new Set(fleet.vessels.flatMap((v) => (v.imo === null ? [] : [v.imo]))).size, fleet.vessels.filter((v) => v.imo !== null).length);
  for (const kind of ['container', 'bulk', 'tanker', 'lng', 'roro', 'general', 'passenger', 'tug', 'fishing']) assert.ok((kinds.get(kind) ?? 0) >= 5, kind);
  assert.equal(kinds.get('sts_storage'), 3);
  assert.equal(kinds.get('sts_shuttle'), 9);
  const container = fleet.vessels.find((v) => v.kind === 'container')!;
  assert.ok(container.lengthM >= 170 && container.lengthM <= 400 && [70, 71, 79].includes(container.shipType));
  const tug = fleet.vessels.find((v) => v.kind === 'tug')!;
  assert.ok(tug.lengthM < 40 && tug.shipType === 52);
});

test('static reports carry the identity, destination, ETA and draught', () => {
  const byMmsi = new Map(TWO_DAYS.fleet.vessels.map((v) => [v.mmsi, v]));
  let checked = 0;
  for (const { fields } of DECODED.messages) {
    if (fields.type !== 5) continue;
    const vessel = byMmsi.get(fields.mmsi)!;
    assert.deepEqual(
      [fields.shipname, fields.imo, fields.callsign, fields.shiptype, fields.to_bow, fields.to_stern],
      [vessel.name, vessel.imo, vessel.callsign, vessel.shipType, vessel.toBow, vessel.toStern],
    );
    assert.match(fields.destination as string, /^[A-Z]{5}$|STS|EOPL|LIGHTERING/);
    assert.ok((fields.draught as number) > 1 && (fields.draught as number) < 22);
    checked++;
  }
  assert.ok(checked > 500);
});

test('vessels follow the water: moving positions lie on the sea lanes or on a port approach, never across land', () => {
  const world = TWO_DAYS.fleet.world;
  const graph = world.graph;
  const edges = [...graph.edges()].map(([a, b]) => [graph.point(a), graph.point(b)] as const);
  const approaches: (readonly [LatLon, LatLon])[] = [];
  for (const port of world.ports) {
    const path = [...port.inbound.points].reverse().concat(port.seaward.points);
    for (let i = 1; i < path.length; i++) approaches.push([path[i - 1]!, path[i]!]);
  }
  for (const area of world.stsAreas) approaches.push([area.seaward.start, area.seaward.end]);
  // Short hops between nearby port and STS nodes may be sailed straight across (see SimWorld).
  const hubs = [...world.ports.map((p) => p.node), ...world.stsAreas.map((a) => a.node)].map((n) => graph.point(n));
  for (const a of hubs) for (const b of hubs) if (distanceM(a.lat, a.lon, b.lat, b.lon) < 300_000) approaches.push([a, b]);
  // Passages are straightened where they turned back on themselves (over water only; test/unit/sim/land-check.test.ts).
  for (const passage of world.cachedPassages()) for (let i = 1; i < passage.points.length; i++) approaches.push([passage.points[i - 1]!, passage.points[i]!]);
  const moving = REPORTS.filter((r) => r.sog > 1);
  assert.ok(moving.length > 3000);
  const sample = moving.filter((_, i) => i % Math.floor(moving.length / 300) === 0);
  for (const r of sample) {
    const near = (segments: readonly (readonly [LatLon, LatLon])[], limitM: number) =>
      segments.some(([a, b]) => Math.min(a.lat, b.lat) - 1 < r.lat && Math.max(a.lat, b.lat) + 1 > r.lat && distanceToSegmentM(r, a, b) <= limitM);
    assert.ok(near(edges, 5_000) || near(approaches, 5_000), `${r.mmsi} at ${r.lat},${r.lon} (${new Date(r.t).toISOString()}) is off the water network`);
  }
});

test('port calls: vessels wait at anchor for hours near the anchorage, then berth (moored, speed 0) at the port', () => {
  const { lines, fleet } = run(11, 120, 96, { underwaySeconds: 1800, classBUnderwaySeconds: 1800, stationarySeconds: 900, staticSeconds: 86_400 });
  const world = fleet.world;
  const byVessel = new Map<number, Report[]>();
  for (const r of positions(decode(lines).messages)) byVessel.set(r.mmsi, [...(byVessel.get(r.mmsi) ?? []), r]);
  let anchorThenBerth = 0;
  let longestWait = 0;
  for (const reports of byVessel.values()) {
    const anchored = reports.filter((r) => r.status === 1);
    for (const r of anchored) {
      const nearest = Math.min(...world.ports.map((p) => distanceM(r.lat, r.lon, p.anchorage.lat, p.anchorage.lon)));
      assert.ok(nearest < 2500 && r.sog < 0.5, `anchored ${nearest} m from an anchorage at ${r.sog} kn`);
    }
    for (const r of reports.filter((x) => x.status === 5)) {
      const nearest = Math.min(...world.ports.map((p) => distanceM(r.lat, r.lon, p.lat, p.lon)));
      assert.ok(nearest < 500 && r.sog === 0, `moored ${nearest} m from a berth at ${r.sog} kn`);
    }
    if (anchored.length > 0) {
      const last = anchored[anchored.length - 1]!;
      longestWait = Math.max(longestWait, last.t - anchored[0]!.t);
      if (reports.some((r) => r.t > last.t && r.status === 5)) anchorThenBerth++;
    }
  }
  assert.ok(anchorThenBerth >= 3, `${anchorThenBerth} vessels went from anchor to berth`);
  assert.ok(longestWait >= 4 * HOUR, `longest wait ${longestWait / HOUR} h`);
});

test('STS: every day a shuttle lies within 500 m of the storage tanker for at least 2 h at under 2 kn, far from any anchorage', () => {
  const { fleet } = TWO_DAYS;
  const storage = fleet.vessels.find((v) => v.kind === 'sts_storage')!;
  const shuttles = fleet.vessels.filter((v) => v.kind === 'sts_shuttle');
  assert.equal(shuttles.length, 3);
  const mother = REPORTS.filter((r) => r.mmsi === storage.mmsi);
  const meetings: { start: number; end: number; mmsi: number }[] = [];
  for (const shuttle of shuttles) {
    let run: { start: number; end: number } | null = null;
    for (const r of REPORTS.filter((x) => x.mmsi === shuttle.mmsi)) {
      const m = mother.find((x) => Math.abs(x.t - r.t) <= 5 * MINUTE);
      const together = m !== undefined && distanceM(r.lat, r.lon, m.lat, m.lon) <= 500 && r.sog < 2 && m.sog < 2;
      if (together) run = run === null ? { start: r.t, end: r.t } : { start: run.start, end: r.t };
      if ((!together || r === REPORTS.at(-1)) && run !== null) {
        if (run.end - run.start >= 2 * HOUR) meetings.push({ ...run, mmsi: shuttle.mmsi });
        run = null;
      }
    }
    if (run !== null && run.end - run.start >= 2 * HOUR) meetings.push({ ...run, mmsi: shuttle.mmsi });
  }
  for (let day = 0; day < 2; day++) {
    const from = T0 + day * DAY;
    assert.ok(
      meetings.some((m) => m.start < from + DAY && m.end > from),
      `an STS meeting on day ${day + 1}: ${JSON.stringify(meetings)}`,
    );
  }
  const spot = mother[0]!;
  const nearestAnchorage = Math.min(...fleet.world.ports.map((p) => distanceM(spot.lat, spot.lon, p.anchorage.lat, p.anchorage.lon)));
  assert.ok(nearestAnchorage > 20_000, `STS area ${nearestAnchorage} m from an anchorage`);
});

test('route choice: over two months some voyages take the Cape instead of Suez, most take the shortest route', () => {
  const fleet = new DemoFleet({ seed: 3, vessels: 300, startMs: T0, rates: BACKFILL_RATES });
  const routes = new Map<string, number>();
  const seen = new Set<object>();
  for (let t = T0; t < T0 + 60 * DAY; t += 6 * HOUR) {
    for (let i = 0; i < fleet.vessels.length; i++) {
      const { voyage } = fleet.segmentOf(i, t);
      if (seen.has(voyage)) continue;
      seen.add(voyage);
      const route = voyage.route ?? 'shortest';
      routes.set(route, (routes.get(route) ?? 0) + 1);
    }
  }
  assert.ok((routes.get('avoid_suez') ?? 0) >= 3, JSON.stringify([...routes]));
  assert.ok((routes.get('shortest') ?? 0) > 10 * (routes.get('avoid_suez') ?? 0), JSON.stringify([...routes]));
});

test('live source: emits each report once as the clock advances, catches up a long pause at backfill rates', async () => {
  const clock = new ManualClock(T0);
  const fleet = new DemoFleet({ seed: 5, vessels: 20, startMs: T0, rates: BACKFILL_RATES });
  const source = new DemoFeedSource({ name: 'demo-simulator', clock, prepare: async () => fleet, tickMs: 3_600_000 });
  const received: { line: string; at: number }[] = [];
  await source.start((line, at) => received.push({ line, at }));
  try {
    assert.equal(source.status().kind, 'demo');
    assert.equal(source.status().state, 'connected');
    clock.advance(MINUTE);
    source.tick();
    const firstMinute = received.length;
    assert.ok(firstMinute > 20, `${firstMinute} lines in the first live minute`);
    source.tick();
    assert.equal(received.length, firstMinute, 'nothing twice');
    for (const { line, at } of received) {
      const tagged = Number(/c:(\d+)/.exec(line)![1]) * 1000;
      assert.ok(tagged > T0 && tagged <= T0 + MINUTE && at === T0 + MINUTE);
    }
    clock.advance(HOUR);
    source.tick();
    const pause = received.length - firstMinute;
    assert.ok(pause > 100 && pause < (60 * firstMinute) / 2, `${pause} lines for an hour's pause`);
    assert.equal(source.status().lines, received.length);
    assert.equal(decode(received.map((r) => r.line)).decoder.stats().errors.bad_checksum, 0);
  } finally {
    await source.stop();
  }
  assert.equal(source.status().state, 'stopped');
  await source.done();
});

test('progress bar: redrawn in place on a terminal, one line per 10 % in logs', () => {
  const written: string[] = [];
  const log = progressBar({ isTTY: false, write: (text: string) => written.push(text) }, 'backfill');
  for (let done = 0; done <= 100; done++) log.update({ doneMs: done * HOUR, totalMs: 100 * HOUR, messages: done * 10 });
  log.finish('done');
  assert.equal(written.length, 12);
  assert.match(written[10]!, /^backfill \[#{30}\] 100%  4\.2\/4\.2 days, 1000 messages\n$/);
  assert.equal(written[11], 'backfill: done\n');
  const tty: string[] = [];
  const bar = progressBar({ isTTY: true, write: (text: string) => tty.push(text) }, 'backfill');
  bar.update({ doneMs: 1, totalMs: 4, messages: 5 });
  bar.update({ doneMs: 2, totalMs: 4, messages: 9 });
  bar.finish('done');
  assert.ok(tty[0]!.startsWith('\rbackfill [########......................]  25%'));
  assert.ok(tty[1]!.includes(' 50%'));
  assert.equal(tty[2], '\nbackfill: done\n');
});
