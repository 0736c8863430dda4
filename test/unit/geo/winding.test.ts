import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rewindGeometry, ringSignedArea, windingIssues } from '../../../src/geo/winding.js';

const ccwSquare: Array<[number, number]> = [
  [0, 0],
  [10, 0],
  [10, 10],
  [0, 10],
  [0, 0],
];
const cwSquare = [...ccwSquare].reverse();
const ccwHole: Array<[number, number]> = [
  [4, 4],
  [6, 4],
  [6, 6],
  [4, 6],
  [4, 4],
];
const cwHole = [...ccwHole].reverse();

test('ringSignedArea: twice the planar area, positive counter-clockwise', () => {
  assert.equal(ringSignedArea(ccwSquare), 200);
  assert.equal(ringSignedArea(cwSquare), -200);
  assert.equal(ringSignedArea(ccwHole), 8);
});

test('windingIssues names the exterior rings turned clockwise and the holes turned counter-clockwise', () => {
  assert.deepEqual(windingIssues({ type: 'Polygon', coordinates: [ccwSquare, cwHole] }), []);
  assert.deepEqual(windingIssues({ type: 'Polygon', coordinates: [cwSquare, ccwHole] }), ['polygon 0 ring 0: exterior ring clockwise', 'polygon 0 ring 1: hole counter-clockwise']);
  assert.deepEqual(windingIssues({ type: 'MultiPolygon', coordinates: [[ccwSquare], [cwSquare]] }), ['polygon 1 ring 0: exterior ring clockwise']);
  assert.deepEqual(windingIssues({ type: 'Point', coordinates: [1, 2] }), []);
  assert.deepEqual(windingIssues({ type: 'GeometryCollection', geometries: [{ type: 'Polygon', coordinates: [cwSquare] }] }), ['polygon 0 ring 0: exterior ring clockwise']);
});

test('rewindGeometry turns exterior rings counter-clockwise and holes clockwise, keeping the vertices', () => {
  const fixed = rewindGeometry({ type: 'Polygon' as const, coordinates: [cwSquare, ccwHole] });
  assert.deepEqual(fixed.coordinates, [ccwSquare, cwHole]);
  assert.deepEqual(windingIssues(fixed), []);
  const multi = rewindGeometry({ type: 'MultiPolygon' as const, coordinates: [[cwSquare], [ccwSquare, ccwHole]] });
  assert.deepEqual(multi.coordinates, [[ccwSquare], [ccwSquare, cwHole]]);
  // a compliant polygon keeps its own arrays; a point is returned as it is
  const good = { type: 'Polygon' as const, coordinates: [ccwSquare, cwHole] };
  assert.equal(rewindGeometry(good).coordinates[0], ccwSquare);
  const point = { type: 'Point' as const, coordinates: [1, 2] };
  assert.equal(rewindGeometry(point), point);
});
