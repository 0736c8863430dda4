// The tests of an operation, found by its operationId: files under test/ that name the operation or call its path.
//   node scripts/tests-of.mjs getRoutesCorridorHealth [...]   the test files and lines of each operation
//   node scripts/tests-of.mjs --check                         every catalog operation has at least one (npm run lint)
// Reads src/catalog/entries.ts and test/ as text: no build needed.
import { readFileSync } from 'node:fs';
import { typeScriptFiles } from './source-files.mjs';

const ENTRY = /op\(\s*'(\w+)',\s*'(GET|POST|PUT|DELETE)',\s*'([^']+)'/g;
const operations = [...readFileSync('src/catalog/entries.ts', 'utf8').matchAll(ENTRY)].map(([, operationId, method, path]) => ({ operationId, method, path }));

/** A path as tests write it: `{name}` is any one segment (a value or a template expression), then the end of the path. */
const pathPattern = (path) =>
  new RegExp(
    path
      .split(/\{[^}]+\}/)
      .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
      .join('[^/\'"`?\\s]+') + '(?=[?\'"`#\\s]|$)',
  );

const files = typeScriptFiles('test').map((file) => ({ file, lines: readFileSync(file, 'utf8').split('\n') }));

/**
 * Where the tests name the operation: its id anywhere, its path in a request, or, in a file that spells the path's
 * folder (`/v1/routes/`, a BASE constant), its last segment as a quoted name (`view('ops-digest')`, `get('/ops_snapshot')`).
 * The method is not matched: a URL rarely sits beside it.
 */
function testsOf(operation) {
  const byPath = pathPattern(operation.path);
  const folder = operation.path.slice(0, operation.path.lastIndexOf('/'));
  const last = operation.path.slice(operation.path.lastIndexOf('/') + 1);
  const byName = last.includes('{') ? null : new RegExp(`['"\`]/?${last.replace(/[.*+?^$()|[\]\\]/g, '\\$&')}['"\`?]`);
  const found = [];
  for (const { file, lines } of files) {
    const spellsFolder = byName !== null && lines.some((line) => line.includes(`'${folder}'`) || line.includes(`'${folder}/`) || line.includes(`\`${folder}/`));
    const at = lines.flatMap((line, i) => (line.includes(operation.operationId) || byPath.test(line) || (spellsFolder && byName.test(line)) ? [i + 1] : []));
    if (at.length > 0 || file.includes(operation.operationId)) found.push({ file, lines: at });
  }
  return found;
}

const args = process.argv.slice(2);
if (args.includes('--check')) {
  const untested = operations.filter((op) => testsOf(op).length === 0);
  console.log(`${operations.length} operations; ${untested.length} named by no test file`);
  for (const op of untested) console.log(`  ${op.operationId}  ${op.method} ${op.path}`);
  process.exit(untested.length === 0 && operations.length > 0 ? 0 : 1);
}
if (args.length === 0) {
  console.error('usage: node scripts/tests-of.mjs <operationId>... | --check');
  process.exit(2);
}
let status = 0;
for (const id of args) {
  const op = operations.find((o) => o.operationId === id);
  if (!op) {
    console.error(`${id}: no such operation in src/catalog/entries.ts`);
    status = 1;
    continue;
  }
  console.log(`${op.operationId}  ${op.method} ${op.path}`);
  for (const { file, lines } of testsOf(op)) console.log(`  ${file}${lines.length ? `:${lines.slice(0, 8).join(',')}${lines.length > 8 ? ` (+${lines.length - 8})` : ''}` : ''}`);
}
process.exit(status);
