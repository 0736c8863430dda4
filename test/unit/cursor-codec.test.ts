import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createCursorCodec } from '../../src/http/cursor-codec.js';
import { AppError } from '../../src/platform/errors.js';

test('a codec opens what it sealed and nothing else; codecs with the same secret agree', () => {
  const codec = createCursorCodec('secret one');
  const cursor = codec.seal('u:42');
  assert.equal(codec.open(cursor), 'u:42');
  assert.equal(createCursorCodec('secret one').open(cursor), 'u:42', 'another process on the same store');
  assert.equal(createCursorCodec('secret two').open(cursor), null);
  assert.equal(codec.open('u:42'), null, 'unsigned');
  assert.equal(codec.open(`${cursor}=`), null);
  const payload = cursor.split('.')[0]!;
  assert.equal(codec.open(`${payload}A.${cursor.split('.')[1]}`), null, 'a non-canonical payload encoding');
});

test('read: a payload of the wrong shape is cursor_invalid on the given field', () => {
  const codec = createCursorCodec('s');
  assert.equal(codec.read(codec.seal('p:7'), /^p:(\d+)$/, 'query.cursor')[1], '7');
  assert.throws(
    () => codec.read(codec.seal('u:7'), /^p:(\d+)$/, 'query.since'),
    (e: unknown) => e instanceof AppError && e.code === 'cursor_invalid' && e.options.field === 'query.since',
  );
});

test('page: limit + 1 rows give a next cursor that decodes to the last row kept', () => {
  const codec = createCursorCodec('s');
  const rows = [3, 2, 1].map((n) => ({ created_at: n * 1000, id: `x_${n}` }));
  const position = (r: (typeof rows)[number]) => ({ createdAt: r.created_at, id: r.id });
  const full = codec.page(rows, 2, position);
  assert.deepEqual(full.items, rows.slice(0, 2));
  assert.deepEqual(codec.decodePosition(full.nextCursor!), { createdAt: 2000, id: 'x_2' });
  assert.equal(codec.page(rows, 3, position).nextCursor, null, 'exactly limit rows: the last page');
  assert.equal(codec.decodePosition(undefined), undefined);
});
