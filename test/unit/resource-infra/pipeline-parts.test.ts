import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildLandIndex } from '../../../src/geo/land.js';
import { classifyGeometry, classifyPoint, landfalls, mostAdvanced, normaliseStatus, representativePoint } from '../../../src/features/resource-infra/classify.js';
import { parseFilter } from '../../../src/features/resource-infra/filters.js';
import { buildLayerIndex } from '../../../src/features/resource-infra/layer-index.js';
import { geometryFromWkt, pointFrom } from '../../../src/features/resource-infra/parsers.js';
import { duplicatePairs, normaliseName } from '../../../src/features/resource-infra/quality.js';
import { AppError } from '../../../src/platform/errors.js';

// One square island from 0,0 to 1,1.
const island = buildLandIndex([
  [
    [0, 0],
    [1, 0],
    [1, 1],
    [0, 1],
    [0, 0],
  ],
]);

describe('resource_infra parsers', () => {
  it('reads a point and the decimals of its least precise coordinate', () => {
    assert.deepEqual(pointFrom('36.90051', '7.775234', 'line 2'), { point: [7.775234, 36.90051], decimals: 5 });
    assert.deepEqual(pointFrom('12', '45.5', 'line 3'), { point: [45.5, 12], decimals: 0 });
  });

  it('rejects missing, swapped and out-of-range coordinates with a reason', () => {
    assert.equal((pointFrom('-', '-', 'line 4') as { reason: string }).reason, 'missing_location');
    assert.equal((pointFrom('', '10', 'line 4') as { reason: string }).reason, 'missing_location');
    const swapped = pointFrom('114.6430958', '4.54320589', 'line 5732') as { reason: string; lat: number; lon: number };
    assert.deepEqual([swapped.reason, swapped.lat, swapped.lon], ['swapped_coordinates', 114.6430958, 4.54320589]);
    assert.equal((pointFrom('95', '200', 'line 6') as { reason: string }).reason, 'out_of_range');
  });

  it('parses WKT lines and multilines, and refuses broken ones', () => {
    assert.deepEqual(geometryFromWkt('LINESTRING (-103.8 32.5, -103.9 32.52)'), {
      type: 'LineString',
      coordinates: [
        [-103.8, 32.5],
        [-103.9, 32.52],
      ],
    });
    assert.deepEqual(geometryFromWkt('MULTILINESTRING ((1 2, 3 4), (5 6, 7 8))'), {
      type: 'MultiLineString',
      coordinates: [
        [
          [1, 2],
          [3, 4],
        ],
        [
          [5, 6],
          [7, 8],
        ],
      ],
    });
    assert.equal(geometryFromWkt('LINESTRING (1 2)'), null);
    assert.equal(geometryFromWkt('LINESTRING (1 95, 2 3)'), null);
    assert.equal(geometryFromWkt('POLYGON ((0 0, 1 0, 1 1, 0 0))'), null);
  });
});

describe('resource_infra classification', () => {
  it('normalises statuses and takes the most advanced of several units', () => {
    assert.deepEqual(['operating', 'in_development', 'pre-permit', 'shut_in', 'decommissioned', 'UGS', '', 'Dismantled', 'Test site'].map(normaliseStatus), [
      'operating',
      'construction',
      'proposed',
      'inactive',
      'retired',
      'unknown',
      'unknown',
      'retired',
      'operating',
    ]);
    assert.equal(mostAdvanced(['cancelled', 'proposed', 'construction']), 'construction');
    assert.equal(mostAdvanced(['retired', 'cancelled']), 'retired');
  });

  it('classifies points at sea, on the coast and inland', () => {
    assert.equal(classifyPoint(island, 2, 0.5).setting, 'offshore');
    assert.ok(classifyPoint(island, 1.2, 0.5).coast_km! < 0);
    assert.equal(classifyPoint(island, 2, 0.5).coast_km, null);
    assert.equal(classifyPoint(island, 0.95, 0.5).setting, 'coastal');
  });

  it('finds where a line crosses the coast (the land-side vertex) and calls it coastal', () => {
    const line = {
      type: 'LineString' as const,
      coordinates: [
        [0.5, 0.5],
        [0.9, 0.5],
        [1.5, 0.5],
        [2, 0.5],
      ] as Array<[number, number]>,
    };
    assert.deepEqual(landfalls(island, line), [[0.9, 0.5]]);
    assert.equal(classifyGeometry(island, line).setting, 'coastal');
    assert.deepEqual(representativePoint(line), [1.5, 0.5]);
  });
});

