import assert from 'node:assert/strict';
import test from 'node:test';
import { createLegSearch, landmarkDistances } from '../../../src/routing/leg-search.js';
import { shippedSeaNetwork } from '../../../src/routing/network-file.js';
import { RoutingError } from '../../../src/routing/route-types.js';
import { createSnapIndex } from '../../../src/routing/snap.js';

const { engine } = shippedSeaNetwork();
const graph = engine.graph;

test('landmark distances: zero at each landmark, the same both ways between two landmarks, landmarks far apart', () => {
  const count = 4;
  const table = landmarkDistances(graph, 0, count);
  const landmarks = Array.from({ length: count }, (_, l) => Math.floor(table.findIndex((d, i) => i % count === l && d === 0) / count));
  assert.equal(new Set(landmarks).size, count, 'distinct landmarks');
  for (let l = 0; l < count; l++) assert.equal(table[landmarks[l]! * count + l], 0);
  // distance from landmark 0 to landmark 1 equals the distance from landmark 1 to landmark 0
  assert.ok(Math.abs(table[landmarks[1]! * count + 0]! - table[landmarks[0]! * count + 1]!) < 1e-6);
  // every landmark after the first is far from those before it (farthest-point choice)
  for (let l = 1; l < count; l++) assert.ok(table[landmarks[l]! * count + 0]! > 1000, `landmark ${l} lies more than 1,000 nm from the first`);
});

test('the leg search finds the same length with the landmark bound as with the great circle alone, on 150 random pairs of network points', () => {
  const withLandmarks = createLegSearch(graph, 0);
  // a landmark mask no search mask contains: the great-circle heuristic only
  const greatCircleOnly = createLegSearch(graph, 1 << 30);
  const index = createSnapIndex(graph);
  let seed = 3;
  const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  let compared = 0;
  for (let i = 0; i < 150; i++) {
    const a = Math.floor(random() * graph.nodeCount);
    const b = Math.floor(random() * graph.nodeCount);
    const from = index.nearest(graph.lat[a]!, graph.lon[a]!, 0)!;
    const to = index.nearest(graph.lat[b]!, graph.lon[b]!, 0)!;
    const target = { lat: graph.lat[b]!, lon: graph.lon[b]! };
    for (const mask of [0, engine.passageMask(['suez', 'panama'])]) {
      const leg = (search: typeof withLandmarks) => {
        try {
          return search.searchLeg([from], [to], target, mask);
        } catch (error) {
          if (error instanceof RoutingError) return { lengthNm: Infinity };
          throw error;
        }
      };
      const fast = leg(withLandmarks);
      const plain = leg(greatCircleOnly);
      if (plain.lengthNm === Infinity) {
        assert.equal(fast.lengthNm, Infinity);
        continue;
      }
      assert.ok(Math.abs(fast.lengthNm - plain.lengthNm) < 1e-6, `pair ${a}–${b} mask ${mask}: ${fast.lengthNm} vs ${plain.lengthNm}`);
      compared++;
    }
  }
  assert.ok(compared > 250, `${compared} legs compared`);
});

test('landmarks under the default closures all lie in the main part of the graph (the insides of closed passages get none)', () => {
  const count = 8;
  const table = landmarkDistances(graph, engine.passageMask([]), count);
  for (let l = 0; l < count; l++) {
    let reached = 0;
    for (let v = 0; v < graph.nodeCount; v++) if (Number.isFinite(table[v * count + l]!)) reached++;
    assert.ok(reached > 0.99 * graph.nodeCount, `landmark ${l} reaches ${reached} of ${graph.nodeCount} nodes`);
  }
});
