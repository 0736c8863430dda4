import assert from 'node:assert/strict';
import test from 'node:test';
import fc from 'fast-check';
import { inBBox } from '../../src/fleet/geo.js';
import { createRecentPositions, type PositionFilter, type WindowRow } from '../../src/features/vessels/recent-positions.js';

function storeOf(rows: WindowRow[]) {
  let reads = 0;
  const read = async (after: number, head: number, filter: PositionFilter, limit: number) => {
    reads++;
    return rows
      .filter((r) => r.seq > after && r.seq <= head)
      .filter((r) => !filter.vslIds || filter.vslIds.includes(r.vsl_id))
      .filter((r) => !filter.bbox || inBBox(filter.bbox, r.lat, r.lon))
      .slice(0, limit);
  };
  return { read, reads: () => reads };
}

const row = (seq: number, vessel: number, lat = 10, lon = 20): WindowRow => ({ seq, vsl_id: `V${vessel}`, lat, lon });

test('recent positions answer exactly what the store would, whatever the cursors, filters, limits and window size', async () => {
  const step = fc.record({
    // rows stored before this poll (sequence numbers with gaps, as flagged rows leave)
    stored: fc.array(fc.record({ gap: fc.integer({ min: 1, max: 3 }), vessel: fc.integer({ min: 0, max: 4 }), lat: fc.integer({ min: -5, max: 5 }), lon: fc.integer({ min: 175, max: 185 }) }), {
      maxLength: 12,
    }),
    back: fc.integer({ min: 0, max: 40 }),
    headBack: fc.integer({ min: 0, max: 3 }),
    ids: fc.option(fc.uniqueArray(fc.integer({ min: 0, max: 4 }), { maxLength: 3 }), { nil: undefined }),
    bbox: fc.option(fc.constantFrom({ minLat: -2, maxLat: 3, minLon: 178, maxLon: 182 }, { minLat: -5, maxLat: 5, minLon: 179, maxLon: -179 }), { nil: undefined }),
    limit: fc.integer({ min: 1, max: 6 }),
  });
  await fc.assert(
    fc.asyncProperty(fc.integer({ min: 1, max: 15 }), fc.array(step, { minLength: 1, maxLength: 25 }), async (maxRows, steps) => {
      const rows: WindowRow[] = [];
      const store = storeOf(rows);
      const recent = createRecentPositions(store.read, maxRows);
      let seq = 0;
      for (const s of steps) {
        for (const r of s.stored) rows.push({ ...row((seq += r.gap), r.vessel, r.lat, r.lon), lon: r.lon > 180 ? r.lon - 360 : r.lon });
        const head = Math.max(0, seq - s.headBack);
        const after = Math.max(0, head - s.back);
        const filter: PositionFilter = { ...(s.ids ? { vslIds: s.ids.map((v) => `V${v}`) } : {}), ...(s.bbox ? { bbox: s.bbox } : {}) };
        assert.deepEqual(await recent.read(after, head, filter, s.limit), await store.read(after, head, filter, s.limit));
      }
    }),
    { numRuns: 300 },
  );
});

test('a storm of polls with different cursors inside the window costs one store read per new head', async () => {
  const rows: WindowRow[] = [];
  const store = storeOf(rows);
  const recent = createRecentPositions(store.read, 1000);
  await recent.read(0, 0, {}, 10); // the window starts at head 0
  for (let seq = 1; seq <= 100; seq++) rows.push(row(seq, seq % 7));
  const before = store.reads();
  const pages = await Promise.all(Array.from({ length: 100 }, (_, cursor) => recent.read(cursor, 100, { vslIds: ['V3'] }, 5)));
  assert.equal(store.reads() - before, 1, 'one read extends the window; the polls are answered from memory');
  assert.deepEqual(
    pages[0]!.map((r) => r.seq),
    [3, 10, 17, 24, 31],
  );
  assert.deepEqual(
    pages[95]!.map((r) => r.seq),
    [],
    'nothing for V3 after 95 up to 100',
  );
  assert.deepEqual(
    pages[50]!.map((r) => r.seq),
    [52, 59, 66, 73, 80],
  );
  // a cursor older than the window reads the store
  const older = await createRecentPositions(store.read, 1000).read(0, 0, {}, 1);
  assert.deepEqual(older, []);
});
