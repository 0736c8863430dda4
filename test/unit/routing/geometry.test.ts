import assert from 'node:assert/strict';
import test from 'node:test';
import { toGeoJsonGeometry } from '../../../src/routing/geometry.js';

test('a route not crossing the antimeridian is one LineString', () => {
  assert.deepEqual(
    toGeoJsonGeometry([
      [4, 52],
      [10, 50],
    ]),
    {
      type: 'LineString',
      coordinates: [
        [4, 52],
        [10, 50],
      ],
    },
  );
});

test('crossing eastward is cut at 180/-180 with the latitude interpolated (RFC 7946 §3.1.9)', () => {
  assert.deepEqual(
    toGeoJsonGeometry([
      [170, 10],
      [179, 11],
      [181, 12],
      [190, 13],
    ]),
    {
      type: 'MultiLineString',
      coordinates: [
        [
          [170, 10],
          [179, 11],
          [180, 11.5],
        ],
        [
          [-180, 11.5],
          [-179, 12],
          [-170, 13],
        ],
      ],
    },
  );
});

test('crossing westward, through a vertex on the meridian, leaves no duplicate point', () => {
  assert.deepEqual(
    toGeoJsonGeometry([
      [-170, 10],
      [-180, 11],
      [-190, 13],
    ]),
    {
      type: 'MultiLineString',
      coordinates: [
        [
          [-170, 10],
          [-180, 11],
        ],
        [
          [180, 11],
          [170, 13],
        ],
      ],
    },
  );
});
