import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { HARBOR_ERROR_CODES } from '../../src/http/errors.js';

const testRoot = fileURLToPath(new URL('../../../test/', import.meta.url));
const ASSERTING = /errors\[0\]\.code|refused\(|expectError\(|errorOf\(|assertDailyLimit\(|\.code,|rejects\(|expected_error|expectError:/;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.test.ts') && e.name !== 'harbor-codes-covered.test.ts' ? [join(dir, e.name)] : [],
  );
}

test('every harbor error code of harbor-interface part 7 is produced and asserted by some test', () => {
  const lines = sources(testRoot).flatMap((file) => readFileSync(file, 'utf8').split('\n'));
  const unasserted = HARBOR_ERROR_CODES.filter((code) => !lines.some((line) => line.includes(`'${code}'`) && ASSERTING.test(line)));
  assert.deepEqual(unasserted, [], 'codes without a test that produces them');
});
