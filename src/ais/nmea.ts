/**
 * NMEA 0183 framing helpers outside the per-sentence hot path: NMEA 4 tag blocks, USCG/NAIS
 * trailing fields and the `$PGHP` timestamp sentence.
 */

export interface TagBlock {
  /** Epoch milliseconds from `c:` (seconds, or milliseconds when the value exceeds 1e11). */
  timeMs: number | null;
  /** Source station from `s:`. */
  source: string | null;
  /** Group id from `g:sentence-count-id`, shared by all fragments of one multipart message. */
  groupId: string | null;
}

/** Value of a hexadecimal digit character code, or -1. */
export function hexValue(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 65 && code <= 70) return code - 55;
  if (code >= 97 && code <= 102) return code - 87;
  return -1;
}

/** Seconds or milliseconds since the epoch → milliseconds, null when not a plausible time. */
export function epochToMs(value: number): number | null {
  if (!Number.isFinite(value) || value <= 0) return null;
  return value > 1e11 ? Math.round(value) : Math.round(value * 1000);
}

/**
 * Parse the tag block text between the backslashes, e.g. `c:1418169601,s:rORBCOMM008*37`.
 * Returns null when the checksum is missing or does not match.
 */
export function parseTagBlock(line: string, start: number, end: number): TagBlock | null {
  let checksum = 0;
  let star = -1;
  for (let i = start; i < end; i++) {
    const code = line.charCodeAt(i);
    if (code === 42) {
      star = i;
      break;
    }
    checksum ^= code;
  }
  if (star < 0 || star + 3 !== end) return null;
  const high = hexValue(line.charCodeAt(star + 1));
  const low = hexValue(line.charCodeAt(star + 2));
  if (high < 0 || low < 0 || high * 16 + low !== checksum) return null;
  const tag: TagBlock = { timeMs: null, source: null, groupId: null };
  for (const field of line.slice(start, star).split(',')) {
    if (field.length < 2 || field.charCodeAt(1) !== 58) continue;
    const key = field.charCodeAt(0);
    const value = field.slice(2);
    if (key === 99)
      tag.timeMs = epochToMs(Number(value)); // c:
    else if (key === 115)
      tag.source = value; // s:
    else if (key === 103) tag.groupId = value.split('-')[2] ?? null; // g:
  }
  return tag;
}

export interface Trailer {
  /** Epoch milliseconds from the last all-digit field (the receiver's time stamp). */
  timeMs: number | null;
  /** Receiver station from an `r` field, e.g. `r003669945`. */
  station: string | null;
}

/** USCG/NAIS fields after the checksum: `,s23,d-97,T12.3,x1234,r003669945,1218112839`. */
export function parseTrailer(line: string, start: number, end: number): Trailer {
  const trailer: Trailer = { timeMs: null, station: null };
  const fields = line.slice(start, end).split(',');
  for (const field of fields) {
    if (field.length > 1 && field.charCodeAt(0) === 114) trailer.station = field.slice(1);
  }
  const last = fields[fields.length - 1]!;
  if (/^\d{9,13}(\.\d+)?$/.test(last)) trailer.timeMs = epochToMs(Number(last));
  return trailer;
}

/**
 * `$PGHP,1,yyyy,mm,dd,hh,mm,ss,msec,...` (Gatehouse) → epoch milliseconds of the AIS sentence
 * that follows it, or null when the fields are not a valid date.
 */
export function parsePghpTime(line: string, start: number, end: number): number | null {
  const fields = line.slice(start, end).split(',');
  if (fields[1] !== '1' || fields.length < 9) return null;
  const numbers = fields.slice(2, 9).map((f) => (f === '' ? NaN : Number(f)));
  const [year, month, day, hour, minute, second, milli] = numbers as [number, number, number, number, number, number, number];
  if (!numbers.every(Number.isInteger)) return null;
  if (year < 1970 || month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return null;
  return Date.UTC(year, month - 1, day, hour, minute, second, milli);
}
