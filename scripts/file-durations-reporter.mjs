// A node:test reporter that prints, after the run, the test files that took longest (each file's own duration as the
// runner measured it: its process from start to exit). run-tests.mjs adds it beside the spec reporter so every CI log
// says where the time went. BOSUN_TEST_DURATIONS_FILE=<path> writes every file's duration there too.
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';

const SHOWN = 30;

export default async function* fileDurations(source) {
  const rows = [];
  for await (const event of source) {
    // the runner reports each file as a test named by its path
    if (event.type === 'test:complete' && event.data.file && event.data.name === event.data.file) {
      rows.push({ file: relative(process.cwd(), event.data.file), seconds: (event.data.details?.duration_ms ?? 0) / 1000 });
    }
  }
  rows.sort((a, b) => b.seconds - a.seconds);
  // every file's duration, tab-separated, for a closer look
  if (process.env.BOSUN_TEST_DURATIONS_FILE) writeFileSync(process.env.BOSUN_TEST_DURATIONS_FILE, rows.map((r) => `${r.seconds}\t${r.file}\n`).join(''));
  const total = rows.reduce((s, r) => s + r.seconds, 0);
  yield `\nslowest test files (seconds each; ${rows.length} files, ${total.toFixed(0)} s in all, two at a time):\n`;
  for (const r of rows.slice(0, SHOWN)) yield `${r.seconds.toFixed(1).padStart(8)}  ${r.file}\n`;
}
