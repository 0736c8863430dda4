import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AppError } from '../../../src/platform/errors.js';
import {
  canRead,
  checkVisibilityAllowed,
  closeTransition,
  feedbackOpen,
  normalizeRequest,
  requireEnabled,
  roleOf,
  TITLE_MAX,
  TITLE_MIN,
  type HelpActor,
} from '../../../src/features/harbor/help/help-rules.js';

const code = (fn: () => unknown): string | null => {
  try {
    fn();
  } catch (e) {
    if (e instanceof AppError) return e.code;
    throw e;
  }
  return null;
};
const actor = (state: HelpActor['state'], scopes: string[] = [], agentId = 'agt_reader'): HelpActor => ({ agentId, state, scopes: new Set(scopes) });
const request = (fields: Partial<{ author_id: string; selected_helper_id: string | null; hidden: number; visibility: string }> = {}) => ({
  author_id: 'agt_author',
  selected_helper_id: null,
  hidden: 0,
  visibility: 'public',
  ...fields,
});

test('requireEnabled: sandbox, trial, trusted and operator_approved; an ended sandbox is told so', () => {
  for (const state of ['sandbox', 'trial', 'trusted', 'operator_approved'] as const)
    assert.equal(
      code(() => requireEnabled({ state })),
      null,
      state,
    );
  assert.equal(
    code(() => requireEnabled({ state: 'sandbox_expired' })),
    'sandbox_access_denied',
  );
  assert.equal(
    code(() => requireEnabled({ state: 'registered' })),
    'help_requests_not_enabled',
  );
});

test('roleOf and canRead: participants always read; hidden requests only they; visibility admits the rest', () => {
  assert.equal(roleOf(request(), 'agt_author'), 'requester');
  assert.equal(roleOf(request({ selected_helper_id: 'agt_helper' }), 'agt_helper'), 'helper');
  assert.equal(roleOf(request(), 'agt_reader'), null);
  assert.equal(canRead(request({ hidden: 1, visibility: 'sandbox' }), actor('sandbox', [], 'agt_author')), true);
  assert.equal(canRead(request({ hidden: 1 }), actor('trusted')), false);
  assert.equal(canRead(request(), actor('sandbox')), true);
  assert.equal(canRead(request({ visibility: 'trial' }), actor('trial')), true);
  assert.equal(canRead(request({ visibility: 'trial' }), actor('trusted')), false);
  assert.equal(canRead(request({ visibility: 'group' }), actor('trusted', ['harbor:public:participate'])), true);
  assert.equal(canRead(request({ visibility: 'group' }), actor('trusted')), false);
  assert.equal(canRead(request({ visibility: 'sandbox' }), actor('sandbox')), false, "another agent's sandbox request");
});

test('normalizeRequest: the title length at its edges; visibility from the list; public text without raw coordinates', () => {
  const body = 'What is the usual anchorage wait at Rotterdam?';
  assert.equal(normalizeRequest({ title: ` ${'a'.repeat(TITLE_MIN)} `, body, visibility: 'public' }).title, 'a'.repeat(TITLE_MIN));
  assert.equal(normalizeRequest({ title: 'a'.repeat(TITLE_MAX), body, visibility: 'public' }).title.length, TITLE_MAX);
  assert.equal(
    code(() => normalizeRequest({ title: 'a'.repeat(TITLE_MIN - 1), body, visibility: 'public' })),
    'help_request_input_invalid',
  );
  assert.equal(
    code(() => normalizeRequest({ title: 'a'.repeat(TITLE_MAX + 1), body, visibility: 'public' })),
    'help_request_input_invalid',
  );
  assert.equal(
    code(() => normalizeRequest({ title: 'Anchorage', body, visibility: 'everyone' })),
    'help_request_input_invalid',
  );
  assert.equal(
    code(() => normalizeRequest({ title: 'Anchorage', body: 'at 51.9225, 4.4792 now', visibility: 'public' })),
    'raw_vessel_data_forbidden',
  );
  assert.equal(
    code(() => normalizeRequest({ title: 'Anchorage', body: 'at 51.9225, 4.4792 now', visibility: 'trial' })),
    null,
    'only public requests are checked for coordinates',
  );
});

test('checkVisibilityAllowed: sandbox agents use sandbox or public; sandbox and trial need that state', () => {
  assert.equal(
    code(() => checkVisibilityAllowed({ state: 'sandbox' }, 'sandbox')),
    null,
  );
  assert.equal(
    code(() => checkVisibilityAllowed({ state: 'sandbox' }, 'public')),
    null,
  );
  assert.equal(
    code(() => checkVisibilityAllowed({ state: 'sandbox' }, 'group')),
    'help_sandbox_visibility_forbidden',
  );
  assert.equal(
    code(() => checkVisibilityAllowed({ state: 'trusted' }, 'sandbox')),
    'help_sandbox_isolation',
  );
  assert.equal(
    code(() => checkVisibilityAllowed({ state: 'trusted' }, 'trial')),
    'help_trial_access_denied',
  );
  assert.equal(
    code(() => checkVisibilityAllowed({ state: 'trial' }, 'trial')),
    null,
  );
});

test('closeTransition: every state and outcome', () => {
  assert.deepEqual(closeTransition('hlp_1', 'open', undefined), { state: 'cancelled', outcome: null });
  assert.deepEqual(closeTransition('hlp_1', 'open', 'unresolved'), { state: 'cancelled', outcome: null });
  assert.equal(
    code(() => closeTransition('hlp_1', 'open', 'resolved')),
    'help_close_forbidden',
  );
  for (const state of ['selected', 'in_progress']) {
    assert.deepEqual(closeTransition('hlp_1', state, undefined), { state: 'resolved', outcome: 'resolved' });
    assert.deepEqual(closeTransition('hlp_1', state, 'resolved'), { state: 'resolved', outcome: 'resolved' });
    assert.deepEqual(closeTransition('hlp_1', state, 'unresolved'), { state: 'closed', outcome: 'unresolved' });
  }
  assert.deepEqual(closeTransition('hlp_1', 'resolved', undefined), { state: 'closed', outcome: 'resolved' });
  assert.equal(
    code(() => closeTransition('hlp_1', 'resolved', 'unresolved')),
    'help_close_forbidden',
  );
  for (const state of ['closed', 'cancelled'])
    assert.equal(
      code(() => closeTransition('hlp_1', state, undefined)),
      'help_close_forbidden',
    );
});

test('feedbackOpen: resolved or closed with a selected helper, once', () => {
  assert.equal(feedbackOpen({ state: 'resolved', selected_helper_id: 'agt_h' }, false), true);
  assert.equal(feedbackOpen({ state: 'closed', selected_helper_id: 'agt_h' }, false), true);
  assert.equal(feedbackOpen({ state: 'closed', selected_helper_id: 'agt_h' }, true), false);
  assert.equal(feedbackOpen({ state: 'closed', selected_helper_id: null }, false), false);
  assert.equal(feedbackOpen({ state: 'in_progress', selected_helper_id: 'agt_h' }, false), false);
});
