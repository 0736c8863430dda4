import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ACTIVITY_READ_TABLES } from '../../../src/features/exchange/community/activity-repo.js';
import { PROJECT_ROOT } from '../../helpers/shared-data.js';

// The exchange activity views read other areas' tables directly, as a declared read model (decision 043):
// what it reads is declared with the owning area, and it never writes.
const source = readFileSync(join(PROJECT_ROOT, 'src/features/exchange/community/activity-repo.ts'), 'utf8');
const withTables = [...source.matchAll(/cte\('([a-z_]+)'\)/g)].map((m) => m[1]!);

test('the activity read model reads exactly the tables it declares, by owning area', () => {
  const read = new Set([...source.matchAll(/selectFrom\('([a-z_]+)'\)/g)].map((m) => m[1]!).filter((name) => !withTables.includes(name)));
  const declared = new Set(Object.values(ACTIVITY_READ_TABLES).flat());
  assert.deepEqual([...read].sort(), [...declared].sort());
});

test('the activity read model writes nothing', () => {
  assert.doesNotMatch(source, /insertInto|updateTable|deleteFrom|replaceInto|mergeInto/);
  assert.doesNotMatch(source, /sql[^`]*`\s*(insert|update|delete)\b/i);
});
