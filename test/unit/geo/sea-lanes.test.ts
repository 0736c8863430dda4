import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bearingDeg, destinationPoint, distanceM, distanceNm, distanceToSegmentM, interpolate } from '../../../src/geo/distance.js';
import { Polyline } from '../../../src/geo/polyline.js';
import { BUILTIN_PORTS } from '../../../src/geo/ports-builtin.js';
import { AVOIDABLE_PASSAGES, loadSeaLaneGraph, SeaLaneGraph } from '../../../src/geo/sea-lanes.js';

const passage = (id: string) => AVOIDABLE_PASSAGES.find((p) => p.id === id)!;
const port = (locode: string) => BUILTIN_PORTS.find((p) => p.locode === locode)!;

test('great-circle distance, bearing, destination and interpolation', () => {
  // One degree of latitude ≈ 111.2 km; Rotterdam to Singapore ≈ 5,703 nm as the crow flies.
  assert.ok(Math.abs(distanceM(0, 0, 1, 0) - 111_195) < 10);
  assert.ok(Math.abs(distanceNm(51.95, 4.05, 1.26, 103.8) - 5703) < 5);
  assert.equal(Math.round(bearingDeg(0, 0, 0, 1)), 90);
  assert.equal(Math.round(bearingDeg(0, 0, -1, 0)), 180);
  const p = destinationPoint(10, 20, 45, 100_000);
  assert.ok(Math.abs(distanceM(10, 20, p.lat, p.lon) - 100_000) < 1);
  // Across the antimeridian the midpoint stays on the short side.
  const mid = interpolate(0, 179, 0, -179, 0.5);
  assert.ok(Math.abs(Math.abs(mid.lon) - 180) < 1e-6 && Math.abs(mid.lat) < 1e-9);
  assert.ok(Math.abs(distanceToSegmentM({ lat: 0.1, lon: 0.5 }, { lat: 0, lon: 0 }, { lat: 0, lon: 1 }) - 11_120) < 20);
  assert.ok(Math.abs(distanceToSegmentM({ lat: 0, lon: 2 }, { lat: 0, lon: 0 }, { lat: 0, lon: 1 }) - 111_195) < 20);
});

test('polyline: position and course along the line, slices', () => {
  const line = new Polyline([
    { lat: 0, lon: 0 },
    { lat: 0, lon: 1 },
    { lat: 1, lon: 1 },
  ]);
  assert.ok(Math.abs(line.lengthM - 2 * 111_195) < 50);
  const quarter = line.at(line.lengthM / 4);
  assert.ok(Math.abs(quarter.lon - 0.5) < 1e-3 && Math.round(quarter.bearing) === 90);
  const third = line.at(line.lengthM * 0.75);
  assert.ok(Math.abs(third.lat - 0.5) < 1e-3 && Math.round(third.bearing) === 0);
  assert.ok(Math.abs(line.slice(1000, 3000).lengthM - 2000) < 1);
});

test('sea-lane graph: loads fast, one connected network, routes between ports across the antimeridian', () => {
  const started = performance.now();
  const graph = loadSeaLaneGraph();
  const loadMs = performance.now() - started;
  assert.ok(loadMs < 1000, `graph load took ${loadMs} ms`);
  assert.ok(graph.nodeCount > 5000 && graph.nodeCount < 7000, String(graph.nodeCount));
  assert.strictEqual(loadSeaLaneGraph(), graph, 'loaded once per process');

  const tokyo = graph.nearestNode(port('JPTYO').approach!.at(-1)!);
  const vancouver = graph.nearestNode(port('CAVAN').anchorage);
  const pacific = graph.route(tokyo, vancouver)!;
  const lengthNm = pacific.lengthM / 1852;
  assert.ok(lengthNm > 4000 && lengthNm < 5200, `Tokyo–Vancouver ${lengthNm} nm`);
  const crossings = pacific.points.slice(1).filter((p, i) => Math.abs(p.lon - pacific.points[i]!.lon) > 180).length;
  assert.equal(crossings, 1, 'the great-circle route crosses the antimeridian once');
});

test('route choice: avoiding Suez and Bab-el-Mandeb takes the Cape of Good Hope; avoiding Panama takes the long way', () => {
  const graph = loadSeaLaneGraph();
  const rotterdam = graph.nearestNode(port('NLRTM').anchorage);
  const singapore = graph.nearestNode(port('SGSIN').anchorage);
  const viaSuez = graph.route(rotterdam, singapore)!;
  assert.ok(SeaLaneGraph.passesThrough(viaSuez, passage('suez')));
  assert.ok(Math.abs(viaSuez.lengthM / 1852 - 8300) < 400, `${viaSuez.lengthM / 1852} nm`);
  const viaCape = graph.route(rotterdam, singapore, [passage('suez'), passage('babelmandeb')])!;
  assert.ok(!SeaLaneGraph.passesThrough(viaCape, passage('suez')));
  assert.ok(
    viaCape.points.some((p) => p.lat < -33 && p.lon > 15 && p.lon < 30),
    'rounds the Cape',
  );
  assert.ok(viaCape.lengthM > viaSuez.lengthM * 1.3);

  const between = graph.routeBetween(port('NLRTM').anchorage, port('SGSIN').anchorage, [passage('suez'), passage('babelmandeb')])!;
  assert.deepEqual(between.points[0], port('NLRTM').anchorage);
  assert.deepEqual(between.points.at(-1), port('SGSIN').anchorage);
  assert.ok(between.lengthM > viaCape.lengthM && between.lengthM < viaCape.lengthM + 100_000);

  const newYork = graph.nearestNode(port('USNYC').anchorage);
  const losAngeles = graph.nearestNode(port('USLAX').anchorage);
  const viaPanama = graph.route(newYork, losAngeles)!;
  assert.ok(SeaLaneGraph.passesThrough(viaPanama, passage('panama')));
  const around = graph.route(newYork, losAngeles, [passage('panama')])!;
  assert.ok(!SeaLaneGraph.passesThrough(around, passage('panama')));
  assert.ok(
    around.points.some((p) => p.lat < -50),
    'goes round South America',
  );
});

test('built-in ports: 60–100 unique UN/LOCODEs, valid fields, anchorage offshore and near the port, joined to the network', () => {
  const graph = loadSeaLaneGraph();
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
    const entry = (p.approach ?? []).at(-1) ?? p.anchorage;
    const node = graph.nearestNode(entry);
    const joinKm = distanceM(entry.lat, entry.lon, graph.lat[node]!, graph.lon[node]!) / 1000;
    assert.ok(joinKm < 300, `${p.locode}: ${joinKm} km from the sea lanes`);
  }
});
