import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryBus } from '../../src/bus/memory-bus.js';
import { createPollHub, WAKE_BATCH } from '../../src/features/vessels/poll-hub.js';

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

test('poll hub: one subscription for all polls; matching polls woken in batches, one batch per event-loop turn', async () => {
  const bus = new MemoryBus();
  const hub = createPollHub(bus, 'positions');
  const woken: number[] = [];
  const removers = Array.from({ length: 200 }, (_, i) => hub.add({ matches: (p) => (p as { even: boolean }).even === (i % 2 === 0), wake: () => woken.push(i) }));
  assert.equal(hub.size(), 200);
  await bus.publish('positions', { even: true });
  assert.equal(woken.length, 0, 'nothing runs inside the publish');
  await turn();
  assert.equal(woken.length, WAKE_BATCH, 'the first batch');
  // A request arriving now would be served here, between batches.
  await turn();
  assert.equal(woken.length, 100, 'the rest of the 100 matching polls in the next turn');
  assert.ok(woken.every((i) => i % 2 === 0));
  // A poll that left before its turn is not woken.
  removers[1]!();
  await bus.publish('positions', { even: false });
  await turn();
  await turn();
  assert.equal(woken.length, 100 + 99);
  for (const remove of removers) remove();
  assert.equal(hub.size(), 0);
  await bus.publish('positions', { even: true });
  await turn();
  assert.equal(woken.length, 199, 'no subscription once every poll left');
});

test('poll hub: identical reads under way are made once and shared; a later read runs afresh', async () => {
  const hub = createPollHub(new MemoryBus(), 'positions');
  let reads = 0;
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const read = async () => {
    reads++;
    await gate;
    return { rows: [1, 2, 3] };
  };
  const answers = Promise.all(Array.from({ length: 50 }, () => hub.shared('rows:0:10', read)));
  const other = hub.shared('rows:5:10', read);
  release();
  const results = await answers;
  await other;
  assert.equal(reads, 2, 'one read per distinct key');
  assert.ok(
    results.every((r) => r === results[0]),
    'every poll got the same answer object',
  );
  await hub.shared('rows:0:10', read);
  assert.equal(reads, 3, 'once settled, the next read is made again');
});
