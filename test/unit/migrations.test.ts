import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { MIGRATIONS } from '../../src/store/migrations/index.js';

const MIGRATIONS_DIR = 'src/store/migrations';
const migrationFiles = () =>
  readdirSync(MIGRATIONS_DIR)
    .filter((name) => name !== 'index.ts' && name.endsWith('.ts'))
    .map((name) => name.replace(/\.ts$/, ''));

test('the migration list is in name order, each name once, each module once', () => {
  const names = Object.keys(MIGRATIONS);
  assert.deepEqual(names, [...names].sort(), 'MIGRATIONS must be listed in name order');
  assert.equal(new Set(names).size, names.length);
  assert.equal(new Set(Object.values(MIGRATIONS)).size, names.length, 'two names share one migration module');
  for (const name of names) assert.match(name, /^\d{8}T\d{4}_[a-z0-9_]+$/);
});

test('every migration file is listed, under its own file name', () => {
  assert.deepEqual(Object.keys(MIGRATIONS), migrationFiles().sort());
  const index = readFileSync(`${MIGRATIONS_DIR}/index.ts`, 'utf8');
  for (const name of Object.keys(MIGRATIONS)) {
    const imported = new RegExp(`import \\* as (\\w+) from './${name}\\.js';`).exec(index)?.[1];
    assert.ok(imported, `${name} is not imported from its own file`);
    assert.match(index, new RegExp(`'${name}': ${imported},`));
  }
});

test('migrations import nothing outside the store (they must not follow live feature constants)', () => {
  for (const name of migrationFiles()) {
    const source = readFileSync(`${MIGRATIONS_DIR}/${name}.ts`, 'utf8');
    const imports = [...source.matchAll(/from '([^']+)'/g)].map((m) => m[1]!);
    const outside = imports.filter((path) => path.startsWith('.') && !path.startsWith('./') && !/^\.\.\/[\w-]+\.js$/.test(path));
    assert.deepEqual(outside, [], `${name} imports ${outside.join(', ')}`);
  }
  for (const name of readdirSync(`${MIGRATIONS_DIR}/helpers`).filter((file) => file.endsWith('.ts'))) {
    const source = readFileSync(`${MIGRATIONS_DIR}/helpers/${name}`, 'utf8');
    const imports = [...source.matchAll(/from '([^']+)'/g)].map((m) => m[1]!);
    const outside = imports.filter((path) => path.startsWith('.') && !path.startsWith('./') && !/^\.\.\/\.\.\/[\w-]+\.js$/.test(path));
    assert.deepEqual(outside, [], `helpers/${name} imports ${outside.join(', ')}`);
  }
});
