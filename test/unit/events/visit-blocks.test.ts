import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BLOCK_SPANS_DAYS, blockStartOf, PortVisits, visitBlockOf, visitCellOf, windowPiecesOf, type VisitCall, type VisitCellRow } from '../../../src/events/visit-cells.js';
import { DAY, HOUR } from '../../../src/platform/clock.js';
import { prng } from '../../helpers/prng.js';

const EPOCH_DAY = Date.UTC(2026, 10, 1);

test('windowPiecesOf: the whole days as aligned blocks and single days, in order, covering the range once, at most two pieces of a span', () => {
  const rand = prng(170);
  for (let round = 0; round < 500; round++) {
    const firstDay = EPOCH_DAY + Math.floor(rand() * 64) * DAY;
    const endDay = firstDay + Math.floor(rand() * 40) * DAY;
    const pieces = windowPiecesOf(firstDay, endDay);
    let at = firstDay;
    for (const p of pieces) {
      assert.equal(p.start, at, 'contiguous');
      if (p.spanDays > 1) assert.equal(blockStartOf(p.start, p.spanDays), p.start, 'a block is aligned on its span');
      at += p.spanDays * DAY;
    }
    assert.equal(at, Math.max(firstDay, endDay), 'the range is covered');
    for (const span of [1, ...BLOCK_SPANS_DAYS]) assert.ok(pieces.filter((p) => p.spanDays === span).length <= 2, `at most two pieces of ${span} days`);
  }
  // 30 whole days read 30 cells per port without blocks
  assert.ok(windowPiecesOf(EPOCH_DAY, EPOCH_DAY + 30 * DAY).length <= 8);
});

/** Random calls of one port over `days` days from `start`: some days many calls (a sketched cell), some few. */
function randomCells(rand: () => number, start: number, days: number): VisitCellRow[] {
  const cells: VisitCellRow[] = [];
  for (let d = 0; d < days; d++) {
    if (rand() < 0.2) continue;
    const day = start + d * DAY;
    const count = rand() < 0.3 ? 65 + Math.floor(rand() * 200) : 1 + Math.floor(rand() * 20);
    const calls: VisitCall[] = Array.from({ length: count }, () => {
      const arrival = day + Math.floor(rand() * DAY);
      return { port_id: 7, vsl_id: `v${Math.floor(rand() * 150)}`, arrival, departure: rand() < 0.1 ? null : arrival + Math.floor(rand() * 40 * HOUR), simulated: rand() < 0.2 ? 1 : 0 };
    });
    cells.push(visitCellOf(day, 7, calls));
  }
  return cells;
}

const figuresOf = (p: PortVisits) => ({ calls: p.calls, simulated: p.simulated, vessels: p.vessels.count(), median: p.medianDwellHours(), exact: p.exact });

test('visitBlockOf: a window reading the block has the figures it has reading the block’s day cells (exact while they all list their calls)', () => {
  const rand = prng(1700);
  let sketched = 0;
  let exact = 0;
  for (let round = 0; round < 200; round++) {
    const span = BLOCK_SPANS_DAYS[Math.floor(rand() * BLOCK_SPANS_DAYS.length)]!;
    const start = blockStartOf(EPOCH_DAY + Math.floor(rand() * 64) * DAY, span);
    const cells = round % 2 === 0 ? randomCells(rand, start, span).filter((c) => c.call_list !== null) : randomCells(rand, start, span);
    const block = visitBlockOf(
      start,
      7,
      [...cells].sort(() => rand() - 0.5),
    );
    if (cells.length === 0) {
      assert.equal(block, null);
      continue;
    }
    assert.deepEqual(block, visitBlockOf(start, 7, cells), 'a block depends on its cells, not their order');
    assert.equal(block!.last_departure, Math.max(...cells.map((c) => c.last_departure ?? -Infinity)) === -Infinity ? null : Math.max(...cells.map((c) => c.last_departure ?? -Infinity)));
    const fromDays = new PortVisits();
    for (const c of cells) fromDays.addCell(c);
    const fromBlock = new PortVisits();
    fromBlock.addCell(block!);
    assert.deepEqual(figuresOf(fromBlock), figuresOf(fromDays));
    assert.equal(
      block!.call_list !== null,
      cells.every((c) => c.call_list !== null),
      'a list while every cell is one',
    );
    if (block!.call_list === null) sketched++;
    else exact++;
  }
  assert.ok(sketched > 20 && exact > 20, `both kinds of block (${sketched} sketched, ${exact} exact)`);
});
