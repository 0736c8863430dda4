import type { BackfillProgress } from './backfill.js';

interface ProgressStream {
  isTTY?: boolean;
  write(text: string): unknown;
}

const WIDTH = 30;

/**
 * A backfill progress bar: redrawn in place on a terminal, one line per 10 % otherwise (logs).
 * Returns the callback and a `finish` that ends the line.
 */
export function progressBar(stream: ProgressStream, label: string): { update(progress: BackfillProgress): void; finish(summary: string): void } {
  let lastDecile = -1;
  let drawn = false;
  return {
    update({ doneMs, totalMs, messages }) {
      const fraction = totalMs > 0 ? Math.min(1, doneMs / totalMs) : 1;
      const decile = Math.floor(fraction * 10);
      if (!stream.isTTY && decile <= lastDecile) return;
      lastDecile = decile;
      const filled = Math.round(fraction * WIDTH);
      const text = `${label} [${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${String(Math.floor(fraction * 100)).padStart(3)}%  ${(doneMs / 86_400_000).toFixed(1)}/${(totalMs / 86_400_000).toFixed(1)} days, ${messages} messages`;
      if (stream.isTTY) {
        stream.write(`\r${text}`);
        drawn = true;
      } else {
        stream.write(`${text}\n`);
      }
    },
    finish(summary) {
      stream.write(`${drawn ? '\n' : ''}${label}: ${summary}\n`);
    },
  };
}
