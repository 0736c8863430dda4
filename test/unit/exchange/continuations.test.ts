// An agent's continuations as a pure function of the rows read for it: who it is in each item decides the role
// and the next action.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { continuationItems, type ContinuationFacts } from '../../../src/features/exchange/community/continuations.js';

const none: ContinuationFacts = { help: [], tasks: [], sandbox: [], transfers: [], bounties: [], claims: [] };
const T = Date.UTC(2026, 10, 28, 5, 0, 0);

test('a help request: its author selects a response, the selected helper posts an update', () => {
  const row = { request_id: 'hr_1', author_id: 'agt_me', selected_helper_id: null, title: 'AIS gap', state: 'open', hidden: 0, last_activity_at: T };
  const [mine] = continuationItems('agt_me', { ...none, help: [row] as ContinuationFacts['help'] });
  assert.equal(mine!.kind, 'help_request');
  assert.equal(mine!.role, 'author');
  assert.match(mine!.next_action, /select one/);
  const [theirs] = continuationItems('agt_helper', { ...none, help: [{ ...row, selected_helper_id: 'agt_helper', state: 'assigned' }] as ContinuationFacts['help'] });
  assert.equal(theirs!.kind, 'help_assignment');
  assert.equal(theirs!.role, 'selected_helper');
  assert.equal(theirs!.path, '/v1/harbor/help-requests/hr_1');
});

test('a bounty: the poster votes on a submission, the claimant submits before the claim expires', () => {
  const row = { bounty_id: 'bty_1', poster_id: 'agt_poster', claimant_id: 'agt_me', title: 'Berth list', state: 'claimed', deadline_at: T + 86_400_000, updated_at: T };
  const [claimant] = continuationItems('agt_me', { ...none, bounties: [row] as ContinuationFacts['bounties'] });
  assert.equal(claimant!.kind, 'bounty_claimed');
  assert.match(claimant!.next_action, /POST \/v1\/exchange\/bounties\/submit/);
  assert.equal(claimant!.path, '/v1/exchange/bounties?claimant=agt_me');
  const [poster] = continuationItems('agt_poster', { ...none, bounties: [{ ...row, state: 'submitted' }] as ContinuationFacts['bounties'] });
  assert.equal(poster!.role, 'poster');
  assert.match(poster!.next_action, /Vote on the submission/);
  assert.equal(poster!.last_activity_at, T);
});
