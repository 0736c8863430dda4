/**
 * Field-by-field comparison of Bosun's decoder with gpsdecode's JSON output. Every disagreement is
 * put in a named category; docs/ais-conformance.md explains each category.
 */
import { readFileSync } from 'node:fs';
import { AisDecoder, type DecodedMessage } from '../../../src/ais/decoder.js';
import type { AisFields, FieldValue } from '../../../src/ais/messages.js';

type GpsdRecord = Record<string, unknown>;

export interface ComparisonSummary {
  /** gpsd AIS records paired with a Bosun message of the same type and MMSI. */
  paired: number;
  /** Paired records where every gpsd field equals Bosun's. */
  exact: number;
  /** Paired records whose only differences are in documented categories. */
  documentedOnly: number;
  /** Messages Bosun decodes that gpsd does not output, by reason. */
  bosunOnly: Record<string, number>;
  /** gpsd AIS records with no Bosun message. */
  gpsdOnly: number;
  /** gpsd records that are not AIS (TPV/SKY from GPS sentences). */
  gpsdNonAis: number;
  /** Field disagreements by category: one count per message and category. */
  differences: Record<string, number>;
}

/** Every category explained in docs/ais-conformance.md (representation choices and deliberate decoding differences). */
export const DOCUMENTED_CATEGORIES = new Set([
  'vendorid_three_characters',
  'type26_radio_decoded',
  'type26_data_padding_zeroed',
  'not_available_null',
  'turn_signed_tenths',
  'type27_status_numeric',
  'tenth_minute_position_precision',
  'corner_numbers_not_strings',
  'binary_subtype_not_decoded',
]);

export function decodeFile(path: string, scaled: boolean): DecodedMessage[] {
  const decoder = new AisDecoder({ scaled });
  const out: DecodedMessage[] = [];
  for (const line of readFileSync(path, 'latin1').split('\n')) out.push(...decoder.push(line));
  decoder.flush();
  return out;
}

/** The file's last line when it has no trailing newline (gpsdecode never reads such a line). */
export function unterminatedLastLine(path: string): string | null {
  const text = readFileSync(path, 'latin1');
  if (text.endsWith('\n')) return null;
  return text.slice(text.lastIndexOf('\n') + 1);
}

export function readJsonLines(path: string): GpsdRecord[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as GpsdRecord);
}

const NOT_AVAILABLE_SENTINELS: Record<string, readonly number[]> = {
  lat: [91],
  lon: [181],
  speed: [102.3, 1023, 63],
  course: [360, 511],
  heading: [511],
  draught: [0],
  alt: [4095],
  eta_month: [0],
};

const BINARY_SUBTYPE_TYPES = new Set([6, 8]);

function categorize(field: string, bosun: FieldValue | undefined, gpsd: unknown, fields: AisFields, scaled: boolean): string | null {
  if (bosun === gpsd) return null;
  if (bosun === undefined && BINARY_SUBTYPE_TYPES.has(fields.type) && fields.data !== undefined) return 'binary_subtype_not_decoded';
  if (field === 'vendorid' && typeof bosun === 'string' && typeof gpsd === 'string' && gpsd.startsWith(bosun)) return 'vendorid_three_characters';
  if (fields.type === 26 && field === 'radio' && gpsd === 0) return 'type26_radio_decoded';
  if (fields.type === 26 && field === 'data' && typeof bosun === 'string' && typeof gpsd === 'string' && bosun.slice(0, -2) === gpsd.slice(0, -2)) {
    return 'type26_data_padding_zeroed';
  }
  if (!scaled) return `${fields.type}:${field}`;
  if (bosun === null && gpsd === 'nan') return 'not_available_null';
  if (field === 'turn') {
    if (typeof bosun === 'number' && typeof gpsd === 'number' && Math.abs(Math.abs(bosun) - gpsd) <= 0.55) return 'turn_signed_tenths';
  }
  if (bosun === null && typeof gpsd === 'number' && (NOT_AVAILABLE_SENTINELS[field] ?? []).includes(gpsd)) return 'not_available_null';
  if (fields.type === 27 && field === 'status' && gpsd === fields.status_text) return 'type27_status_numeric';
  if (typeof bosun === 'number' && typeof gpsd === 'string' && /_l(at|on)$/.test(field)) {
    return Math.abs(bosun - Number(gpsd)) < 5e-5 ? 'corner_numbers_not_strings' : `${fields.type}:${field}`;
  }
  if (typeof bosun === 'number' && typeof gpsd === 'number') {
    if ((field === 'lat' || field === 'lon') && (fields.type === 17 || fields.type === 27)) {
      return Math.abs(bosun - gpsd) <= 0.05 + 1e-9 ? 'tenth_minute_position_precision' : `${fields.type}:${field}`;
    }
    if ((field === 'lat' || field === 'lon') && Math.abs(bosun - gpsd) <= 1.5e-6) return null;
  }
  return `${fields.type}:${field}`;
}

