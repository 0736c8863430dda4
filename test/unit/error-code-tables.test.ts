import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assembleErrorTables, COMMON_ERRORS, HARBOR_ERRORS } from '../../src/platform/error-codes.js';
import { ERROR_CODES, HARBOR_ERROR_CODES } from '../../src/platform/errors.js';

test('the error table is assembled from the areas, and a code two areas declare is refused by name', () => {
  const a = { shared_code: { status: 400, retryable: false, summary: 'a' } };
  const b = { other_code: { status: 404, retryable: false, summary: 'b' } };
  assert.deepEqual(Object.keys(assembleErrorTables(a, b)), ['shared_code', 'other_code']);
  assert.throws(() => assembleErrorTables(a, b, { shared_code: { status: 409, retryable: false, summary: 'c' } }), /error code shared_code is declared by two areas/);
});

test('every code of the assembled table is snake_case with a 4xx/5xx status and a summary; the harbor list names only harbor and common codes', () => {
  assert.equal(Object.keys(ERROR_CODES).length, 142);
  for (const [code, definition] of Object.entries(ERROR_CODES)) {
    assert.match(code, /^[a-z][a-z0-9_]*$/);
    assert.ok(definition.status >= 400 && definition.status < 600, code);
    assert.ok(definition.summary.length > 10, code);
  }
  for (const code of HARBOR_ERROR_CODES) assert.ok(code in HARBOR_ERRORS || code in COMMON_ERRORS, code);
});
