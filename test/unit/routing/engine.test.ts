import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import test from 'node:test';
import { distanceNm } from '../../../src/geo/distance.js';
import { createRoutingEngine, RoutingError, type Route, type RoutingEngine } from '../../../src/routing/engine.js';
import { landIndex } from '../../../src/geo/land.js';
import { passageByName, PASSAGES } from '../../../src/routing/graph.js';
import { engineFromLines, parseMarnetGeoJson, shippedSeaNetwork } from '../../../src/routing/network-file.js';
import { SNAP_MAX_NM, type Snap } from '../../../src/routing/snap.js';
import { sharedDataPath } from '../../helpers/shared-data.js';

const { engine } = shippedSeaNetwork();
const shipped = engine;

/** Port positions of the World Port Index (the port table's). */
const P = {
  rotterdam: { lat: 51.95, lon: 4.05 },
  singapore: { lat: 1.28333, lon: 103.85 },
  shanghai: { lat: 31.21667, lon: 121.5 },
  losAngeles: { lat: 33.75, lon: -118.25 },
  houston: { lat: 29.75, lon: -95.28333 },
  santos: { lat: -23.95, lon: -46.3 },
  qingdao: { lat: 36.03333, lon: 120.26667 },
  newYork: { lat: 40.7, lon: -74.01667 },
  piraeus: { lat: 37.93333, lon: 23.61667 },
};

const ids = (route: Route) => route.passages.map((p) => p.id);
const within = (value: number, low: number, high: number, label: string) => assert.ok(value >= low && value <= high, `${label}: ${value.toFixed(0)} nm not in ${low}..${high}`);
const route = (e: RoutingEngine, a: { lat: number; lon: number }, b: { lat: number; lon: number }, avoid: string[] = [], allow: string[] = []) =>
  e.route([a, b], { excludedMask: e.passageMask(avoid, allow) });

test('the shipped network: marnet 50 km after the land check (decision 052), one graph with the ±180° meridian joined, every passage present', () => {
  // marnet's 8,414 nodes and 16,526 edges, plus the points of the water paths that replace edges crossing land and of the spurs to ports (Calcutta's up the Hooghly since decision 141).
  assert.equal(engine.graph.nodeCount, 10439);
  assert.equal(engine.graph.edgeCount, 18552);
  const seen = new Uint8Array(engine.graph.nodeCount);
  const stack = [0];
  seen[0] = 1;
  let reached = 1;
  while (stack.length > 0) {
    const u = stack.pop()!;
    for (let i = engine.graph.offsets[u]!; i < engine.graph.offsets[u + 1]!; i++) {
      const v = engine.graph.target[i]!;
      if (seen[v] === 0) {
        seen[v] = 1;
        reached++;
        stack.push(v);
      }
    }
  }
  assert.equal(reached, engine.graph.nodeCount, 'one connected component');
  assert.equal(engine.graph.lon.filter((lon) => lon === -180).length, 0, 'lon -180 is written 180: one node per latitude');
  for (const p of engine.passages()) assert.ok(p.edges > 0, `${p.id} has edges`);
});

test('reference distances (PROVENANCE.md, 4 % as issue 28): Rotterdam–Singapore via Suez, Houston–Rotterdam, LA–New York via Panama', () => {
  const rs = route(engine, P.rotterdam, P.singapore);
  within(rs.distanceNm, 8300 * 0.96, 8400 * 1.04, 'Rotterdam–Singapore');
  assert.deepEqual(ids(rs), ['dover', 'gibraltar', 'suez', 'babelmandeb', 'malacca']);
  within(route(engine, P.houston, P.rotterdam).distanceNm, 5070 * 0.96, 5070 * 1.04, 'Houston–Rotterdam');
  const lany = route(engine, P.losAngeles, P.newYork);
  within(lany.distanceNm, 4950 * 0.96, 5000 * 1.04, 'LA–New York');
  assert.deepEqual(ids(lany), ['panama']);
});

