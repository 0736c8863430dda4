import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

/**
 * `npm ci` warns (EBADENGINE) when a locked package's engines.node excludes the running Node; the
 * README promises a quiet install on the Node range package.json declares. The engines ranges found in
 * the lock use only these comparator forms: >=X[.Y[.Z]], ^X[.Y[.Z]], X, X.x, *, joined by || and spaces.
 */
type Version = [number, number, number];
const parse = (text: string): Version => {
  const [a = 0, b = 0, c = 0] = text.replace(/\.x$/, '').split('.').map(Number);
  return [a, b, c];
};
const compare = (x: Version, y: Version) => x[0] - y[0] || x[1] - y[1] || x[2] - y[2];

function comparatorHolds(version: Version, comparator: string): boolean {
  if (comparator === '*' || comparator === '') return true;
  const m = /^(>=|>|\^|<=|<)?\s*v?(\d+(?:\.(?:\d+|x))?(?:\.\d+)?)$/.exec(comparator);
  if (!m) throw new Error(`engines comparator this test cannot read: "${comparator}"`);
  const [, op, text] = m;
  const bound = parse(text!);
  const parts = text!.split('.').filter((p) => p !== 'x').length;
  switch (op) {
    case '>=':
      return compare(version, bound) >= 0;
    case '>':
      return compare(version, bound) > 0;
    case '<=':
      return compare(version, bound) <= 0;
    case '<':
      return compare(version, bound) < 0;
    case '^':
      return version[0] === bound[0] && compare(version, bound) >= 0;
    default:
      // a bare X or X.Y matches that major (and minor)
      return version[0] === bound[0] && (parts < 2 || version[1] === bound[1]) && (parts < 3 || version[2] === bound[2]);
  }
}

function satisfies(version: Version, range: string): boolean {
  return range.split('||').some((alternative) =>
    alternative
      .trim()
      .replace(/(>=|<=|>|<)\s+/g, '$1')
      .split(/\s+/)
      .every((comparator) => comparatorHolds(version, comparator)),
  );
}

test('the engines reader reads the forms the lock uses', () => {
  assert.equal(satisfies([20, 20, 2], '>=22'), false);
  assert.equal(satisfies([20, 20, 2], '^20.19.0 || ^22.13.0 || >=24'), true);
  assert.equal(satisfies([20, 18, 0], '^20.19.0 || ^22.13.0 || >=24'), false);
  assert.equal(satisfies([20, 20, 2], '20.x || 22.x'), true);
  assert.equal(satisfies([20, 20, 2], '18 || 20 || >=22'), true);
  assert.equal(satisfies([20, 20, 2], '>= 10.x'), true);
  assert.equal(satisfies([20, 20, 2], '*'), true);
});

test('every locked package supports the running Node: npm ci prints no engine warning', () => {
  const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, { engines?: { node?: string } | string[] }> };
  const node = parse(process.versions.node);
  const refused = Object.entries(lock.packages)
    .filter(([, p]) => p.engines && !Array.isArray(p.engines) && typeof p.engines.node === 'string' && !satisfies(node, p.engines.node))
    .map(([path, p]) => `${path} (node ${(p.engines as { node: string }).node})`);
  assert.deepEqual(refused, [], `packages whose engines exclude Node ${process.versions.node}`);
});
