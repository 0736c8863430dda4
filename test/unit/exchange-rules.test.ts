import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DAY } from '../../src/clock.js';
import { balanceState, decision, dueAt, level, nextPrivilege, privilegesHeld, utcDayStart, voteWeight } from '../../src/features/exchange/core/exchange-rules.js';

const claim = (score: number, voters: number) => ({ score, voters, decidable_at: DAY, expires_at: 14 * DAY });

test('claim decisions: ±2 from two voters once decidable, expiry at the lifetime, nothing before', () => {
  assert.equal(decision(claim(2, 2), DAY - 1), null, 'not before the voting period');
  assert.equal(decision(claim(2, 2), DAY), 'accepted');
  assert.equal(decision(claim(-2, 2), DAY), 'rejected');
  assert.equal(decision(claim(2, 1), DAY), null, 'one voter of weight 2 does not decide');
  assert.equal(decision(claim(1, 3), DAY), null);
  assert.equal(decision(claim(1, 3), 14 * DAY - 1), null);
  assert.equal(decision(claim(1, 3), 14 * DAY), 'expired');
  assert.equal(decision(claim(3, 2), 14 * DAY), 'accepted', 'a decision wins over expiry');
  assert.equal(dueAt(claim(2, 2)), DAY);
  assert.equal(dueAt(claim(-3, 2)), DAY);
  assert.equal(dueAt(claim(2, 1)), 14 * DAY);
  assert.deepEqual([balanceState(1), balanceState(0), balanceState(-1)], ['supported', 'open', 'disputed']);
});

test('privilege ladder and vote weights at their thresholds; UTC day start', () => {
  assert.deepEqual(
    [0, 1, 14, 15, 49, 50, 199, 200].map((b) => [level(b), voteWeight(b)]),
    [
      ['none', 1],
      ['participate', 1],
      ['participate', 1],
      ['post_bounties', 1],
      ['post_bounties', 1],
      ['vote_weight_2', 2],
      ['vote_weight_2', 2],
      ['vote_weight_3', 3],
    ],
  );
  assert.equal(privilegesHeld(0).length, 0);
  assert.equal(nextPrivilege(0)?.name, 'participate');
  assert.equal(nextPrivilege(200), null);
  const day = Date.UTC(2026, 10, 22);
  assert.equal(utcDayStart(day + DAY - 1), day);
  assert.equal(utcDayStart(day + DAY), day + DAY);
});
