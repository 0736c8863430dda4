import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ManualClock } from '../../../src/platform/clock.js';
import { recordedLineTime } from '../../../src/feeds/line-time.js';
import { StreamSource, type Sleeper } from '../../../src/feeds/sources/stream.js';
import { TEST_EPOCH } from '../../helpers/app.js';
import { tagged, TYPE1_LINE } from '../../helpers/nmea.js';

const RECORDED = Date.UTC(2020, 0, 1, 12, 0, 0);

/** A sleeper that moves the manual clock instead of waiting, and remembers each wait. */
function fakeSleeper(clock: ManualClock): Sleeper & { waits: number[] } {
  const waits: number[] = [];
  return {
    waits,
    async sleep(ms) {
      waits.push(ms);
      clock.advance(ms);
    },
  };
}

function recording(): { lines: string[]; times: number[] } {
  // Three timed lines 10 s and 20 s apart; an untimed line; a line recorded earlier than the previous one.
  const lines = [tagged(TYPE1_LINE, RECORDED), tagged(TYPE1_LINE, RECORDED + 10_000), TYPE1_LINE, tagged(TYPE1_LINE, RECORDED + 30_000), tagged(TYPE1_LINE, RECORDED + 5_000)];
  return { lines, times: [RECORDED, RECORDED + 10_000, RECORDED + 10_000, RECORDED + 30_000, RECORDED + 30_000] };
}

async function replay(pace: 'recorded' | 'fast' | 'x10', gzip = false) {
  const dir = mkdtempSync(join(tmpdir(), 'bosun-replay-'));
  const path = join(dir, gzip ? 'rec.nmea.gz' : 'rec.nmea');
  const text = recording().lines.join('\r\n') + '\r\n';
  writeFileSync(path, gzip ? gzipSync(text) : text);
  const clock = new ManualClock(TEST_EPOCH);
  const sleeper = fakeSleeper(clock);
  const paceSpec = pace === 'fast' ? ({ kind: 'fast' } as const) : ({ kind: 'recorded', speed: pace === 'x10' ? 10 : 1 } as const);
  const source = StreamSource.file('file:rec.nmea', path, clock, { pace: paceSpec, sleeper });
  const received: number[] = [];
  await source.start((_line, at) => received.push(at));
  await source.done();
  return { received, waits: sleeper.waits, status: source.status() };
}

test('recorded line time: tag block c:, USCG trailer epoch, $PGHP; none for a bare sentence', () => {
  assert.equal(recordedLineTime(tagged(TYPE1_LINE, RECORDED)), RECORDED);
  assert.equal(recordedLineTime('!AIVDM,1,1,,B,15NBj>PP1gG>1PVKTDTUJOv00<0M,0*09,s23,d-97,r003669945,1218112839'), 1218112839000);
  assert.equal(recordedLineTime('$PGHP,1,2008,5,9,0,0,0,10,338,2,,1,09*17'), Date.UTC(2008, 4, 9, 0, 0, 0, 10));
  assert.equal(recordedLineTime(TYPE1_LINE), null);
  assert.equal(recordedLineTime('\\c:bad*00\\' + TYPE1_LINE), null);
});

test('file replay at the recorded pace waits out the recorded gaps on the clock', async () => {
  const { received, waits, status } = await replay('recorded');
  assert.deepEqual(
    received.map((t) => t - TEST_EPOCH),
    [0, 10_000, 10_000, 30_000, 30_000],
  );
  assert.deepEqual(waits, [10_000, 20_000]);
  assert.equal(status.state, 'finished');
  assert.equal(status.lines, 5);
});

test('file replay at x10 compresses the gaps tenfold; gzip files are read transparently', async () => {
  const { received, waits } = await replay('x10', true);
  assert.deepEqual(
    received.map((t) => t - TEST_EPOCH),
    [0, 1_000, 1_000, 3_000, 3_000],
  );
  assert.deepEqual(waits, [1_000, 2_000]);
});

test('file replay as fast as possible never waits', async () => {
  const { received, waits, status } = await replay('fast');
  assert.deepEqual(received, Array(5).fill(TEST_EPOCH));
  assert.deepEqual(waits, []);
  assert.equal(status.bytes, recording().lines.join('\r\n').length + 2);
});

test('a missing file fails at start with the source name and the reason', async () => {
  const source = StreamSource.file('file:nope.nmea', '/nonexistent/nope.nmea', new ManualClock(0));
  await assert.rejects(
    source.start(() => {}),
    /file:nope.nmea: cannot read: ENOENT/,
  );
  assert.equal(source.status().state, 'failed');
});
