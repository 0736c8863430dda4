import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { FeedManager } from '../../src/feeds/feed-manager.js';
import { StreamSource } from '../../src/feeds/sources/stream.js';
import { withApp } from '../helpers/app.js';
import { tagged, TYPE1_LINE } from '../helpers/nmea.js';
import { RecordingSink } from '../helpers/recording-sink.js';

test('/v1/status shows each feed source: state, lines, messages, errors by reason, times', () =>
  withApp(async (app) => {
    const recorded = Date.UTC(2020, 0, 1, 12, 0, 0);
    const input = Readable.from([Buffer.from(`${tagged(TYPE1_LINE, recorded)}\njunk\n!AIVDM,1,1,,A,15RTgt0PAso;90TKcjM8h6g208CQ,0*00\n${'x'.repeat(1500)}\n`)]);
    const manager = new FeedManager({ sink: new RecordingSink(), clock: app.clock }).add(StreamSource.stream('stdin', 'stdin', input, app.clock));
    app.bosun.ctx.statusReporters.push(manager.statusReporter());
    await manager.start();
    await manager.done();
    const res = await app.api('GET', '/v1/status');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.data.components.feeds, {
      sources: [
        {
          name: 'stdin',
          kind: 'stdin',
          state: 'finished',
          simulated: false,
          lines: 3,
          bytes: 1500 + 1 + tagged(TYPE1_LINE, recorded).length + 1 + 5 + TYPE1_LINE.length + 1,
          messages: 1,
          errors: { junk_line: 1, bad_checksum: 1 },
          overlong_lines: 1,
          reconnects: 0,
          last_line_at: '2026-11-21T00:00:00.000Z',
          last_message_at: '2026-11-21T00:00:00.000Z',
          last_observed_at: '2020-01-01T12:00:00.000Z',
          last_error: null,
        },
      ],
    });
  }));
