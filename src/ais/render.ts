/**
 * One JSON object per message, built by hand: field values are numbers, booleans, null or
 * strings, so only strings need escaping, and JSON.stringify is used for them only when a
 * character needs it.
 */
import type { DecodedMessage } from './decoder.js';
import type { FieldValue, PositionReportFields } from './messages.js';

function needsEscape(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 32 || code === 34 || code === 92 || code > 126) return true;
  }
  return false;
}

/** JSON string literal in pure ASCII (non-ASCII as \\u escapes), so output bytes can be written as latin1. */
function jsonString(text: string): string {
  if (!needsEscape(text)) return '"' + text + '"';
  return JSON.stringify(text).replace(/[\u007f-\uffff]/g, (ch) => '\\u' + ch.charCodeAt(0).toString(16).padStart(4, '0'));
}

function jsonValue(value: FieldValue): string {
  switch (typeof value) {
    case 'number':
      return Number.isFinite(value) ? '' + value : 'null';
    case 'string':
      return jsonString(value);
    case 'boolean':
      return value ? 'true' : 'false';
    default:
      return value === null ? 'null' : JSON.stringify(value);
  }
}

export interface RenderOptions {
  /** Include the raw NMEA lines as `"sentences":[...]`. */
  sentences?: boolean;
}

/**
 * gpsd-named fields followed by Bosun metadata: `channel`, `talker`, `own_ship`, then
 * `received_ms` and `source` when known, and `flag` for header-only messages.
 */
export function messageToJson(message: DecodedMessage, options: RenderOptions = {}): string {
  const fields = message.fields;
  let json = '{';
  let first = true;
  for (const key in fields) {
    json += (first ? '"' : ',"') + key + '":' + jsonValue(fields[key]!);
    first = false;
  }
  const meta = message.meta;
  json += ',"channel":' + jsonString(meta.channel) + ',"talker":' + jsonString(meta.talker) + ',"own_ship":' + (meta.ownShip ? 'true' : 'false');
  if (meta.receivedAtMs !== null) json += ',"received_ms":' + meta.receivedAtMs;
  if (meta.source !== null) json += ',"source":' + jsonString(meta.source);
  if (message.flag !== null) json += ',"flag":"' + message.flag + '"';
  if (options.sentences === true) json += ',"sentences":' + JSON.stringify(meta.sentences);
  return json + '}';
}

/**
 * Writes the same JSON as `messageToJson` straight into bytes, avoiding intermediate strings
 * on the CLI hot path. Strings go through `jsonString` only when they need escaping.
 */
export class JsonLineWriter {
  buffer: Buffer;
  used = 0;

  /** `allocate` supplies every next buffer (a caller may hand back buffers it has finished writing). */
  constructor(
    initialBytes: number,
    private readonly allocate: (bytes: number) => Buffer = (bytes) => Buffer.allocUnsafe(bytes),
  ) {
    this.buffer = allocate(initialBytes);
  }

  /** Make room for at least `bytes` more; returns the filled part when a new buffer was started. */
  reserve(bytes: number): Buffer | null {
    if (this.used + bytes <= this.buffer.length) return null;
    const filled = this.buffer.subarray(0, this.used);
    this.buffer = this.allocate(Math.max(this.buffer.length, bytes));
    this.used = 0;
    return filled;
  }

  private ascii(text: string): void {
    const buffer = this.buffer;
    let used = this.used;
    for (let i = 0; i < text.length; i++) buffer[used++] = text.charCodeAt(i);
    this.used = used;
  }

  private key(name: string, first: boolean): void {
    const buffer = this.buffer;
    let used = this.used;
    if (!first) buffer[used++] = 44; // ,
    buffer[used++] = 34; // "
    for (let i = 0; i < name.length; i++) buffer[used++] = name.charCodeAt(i);
    buffer[used++] = 34;
    buffer[used++] = 58; // :
    this.used = used;
  }

  private integer(value: number): void {
    const buffer = this.buffer;
    let used = this.used;
    if (value < 0) {
      buffer[used++] = 45; // -
      value = -value;
    }
    if (value < 10) {
      buffer[used++] = 48 + value;
      this.used = used;
      return;
    }
    if (value > 0x7fffffff) {
      this.used = used;
      this.ascii('' + value);
      return;
    }
    let digits = 0;
    for (let rest = value; rest > 0; rest = (rest / 10) | 0) digits++;
    let position = used + digits - 1;
    for (let rest = value; rest > 0; rest = (rest / 10) | 0) buffer[position--] = 48 + (rest % 10);
    this.used = used + digits;
  }

  private string(text: string): void {
    if (needsEscape(text)) {
      this.ascii(jsonString(text));
      return;
    }
    const buffer = this.buffer;
    let used = this.used;
    buffer[used++] = 34;
    for (let i = 0; i < text.length; i++) buffer[used++] = text.charCodeAt(i);
    buffer[used++] = 34;
    this.used = used;
  }

