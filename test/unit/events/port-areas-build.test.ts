import assert from 'node:assert/strict';
import test from 'node:test';
import { areaGeometry, buildPortAreas, PORT_AREA_CELL_DEG } from '../../../src/events/port-areas.js';

const D = PORT_AREA_CELL_DEG;
/** The centre of grid cell (row, col). */
const at = (row: number, col: number) => ({ lat: (row + 0.5) * D, lon: (col + 0.5) * D });

test('GFW points of a port in neighbouring cells are one gfw area; apart they are two; with no stop an area is an anchorage at confidence 0.5', () => {
  const areas = buildPortAreas({
    gfwPoints: [
      { portId: 1, ...at(100, 200) },
      { portId: 1, ...at(101, 201) }, // diagonal neighbour: same area
      { portId: 1, ...at(100, 203) }, // two cells away: another area
      { portId: 2, ...at(100, 201) }, // another port's point is its own area
    ],
    stops: [],
  });
  assert.deepEqual(
    areas.map((a) => [a.portId, a.provenance, a.kind, a.cells, a.gfwPoints, a.confidence]),
    [
      [
        1,
        'gfw',
        'anchorage',
        [
          [100, 200],
          [101, 201],
        ],
        2,
        0.5,
      ],
      [1, 'gfw', 'anchorage', [[100, 203]], 1, 0.5],
      [2, 'gfw', 'anchorage', [[100, 201]], 1, 0.5],
    ],
  );
});

test('a cell is learnt when two distinct vessels stopped there (one vessel twice is not enough); kind and confidence by the stops', () => {
  const stop = (vslId: string, row: number, col: number, kind: 'berth' | 'anchorage') => ({ portId: 7, vslId, ...at(row, col), kind });
  const areas = buildPortAreas({
    gfwPoints: [{ portId: 7, ...at(50, 50) }],
    stops: [
      // alongside: three vessels, one of them swinging a little (2 of 3 berth)
      stop('a', 10, 10, 'berth'),
      stop('b', 10, 10, 'berth'),
      stop('c', 10, 11, 'anchorage'),
      stop('c', 10, 11, 'berth'),
      // one vessel twice: not learnt
      stop('d', 30, 30, 'anchorage'),
      stop('d', 30, 30, 'anchorage'),
      // in the GFW area: evidence for it, not a learnt area
      stop('e', 50, 50, 'berth'),
      stop('f', 50, 50, 'berth'),
    ],
  });
  const learnt = areas.filter((a) => a.provenance === 'learnt');
  assert.equal(learnt.length, 1);
  // cell (10, 11) has only vessel c: not learnt on its own
  assert.deepEqual([learnt[0]!.cells, learnt[0]!.kind, learnt[0]!.vessels, learnt[0]!.stops, learnt[0]!.anchorStops, learnt[0]!.confidence], [[[10, 10]], 'berth', 2, 2, 0, 0.75]);
  const gfw = areas.find((a) => a.provenance === 'gfw')!;
  assert.deepEqual([gfw.kind, gfw.vessels, gfw.stops, gfw.confidence], ['berth', 2, 2, 0.75]);
});

test('anchorage when more than half of the stops were at anchor; a tie is a berth', () => {
  const base = { portId: 3, ...at(0, 0) };
  const kindOf = (kinds: Array<'berth' | 'anchorage'>) => buildPortAreas({ gfwPoints: [], stops: kinds.map((kind, i) => ({ ...base, vslId: `v${i}`, kind })) })[0]!.kind;
  assert.equal(kindOf(['anchorage', 'anchorage', 'berth']), 'anchorage');
  assert.equal(kindOf(['anchorage', 'berth']), 'berth');
});

test('area geometry: one closed counter-clockwise square per cell (RFC 7946)', () => {
  assert.deepEqual(areaGeometry([[2, -3]]), {
    type: 'MultiPolygon',
    coordinates: [
      [
        [
          [-0.015, 0.01],
          [-0.01, 0.01],
          [-0.01, 0.015],
          [-0.015, 0.015],
          [-0.015, 0.01],
        ],
      ],
    ],
  });
});
