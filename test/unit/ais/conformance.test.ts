import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sharedDataPath } from '../../helpers/shared-data.js';
import { compareWithGpsd, decodeFile, readJsonLines, unterminatedLastLine, type ComparisonSummary } from './conformance-support.js';

const conformance = sharedDataPath('ais/conformance');

interface Totals {
  files: number;
  paired: number;
  exact: number;
  documentedOnly: number;
  gpsdOnly: number;
  gpsdNonAis: number;
  bosunOnly: Record<string, number>;
  differences: Record<string, number>;
}

function add(into: Record<string, number>, from: Record<string, number>): void {
  for (const [key, value] of Object.entries(from)) into[key] = (into[key] ?? 0) + value;
}

function compareAll(scaled: boolean): Totals {
  const totals: Totals = { files: 0, paired: 0, exact: 0, documentedOnly: 0, gpsdOnly: 0, gpsdNonAis: 0, bosunOnly: {}, differences: {} };
  for (const dir of ['gpsd', 'libais', 'pyais']) {
    for (const name of readdirSync(join(conformance.path, dir)).sort()) {
      if (/\.(jsonl|chk|stderr|json)$/.test(name)) continue;
      const input = join(conformance.path, dir, name);
      const expected = input + (scaled ? '.gpsdecode.jsonl' : '.gpsdecode-u.jsonl');
      if (!existsSync(expected)) continue;
      const summary: ComparisonSummary = compareWithGpsd(decodeFile(input, scaled), readJsonLines(expected), scaled, undefined, unterminatedLastLine(input));
      totals.files++;
      totals.paired += summary.paired;
      totals.exact += summary.exact;
      totals.documentedOnly += summary.documentedOnly;
      totals.gpsdOnly += summary.gpsdOnly;
      totals.gpsdNonAis += summary.gpsdNonAis;
      add(totals.bosunOnly, summary.bosunOnly);
      add(totals.differences, summary.differences);
    }
  }
  return totals;
}

// Every count below is explained in docs/ais-conformance.md; a change in any of them is a regression
// or a deliberate change that must be documented there.
const BOSUN_ONLY = { unknown_part: 69, wrong_length: 26, invalid_type: 17, unterminated_last_line: 2 };

test('conformance with gpsdecode -u -j (raw integers, exact)', { skip: conformance.skip }, () => {
  const totals = compareAll(false);
  assert.deepEqual(totals, {
    files: 14,
    paired: 2984,
    exact: 2782,
    documentedOnly: 202,
    gpsdOnly: 0,
    gpsdNonAis: 327,
    bosunOnly: BOSUN_ONLY,
    differences: {
      binary_subtype_not_decoded: 148,
      vendorid_three_characters: 38,
      type26_radio_decoded: 16,
      type26_data_padding_zeroed: 13,
    },
  });
});

test('conformance with gpsdecode -j (scaled)', { skip: conformance.skip }, () => {
  const totals = compareAll(true);
  assert.deepEqual(totals, {
    files: 14,
    paired: 2984,
    exact: 1666,
    documentedOnly: 1318,
    gpsdOnly: 0,
    gpsdNonAis: 327,
    bosunOnly: BOSUN_ONLY,
    differences: {
      not_available_null: 849,
      turn_signed_tenths: 172,
      type27_status_numeric: 76,
      tenth_minute_position_precision: 91,
      corner_numbers_not_strings: 24,
      binary_subtype_not_decoded: 148,
      vendorid_three_characters: 38,
      type26_radio_decoded: 16,
      type26_data_padding_zeroed: 13,
    },
  });
});

test('conformance with libais typeexamples.json (float32 values, one message per line)', { skip: conformance.skip }, () => {
  const input = join(conformance.path, 'libais', 'typeexamples.nmea');
  const expected = readFileSync(join(conformance.path, 'libais', 'typeexamples.json'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const messages = decodeFile(input, true);
  assert.equal(messages.length, expected.length);
  const compared = [
    'type',
    'repeat',
    'mmsi',
    'status',
    'accuracy',
    'raim',
    'second',
    'maneuver',
    'lon',
    'lat',
    'speed',
    'course',
    'heading',
    'turn',
    'shipname',
    'callsign',
    'destination',
    'imo',
    'draught',
    'to_bow',
    'to_stern',
    'shiptype',
    'epfd',
    'dac',
    'fid',
  ];
  const differences: string[] = [];
  let fieldsCompared = 0;
  messages.forEach((message, index) => {
    const libais = expected[index]!;
    for (const field of compared) {
      if (!(field in libais) || !(field in message.fields)) continue;
      fieldsCompared++;
      const ours = message.fields[field];
      let theirs = libais[field];
      if (field === 'imo' && typeof theirs === 'string') theirs = Number(theirs);
      if (typeof ours === 'number' && typeof theirs === 'number' && Math.abs(ours - theirs) <= 1e-4 * Math.max(1, Math.abs(theirs))) continue;
      if (ours === theirs) continue;
      differences.push(`${message.fields.type}:${field}:${JSON.stringify(ours)}:${JSON.stringify(theirs)}`);
    }
  });
  assert.equal(fieldsCompared, FIELDS_COMPARED_WITH_LIBAIS);
  assert.deepEqual(differences, LIBAIS_DIFFERENCES);
});

const FIELDS_COMPARED_WITH_LIBAIS = 168;
// Not-available as null (libais keeps 181/91/511); type 9 SOG is whole knots (ITU-R M.1371, gpsd), libais divides by 10.
const LIBAIS_DIFFERENCES: string[] = ['4:lon:null:181', '4:lat:null:91', '1:heading:null:511', '18:heading:null:511', '9:speed:168:16.799999237060547'];
