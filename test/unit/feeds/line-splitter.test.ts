import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LineSplitter } from '../../../src/feeds/line-splitter.js';

test('line splitter: \\n, \\r\\n and lone \\r, chunks that end mid-line or between \\r and \\n, blank lines skipped', () => {
  const splitter = new LineSplitter();
  assert.deepEqual(splitter.push('a1\r\nb2\nc'), ['a1', 'b2']);
  assert.deepEqual(splitter.push('3\r'), ['c3']);
  assert.deepEqual(splitter.push('\nd4\r\r\n\ne5'), ['d4']);
  assert.deepEqual(splitter.push(Buffer.from('\n')), ['e5']);
  assert.deepEqual(splitter.push('tail'), []);
  assert.deepEqual(splitter.end(), ['tail']);
  assert.equal(splitter.overlong, 0);
});

test('line splitter: an overlong line is dropped whole and counted, within one chunk or across many', () => {
  const splitter = new LineSplitter(10);
  assert.deepEqual(splitter.push('0123456789\n0123456789X\nok\n'), ['0123456789', 'ok']);
  assert.equal(splitter.overlong, 1);
  assert.deepEqual(splitter.push('abcdef'), []);
  assert.deepEqual(splitter.push('ghijkl'), []);
  assert.deepEqual(splitter.push('mnop'), []);
  assert.equal(splitter.overlong, 2);
  assert.deepEqual(splitter.push('qrs\nnext\n'), ['next'], 'the rest of the runaway line is discarded up to its end');
  assert.equal(splitter.overlong, 2);
  assert.deepEqual(splitter.push('x'.repeat(11)), []);
  assert.deepEqual(splitter.end(), []);
  assert.equal(splitter.overlong, 3);
});

test('line splitter: bytes map one to one, so a chunk boundary inside a multi-byte character is harmless', () => {
  const splitter = new LineSplitter();
  const bytes = Buffer.from('é\n', 'utf8');
  assert.deepEqual(splitter.push(bytes.subarray(0, 1)), []);
  const [line] = splitter.push(bytes.subarray(1));
  assert.equal(Buffer.from(line!, 'latin1').toString('utf8'), 'é');
});
