import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DAY } from '../../src/platform/clock.js';
import { balanceState, bountyFunding, decision, dueAt, level, nextPrivilege, privilegesHeld, utcDayStart, voteWeight } from '../../src/features/exchange/core/exchange-rules.js';

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

test('bounty funding (decision 117): reputation at standing 15 keeping the base, else the starter allowance up to its last point', () => {
  // standing = balance + escrowed: 5 in the balance and 10 in escrow is exactly the threshold
  assert.equal(bountyFunding({ balance: 5, escrowed: 10, allowanceUsed: 20 }, 4), 'reputation', 'leaves 1, the base');
  assert.throws(
    () => bountyFunding({ balance: 5, escrowed: 9, allowanceUsed: 20 }, 4),
    /post_bounties privilege \(reputation 15, points in escrow included\); you have 14, and 0 of your starter allowance/,
  );
  assert.throws(() => bountyFunding({ balance: 5, escrowed: 10, allowanceUsed: 20 }, 5), /offer at most 4/);
  // the allowance pays a new agent up to exactly what is left
  assert.equal(bountyFunding({ balance: 1, escrowed: 0, allowanceUsed: 15 }, 5), 'allowance');
  assert.throws(() => bountyFunding({ balance: 1, escrowed: 0, allowanceUsed: 16 }, 5), /4 of your starter allowance of 20 is left/);
  // reputation first when both could pay
  assert.equal(bountyFunding({ balance: 30, escrowed: 0, allowanceUsed: 0 }, 5), 'reputation');
  // below participate (a moderation penalty) not even the allowance
  assert.throws(() => bountyFunding({ balance: 0, escrowed: 0, allowanceUsed: 0 }, 5), /participate privilege/);
});
