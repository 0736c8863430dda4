import assert from 'node:assert/strict';
import test from 'node:test';
import fc from 'fast-check';
import { usableBatchAfter } from '../../../src/features/events/event-runner.js';
import type { PositionRow } from '../../../src/fleet/fleet-repo.js';

/** A stored stream: seqs with gaps (rolled-back writes), some positions unusable. */
const stream = fc.array(fc.record({ gap: fc.oneof(fc.constant(1), fc.integer({ min: 2, max: 40 })), usable: fc.boolean() }), { maxLength: 120 }).map((specs) => {
  let seq = 0;
  return specs.map(({ gap, usable }) => {
    seq += gap;
    return { seq, usable: usable ? 1 : 0 } as PositionRow;
  });
});

/** The usable rows with head ≥ seq > after, in seq order, at most limit (one query over the whole range). */
const usableAfter = (rows: readonly PositionRow[], after: number, head: number, limit: number) => rows.filter((row) => row.seq > after && row.seq <= head && row.usable === 1).slice(0, limit);

/** usableForDetectionAfter over the array, as the store answers it, recording the seq range each query spans. */
function readsOver(rows: readonly PositionRow[]) {
  const queries: Array<{ span: number; found: number }> = [];
  return {
    queries,
    async usableForDetectionAfter(after: number, head: number, limit: number): Promise<PositionRow[]> {
      const found = usableAfter(rows, after, head, limit);
      queries.push({ span: head - after, found: found.length });
      return found;
    },
  };
}

test('the detector reads a batch in windows of at most the batch size: the same rows as one query over the whole range, whatever the gaps and unusable rows', async () => {
  await fc.assert(
    fc.asyncProperty(stream, fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 400 }), fc.integer({ min: 1, max: 12 }), async (rows, after, headBack, limit) => {
      const head = Math.max(after, (rows.at(-1)?.seq ?? 0) - headBack);
      const reference = usableAfter(rows, after, head, limit);
      const reads = readsOver(rows);
      const batch = await usableBatchAfter(reads, after, head, limit);
      assert.deepEqual(
        batch.map((row) => row.seq),
        reference.map((row) => row.seq),
      );
      // a window spans the batch size, doubled only after a window that held no usable row
      let allowed = limit;
      for (const { span, found } of reads.queries) {
        assert.ok(span <= allowed, `a query spans ${span} seqs, more than ${allowed}`);
        allowed = found === 0 ? allowed * 2 : limit;
      }
    }),
    { numRuns: 500 },
  );
});

test('a stream read to its head in consecutive batches: every usable position once, in seq order, one window per batch when nothing is skipped', async () => {
  const rows = Array.from({ length: 50 }, (_, i) => ({ seq: i + 1, usable: 1 }) as PositionRow);
  const reads = readsOver(rows);
  const seen: number[] = [];
  let cursor = 0;
  for (;;) {
    const batch = await usableBatchAfter(reads, cursor, 50, 20);
    seen.push(...batch.map((row) => row.seq));
    if (batch.length < 20) break;
    cursor = batch.at(-1)!.seq;
  }
  assert.deepEqual(
    seen,
    rows.map((row) => row.seq),
  );
  assert.deepEqual(
    reads.queries.map((query) => query.span),
    [20, 20, 10],
  );
});