  /**
   * Non-integers with at most 6 decimals (all scaled AIS values) are written from their scaled
   * integer; the digits are those of the shortest decimal, so JSON.parse returns the same double.
   */
  private decimal(value: number): void {
    const scaled = Math.round(value * 1e6);
    if (!(Math.abs(scaled) < 9e15) || scaled / 1e6 !== value) {
      this.ascii(Number.isFinite(value) ? '' + value : 'null');
      return;
    }
    let magnitude = scaled;
    if (magnitude < 0) {
      this.buffer[this.used++] = 45; // -
      magnitude = -magnitude;
    }
    const whole = Math.floor(magnitude / 1e6);
    let fraction = magnitude - whole * 1e6;
    this.integer(whole);
    if (fraction === 0) return;
    let decimals = 6;
    while (fraction % 10 === 0) {
      fraction /= 10;
      decimals--;
    }
    const buffer = this.buffer;
    buffer[this.used++] = 46; // .
    let position = this.used + decimals - 1;
    for (let i = 0; i < decimals; i++) {
      buffer[position--] = 48 + (fraction % 10);
      fraction = Math.floor(fraction / 10);
    }
    this.used += decimals;
  }

  private number(value: number): void {
    if (Number.isSafeInteger(value)) this.integer(value);
    else this.decimal(value);
  }

  private nullableNumber(value: number | null): void {
    if (value === null) this.ascii('null');
    else this.number(value);
  }

  private value(value: FieldValue): void {
    if (typeof value === 'number') {
      this.number(value);
    } else if (typeof value === 'string') this.string(value);
    else if (typeof value === 'boolean') this.ascii(value ? 'true' : 'false');
    else this.ascii(value === null ? 'null' : JSON.stringify(value));
  }

  /** Types 1–3 are most of any feed: their fixed shape is written without enumerating keys. */
  private positionReport(f: PositionReportFields): void {
    this.ascii('"class":"AIS","type":');
    this.integer(f.type);
    this.ascii(',"repeat":');
    this.integer(f.repeat);
    this.ascii(',"mmsi":');
    this.integer(f.mmsi);
    this.ascii(f.scaled ? ',"scaled":true,"status":' : ',"scaled":false,"status":');
    this.integer(f.status);
    this.ascii(',"status_text":');
    this.string(f.status_text);
    this.ascii(',"turn":');
    if (typeof f.turn === 'string') this.string(f.turn);
    else this.nullableNumber(f.turn);
    this.ascii(',"speed":');
    this.nullableNumber(f.speed);
    this.ascii(f.accuracy ? ',"accuracy":true,"lon":' : ',"accuracy":false,"lon":');
    this.nullableNumber(f.lon);
    this.ascii(',"lat":');
    this.nullableNumber(f.lat);
    this.ascii(',"course":');
    this.nullableNumber(f.course);
    this.ascii(',"heading":');
    this.nullableNumber(f.heading);
    this.ascii(',"second":');
    this.integer(f.second);
    this.ascii(',"maneuver":');
    this.integer(f.maneuver);
    this.ascii(f.raim ? ',"raim":true,"radio":' : ',"raim":false,"radio":');
    this.integer(f.radio);
  }

  /** Append one message as a JSON line. The caller reserves space first (see `maxLineBytes`). */
  writeMessage(message: DecodedMessage, options: RenderOptions): void {
    const fields = message.fields;
    this.buffer[this.used++] = 123; // {
    if (fields.type <= 3 && fields.type >= 1 && message.flag === null) {
      this.positionReport(fields as PositionReportFields);
    } else {
      let first = true;
      for (const key in fields) {
        this.key(key, first);
        this.value(fields[key]!);
        first = false;
      }
    }
    const meta = message.meta;
    this.key('channel', false);
    this.string(meta.channel);
    this.key('talker', false);
    this.string(meta.talker);
    this.key('own_ship', false);
    this.ascii(meta.ownShip ? 'true' : 'false');
    if (meta.receivedAtMs !== null) {
      this.key('received_ms', false);
      this.value(meta.receivedAtMs);
    }
    if (meta.source !== null) {
      this.key('source', false);
      this.string(meta.source);
    }
    if (message.flag !== null) {
      this.key('flag', false);
      this.string(message.flag);
    }
    if (options.sentences === true) {
      this.key('sentences', false);
      this.ascii('[' + meta.sentences.map(jsonString).join(',') + ']');
    }
    this.buffer[this.used++] = 125; // }
    this.buffer[this.used++] = 10; // \n
  }
}

/** Bytes of a type 1–3 line without its sentences: fixed fields and short texts. */
const POSITION_REPORT_MAX_BYTES = 1024;

/**
 * Upper bound of a message's JSON line in bytes: field text is at most the payload (≤ 1024
 * armored characters, hex data twice that) plus fixed-size fields; escaping can expand a
 * character to six bytes.
 */
export function maxLineBytes(message: DecodedMessage): number {
  const type = message.fields.type;
  if (type >= 1 && type <= 3 && message.flag === null && message.meta.sentences.length === 0 && message.meta.source === null) {
    return POSITION_REPORT_MAX_BYTES;
  }
  let bound = 4096;
  for (const key in message.fields) {
    const value = message.fields[key];
    if (typeof value === 'string') bound += 6 * value.length + key.length + 8;
  }
  for (const sentence of message.meta.sentences) bound += 6 * sentence.length + 4;
  return bound + 6 * ((message.meta.source?.length ?? 0) + message.meta.channel.length);
}
