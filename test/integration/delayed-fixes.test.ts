import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { MemoryBus } from '../../src/bus/memory-bus.js';
import { createDelayedFixes, DELAYED_FIX_REREAD } from '../../src/fleet/delayed-fixes.js';
import { createFleetReads } from '../../src/fleet/fleet-reads.js';
import { storedPosition } from '../../src/fleet/fleet-rows.js';
import { POSITIONS_TOPIC, type PositionsEvent } from '../../src/fleet/types.js';
import { createPositionPartitions } from '../../src/store/position-partitions.js';
import { positionRow } from '../helpers/position-rows.js';
import { withMigratedStore } from '../helpers/store.js';

/**
 * The delayed-fix cache must answer exactly what the store query answers, whatever positions are
 * stored (in any time order, usable or not, published on the bus as the fleet does) and whatever
 * cutoffs are asked (forwards, backwards, far and near), including positions stored while a read
 * for the same vessel is under way.
 */
const VESSELS = 3;
const T0 = 1_700_000_000_000;

const op = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('store' as const), vessel: fc.nat(VESSELS - 1), at: fc.nat(60), usable: fc.constantFrom(true, true, true, false) }) },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('ask' as const), vessel: fc.nat(VESSELS), cutoff: fc.integer({ min: -5, max: 65 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('store during ask' as const), vessel: fc.nat(VESSELS - 1), at: fc.nat(60), cutoff: fc.integer({ min: -5, max: 65 }) }) },
);

test('the delayed-fix cache answers exactly what the store answers, for random positions and cutoffs', async () => {
  await withMigratedStore(async (store) => {
    const reads = createFleetReads(store.db);
    let run = 0;
    let hits = 0;
    let asks = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 30 }), fc.constantFrom(1, 60_000, DELAYED_FIX_REREAD / 4), async (ops, unit) => {
        run++;
        const bus = new MemoryBus();
        let storeReads = 0;
        // while set, reads return only after it resolves: their answer is the store before what happens meanwhile
        let hold: Promise<void> | null = null;
        const held = async <T>(answer: Promise<T>): Promise<T> => {
          const value = await answer;
          if (hold) await hold;
          return value;
        };
        const counted = {
          newestUsableAtOrBefore: (vslId: string, cutoff: number) => (storeReads++, held(reads.newestUsableAtOrBefore(vslId, cutoff))),
          oldestUsableAfter: (vslId: string, after: number) => held(reads.oldestUsableAfter(vslId, after)),
        };
        const cache = createDelayedFixes(counted, bus, 2);
        await cache.start();
        const stored = new Set<string>();
        const vslId = (vessel: number) => `R${run}-V${vessel}`;
        const time = (t: number) => T0 + t * unit;
        let seq = 0;
        const storeOne = async (vessel: number, at: number, usable: boolean) => {
          const key = `${vessel}|${at}`;
          if (stored.has(key)) return;
          stored.add(key);
          const { mmsi: _mmsi, ...row } = positionRow(vslId(vessel), time(at), { usable: usable ? 1 : 0, quality_flags: usable ? '[]' : '["position_jump"]' });
          await createPositionPartitions(store.db, store.dialect).ensureFor(store.db, [row.observed_at]); // the day's partition on PostgreSQL
          await store.db.insertInto('positions').values(row).execute();
          const position = storedPosition(++seq, row.vsl_id, 0, row.observed_at, row, usable ? [] : ['position_jump']);
          await bus.publish(POSITIONS_TOPIC, { origin: 'test', positions: [position] } satisfies PositionsEvent);
        };
        const check = async (vessel: number, cutoff: number) => {
          const before = storeReads;
          const got = await cache.atOrBefore(vslId(vessel), time(cutoff));
          asks++;
          if (storeReads === before) hits++;
          const want = await reads.newestUsableAtOrBefore(vslId(vessel), time(cutoff));
          assert.deepEqual(got, want, `vessel ${vessel} cutoff ${cutoff}`);
        };
        for (const o of ops) {
          if (o.kind === 'store') await storeOne(o.vessel, o.at, o.usable);
          else if (o.kind === 'ask') await check(o.vessel, o.cutoff);
          else {
            // a read answered from the store as it was before a position stored and published meanwhile:
            // its answer is the older one, and what it leaves in memory must not hide the new position
            let release!: () => void;
            hold = new Promise<void>((resolve) => (release = resolve));
            const before = await reads.newestUsableAtOrBefore(vslId(o.vessel), time(o.cutoff));
            const overtaken = cache.atOrBefore(vslId(o.vessel), time(o.cutoff));
            await new Promise((resolve) => setImmediate(resolve));
            await storeOne(o.vessel, o.at, true);
            hold = null;
            release();
            const got = await overtaken;
            const after = await reads.newestUsableAtOrBefore(vslId(o.vessel), time(o.cutoff));
            assert.ok(isDeepStrictEqual(got, before) || isDeepStrictEqual(got, after));
            await check(o.vessel, o.cutoff);
          }
        }
        cache.stop();
        await bus.close();
      }),
      { numRuns: 150 },
    );
    // the property would hold trivially if nothing were ever answered from memory
    assert.ok(hits > asks / 10, `answered from memory ${hits} of ${asks}`);
  });
});

test('an unstarted cache (no bus subscription) reads the store every time', async () => {
  await withMigratedStore(async (store) => {
    const reads = createFleetReads(store.db);
    let storeReads = 0;
    const cache = createDelayedFixes({ ...reads, newestUsableAtOrBefore: (v, c) => (storeReads++, reads.newestUsableAtOrBefore(v, c)) }, new MemoryBus());
    assert.equal(await cache.atOrBefore('none', T0), undefined);
    assert.equal(await cache.atOrBefore('none', T0), undefined);
    assert.equal(storeReads, 2);
    assert.equal(cache.size(), 0);
  });
});
