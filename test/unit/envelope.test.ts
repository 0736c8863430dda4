import assert from 'node:assert/strict';
import test from 'node:test';
import fc from 'fast-check';
import { envelopeJson, envelopeJsonWithData, errorEnvelope, okEnvelope } from '../../src/http/envelope.js';

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

test('the envelope written field by field is the same text as JSON.stringify, for any values', () => {
  const number = fc.oneof(fc.double(), fc.integer(), fc.constantFrom(0, -0, 1e21, 1e-7, NaN, Infinity));
  fc.assert(
    fc.property(
      fc.record({
        requestId: fc.string(),
        now: fc.integer({ min: 0, max: 4_000_000_000_000 }),
        anonymous: fc.boolean(),
        data: fc.oneof(fc.jsonValue(), fc.constant(undefined), fc.object()),
        costUnits: number,
        freshnessSeconds: fc.option(number, { nil: undefined }),
        confidence: fc.option(number, { nil: null }),
        qualityFlags: fc.array(fc.string()),
      }),
      fc.option(fc.record({ attribution_required: fc.boolean(), attribution_text: fc.string() }), { nil: undefined }),
      (args, policy) => {
        const caller = args.anonymous ? ({ kind: 'anonymous' } as const) : ({ kind: 'operator', operator: { name: 'op' } } as never);
        const envelope = okEnvelope({ ...args, caller });
        if (policy) Object.assign(envelope.policy, policy);
        assert.equal(envelopeJson(envelope), JSON.stringify(envelope));
      },
    ),
    { numRuns: 2000 },
  );
});
