// Runs the compiled test files under dist/test with node's built-in test runner.
//   node scripts/run-tests.mjs                      every tier: unit, integration, e2e
//   node scripts/run-tests.mjs --tier unit          one tier (unit | integration | e2e); repeatable
//   node scripts/run-tests.mjs <substr> [<substr>…] only files whose dist path contains a substring
// A test that hangs fails after 3 minutes instead of holding CI.
// Test files are found here (node 20's --test takes no globs) so a new file needs no registration.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const TIERS = ['unit', 'integration', 'e2e'];

function collect(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...collect(path));
    else if (name.endsWith('.test.js')) out.push(path);
  }
  return out;
}

const args = process.argv.slice(2);
const tiers = [];
const filter = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--tier') {
    const tier = args[++i];
    if (!TIERS.includes(tier)) {
      console.error(`unknown tier ${tier}; one of ${TIERS.join(', ')}`);
      process.exit(2);
    }
    tiers.push(tier);
  } else filter.push(args[i]);
}

let files = (tiers.length ? tiers : TIERS).flatMap((tier) => {
  try {
    return collect(join('dist/test', tier));
  } catch {
    return [];
  }
}).sort();
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
