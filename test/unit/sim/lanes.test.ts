import { test } from 'node:test';
import assert from 'node:assert/strict';
import { distanceM } from '../../../src/geo/distance.js';
import { Polyline } from '../../../src/geo/polyline.js';
import { BUILTIN_PORTS } from '../../../src/geo/ports-builtin.js';
import { landIndex } from '../../../src/geo/land.js';
import { createRoutingEngine } from '../../../src/routing/engine.js';
import { passageByName } from '../../../src/routing/graph.js';
import { shippedSeaNetwork } from '../../../src/routing/network-file.js';
import { SIM_APPROACHES } from '../../../src/sim/approaches.js';
import { shippedSeaLanes } from '../../../src/sim/lanes.js';
import { SimWorld } from '../../../src/sim/world.js';

const lanes = shippedSeaLanes();
const world = new SimWorld(lanes);
const port = (locode: string) => world.port(locode);
const nm = (m: number) => m / 1852;

test('the simulator shares the routing engine: one lanes object per process over the shipped network', () => {
  assert.strictEqual(shippedSeaLanes(), lanes);
  assert.strictEqual(lanes.engine, shippedSeaNetwork().engine);
  assert.equal(lanes.nodeCount, lanes.engine.graph.nodeCount);
});

test('lane trees agree with the engine: tree distances equal A* routes between the nodes, with and without closures', () => {
  const pairs = [
    ['NLRTM', 'SGSIN'],
    ['USNYC', 'USLAX'],
    ['JPTYO', 'CAVAN'],
    ['BRSSZ', 'CNTAO'],
  ] as const;
  // the engine's search on the lanes' network, without the great-circle pull that shortens its answers (decision 126)
  const search = createRoutingEngine(lanes.engine.graph, { land: landIndex, pull: false });
  for (const [a, b] of pairs) {
    const from = port(a);
    const to = port(b);
    for (const avoid of [[], ['suez', 'babelmandeb'], ['panama']]) {
      const mask = lanes.mask(avoid);
      const tree = lanes.tree(from.node, mask);
      const astar = search.route([lanes.point(from.node), lanes.point(to.node)], { excludedMask: mask });
      assert.ok(Math.abs(nm(tree.distance[to.node]!) - astar.distanceNm) < 0.01, `${a}–${b} avoiding ${avoid.join(',')}: ${nm(tree.distance[to.node]!)} vs ${astar.distanceNm}`);
      const points = lanes.pathPoints(tree, to.node)!;
      assert.deepEqual(points[0], lanes.point(from.node));
      assert.deepEqual(points.at(-1), lanes.point(to.node));
    }
  }
});

test('Tokyo–Vancouver crosses the antimeridian once over the lanes', () => {
  const points = world.routePoints(port('JPTYO').node, port('CAVAN').node);
  const lengthNm = nm(world.distance(port('JPTYO').node, port('CAVAN').node));
  assert.ok(lengthNm > 4000 && lengthNm < 5200, `Tokyo–Vancouver ${lengthNm} nm`);
  const crossings = points.slice(1).filter((p, i) => Math.abs(p.lon - points[i]!.lon) > 180).length;
  assert.equal(crossings, 1, 'the great-circle route crosses the antimeridian once');
});

test('route variants: avoiding Suez and Bab-el-Mandeb rounds the Cape; avoiding Panama goes round South America', () => {
  const rotterdam = port('NLRTM').node;
  const singapore = port('SGSIN').node;
  assert.ok(world.shortestPasses(rotterdam, singapore, 'avoid_suez'), 'the shortest route uses Suez');
  assert.ok(!world.shortestPasses(rotterdam, singapore, 'avoid_panama'));
  const viaSuez = nm(world.distance(rotterdam, singapore));
  assert.ok(Math.abs(viaSuez - 8300) < 400, `${viaSuez} nm`);
  const viaCape = world.routePoints(rotterdam, singapore, 'avoid_suez');
  assert.ok(
    viaCape.some((p) => p.lat < -33 && p.lon > 15 && p.lon < 30),
    'rounds the Cape',
  );
  assert.ok(!viaCape.some((p) => distanceM(p.lat, p.lon, 30.45, 32.35) < 100_000), 'stays away from Suez');
  assert.ok(world.distance(rotterdam, singapore, 'avoid_suez') > 1.3 * world.distance(rotterdam, singapore));

  const newYork = port('USNYC').node;
  const losAngeles = port('USLAX').node;
  assert.ok(world.shortestPasses(newYork, losAngeles, 'avoid_panama'), 'the shortest route uses Panama');
  assert.ok(
    world.routePoints(newYork, losAngeles, 'avoid_panama').some((p) => p.lat < -50),
    'goes round South America',
  );
});

test('the Arctic passages stay closed to the simulator, as in the engine by default', () => {
  const arctic = (1 << passageByName('northeast')!.index) | (1 << passageByName('northwest')!.index);
  assert.equal(lanes.defaultMask & arctic, arctic);
  const tree = lanes.tree(port('CNSHA').node, lanes.defaultMask);
  assert.ok(!lanes.pathUses(tree, port('NLRTM').node, arctic));
  assert.ok(lanes.pathUses(tree, port('NLRTM').node, 1 << passageByName('suez')!.index));
});

test('built-in ports: 60–100 unique UN/LOCODEs, valid fields, anchorage offshore and near the port, joined to the network', () => {
  assert.ok(BUILTIN_PORTS.length >= 60 && BUILTIN_PORTS.length <= 100, String(BUILTIN_PORTS.length));
  assert.equal(new Set(BUILTIN_PORTS.map((p) => p.locode)).size, BUILTIN_PORTS.length);
  for (const p of BUILTIN_PORTS) {
    assert.match(p.locode, /^[A-Z]{2}[A-Z2-9]{3}$/);
    assert.equal(p.locode.slice(0, 2), p.country);
    assert.ok(['large', 'medium'].includes(p.size));
    assert.ok(Math.abs(p.lat) <= 90 && Math.abs(p.lon) <= 180);
    const path = [{ lat: p.lat, lon: p.lon }, ...(p.channel ?? []).slice().reverse(), p.anchorage];
    const approachKm = new Polyline(path).lengthM / 1000;
    assert.ok(approachKm > 1 && approachKm < 80, `${p.locode}: berth to anchorage ${approachKm} km`);
    // the approach the world sails: the simulator's override where there is one (src/sim/approaches.ts)
    const entry = (SIM_APPROACHES[p.locode]?.approach ?? p.approach ?? []).at(-1) ?? p.anchorage;
    const join = lanes.join(entry);
    const joinKm = distanceM(entry.lat, entry.lon, join.snapped.lat, join.snapped.lon) / 1000;
    assert.ok(joinKm < 300, `${p.locode}: ${joinKm} km from the sea lanes`);
    // the seaward path ends on the port's node, reached along the edge it joins
    const end = port(p.locode).seaward.end;
    const node = lanes.point(join.node);
    assert.ok(distanceM(end.lat, end.lon, node.lat, node.lon) < 1, `${p.locode}: the seaward path ends on its node`);
  }
});