function reasonBosunOnly(message: DecodedMessage): string {
  if (message.flag !== null) return message.flag;
  const talker = message.meta.talker;
  if (talker !== 'AI' && talker !== 'AB' && talker !== 'BS') return 'talker_' + talker;
  if (message.meta.channel === '0') return 'channel_0';
  if (message.meta.sentences.length > 1) return 'multipart_gpsd_rejected';
  return 'other';
}

/** Pair gpsd records with Bosun messages in order (same type and MMSI) and categorize differences. */
export function compareWithGpsd(
  messages: DecodedMessage[],
  records: GpsdRecord[],
  scaled: boolean,
  onDifference?: (category: string, field: string, message: DecodedMessage, record: GpsdRecord) => void,
  unterminatedLastLine: string | null = null,
): ComparisonSummary {
  const summary: ComparisonSummary = {
    paired: 0,
    exact: 0,
    documentedOnly: 0,
    bosunOnly: {},
    gpsdOnly: 0,
    gpsdNonAis: 0,
    differences: {},
  };
  let next = 0;
  for (const record of records) {
    if (record.class !== 'AIS') {
      summary.gpsdNonAis++;
      continue;
    }
    let found = -1;
    for (let i = next; i < messages.length; i++) {
      const f = messages[i]!.fields;
      if (f.type === record.type && f.mmsi === record.mmsi && messages[i]!.flag === null) {
        found = i;
        break;
      }
    }
    if (found < 0) {
      summary.gpsdOnly++;
      continue;
    }
    for (let i = next; i < found; i++) {
      const reason = reasonBosunOnly(messages[i]!);
      summary.bosunOnly[reason] = (summary.bosunOnly[reason] ?? 0) + 1;
    }
    next = found + 1;
    summary.paired++;
    const fields = messages[found]!.fields;
    const categories = new Set<string>();
    for (const key of Object.keys(record)) {
      if (key === 'class' || key === 'device') continue;
      const category = categorize(key, fields[key], record[key], fields, scaled);
      if (category === null) continue;
      categories.add(category);
      onDifference?.(category, key, messages[found]!, record);
    }
    if (categories.size === 0) summary.exact++;
    else if ([...categories].every((c) => DOCUMENTED_CATEGORIES.has(c))) summary.documentedOnly++;
    for (const category of categories) summary.differences[category] = (summary.differences[category] ?? 0) + 1;
  }
  for (let i = next; i < messages.length; i++) {
    const last = messages[i]!.meta.sentences.at(-1) ?? '';
    const reason = i === messages.length - 1 && unterminatedLastLine === last ? 'unterminated_last_line' : reasonBosunOnly(messages[i]!);
    summary.bosunOnly[reason] = (summary.bosunOnly[reason] ?? 0) + 1;
  }
  return summary;
}
