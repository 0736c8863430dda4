import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AisDecoder } from '../../src/ais/index.js';
import { HOUR } from '../../src/platform/clock.js';
import { DemoFleet, LIVE_RATES } from '../../src/sim/fleet.js';
import { seedFromText } from '../../src/sim/random.js';
import { runCli } from '../helpers/cli.js';

test("bosun demo nmea prints the simulated fleet's sentences for a window, as the simulator makes them", async () => {
  const from = Date.UTC(2026, 10, 20);
  const res = await runCli(['demo', 'nmea', '--hours', '0.5', '--vessels', '15', '--seed', 'cli', '--from', new Date(from).toISOString()]);
  assert.equal(res.status, 0, res.stderr);
  const lines = res.stdout.trimEnd().split('\n');
  const expected: string[] = [];
  new DemoFleet({ seed: seedFromText('cli'), vessels: 15, startMs: from, rates: LIVE_RATES }).advanceTo(from + HOUR / 2, (line) => expected.push(line));
  assert.deepEqual(lines, expected);
  const decoder = new AisDecoder();
  const messages = lines.flatMap((line) => decoder.push(line));
  assert.ok(messages.length > 500);
  assert.equal(
    Object.values(decoder.stats().errors).reduce((a, b) => a + b, 0),
    0,
  );
  assert.ok(messages.every((m) => m.meta.source === 'demo-simulator' && m.meta.receivedAtMs! > from && m.meta.receivedAtMs! <= from + HOUR / 2));
});

test('bosun demo nmea refuses bad options with a clear message', async () => {
  for (const [args, message] of [
    [['--hours', 'x'], /--hours/],
    [['--vessels', '1.5'], /--vessels/],
    [['--from', 'yesterday'], /--from: not a time/],
    [['--rates', 'fast'], /--rates/],
  ] as const) {
    const res = await runCli(['demo', 'nmea', ...args]);
    assert.equal(res.status, 1, args.join(' '));
    assert.match(res.stderr, message);
  }
  const help = await runCli(['demo', 'nmea', '--help']);
  assert.equal(help.status, 0);
  assert.match(help.stdout, /Usage: bosun demo nmea/);
});
