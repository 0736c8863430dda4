import assert from 'node:assert/strict';
import test from 'node:test';
import { HOUR } from '../../src/platform/clock.js';
import { childStore } from '../helpers/child-store.js';
import { runCli } from '../helpers/cli.js';
import { meeting, papeeteCall } from '../helpers/event-tracks.js';
import { TEST_EPOCH } from '../helpers/app.js';

const T0 = TEST_EPOCH - 2 * 24 * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();

test('bosun events rebuild analyses stored history; bosun events status shows the live checkpoint', async () => {
  const store = childStore();
  try {
    const bosun = await store.open();
    try {
      for (const r of [...papeeteCall(244000031, T0), ...meeting(244000032, 244000033, T0, 3)].sort((a, b) => a.observedAt - b.observedAt)) bosun.ctx.services.fleet.acceptPosition(r);
      await bosun.ctx.services.fleet.flush();
    } finally {
      await bosun.close();
    }
    const cli = (...args: string[]) => runCli(['events', ...args], { env: { ...store.env, LOG_LEVEL: 'silent' } });

    const before = await cli('status');
    assert.equal(before.status, 0, before.stderr);
    assert.match(before.stdout, /has not run yet/);

    const rebuilt = await cli('rebuild', '--from', iso(T0), '--to', iso(T0 + 24 * HOUR));
    assert.equal(rebuilt.status, 0, rebuilt.stderr);
    assert.match(rebuilt.stdout, /written {2}1 port calls \(\+0 under way at --to\), 1 encounters, 0 transits/);
    const again = await cli('rebuild', '--from', iso(T0), '--to', iso(T0 + 24 * HOUR));
    assert.match(again.stdout, /deleted {2}1 port calls, 1 encounters, 0 transits/);

    const missing = await cli('rebuild', '--from', iso(T0));
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /--from and --to are required/);
    const reversed = await cli('rebuild', '--from', iso(T0 + HOUR), '--to', iso(T0));
    assert.equal(reversed.status, 1);
    assert.match(reversed.stderr, /--from must be before --to/);

    const reopened = await store.open();
    try {
      await reopened.ctx.services.events.runner.catchUp();
    } finally {
      await reopened.close();
    }
    const after = await cli('status');
    assert.match(after.stdout, /cursor_seq {3}[1-9][0-9]*/);
    assert.match(after.stdout, /lease {8}free/, 'a stopped process gives the lease up');
  } finally {
    await store.cleanup();
  }
});
