import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findRawCoordinates, findSensitiveContent, harborText } from '../../src/features/kit/text-rules.js';

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (e: any) {
    return { code: e.code as string, message: e.message as string, field: e.options?.field as string | undefined };
  }
  return null;
};

test('line endings: CRLF and CR become LF before the byte count', () => {
  const spec = { field: 'body.body', code: 'invalid_request', multiline: true, maxBytes: 8 } as const;
  assert.equal(harborText('a\r\nb\rc', spec), 'a\nb\nc');
  // 4 lines of "ab": 11 bytes with CRLF, 8 with LF: accepted at the edge
  assert.equal(harborText('ab\r\nab\r\nab', spec), 'ab\nab\nab');
  const over = refusal(() => harborText('ab\nab\nab\n', spec));
  assert.equal(over?.code, 'invalid_request');
  assert.match(over.message, /^body is 9 bytes \(UTF-8\); at most 8 bytes are accepted$/);
  assert.equal(over?.field, 'body.body');
});

test('byte limits count UTF-8 bytes at the edge and say bytes', () => {
  const spec = { field: 'body.body', code: 'help_response_invalid', multiline: true, maxBytes: 4000 } as const;
  assert.equal(harborText('é'.repeat(2000), spec).length, 2000);
  const over = refusal(() => harborText('é'.repeat(2000) + 'x', spec));
  assert.equal(over?.code, 'help_response_invalid');
  assert.match(over.message, /4001 bytes \(UTF-8\); at most 4000 bytes/);
});

test('control characters: refused everywhere; line feeds and tabs only in multi-line text', () => {
  const multi = { field: 'body.body', code: 'invalid_request', multiline: true } as const;
  const one = { field: 'body.title', code: 'invalid_request', multiline: false } as const;
  assert.equal(harborText('a\n\tb', multi), 'a\n\tb');
  for (const bad of ['a\u0000b', 'a\u0007b', 'a\u001bb', 'a\u007fb', 'a\u0085b']) assert.equal(refusal(() => harborText(bad, multi))?.code, 'invalid_request', JSON.stringify(bad));
  assert.match(refusal(() => harborText('a\nb', one))!.message, /one line/);
  assert.match(refusal(() => harborText('a\tb', one))!.message, /one line/);
  assert.match(refusal(() => harborText('   ', multi))!.message, /empty or blank/);
});

test('names: bidi overrides and zero-width characters are refused; ordinary letters and emoji pass', () => {
  const spec = { field: 'body.name', code: 'invalid_request', multiline: false, name: true, trim: true, minChars: 2, maxChars: 64 } as const;
  assert.equal(harborText('  Ship Finder ⚓ Åsa  ', spec), 'Ship Finder ⚓ Åsa');
  for (const spoof of ['evil\u202egnp.exe', 'ad\u200bmin', 'ad\u200dmin', '\ufeffoperator', 'a\u2066b\u2069', 'x\u200fy', 'x\u061cy']) {
    const r = refusal(() => harborText(spoof, spec));
    assert.equal(r?.code, 'invalid_request', JSON.stringify(spoof));
    assert.match(r.message, /invisible formatting/);
    assert.equal(r?.field, 'body.name');
  }
  // bodies are not names: a zero-width joiner inside an emoji sequence stays
  assert.equal(harborText('family 👨\u200d👩\u200d👧', { field: 'body.body', code: 'invalid_request', multiline: true }), 'family 👨\u200d👩\u200d👧');
});

test('raw vessel coordinates are found in their usual written forms', () => {
  const positions = [
    '51.9225, 4.4792',
    'at 51.9225 4.4792 now',
    '-33.8688,151.2093',
    '51.9225° N, 4.4792° E',
    '51.92N 4.48E',
    '33.86S 151.20E',
    "51°55.35'N 004°28.75'E",
    '51° 55\' 21" N, 4° 28\' 45" E',
    '51 55.35 N 004 28.75 E',
    'lat 51.92 lon 4.48',
    'latitude: 51.9, longitude: -4.4',
    'fix 5155.35,N,00428.75,E',
    '!AIVDM,1,1,,A,15M67FC000G?ufbE`FepT@3n00Sa,0*5C',
  ];
  for (const text of positions) assert.ok(findRawCoordinates(text), text);
});

test('no false coordinates: versions, prices, dates, times, ids, vessel numbers, out-of-range pairs', () => {
  const harmless = [
    'contract 1.5, cost 0.3 per call',
    'released 2026-11-20T10:15:30Z',
    'IMO 9321483 and MMSI 211234567',
    'agt_1234567890abcdef1234',
    'speed 12.5 knots, course 231.0',
    'version 1.25, 2.50',
    'address 10.9.12.34',
    '95.1234, 200.5678',
    'the latency was 51.92 ms, longer than 4.48 ms',
    'took 5 S and 3 E',
  ];
  for (const text of harmless) assert.equal(findRawCoordinates(text), undefined, text);
});

test('the phone-number filter no longer refuses quoted agent ids with 10+ digits; real phone numbers still match', () => {
  for (const id of ['agt_12345678901234567890', 'please look at agt_0012345678901abcdef2 and hlp_98765432109876543210', 'opr_1234567890123456abcd']) {
    assert.equal(findSensitiveContent(id), undefined, id);
  }
  for (const phone of ['+49 30 1234567', 'call 030 1234 5678', '(030) 123-456-789']) assert.equal(findSensitiveContent(phone)?.name, 'phone_number', phone);
});
