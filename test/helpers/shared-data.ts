import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Project root: compiled tests live in dist/test/helpers, sources in test/helpers. */
function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('package.json not found above ' + fileURLToPath(import.meta.url));
    dir = parent;
  }
  return dir;
}

export const PROJECT_ROOT = projectRoot();
export const SHARED_DATA_DIR = resolve(PROJECT_ROOT, '..', 'shared', 'data');

/**
 * Path of a file under ../shared/data, or a skip reason when it is absent.
 * Absent data is a visible skip on a user's fresh clone and a hard failure under CI=true.
 */
export function sharedDataPath(relative: string): { path: string; skip: false | string } {
  const path = join(SHARED_DATA_DIR, relative);
  if (existsSync(path)) return { path, skip: false };
  if (process.env.CI === 'true') {
    throw new Error(`CI=true and the shared data file ${path} is absent: tests that need real data must not be skipped in CI`);
  }
  const reason = `SKIPPED: shared data ${relative} not found at ${path} (place ../shared/data beside the project to run it)`;
  console.warn(reason);
  return { path, skip: reason };
}
