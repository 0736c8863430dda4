import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyDataOf, CopyData, copyText } from '../../src/store/bulk.js';

test('COPY text: tab-separated lines, \\N for null, separators and backslashes escaped, numbers in full precision', () => {
  assert.equal(copyText([]), '');
  assert.equal(copyText([[1, 'a', null, 0.1 + 0.2, -1e-300]]), '1\ta\t\\N\t0.30000000000000004\t-1e-300\n');
  assert.equal(copyText([['tab\there', 'new\nline', 'cr\r', 'back\\slash', '\\N', '']]), 'tab\\there\tnew\\nline\tcr\\r\tback\\\\slash\t\\\\N\t\n');
  assert.equal(copyText([['a'], ['b']]), 'a\nb\n');
  assert.throws(() => copyText([[Number.NaN]]), /not a finite number/);
});

test('COPY data is recognised only as the one parameter of a statement', () => {
  const data = new CopyData('x\n');
  assert.equal(copyDataOf([data]), data);
  assert.equal(copyDataOf([data, 1]), undefined);
  assert.equal(copyDataOf(['x\n']), undefined);
  assert.equal(copyDataOf(undefined), undefined);
});
