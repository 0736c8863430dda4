import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildCatalogView } from '../../src/catalog/catalog.js';
import { CATALOG } from '../../src/catalog/entries.js';
import { ALL_ROUTES } from '../../src/features/index.js';
import { buildToolSet } from '../../src/features/mcp/tools.js';

const words = (text: string) =>
  text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

/**
 * A placeholder summary: the section name with a colon ("routes: lane details"), fewer than four words,
 * or nothing but words of the section and the path ("Lane details" for /v1/routes/lane-details).
 */
export function placeholderReason(entry: { summary: string; section: string; path: string }): string | null {
  if (/^[a-z-]+:\s/.test(entry.summary)) return 'starts with a section name and a colon';
  const said = words(entry.summary);
  if (said.length < 4) return 'fewer than four words';
  const given = new Set([...words(entry.section), ...words(entry.path), 'the', 'a', 'of', 'v1']);
  if (said.every((w) => given.has(w) || given.has(w.replace(/s$/, '')))) return 'only the words of its section and path';
  return null;
}

test('placeholder check: catches section-name summaries, path echoes and two-word titles', () => {
  assert.equal(placeholderReason({ summary: 'routes: lane details', section: 'routes', path: '/v1/routes/lane-details' }), 'starts with a section name and a colon');
  assert.equal(placeholderReason({ summary: 'Liveness check', section: 'meta', path: '/v1/ping' }), 'fewer than four words');
  assert.equal(placeholderReason({ summary: 'The routes lane details', section: 'routes', path: '/v1/routes/lane-details' }), 'only the words of its section and path');
  assert.equal(placeholderReason({ summary: 'One shipping lane between two ports: voyages, transit times', section: 'routes', path: '/v1/routes/lane-details' }), null);
});

test('every catalog summary says what the operation answers: no placeholder, no duplicate title', () => {
  const placeholders = CATALOG.flatMap((e) => {
    const reason = placeholderReason(e);
    return reason ? [`${e.operationId}: "${e.summary}" (${reason})`] : [];
  });
  assert.deepEqual(placeholders, []);
  const seen = new Map<string, string>();
  const duplicates: string[] = [];
  for (const e of CATALOG) {
    const key = e.summary.toLowerCase().trim();
    const other = seen.get(key);
    if (other) duplicates.push(`${e.operationId} and ${other}: "${e.summary}"`);
    seen.set(key, e.operationId);
  }
  assert.deepEqual(duplicates, []);
  assert.equal(CATALOG.length, 256, '253 of the interface documents and 3 Bosun extensions');
});

test('every tool description carries an example of its arguments when the operation takes any', () => {
  const catalog = buildCatalogView(ALL_ROUTES);
  const tools = buildToolSet(catalog).tools;
  const without = tools.filter((t) => Object.keys(t.inputSchema.properties).length > 0 && !/Example arguments: \{/.test(t.description)).map((t) => t.name);
  assert.deepEqual(without, []);
  const titles = tools.map((t) => t.title);
  assert.equal(new Set(titles).size, titles.length, 'tool titles are unique');
});
