import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ERROR_CODES } from '../../src/platform/errors.js';

test('limits that only clear by closing something answer 409, not retryable; time-window limits answer 429, retryable', () => {
  for (const code of ['active_items_limit', 'help_auto_sandbox_active_limit'] as const) {
    assert.deepEqual([ERROR_CODES[code].status, ERROR_CODES[code].retryable], [409, false], code);
  }
  for (const [code, def] of Object.entries(ERROR_CODES)) {
    if (def.status === 429) assert.equal(def.retryable, true, `${code}: a 429 clears with time and says when (Retry-After)`);
    if (/_active_limit$|^active_/.test(code)) assert.notEqual(def.status, 429, `${code}: waiting does not clear an active limit`);
  }
});
