import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HOUR, MINUTE } from '../../src/platform/clock.js';
import { addressKey, afterFailure, clientOfAddress, lockRemainingMs, SIGNIN_GUARD, type GuardState } from '../../src/features/console/console-signin-guard.js';
import { inWords } from '../../src/features/console/console-kit.js';

const T0 = Date.UTC(2026, 10, 21);

test('afterFailure: the fifth failure within the window locks for a minute, each later one doubles the lock up to an hour', () => {
  let state: GuardState | undefined;
  let now = T0;
  for (let i = 1; i <= 4; i++) {
    state = afterFailure(state, now);
    assert.equal(state.failures, i);
    assert.equal(state.locked_until, null);
    now += MINUTE;
  }
  const locks: number[] = [];
  for (let i = 0; i < 9; i++) {
    state = afterFailure(state, now);
    locks.push(lockRemainingMs(state, now));
    now = state.locked_until!; // the next failure the moment the lock ends
  }
  assert.deepEqual(
    locks.map((ms) => ms / MINUTE),
    [1, 2, 4, 8, 16, 32, 60, 60, 60],
  );
  assert.equal(state!.failures, 13);
  assert.equal(state!.first_failure_at, T0);
});

test('afterFailure: a streak starts over when its first failure is a window old (at the edge) or a window after its lock ended', () => {
  const four: GuardState = { failures: 4, first_failure_at: T0, locked_until: null, updated_at: T0 + 10 * MINUTE };
  assert.equal(afterFailure(four, T0 + SIGNIN_GUARD.windowMs - 1).failures, 5, 'a millisecond inside the window');
  const fresh = afterFailure(four, T0 + SIGNIN_GUARD.windowMs);
  assert.deepEqual(fresh, { failures: 1, first_failure_at: T0 + SIGNIN_GUARD.windowMs, locked_until: null, updated_at: T0 + SIGNIN_GUARD.windowMs });

  const locked: GuardState = { failures: 7, first_failure_at: T0, locked_until: T0 + HOUR, updated_at: T0 };
  assert.equal(afterFailure(locked, T0 + HOUR + SIGNIN_GUARD.windowMs - 1).failures, 8);
  assert.equal(afterFailure(locked, T0 + HOUR + SIGNIN_GUARD.windowMs).failures, 1);
});

test('lockRemainingMs: locked until the millisecond before locked_until, free at it', () => {
  const state: GuardState = { failures: 5, first_failure_at: T0, locked_until: T0 + MINUTE, updated_at: T0 };
  assert.equal(lockRemainingMs(state, T0 + MINUTE - 1), 1);
  assert.equal(lockRemainingMs(state, T0 + MINUTE), 0);
  assert.equal(lockRemainingMs(undefined, T0), 0);
});

test('clientOfAddress: IPv4 whole (mapped too), IPv6 by its /64; the address key is per client, not per /24', () => {
  assert.equal(clientOfAddress('10.91.0.5'), '10.91.0.5');
  assert.equal(clientOfAddress('::ffff:10.91.0.5'), '10.91.0.5');
  assert.equal(clientOfAddress('2001:db8:1:2:aaaa::1'), '2001:0db8:0001:0002::/64');
  assert.equal(clientOfAddress('2001:db8:1:2::ffff:7'), '2001:0db8:0001:0002::/64');
  assert.equal(clientOfAddress('2001:db8::1'), '2001:0db8:0000:0000::/64');
  assert.equal(clientOfAddress('::1'), '0000:0000:0000:0000::/64');
  assert.equal(clientOfAddress('64:ff9b::10.0.0.1'), '0064:ff9b:0000:0000::/64');
  assert.equal(clientOfAddress('fe80::1%eth0'), 'fe80:0000:0000:0000::/64');
  assert.equal(clientOfAddress('not an address'), undefined);
  assert.notEqual(addressKey('10.91.0.5').hash, addressKey('10.91.0.77').hash);
  assert.equal(addressKey('10.91.0.5').hash, addressKey('::ffff:10.91.0.5').hash);
  assert.equal(addressKey('2001:db8:1:2::1').hash, addressKey('2001:db8:1:2:ffff::9').hash);
  assert.equal(addressKey('10.91.0.5').label, '10.91.0.0/24', 'shown redacted, as in the audit log');
});

test('inWords: seconds under a minute, minutes rounded up', () => {
  assert.deepEqual([1, 30, 59, 60, 61, 120, 3600].map(inWords), ['1 second', '30 seconds', '59 seconds', '1 minute', '2 minutes', '2 minutes', '60 minutes']);
});
