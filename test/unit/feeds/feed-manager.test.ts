import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { ManualClock } from '../../../src/platform/clock.js';
import { FeedManager } from '../../../src/feeds/feed-manager.js';
import { StreamSource } from '../../../src/feeds/sources/stream.js';
import { BaseSource } from '../../../src/feeds/sources/base.js';
import { TEST_EPOCH } from '../../helpers/app.js';
import { tagged, TYPE1_LINE, TYPE1_MMSI } from '../../helpers/nmea.js';
import { RecordingSink } from '../../helpers/recording-sink.js';

const RECORDED = Date.UTC(2020, 0, 1, 12, 0, 0);
const stream = (text: string) => Readable.from([Buffer.from(text, 'latin1')]);

test('feed manager: observedAt is the tag block time, else reception; source name and simulated=false on every message', async () => {
  const clock = new ManualClock(TEST_EPOCH);
  const sink = new RecordingSink();
  const source = StreamSource.stream('file:sample.nmea', 'file', stream(`${tagged(TYPE1_LINE, RECORDED)}\n${TYPE1_LINE}\n!AIVDM,1,1,,A,bad*00\n`), clock);
  const manager = new FeedManager({ sink, clock }).add(source);
  await manager.start();
  await manager.done();
  assert.deepEqual(
    sink.messages.map((m) => m.meta),
    [
      { observedAt: RECORDED, receivedAt: TEST_EPOCH, source: 'file:sample.nmea', simulated: false },
      { observedAt: TEST_EPOCH, receivedAt: TEST_EPOCH, source: 'file:sample.nmea', simulated: false },
    ],
  );
  assert.equal(sink.messages[0]!.message.fields.mmsi, TYPE1_MMSI);
  const [report] = manager.reports();
  assert.equal(report!.state, 'finished');
  assert.equal(report!.lines, 3);
  assert.equal(report!.messages, 2);
  assert.deepEqual(report!.errors, { bad_checksum: 1 });
  assert.equal(report!.lastObservedAt, TEST_EPOCH);
  assert.ok(sink.flushes >= 1, 'done() flushes the sink');
});

test('feed manager: a fast reader awaits sink.flush() every N messages (backpressure)', async () => {
  const clock = new ManualClock(TEST_EPOCH);
  const sink = new RecordingSink();
  // 10 chunks of 25 lines: the source drains after each chunk, a flush is due every 100 messages.
  const chunks = Array.from({ length: 10 }, () => Buffer.from(`${TYPE1_LINE}\n`.repeat(25)));
  const source = StreamSource.stream('stdin', 'stdin', Readable.from(chunks), clock);
  const manager = new FeedManager({ sink, clock, flushEveryMessages: 100 }).add(source);
  await manager.start();
  await manager.done();
  assert.equal(sink.messages.length, 250);
  assert.deepEqual(sink.flushedAt, [100, 200, 250]);
});

class FakeDemoSource extends BaseSource {
  constructor(clock: ManualClock) {
    super('demo-simulator', 'demo', clock);
  }
  protected async open(): Promise<void> {
    this.state = 'connected';
    this.deliver([TYPE1_LINE]);
  }
  async stop(): Promise<void> {
    this.markDone('stopped');
  }
}

test('feed manager: a demo source is labelled simulated; the status report is JSON with ISO times', async () => {
  const clock = new ManualClock(TEST_EPOCH);
  const sink = new RecordingSink();
  const manager = new FeedManager({ sink, clock }).add(new FakeDemoSource(clock));
  await manager.start();
  assert.equal(sink.messages[0]!.meta.simulated, true);
  assert.equal(sink.messages[0]!.meta.source, 'demo-simulator');
  const reporter = manager.statusReporter();
  assert.equal(reporter.name, 'feeds');
  assert.deepEqual(reporter.report(), {
    sources: [
      {
        name: 'demo-simulator',
        kind: 'demo',
        state: 'connected',
        simulated: true,
        lines: 1,
        bytes: 0,
        messages: 1,
        errors: {},
        overlong_lines: 0,
        reconnects: 0,
        last_line_at: '2026-11-21T00:00:00.000Z',
        last_message_at: '2026-11-21T00:00:00.000Z',
        last_observed_at: '2026-11-21T00:00:00.000Z',
        last_error: null,
      },
    ],
  });
  await manager.stop();
  assert.equal(manager.reports()[0]!.state, 'stopped');
});

test('feed manager: when one source cannot start, the started ones are stopped and the error surfaces', async () => {
  const clock = new ManualClock(TEST_EPOCH);
  const sink = new RecordingSink();
  const demo = new FakeDemoSource(clock);
  const manager = new FeedManager({ sink, clock }).add(demo).add(StreamSource.file('file:missing', '/nonexistent/x', clock));
  await assert.rejects(manager.start(), /file:missing: cannot read/);
  assert.equal(demo.status().state, 'stopped');
});