test('Shanghai–Los Angeles crosses the antimeridian: ≈ 5,900 nm, longitudes continuous', () => {
  const r = route(engine, P.shanghai, P.losAngeles);
  within(r.distanceNm, 5900 * 0.98, 5900 * 1.02, 'Shanghai–LA');
  // great-circle legs of the pull (decision 126) span tens of degrees; a wrap would be a jump of about 360
  for (let i = 1; i < r.coordinates.length; i++) assert.ok(Math.abs(r.coordinates[i]![0] - r.coordinates[i - 1]![0]) < 180, 'no jump of longitude');
  assert.ok(
    r.coordinates.some(([lon]) => lon > 180 || lon < -180),
    'unwrapped across 180',
  );
  assert.ok(
    r.coordinates.some(([lon]) => lon > 180),
    'unwrapped east of 180',
  );
  // the sum of the segment lengths is the distance: the geometry is the route measured
  let sum = 0;
  for (let i = 1; i < r.coordinates.length; i++) sum += distanceNm(r.coordinates[i - 1]![1], r.coordinates[i - 1]![0], r.coordinates[i]![1], r.coordinates[i]![0]);
  assert.ok(Math.abs(sum - r.distanceNm) < 0.5, `${sum} vs ${r.distanceNm}`);
});

test('Rotterdam–Singapore avoiding Suez goes round the Cape of Good Hope and says so; the Arctic only when allowed', () => {
  const cape = route(engine, P.rotterdam, P.singapore, ['suez']);
  within(cape.distanceNm, 11700 * 0.98, 11900 * 1.02, 'via the Cape');
  assert.deepEqual(ids(cape), ['dover', 'good_hope']);
  const viaBabOnly = route(engine, P.rotterdam, P.singapore, ['bab_el_mandeb']);
  assert.ok(!ids(viaBabOnly).includes('suez') && ids(viaBabOnly).includes('good_hope'));
  const arctic = route(engine, P.rotterdam, P.singapore, ['suez'], ['northeast']);
  assert.ok(ids(arctic).includes('northeast') && ids(arctic).includes('bering'));
  assert.ok(arctic.distanceNm < cape.distanceNm);
  // the closures live in the mask: the same engine answers the open route again
  assert.equal(route(engine, P.rotterdam, P.singapore).distanceNm, route(engine, P.rotterdam, P.singapore).distanceNm);
  assert.deepEqual(ids(route(engine, P.rotterdam, P.singapore)), ['dover', 'gibraltar', 'suez', 'babelmandeb', 'malacca']);
});

test('Santos–Qingdao goes east round the Cape; avoiding good_hope it takes Cape Horn or Magellan', () => {
  const r = route(engine, P.santos, P.qingdao);
  assert.deepEqual(ids(r).slice(0, 1), ['good_hope']);
  const west = route(engine, P.santos, P.qingdao, ['good_hope']);
  assert.ok(
    ids(west).some((id) => id === 'cape_horn' || id === 'magellan' || id === 'panama'),
    ids(west).join(),
  );
  assert.ok(west.distanceNm > r.distanceNm);
});

test('passages are entered in order along the route (at_nm increasing, inside the distance)', () => {
  const r = route(engine, P.rotterdam, P.singapore);
  const at = r.passages.map((p) => p.at_nm);
  assert.deepEqual(
    at,
    [...at].sort((a, b) => a - b),
  );
  assert.ok(at[0]! > 0 && at[at.length - 1]! < r.distanceNm);
  const suez = r.passages.find((p) => p.id === 'suez')!;
  assert.ok(distanceNm(suez.lat, suez.lon, 30.59, 32.44) < 60, 'Suez entry near the canal');
});

test('vias: consecutive legs through each place, distances adding up', () => {
  const r = engine.route([P.rotterdam, P.piraeus, P.singapore], { excludedMask: engine.passageMask([]) });
  assert.equal(r.legs.length, 2);
  assert.ok(Math.abs(r.legs[0]!.distanceNm + r.legs[1]!.distanceNm - r.distanceNm) < 1e-6);
  assert.ok(
    r.coordinates.some(([lon, lat]) => lon === P.piraeus.lon && lat === P.piraeus.lat),
    'the route reaches the via itself',
  );
  assert.ok(r.distanceNm > route(engine, P.rotterdam, P.singapore).distanceNm);
  assert.ok(!ids(r).includes('corinth'), 'Corinth is closed unless allowed');
});

