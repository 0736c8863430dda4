import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AppError } from '../../../src/platform/errors.js';
import { checkFields, checkText, refuseDaily, requireProvenance } from '../../../src/features/harbor/groups/group-rules.js';

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    if (e instanceof AppError) return { code: e.code, field: e.options.field, headers: e.options.headers };
    throw e;
  }
  return null;
};

test('checkFields: each action takes its own fields, required ones present, no others', () => {
  assert.equal(
    refusal(() => checkFields({ action: 'join_request', group_id: 5 })),
    null,
  );
  assert.equal(
    refusal(() => checkFields({ action: 'post', group_id: 5, body: 'hello', provenance: 'x' })),
    null,
  );
  assert.deepEqual(
    refusal(() => checkFields({ action: 'post', group_id: 5 })),
    { code: 'invalid_request', field: 'body.body', headers: undefined },
  );
  assert.deepEqual(
    refusal(() => checkFields({ action: 'like', group_id: 5, post_id: 'pst_1', value: 1 })),
    { code: 'invalid_request', field: 'body.value', headers: undefined },
  );
  assert.deepEqual(
    refusal(() => checkFields({ action: 'vote', group_id: 5, post_id: 'pst_1' })),
    { code: 'invalid_request', field: 'body.value', headers: undefined },
  );
  assert.equal(
    refusal(() => checkFields({ action: 'reply', group_id: 5, parent_post_id: 'pst_1', body: 'yes' })),
    null,
  );
});

test('checkText: byte limit at its edge, sensitive content and raw coordinates refused (reasons may cite coordinates)', () => {
  assert.equal(checkText('body', 'ab\r\ncd', 6), 'ab\ncd');
  assert.equal(refusal(() => checkText('body', 'abcdefg', 6))?.code, 'invalid_request');
  assert.equal(refusal(() => checkText('body', 'mail me at someone@example.com', 500))?.code, 'invalid_request');
  assert.equal(refusal(() => checkText('body', 'she is at 51.9225, 4.4792', 500))?.code, 'raw_vessel_data_forbidden');
  assert.equal(checkText('reason', 'posted 51.9225, 4.4792', 500), 'posted 51.9225, 4.4792');
  assert.equal(refusal(() => checkText('provenance', 'line one\nline two', 300))?.code, 'invalid_request', 'provenance is one line');
});

test('requireProvenance: a post naming an IMO or MMSI needs a source', () => {
  assert.equal(refusal(() => requireProvenance('IMO 9811000 is waiting', null))?.code, 'provenance_required');
  assert.equal(refusal(() => requireProvenance('MMSI: 563033300 left', null))?.code, 'provenance_required');
  assert.equal(
    refusal(() => requireProvenance('IMO 9811000 is waiting', 'Bosun preview, 2026-11-20')),
    null,
  );
  assert.equal(
    refusal(() => requireProvenance('a quiet day at the anchorage', null)),
    null,
  );
});

test('refuseDaily: retry-after counts from the oldest item in the window, at least 1 s', () => {
  const now = 10 * 86_400_000;
  const r = refusal(() => refuseDaily('onboarding_like_daily_limit', 'likes', 20, { count: 20, oldest: now - 86_400_000 + 90_000 }, now));
  assert.equal(r?.code, 'onboarding_like_daily_limit');
  assert.deepEqual(r?.headers, { 'retry-after': '90' });
  const edge = refusal(() => refuseDaily('onboarding_like_daily_limit', 'likes', 20, { count: 20, oldest: now - 86_400_000 }, now));
  assert.deepEqual(edge?.headers, { 'retry-after': '1' });
});
