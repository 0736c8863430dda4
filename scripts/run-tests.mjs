// Runs every compiled test file under dist/test with node's built-in test runner.
// A test that hangs fails after 3 minutes instead of holding CI.
// Test files are found here (node 20's --test takes no globs) so a new file needs no registration.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

function collect(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...collect(path));
    else if (name.endsWith('.test.js')) out.push(path);
  }
  return out;
}

const filter = process.argv.slice(2);
let files = collect('dist/test').sort();
if (filter.length) files = files.filter((f) => filter.some((part) => f.includes(part)));
if (files.length === 0) {
  console.error('no test files found under dist/test');
  process.exit(1);
}
const result = spawnSync(
  process.execPath,
  ['--enable-source-maps', '--test', '--test-reporter=spec', '--test-concurrency=2', '--test-timeout=180000', ...files],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);
