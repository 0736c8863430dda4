// Records the error codes the server actually answered with, for the coverage check that
// scripts/run-tests.mjs runs after a full test run (see docs/decisions/015-tools-tiers-lint-coverage.md).
// Node's runner runs each test file in its own process (two at a time), so every process appends
// to its own file in the directory the runner names; nothing is shared between processes.
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';

const directory = process.env.BOSUN_PRODUCED_CODES_DIR;
const recorded = new Set<string>();

/** Notes each `errors[].code` of an envelope body; a no-op when the runner asked for no recording. */
export function recordProducedCodes(body: unknown): void {
  if (!directory || typeof body !== 'object' || body === null) return;
  const errors = (body as { errors?: unknown }).errors;
  if (!Array.isArray(errors)) return;
  for (const error of errors) {
    const code = (error as { code?: unknown } | null)?.code;
    if (typeof code !== 'string' || recorded.has(code)) continue;
    recorded.add(code);
    appendFileSync(join(directory, `${process.pid}.codes`), code + '\n');
  }
}
