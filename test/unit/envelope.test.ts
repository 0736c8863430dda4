import assert from 'node:assert/strict';
import test from 'node:test';
import { envelopeJsonWithData, errorEnvelope, okEnvelope } from '../../src/http/envelope.js';

test('an envelope written around pre-serialised data is the same text as serialising it whole', () => {
  const data = { items: [{ vsl_id: 'V1', lat: 29.7, name: 'quote " and \u2028 line' }], cursor: 'abc', more_available: false, timed_out: false };
  const envelope = okEnvelope({
    requestId: 'req-1',
    now: Date.UTC(2026, 10, 23),
    caller: { kind: 'anonymous' },
    data,
    costUnits: 1,
    freshnessSeconds: 4.4,
    confidence: 0.8,
    qualityFlags: ['simulated'],
  });
  const text = envelopeJsonWithData(envelope, JSON.stringify(data));
  assert.equal(text, JSON.stringify(envelope));
  assert.deepEqual(JSON.parse(text).data, data);
  const failed = errorEnvelope({ requestId: 'req-2', now: 0, caller: { kind: 'anonymous' }, errors: [{ code: 'not_found', message: 'no such vessel', retryable: false }] });
  assert.equal(envelopeJsonWithData(failed, '{}'), JSON.stringify(failed));
});
