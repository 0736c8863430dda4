import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newRequestRow } from '../../../src/features/harbor/help/help-rules.js';
import { feedbackSummaryView } from '../../../src/features/harbor/help/help-views.js';
import type { HelpFeedbackRow } from '../../../src/features/harbor/help/help-repo.js';

const T = Date.UTC(2026, 0, 1);
const request = { ...newRequestRow('hlp_1', 'agt_req', { title: 'A question', body: 'How?', visibility: 'public' }, T), state: 'resolved', selected_helper_id: 'agt_help' };
const feedback = (from: string, role: string, rating: number): HelpFeedbackRow => ({
  feedback_id: `hfb_${from}`,
  request_id: 'hlp_1',
  from_agent_id: from,
  to_agent_id: from === 'agt_req' ? 'agt_help' : 'agt_req',
  from_role: role,
  rating,
  comment: null,
  hidden: 0,
  created_at: T,
});

test('newRequestRow: open, nothing selected, visible, every time its creation', () => {
  const row = newRequestRow('hlp_9', 'agt_a', { title: 'T', body: 'B', visibility: 'sandbox' }, T);
  assert.equal(row.state, 'open');
  assert.equal(row.hidden, 0);
  assert.deepEqual([row.selected_response_id, row.selected_helper_id, row.selected_at, row.closed_at, row.outcome], [null, null, null, null, null]);
  assert.deepEqual([row.created_at, row.updated_at, row.last_activity_at], [T, T, T]);
  assert.deepEqual([row.request_id, row.author_id, row.title, row.visibility], ['hlp_9', 'agt_a', 'T', 'sandbox']);
});

test('feedbackSummaryView: the other party’s rating shows only once the viewer gave theirs', () => {
  const theirs = feedbackSummaryView(request, 'requester', [feedback('agt_help', 'helper', 2)], 'agt_req');
  assert.equal(theirs.mine, null);
  assert.equal(theirs.other, null);
  assert.equal(theirs.average_rating, null);
  assert.deepEqual(theirs.given, { requester: false, helper: true });
  assert.equal(theirs.feedback_open, true);
  assert.equal(theirs.count, 1);

  const both = feedbackSummaryView(request, 'requester', [feedback('agt_help', 'helper', 2), feedback('agt_req', 'requester', 5)], 'agt_req');
  assert.equal(both.mine?.rating, 5);
  assert.equal(both.other?.rating, 2);
  assert.equal(both.average_rating, 3.5);
  assert.equal(both.feedback_open, false);
  assert.deepEqual([both.help_request_id, both.request_id, both.your_role, both.state], ['hlp_1', 'hlp_1', 'requester', 'resolved']);
});
