import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { featureCollectionChunks, qualityFlagsByObject } from '../../../src/features/resource-infra/object-views.js';

describe('resource_infra object views', () => {
  it('qualityFlagsByObject: each finding kind once per object, in finding order; findings about no object are left out', () => {
    const flags = qualityFlagsByObject([
      { object_id: 'a', kind: 'duplicate' },
      { object_id: null, kind: 'unparsed' },
      { object_id: 'a', kind: 'on_land' },
      { object_id: 'b', kind: 'on_land' },
      { object_id: 'a', kind: 'duplicate' },
    ]);
    assert.deepEqual(
      [...flags],
      [
        ['a', ['duplicate', 'on_land']],
        ['b', ['on_land']],
      ],
    );
  });

  it('featureCollectionChunks: the head, the features in chunks, the close, together one JSON document', () => {
    const chunks = [...featureCollectionChunks({ type: 'FeatureCollection', total: 5 }, [1, 2, 3, 4, 5], (n) => JSON.stringify({ n }), 2)];
    assert.equal(chunks.length, 5);
    assert.equal(chunks[0], '{"type":"FeatureCollection","total":5,"features":[');
    assert.equal(chunks[2], ',{"n":3},{"n":4}');
    assert.deepEqual(JSON.parse(chunks.join('')), { type: 'FeatureCollection', total: 5, features: [1, 2, 3, 4, 5].map((n) => ({ n })) });
  });

  it('featureCollectionChunks: no items is an empty features array', () => {
    assert.deepEqual(JSON.parse([...featureCollectionChunks({ total: 0 }, [], String, 200)].join('')), { total: 0, features: [] });
  });
});
