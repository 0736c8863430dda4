// Runs the compiled test files under dist/test with node's built-in test runner.
//   node scripts/run-tests.mjs                      every tier: unit, integration, e2e, browser
//   node scripts/run-tests.mjs --tier unit          one tier (unit | integration | e2e | browser); repeatable
//   node scripts/run-tests.mjs <substr> [<substr>…] only files whose dist path contains a substring
//   node scripts/run-tests.mjs --store-pass         every tier, but unit files that never reach a store or
//                                                   Redis and the browser tier are left out (CI's second pass, on
//                                                   PostgreSQL + Redis: they already ran on the first; decision 147)
// Test files run in bundles (decision 150): each node process imports several files, one suite per file, so the
// modules, the compiled request validators and the shared data a file reads are loaded once per bundle, not once per
// file. A test file that hangs fails after 10 minutes (its suite's timeout) and the rest of its bundle goes on.
// After a full run, every harbor error code
// must have been answered by the server at least once (recorded by the test processes, checked here).
// Test files are found here (node 20's --test takes no globs) so a new file needs no registration.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { spawnSync } from 'node:child_process';

const TIERS = ['unit', 'integration', 'e2e', 'browser'];
const FILES_PER_BUNDLE = 16;
const FILE_TIMEOUT_MS = 10 * 60_000;
const BUNDLE_TIMEOUT_MS = 90 * 60_000;

function collect(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...collect(path));
    // a compiled test whose source was moved or deleted stays in dist/ (tsc never removes outputs): skip it
    else if (name.endsWith('.test.js') && existsSync(path.replace(/^dist[\\/]/, '').replace(/\.js$/, '.ts'))) out.push(path);
  }
  return out;
}

const args = process.argv.slice(2);
const tiers = [];
const filter = [];
let storePass = false;
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--store-pass') storePass = true;
  else if (args[i] === '--tier') {
    const tier = args[++i];
    if (!TIERS.includes(tier)) {
      console.error(`unknown tier ${tier}; one of ${TIERS.join(', ')}`);
      process.exit(2);
    }
    tiers.push(tier);
  } else filter.push(args[i]);
}

let files = (tiers.length ? tiers : TIERS)
  .flatMap((tier) => {
    try {
      return collect(join('dist/test', tier));
    } catch {
      return [];
    }
  })
  .sort();
if (filter.length) files = files.filter((f) => filter.some((part) => f.includes(part)));
// a unit test reaches a store or Redis only through these names (its source says so)
const REACHES_A_STORE = /DATABASE_URL|REDIS_URL|usingPostgres|usingRedis|startTestApp|createBosun|testConfig/;
if (storePass) {
  const before = files.length;
  files = files.filter((f) => !/[\\/]unit[\\/]/.test(f) || REACHES_A_STORE.test(readFileSync(f.replace(/^dist[\\/]/, '').replace(/\.js$/, '.ts'), 'utf8')));
  const unitLeftOut = before - files.length;
  // the browser tier checks pages and their layout; the API under them is tested on both stores by the other tiers
  files = files.filter((f) => !/[\\/]browser[\\/]/.test(f));
  console.log(`store pass: ${unitLeftOut} unit test files that reach no store or Redis and ${before - unitLeftOut - files.length} browser test files left out (they ran on the first pass)`);
}
if (files.length === 0) {
  console.error('no test files found under dist/test');
  process.exit(1);
}
// Test processes append the error codes the server answered with to files here (test/helpers/produced-codes.ts).
const codesDir = mkdtempSync(join(tmpdir(), 'bosun-produced-codes-'));
const template = await prepareTemplateDatabase();
const bundles = writeBundles(files);
const result = spawnSync(
  process.execPath,
  [
    '--enable-source-maps',
    '--test',
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    '--test-reporter=./scripts/file-durations-reporter.mjs',
    '--test-reporter-destination=stdout',
    '--test-concurrency=2',
    // a bundle as a whole: its files' suites time out on their own (FILE_TIMEOUT_MS)
    `--test-timeout=${BUNDLE_TIMEOUT_MS}`,
    ...bundles.paths,
  ],
  {
    stdio: 'inherit',
    env: { ...process.env, BOSUN_PRODUCED_CODES_DIR: codesDir, ...(template ? { BOSUN_TEST_PG_TEMPLATE: template.name } : {}) },
  },
);
await template?.dropAll();
rmSync(bundles.dir, { recursive: true, force: true });
let status = result.status ?? 1;
const complete = tiers.length === 0 && filter.length === 0;
if (complete && status === 0) status = await checkProducedCodes(codesDir);
else if (!complete) console.log('\nerror-code coverage: checked on a full run only (no --tier, no filter)');
rmSync(codesDir, { recursive: true, force: true });
process.exit(status);

/**
 * Groups the test files into bundles, each a generated module that imports its files one after another, each
 * inside a suite named by the file's path (the durations reporter reads those names). Files are dealt round-robin
 * from the sorted list, so the slow real-data and browser files spread over the bundles.
 */
function writeBundles(testFiles) {
  const dir = mkdtempSync(join(tmpdir(), 'bosun-test-bundles-'));
  const count = Math.max(1, Math.min(testFiles.length, Math.ceil(testFiles.length / FILES_PER_BUNDLE)));
  const groups = Array.from({ length: count }, () => []);
  testFiles.forEach((file, i) => groups[i % count].push(file));
  const paths = groups.map((group, i) => {
    const path = join(dir, `bundle-${String(i + 1).padStart(2, '0')}.test.mjs`);
    const suites = group.map(
      (file) => `describe(${JSON.stringify(file)}, { timeout: ${FILE_TIMEOUT_MS} }, async () => {\n  await import(${JSON.stringify(pathToFileURL(resolve(file)).href)});\n});\n`,
    );
    writeFileSync(path, `import { describe } from 'node:test';\n${suites.join('')}`);
    return path;
  });
  return { dir, paths };
}

/** Every harbor error code of harbor-interface part 7 must have been answered by the server during the run. */
async function checkProducedCodes(dir) {
  const { HARBOR_ERROR_CODES } = await import(pathToFileURL(resolve('dist/src/platform/errors.js')).href);
  const produced = new Set(readdirSync(dir).flatMap((name) => readFileSync(join(dir, name), 'utf8').split('\n').filter(Boolean)));
  const missing = HARBOR_ERROR_CODES.filter((code) => !produced.has(code));
  if (missing.length === 0) {
    console.log(`\nerror-code coverage: all ${HARBOR_ERROR_CODES.length} harbor error codes were produced by the server during the run`);
    return 0;
  }
  console.error(`\nerror-code coverage: ${missing.length} harbor error code(s) never produced by the server in this run: ${missing.join(', ')}`);
  return 1;
}

/**
 * On PostgreSQL, a database migrated once for the whole run: each test app starts on a copy of it
 * (test/helpers/app.ts migratedTestConfig) instead of migrating a schema of its own. Dropped at the end,
 * with any copy a test left behind.
 */
async function prepareTemplateDatabase() {
  const url = process.env.DATABASE_URL;
  if (!url || !/^postgres(ql)?:\/\//.test(url)) return null;
  const { prepareTemplateDatabase: prepare } = await import(pathToFileURL(resolve('dist/test/helpers/pg-template.js')).href);
  const template = await prepare(url);
  console.log(`PostgreSQL: test apps start on copies of ${template.name}, migrated once for this run`);
  return template;
}
