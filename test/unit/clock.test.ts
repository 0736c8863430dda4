import { test } from 'node:test';
import assert from 'node:assert/strict';
import { iso, isoOrNull, parseIso } from '../../src/platform/clock.js';

test('iso, isoOrNull and parseIso: UTC with milliseconds, round trip', () => {
  assert.equal(iso(0), '1970-01-01T00:00:00.000Z');
  assert.equal(iso(1_763_632_800_123), '2025-11-20T10:00:00.123Z');
  assert.equal(isoOrNull(null), null);
  assert.equal(isoOrNull(1), '1970-01-01T00:00:00.001Z');
  assert.equal(parseIso(iso(1_763_632_800_123)), 1_763_632_800_123);
  assert.ok(Number.isNaN(parseIso('not a time')));
});