describe('resource_infra duplicates and filters', () => {
  const at = (id: string, name: string, category: string, lon: number, lat: number) => ({ id, name, category, lon, lat });

  it('pairs the same name nearby within a category family, and different names at one place', () => {
    const pairs = duplicatePairs([
      at('a:1', 'Cove Point LNG Terminal', 'lng_import_terminal', -76.38, 38.4),
      at('a:2', 'Cove Point LNG Terminal', 'lng_export_terminal', -76.38, 38.4),
      at('b:1', 'Cove Point LNG Terminal power station', 'coastal_power_plant', -76.381, 38.4),
      at('c:1', 'Alpha', 'bulk_terminal', 10, 50),
      at('c:2', 'Beta', 'bulk_terminal', 10.0001, 50),
      at('c:3', 'Gamma', 'bulk_terminal', 10.01, 50),
    ]);
    assert.deepEqual(
      pairs.map((p) => [p.a.id, p.b.id, p.rule]),
      [
        ['a:1', 'a:2', 'same_name_nearby'],
        ['c:1', 'c:2', 'same_place'],
      ],
    );
    assert.equal(normaliseName('Cove Point LNG Terminal'), 'covepoint');
  });

  it('parses the filters and names the field of a bad one', () => {
    assert.deepEqual(parseFilter({ bbox: '170,-10,-170,10', category: 'bulk_terminal', status: 'operating,proposed' }), {
      bbox: [170, -10, -170, 10],
      categories: ['bulk_terminal'],
      statuses: ['operating', 'proposed'],
    });
    assert.deepEqual(parseFilter({ near: '51.9,4.1' }).near, { lat: 51.9, lon: 4.1, radiusKm: 50 });
    for (const [query, field] of [
      [{ bbox: 'a,b,c,d' }, 'bbox'],
      [{ near: '1' }, 'near'],
      [{ radius_km: 5 }, 'radius_km'],
      [{ status: 'open' }, 'status'],
    ] as const) {
      assert.throws(
        () => parseFilter(query),
        (e: unknown) => e instanceof AppError && e.code === 'invalid_request' && e.options.field === field,
      );
    }
  });

  it('queries a box across the antimeridian and near a point, nearest first', () => {
    const row = (id: string, lon: number, lat: number) => ({
      id,
      source_id: 's',
      source_key: id,
      category: 'bulk_terminal',
      subcategory: null,
      name: id,
      status: 'operating',
      country: 'Fiji',
      region: null,
      lon,
      lat,
      geometry_type: 'Point',
      body: JSON.stringify({ geometry: { type: 'Point', coordinates: [lon, lat] }, bbox: [lon, lat, lon, lat], setting: 'coastal', units: [], derived_from: null }),
      content_hash: 'h',
      first_run_id: 1,
      last_run_id: 1,
      created_at: 0,
      updated_at: 0,
    });
    const index = buildLayerIndex(1, [row('east', 179.5, 0), row('west', -179.5, 0), row('far', 0, 0)]);
    assert.deepEqual(
      index.query({ bbox: [179, -1, -179, 1] }).map((h) => h.object.id),
      ['east', 'west'],
    );
    const near = index.query({ near: { lat: 0, lon: 179.9, radiusKm: 100 } });
    assert.deepEqual(
      near.map((h) => h.object.id),
      ['east', 'west'],
    );
    assert.ok(near[0]!.distance_km! < near[1]!.distance_km!);
  });
});
