import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyBinary, copyDataOf, CopyData } from '../../src/store/bulk.js';

/** The layout of PostgreSQL's documented COPY binary format, written out by hand (sql-copy.html, "Binary Format"). */
const SIGNATURE = [0x50, 0x47, 0x43, 0x4f, 0x50, 0x59, 0x0a, 0xff, 0x0d, 0x0a, 0x00];
const HEADER = [...SIGNATURE, 0, 0, 0, 0, 0, 0, 0, 0];
const TRAILER = [0xff, 0xff];

test('COPY binary: header, one tuple per row with its field count, big-endian values with their lengths, -1 for null, trailer', () => {
  assert.deepEqual([...copyBinary(['integer'], [])], [...HEADER, ...TRAILER]);
  const bytes = copyBinary(['bigint', 'integer', 'double precision', 'text', 'integer'], [[-2, 7, 1.5, 'é', null]]);
  assert.deepEqual(
    [...bytes],
    [
      ...HEADER,
      0,
      5,
      0,
      0,
      0,
      8,
      0xff,
      0xff,
      0xff,
      0xff,
      0xff,
      0xff,
      0xff,
      0xfe,
      0,
      0,
      0,
      4,
      0,
      0,
      0,
      7,
      0,
      0,
      0,
      8,
      0x3f,
      0xf8,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      2,
      0xc3,
      0xa9,
      0xff,
      0xff,
      0xff,
      0xff,
      ...TRAILER,
    ],
  );
  // 2^40 + 3 as int8: high word 256, low word 3
  assert.deepEqual([...copyBinary(['bigint'], [[2 ** 40 + 3]]).subarray(HEADER.length + 2 + 4, HEADER.length + 2 + 12)], [0, 0, 1, 0, 0, 0, 0, 3]);
});

test('COPY binary: values its column cannot hold are refused, as the server would refuse their text', () => {
  assert.throws(() => copyBinary(['double precision'], [[Number.NaN]]), /not a finite number/);
  assert.throws(() => copyBinary(['integer'], [[1.5]]), /not an integer/);
  assert.throws(() => copyBinary(['integer'], [[2 ** 31]]), /out of range/);
  assert.throws(() => copyBinary(['bigint'], [[2 ** 60]]), /not an integer/);
  assert.throws(() => copyBinary(['text'], [[{}]]), /not text or a number/);
  assert.throws(() => copyBinary(['text', 'text'], [['a']]), /1 values for 2 columns/);
});

test('COPY binary: a batch larger than the first buffer is written whole', () => {
  const rows = Array.from({ length: 5000 }, (_, i) => [i, 'vessel_' + i, i / 7]);
  const bytes = copyBinary(['bigint', 'text', 'double precision'], rows);
  // per row: field count 2 + (4 + 8) + (4 + text) + (4 + 8)
  const expected = HEADER.length + TRAILER.length + rows.reduce((sum, row) => sum + 2 + 12 + 4 + (row[1] as string).length + 12, 0);
  assert.equal(bytes.length, expected);
  assert.equal(bytes.readDoubleBE(bytes.length - 2 - 8), 4999 / 7);
});

test('COPY data is recognised only as the one parameter of a statement', () => {
  const data = new CopyData(Buffer.from('x\n'));
  assert.equal(copyDataOf([data]), data);
  assert.equal(copyDataOf([data, 1]), undefined);
  assert.equal(copyDataOf(['x\n']), undefined);
  assert.equal(copyDataOf(undefined), undefined);
});