test('A* finds the shortest path: equal to a plain Dijkstra from the same joins between 24 node pairs, with and without closures', () => {
  // the search alone: the great-circle pull (decision 126) shortens the answer after it
  const engine = createRoutingEngine(shipped.graph, { land: landIndex, pull: false });
  const g = engine.graph;
  /** Multi-source Dijkstra: seeded at both ends of each source join's edge, ended at the target joins' edge ends (connectors counted). */
  const dijkstra = (sources: Snap[], targets: Snap[], mask: number) => {
    const dist = new Float64Array(g.nodeCount).fill(Infinity);
    const done = new Uint8Array(g.nodeCount);
    const term = new Float64Array(g.nodeCount).fill(Infinity);
    let best = Infinity;
    for (const s of sources) {
      for (const t of targets) if (s.edge === t.edge) best = Math.min(best, s.connectorNm + Math.abs(s.t - t.t) * g.edgeNm[s.edge]! + t.connectorNm);
      dist[g.edgeA[s.edge]!] = Math.min(dist[g.edgeA[s.edge]!]!, s.connectorNm + s.t * g.edgeNm[s.edge]!);
      dist[g.edgeB[s.edge]!] = Math.min(dist[g.edgeB[s.edge]!]!, s.connectorNm + (1 - s.t) * g.edgeNm[s.edge]!);
    }
    for (const t of targets) {
      term[g.edgeA[t.edge]!] = Math.min(term[g.edgeA[t.edge]!]!, t.connectorNm + t.t * g.edgeNm[t.edge]!);
      term[g.edgeB[t.edge]!] = Math.min(term[g.edgeB[t.edge]!]!, t.connectorNm + (1 - t.t) * g.edgeNm[t.edge]!);
    }
    for (;;) {
      let u = -1;
      for (let i = 0; i < g.nodeCount; i++) if (!done[i] && dist[i]! < Infinity && (u === -1 || dist[i]! < dist[u]!)) u = i;
      if (u === -1 || dist[u]! >= best) return best;
      done[u] = 1;
      best = Math.min(best, dist[u]! + term[u]!);
      for (let i = g.offsets[u]!; i < g.offsets[u + 1]!; i++) {
        if (mask & (1 << g.edgePassage[g.arcEdge[i]!]!)) continue;
        const v = g.target[i]!;
        const d = dist[u]! + g.edgeNm[g.arcEdge[i]!]!;
        if (d < dist[v]!) dist[v] = d;
      }
    }
  };
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) % g.nodeCount;
  for (let k = 0; k < 24; k++) {
    const a = next();
    const b = next();
    if (a === b) continue;
    const mask = engine.passageMask(k % 2 === 0 ? [] : ['suez', 'panama']);
    const at = (n: number) => ({ lat: g.lat[n]!, lon: g.lon[n]! });
    const expected = dijkstra(engine.joins(at(a), mask), engine.joins(at(b), mask), mask);
    if (expected === Infinity) {
      assert.throws(
        () => engine.route([at(a), at(b)], { excludedMask: mask }),
        (e: unknown) => e instanceof RoutingError && e.code === 'route_unreachable',
      );
      continue;
    }
    const got = engine.route([at(a), at(b)], { excludedMask: mask });
    assert.ok(Math.abs(got.distanceNm - expected) < 1e-6 * expected + 1e-6, `${a}→${b}: ${got.distanceNm} vs ${expected}`);
  }
});

test('snapping: the connector is part of the distance and the geometry; two points on one edge go straight', () => {
  const r = route(engine, P.houston, P.rotterdam);
  assert.deepEqual(r.coordinates[0], [P.houston.lon, P.houston.lat]);
  assert.deepEqual(r.coordinates[r.coordinates.length - 1], [P.rotterdam.lon, P.rotterdam.lat]);
  const s = engine.snap(P.rotterdam);
  assert.ok(Math.abs(s.connectorNm - distanceNm(P.rotterdam.lat, P.rotterdam.lon, s.snappedLat, s.snappedLon)) < 1e-9);
  assert.ok(r.connectorNm > 0 && r.connectorNm === r.legs[0]!.from.connectorNm + r.legs[0]!.to.connectorNm);
  // two points along the middle of one edge
  const g = engine.graph;
  const e = Array.from(g.edgeNm).findIndex((nm, i) => nm > 100 && g.edgePassage[i] === 0);
  const mid = (t: number) => ({ lat: g.lat[g.edgeA[e]!]! + t * (g.lat[g.edgeB[e]!]! - g.lat[g.edgeA[e]!]!), lon: g.lon[g.edgeA[e]!]! + t * (g.lon[g.edgeB[e]!]! - g.lon[g.edgeA[e]!]!) });
  const short = engine.route([mid(0.3), mid(0.6)]);
  assert.ok(Math.abs(short.distanceNm - 0.3 * g.edgeNm[e]!) < 0.02 * g.edgeNm[e]!, `${short.distanceNm} vs ${0.3 * g.edgeNm[e]!}`);
});

