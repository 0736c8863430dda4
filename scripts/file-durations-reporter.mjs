// A node:test reporter that prints, after the run, the test files that took longest (each file's own duration as the
// runner measured it: the suite run-tests.mjs wraps around the file in its bundle, named by the file's path; decision
// 150). run-tests.mjs adds it beside the spec reporter so every CI log
// says where the time went. BOSUN_TEST_DURATIONS_FILE=<path> writes every file's duration there too.
import { writeFileSync } from 'node:fs';

const SHOWN = 30;
const TEST_FILE = /^dist[\\/]test[\\/].*\.test\.js$/;

export default async function* fileDurations(source) {
  const rows = [];
  for await (const event of source) {
    // each file is a suite named by its path inside its bundle
    if (event.type === 'test:complete' && TEST_FILE.test(event.data.name)) {
      rows.push({ file: event.data.name, seconds: (event.data.details?.duration_ms ?? 0) / 1000 });
    }
  }
  rows.sort((a, b) => b.seconds - a.seconds);
  // every file's duration, tab-separated, for a closer look
  if (process.env.BOSUN_TEST_DURATIONS_FILE) writeFileSync(process.env.BOSUN_TEST_DURATIONS_FILE, rows.map((r) => `${r.seconds}\t${r.file}\n`).join(''));
  const total = rows.reduce((s, r) => s + r.seconds, 0);
  yield `\nslowest test files (seconds each; ${rows.length} files, ${total.toFixed(0)} s in all, files of a bundle one after another, two bundles at a time):\n`;
  for (const r of rows.slice(0, SHOWN)) yield `${r.seconds.toFixed(1).padStart(8)}  ${r.file}\n`;
}
