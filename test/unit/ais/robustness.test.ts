import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { AisDecoder, FRAGMENT_ERROR_REASONS, LINE_ERROR_REASONS, PAYLOAD_ERROR_REASONS, type DecoderStats } from '../../../src/ais/decoder.js';
import { messageToJson } from '../../../src/ais/render.js';

const VALID_LINES = [
  '!AIVDM,1,1,,A,15RTgt0PAso;90TKcjM8h6g208CQ,0*4A',
  '!AIVDM,2,1,1,A,55?MbV02;H;s<HtKR20EHE:0@T4@Dn2222222216L961O5Gf0NSQEp6ClRp8,0*1C',
  '!AIVDM,2,2,1,A,88888888880,2*25',
  '\\g:1-2-27300,n:636994,s:b003669710,c:1428621738*5F\\!SAVDM,2,1,2,B,55Mw@A7J1adAL@?;7WPl58F0U<h4pB222222220t1PN5553fN4g?`4iSp5Rc,0*26',
  '\\g:2-2-27300,n:636995*15\\!SAVDM,2,2,2,B,iP`88888880,2*5E',
  '!AIVDM,1,1,,A,K3KLehP0rPTJ10Qr,0*2A',
  '!AIVDM,1,1,,B,803Ovrh0EP:024`@02PN04da=3V<>N0000,4*39',
  '$PGHP,1,2008,5,9,0,0,0,10,338,2,,1,09*17',
  '!AIVDM,1,1,,A,15B4FT5000JRP>PE6E68Nbkl0PS5,0*70,s23,d-97,T12.3,x1234,r003669945,1218112839',
];

function sum(record: Record<string, number>, keys: readonly string[]): number {
  return keys.reduce((total, key) => total + record[key]!, 0);
}

function assertStatsAddUp(stats: DecoderStats, pushed: number): void {
  assert.equal(stats.lines, pushed);
  assert.equal(stats.lines, stats.ignored_lines + stats.other_sentences + stats.sentences + sum(stats.errors, LINE_ERROR_REASONS));
  assert.equal(stats.sentences, stats.fragments_assembled + stats.fragments_pending + sum(stats.errors, FRAGMENT_ERROR_REASONS));
  assert.equal(stats.payloads, stats.messages + sum(stats.errors, PAYLOAD_ERROR_REASONS));
  assert.ok(stats.messages >= Object.values(stats.flagged).reduce((a, b) => a + b, 0));
  assert.equal(
    Object.values(stats.by_type).reduce((a, b) => a + b, 0),
    stats.messages,
  );
}

const mutatedLine = fc.tuple(fc.constantFrom(...VALID_LINES), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 127 })), { maxLength: 4 }), fc.option(fc.nat())).map(([line, flips, cut]) => {
  const chars = [...line];
  for (const [position, code] of flips) chars[position % chars.length] = String.fromCharCode(code);
  const mutated = chars.join('');
  return cut === null ? mutated : mutated.slice(0, cut % (mutated.length + 1));
});

const anyLine = fc.oneof(fc.string({ maxLength: 120 }), fc.string({ unit: 'binary', maxLength: 120 }), fc.constantFrom(...VALID_LINES), mutatedLine);

test('random and mutated input: never throws, output is valid JSON, stats add up', () => {
  fc.assert(
    fc.property(fc.array(anyLine, { maxLength: 40 }), fc.boolean(), fc.integer({ min: 1, max: 4 }), (lines, scaled, maxPendingGroups) => {
      const decoder = new AisDecoder({ scaled, maxPendingGroups });
      // Duplicated fragments and repeats are common in real feeds: feed some lines twice.
      const fed = lines.flatMap((line, index) => (index % 5 === 0 ? [line, line] : [line]));
      for (const line of fed) {
        for (const message of decoder.push(line, 1)) JSON.parse(messageToJson(message, { sentences: true }));
      }
      assertStatsAddUp(decoder.stats(), fed.length);
      decoder.flush();
      const final = decoder.stats();
      assert.equal(final.fragments_pending, 0);
      assertStatsAddUp(final, fed.length);
    }),
    { numRuns: 600, seed: 20261121 },
  );
});

test('non-string input is counted, not thrown', () => {
  const decoder = new AisDecoder();
  assert.deepEqual(decoder.push(undefined as unknown as string), []);
  assert.deepEqual(decoder.push(12345 as unknown as string), []);
  assert.equal(decoder.stats().errors.junk_line, 2);
});
