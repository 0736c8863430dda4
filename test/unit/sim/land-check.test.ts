import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DAY } from '../../../src/platform/clock.js';
import { landIndex } from '../../../src/geo/land.js';
import { Polyline } from '../../../src/geo/polyline.js';
import { inlandKm, segmentLand } from '../../../src/routing/land-check.js';
import { DemoFleet } from '../../../src/sim/fleet.js';
import { auditFleetOverLand, uTurnOf } from '../../../src/sim/land-audit.js';
import { shippedSeaLanes } from '../../../src/sim/lanes.js';
import { seedFromText } from '../../../src/sim/random.js';
import { SimWorld } from '../../../src/sim/world.js';

// Issue 17 / decision 052: no simulated ship and no engine route more than 1 km inland on Natural Earth
// 1:10m outside the declared waterways (src/routing/waterways.ts).
const land = landIndex();
const lanes = shippedSeaLanes();
const world = new SimWorld(lanes, land);
const T0 = Date.UTC(2026, 10, 14);
const LIMIT_KM = 1;

/** The deepest point inland along a line of [lon, lat] points, sampled every 250 m. */
function deepest(points: readonly { lat: number; lon: number }[]): { km: number; at: string } {
  let worst = { km: 0, at: '' };
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1]!;
    const b = points[i]!;
    const r = segmentLand(land, [a.lon, a.lat], [b.lon, b.lat], 0.25, LIMIT_KM);
    if (r.maxKm > worst.km) worst = { km: r.maxKm, at: r.at!.map((x) => x.toFixed(3)).join(',') };
  }
  return worst;
}

test('every simulator port: its fairway from anchorage to berth and its way out to the network stay at sea', () => {
  for (const port of world.ports) {
    const inbound = deepest(port.inbound.points);
    assert.ok(inbound.km <= LIMIT_KM, `${port.locode} ${port.name} fairway ${inbound.km.toFixed(1)} km inland at ${inbound.at}`);
    const seaward = deepest(port.seaward.points);
    assert.ok(seaward.km <= LIMIT_KM, `${port.locode} ${port.name} approach ${seaward.km.toFixed(1)} km inland at ${seaward.at}`);
    assert.equal(inlandKm(land, port.anchorage.lon, port.anchorage.lat), 0, `${port.locode} anchorage at sea`);
  }
  for (const area of world.stsAreas) {
    assert.equal(land.isLand(area.lon, area.lat), false, area.name);
    assert.ok(land.coastDistanceKm(area.lon, area.lat, 20) > 5, `${area.name} in open water`);
    assert.ok(deepest(area.seaward.points).km <= LIMIT_KM, area.name);
  }
});

test('fishing grounds are open water (at least 7 km off the coast, so the fishing circles stay at sea); tug stand-by areas are water', () => {
  for (const port of world.ports) {
    const grounds = world.fishingGroundsOf(port);
    assert.ok(grounds.length > 0, `${port.locode} has grounds`);
    for (const node of grounds) {
      const p = lanes.point(node);
      assert.equal(land.isLand(p.lon, p.lat), false, `${port.locode} ground ${p.lon},${p.lat}`);
      assert.ok(land.coastDistanceKm(p.lon, p.lat, 7) === Infinity, `${port.locode} ground ${p.lon},${p.lat} is ${land.coastDistanceKm(p.lon, p.lat, 7).toFixed(1)} km off the coast`);
    }
    // Tugs circle within 1 km of the anchorage.
    assert.ok(land.coastDistanceKm(port.anchorage.lon, port.anchorage.lat, 1.5) === Infinity || !land.isLand(port.anchorage.lon, port.anchorage.lat), port.locode);
  }
});

test('U-turns: a passage that joins an edge and takes its far end runs straight on instead of turning back', () => {
  const out = new Polyline([
    { lat: 0, lon: 0 },
    { lat: 0, lon: 1 },
    { lat: 0, lon: 0.5 },
    { lat: 1, lon: 0.5 },
  ]);
  const turn = uTurnOf(out);
  assert.ok(turn !== null && Math.abs(turn.lon - 1) < 0.03 && Math.abs(turn.lat) < 1e-9, `the test line turns back at 1° E: ${JSON.stringify(turn)}`);
  assert.equal(
    uTurnOf(
      new Polyline([
        { lat: 0, lon: 0 },
        { lat: 0, lon: 1 },
        { lat: 1, lon: 1.5 },
      ]),
    ),
    null,
    'a turn of 63° is no U-turn',
  );
  let uTurns = 0;
  let passages = 0;
  for (const from of world.ports.slice(0, 20)) {
    for (const to of world.ports.slice(40, 60)) {
      passages++;
      if (uTurnOf(world.passage(from, to)) !== null) uTurns++;
    }
  }
  assert.ok(uTurns / passages < 0.03, `${uTurns} of ${passages} passages turn back by more than 150°`);
});

test('a simulated week of the default fleet (300 vessels, seed "bosun", 6-minute samples): no moving position more than 1 km inland outside declared waterways', () => {
  const fleet = new DemoFleet({ seed: seedFromText('bosun'), vessels: 300, startMs: T0, graph: lanes });
  const audit = auditFleetOverLand(fleet, T0, T0 + 7 * DAY);
  assert.ok(audit.moving > 300_000, `${audit.moving} moving positions`);
  const worst = [...audit.inland].sort((a, b) => b.inlandKm - a.inlandKm).slice(0, 5);
  assert.equal(audit.inland.length, 0, JSON.stringify(worst));
  assert.ok(audit.uTurnVoyages / audit.voyages < 0.05, `${audit.uTurnVoyages} of ${audit.voyages} voyages turn back`);
});
