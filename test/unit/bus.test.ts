import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { MemoryBus, RedisBus, type Bus } from '../../src/bus/index.js';

function backends(): Array<[string, () => Promise<{ a: Bus; b: Bus; done: () => Promise<void> }>, false | string]> {
  return [
    [
      'memory',
      async () => {
        const bus = new MemoryBus();
        return { a: bus, b: bus, done: () => bus.close() };
      },
      false,
    ],
    [
      'redis',
      async () => {
        const prefix = `bosun-test-${randomBytes(4).toString('hex')}:`;
        const ra = new Redis(process.env.REDIS_URL!);
        const rb = new Redis(process.env.REDIS_URL!);
        const a = new RedisBus(ra, prefix);
        const b = new RedisBus(rb, prefix);
        return {
          a,
          b,
          done: async () => {
            await a.close();
            await b.close();
            await ra.quit();
            await rb.quit();
          },
        };
      },
      process.env.REDIS_URL ? false : 'REDIS_URL not set',
    ],
  ];
}

function nextMessage(bus: Bus, topic: string): { received: Promise<unknown>; stop: () => void } {
  let stop = () => {};
  const received = new Promise<unknown>((resolve) => {
    stop = bus.subscribe(topic, resolve);
  });
  return { received, stop };
}

for (const [name, make, skip] of backends()) {
  test(`${name} bus: a subscriber receives what another publisher sends on its topic, as JSON`, { skip }, async () => {
    const { a, b, done } = await make();
    try {
      const seen: unknown[] = [];
      const other: unknown[] = [];
      const stop = b.subscribe('positions', (p) => seen.push(p));
      const stopOther = b.subscribe('vessels', (p) => other.push(p));
      await b.ready();
      const next = nextMessage(b, 'positions');
      await b.ready();
      await a.publish('positions', { seq: 7, at: new Date(0) });
      assert.deepEqual(await next.received, { seq: 7, at: '1970-01-01T00:00:00.000Z' });
      assert.deepEqual(seen, [{ seq: 7, at: '1970-01-01T00:00:00.000Z' }]);
      assert.deepEqual(other, [], 'other topics do not receive it');
      next.stop();
      stop();
      stopOther();
    } finally {
      await done();
    }
  });

  test(`${name} bus: unsubscribe stops delivery to that handler only; a throwing handler does not affect others`, { skip }, async () => {
    const { a, b, done } = await make();
    try {
      const first: unknown[] = [];
      const second: unknown[] = [];
      const stopFirst = b.subscribe('t', (p) => first.push(p));
      b.subscribe('t', () => {
        throw new Error('handler failure');
      });
      const stopSecond = b.subscribe('t', (p) => second.push(p));
      await b.ready();
      const one = nextMessage(b, 't');
      await b.ready();
      await a.publish('t', 1);
      await one.received;
      one.stop();
      stopFirst();
      const two = nextMessage(b, 't');
      await b.ready();
      await a.publish('t', 2);
      await two.received;
      two.stop();
      assert.deepEqual(first, [1]);
      assert.deepEqual(second, [1, 2]);
      stopSecond();
    } finally {
      await done();
    }
  });
}

for (const [name, make, skip] of backends()) {
  test(`${name} bus: a subscriber's filter sees the payload and declines messages, other subscribers still get them`, { skip }, async () => {
    const { a, b, done } = await make();
    try {
      const filtered: unknown[] = [];
      const all: unknown[] = [];
      const stopFiltered = b.subscribe(
        't',
        (p) => filtered.push(p),
        (p) => (p as { origin: string }).origin !== 'me',
      );
      const next = nextMessage(b, 't');
      await b.ready();
      await a.publish('t', { origin: 'me', n: 1 });
      assert.deepEqual(await next.received, { origin: 'me', n: 1 });
      next.stop();
      const stopAll = b.subscribe('t', (p) => all.push(p));
      const other = nextMessage(b, 't');
      await b.ready();
      await a.publish('t', { origin: 'other', n: 2 });
      await other.received;
      other.stop();
      assert.deepEqual(filtered, [{ origin: 'other', n: 2 }]);
      assert.deepEqual(all, [{ origin: 'other', n: 2 }]);
      stopFiltered();
      stopAll();
    } finally {
      await done();
    }
  });
}

test('memory bus: no JSON copy is made when every subscriber declines the message; one copy is shared otherwise', async () => {
  const bus = new MemoryBus();
  let serialised = 0;
  const payload = (origin: string) => ({ origin, toJSON: () => (serialised++, { origin }) });
  const received: unknown[] = [];
  bus.subscribe(
    't',
    (p) => received.push(p),
    (p) => (p as { origin: string }).origin !== 'me',
  );
  bus.subscribe(
    't',
    (p) => received.push(p),
    (p) => (p as { origin: string }).origin !== 'me',
  );
  await bus.publish('t', payload('me'));
  assert.equal(serialised, 0);
  await bus.publish('t', payload('other'));
  assert.equal(serialised, 1);
  assert.deepEqual(received, [{ origin: 'other' }, { origin: 'other' }]);
  assert.equal(received[0], received[1]);
  await bus.close();
});

test('redis bus: buses with different prefixes do not hear each other', { skip: process.env.REDIS_URL ? false : 'REDIS_URL not set' }, async () => {
  const ra = new Redis(process.env.REDIS_URL!);
  const rb = new Redis(process.env.REDIS_URL!);
  const a = new RedisBus(ra, `bosun-test-${randomBytes(4).toString('hex')}:`);
  const b = new RedisBus(rb, `bosun-test-${randomBytes(4).toString('hex')}:`);
  try {
    const heard: unknown[] = [];
    b.subscribe('t', (p) => heard.push(p));
    const own = nextMessage(a, 't');
    await Promise.all([a.ready(), b.ready()]);
    await a.publish('t', 'x');
    assert.equal(await own.received, 'x');
    await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(heard, []);
  } finally {
    await a.close();
    await b.close();
    await ra.quit();
    await rb.quit();
  }
});
