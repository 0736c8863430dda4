import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkChanges, correctedIdentity, correctionList, type AppliedCorrection } from '../../src/features/kit/override-fields.js';
import { documentEtag, parseEtagList } from '../../src/features/workspace/workspace-rules.js';

test('checkChanges: accepts the documented fields with valid values, trims text, names the offending change', () => {
  assert.deepEqual(
    checkChanges('vessel', [
      { field: 'name', value: '  EVER GIVEN ' },
      { field: 'ship_type', value: 70 },
      { field: 'flag', value: 'PA' },
    ]),
    [
      { field: 'name', value: 'EVER GIVEN' },
      { field: 'ship_type', value: 70 },
      { field: 'flag', value: 'PA' },
    ],
  );
  assert.deepEqual(checkChanges('port', [{ field: 'lat', value: -90 }]), [{ field: 'lat', value: -90 }]);
  const refused: Array<[Parameters<typeof checkChanges>[0], Parameters<typeof checkChanges>[1], string]> = [
    ['vessel', [{ field: 'lat', value: 1 }], 'body.changes[0].field'],
    ['port', [{ field: 'callsign', value: 'X' }], 'body.changes[0].field'],
    ['port', [{ field: 'lat', value: 90.0001 }], 'body.changes[0].value'],
    ['vessel', [{ field: 'flag', value: 'pa' }], 'body.changes[0].value'],
    ['vessel', [{ field: 'callsign', value: '9V 1' }], 'body.changes[0].value'],
    ['vessel', [{ field: 'beam_m', value: 'wide' }], 'body.changes[0].value'],
    ['vessel', [{ field: 'name', value: '   ' }], 'body.changes[0].value'],
    [
      'vessel',
      [
        { field: 'name', value: 'A' },
        { field: 'name', value: 'B' },
      ],
      'body.changes[1].field',
    ],
  ];
  for (const [target, changes, field] of refused) {
    assert.throws(
      () => checkChanges(target, changes),
      (e: any) => e.code === 'invalid_request' && e.options.field === field,
      JSON.stringify(changes),
    );
  }
});

test('correctedIdentity lays corrections over a copy and leaves the observed object alone', () => {
  const observed = { vslId: 'vsl_1', name: 'OLD', callsign: 'AB12', shipType: 80, lengthM: 100, beamM: 20, flag: 'SG' };
  const c = (field: string, value: string | number): [string, AppliedCorrection] => [field, { field, value, ticket_id: 'fbt_1', applied_at: 0, provenance: 'p' }];
  const corrections = new Map([c('name', 'NEW'), c('length_m', 120)]);
  const served = correctedIdentity(observed, corrections);
  assert.deepEqual(served, { ...observed, name: 'NEW', lengthM: 120 });
  assert.equal(observed.name, 'OLD');
  assert.equal(correctedIdentity(observed, undefined), observed, 'no corrections: the same object, no copy');
  assert.deepEqual(
    correctionList(corrections).map((x) => x.field),
    ['length_m', 'name'],
  );
});

test('ETags: strong, revision-prefixed, different for a re-created document; If-Match lists parsed', () => {
  const a = documentEtag(1, 1000, 'application/json\n{}');
  assert.match(a, /^"1-[A-Za-z0-9_-]{16}"$/);
  assert.notEqual(a, documentEtag(1, 1001, 'application/json\n{}'));
  assert.notEqual(a, documentEtag(1, 1000, 'text/plain\n{}'));
  assert.equal(a, documentEtag(1, 1000, 'application/json\n{}'));
  assert.deepEqual(parseEtagList('"1-a", "2-b" ,*'), ['"1-a"', '"2-b"', '*']);
  assert.deepEqual(parseEtagList(['"1-a"', '"2-b"']), ['"1-a"', '"2-b"']);
  assert.equal(parseEtagList(undefined), undefined);
});