test('errors: a point far from the network, an unknown passage, closures leaving no route', () => {
  assert.throws(
    () => engine.route([P.rotterdam, { lat: 45, lon: 80 }]),
    (e: unknown) => e instanceof RoutingError && e.code === 'point_off_network' && e.pointIndex === 1,
  );
  // Paris is 62 nm from the network (the Seine estuary): within the limit, connected; the limit is 300 km
  assert.ok(engine.snap({ lat: 48.85, lon: 2.35 }).connectorNm < SNAP_MAX_NM);
  assert.throws(
    () => engine.passageMask(['atlantis']),
    (e: unknown) => e instanceof RoutingError && e.code === 'unknown_passage',
  );
  assert.throws(
    () => route(engine, P.rotterdam, P.singapore, ['suez', 'good_hope', 'cape_horn', 'magellan', 'panama']),
    (e: unknown) => e instanceof RoutingError && e.code === 'route_unreachable',
  );
});

test('passage names: ids, aliases (bab_el_mandeb), default closures northeast, northwest, corinth', () => {
  assert.equal(passageByName('bab_el_mandeb')?.id, 'babelmandeb');
  assert.equal(passageByName(' Suez ')?.id, 'suez');
  assert.deepEqual(engine.maskNames(engine.passageMask([])), ['corinth', 'northwest', 'northeast']);
  assert.deepEqual(engine.maskNames(engine.passageMask(['suez'], ['corinth'])), ['suez', 'northwest', 'northeast']);
  assert.equal(new Set(PASSAGES.map((p) => p.index)).size, PASSAGES.length);
  assert.ok(
    PASSAGES.every((p) => p.index > 0 && p.index < 31),
    'fits an int32 mask',
  );
});

test('alternatives: the best route and the best without each passage it crosses', () => {
  const { best, without } = engine.alternatives([P.rotterdam, P.singapore], { excludedMask: engine.passageMask([]) });
  assert.deepEqual(
    without.map((w) => w.passage),
    ids(best),
  );
  const noSuez = without.find((w) => w.passage === 'suez')!.route;
  assert.ok(ids(noSuez).includes('good_hope') && noSuez.distanceNm > best.distanceNm);
});

const fine = sharedDataPath('geo/marnet_plus_50km.geojson');
const coarse = sharedDataPath('geo/marnet_plus_100km.geojson');
test(
  'resolution (decisions 032, 052): the shipped file is marnet 50 km with the land check (within 1 % of the raw lines on the reference pairs); 100 km stays within 2 % of 50 km',
  { skip: fine.skip || coarse.skip },
  () => {
    const e50 = engineFromLines(parseMarnetGeoJson(readFileSync(fine.path, 'utf8')));
    const e100 = engineFromLines(parseMarnetGeoJson(readFileSync(coarse.path, 'utf8')));
    const pairs: [keyof typeof P, keyof typeof P, string[]][] = [
      ['rotterdam', 'singapore', []],
      ['rotterdam', 'singapore', ['suez']],
      ['shanghai', 'losAngeles', []],
      ['houston', 'rotterdam', []],
      ['santos', 'qingdao', []],
    ];
    for (const [a, b, avoid] of pairs) {
      const reference = route(e50, P[a], P[b], avoid).distanceNm;
      const shipped = route(engine, P[a], P[b], avoid).distanceNm;
      assert.ok(Math.abs(shipped - reference) / reference < 0.01, `${a}–${b}: shipped ${shipped.toFixed(0)} vs raw marnet ${reference.toFixed(0)}`);
      const d100 = route(e100, P[a], P[b], avoid).distanceNm;
      assert.ok(Math.abs(d100 - reference) / reference < 0.02, `${a}–${b}: 100 km ${d100.toFixed(0)} vs 50 km ${reference.toFixed(0)}`);
    }
  },
);
