/**
 * AIS encoder (ITU-R M.1371): typed messages → armored payloads → AIVDM sentences, with
 * multipart splitting and optional NMEA 4 tag blocks. The inverse of `AisDecoder` for the
 * message types a vessel transmits about itself: 1/2/3, 5, 18, 24A/24B.
 */
import { SIXBIT_ASCII } from './bits.js';

/** A raw field: an integer value (negative values are written in two's complement) and its width. */
export type BitField = readonly [value: number, bits: number];

const ARMOR_CODES = Uint8Array.from('0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVW`abcdefghijklmnopqrstuvw', (ch) => ch.charCodeAt(0));
/** Longest payload per sentence: an 82-character sentence leaves room for 60 armor characters. */
const MAX_PAYLOAD_CHARS_PER_SENTENCE = 60;

const ASCII_TO_SIXBIT: Int8Array = (() => {
  const table = new Int8Array(128).fill(-1);
  for (let i = 0; i < SIXBIT_ASCII.length; i++) table[SIXBIT_ASCII.charCodeAt(i)] = i;
  return table;
})();

/** Accumulates fields MSB-first into 6-bit groups, then armors them. */
export class PayloadWriter {
  private readonly six: number[] = [];
  private current = 0;
  private used = 0;
  private length = 0;

  get bitLength(): number {
    return this.length;
  }

  /** Appends `bits` (≤ 32) bits of `value`; negative values as two's complement. */
  uint(value: number, bits: number): this {
    let v = Math.trunc(value);
    if (v < 0) v += 2 ** bits;
    if (bits > 30) {
      // Split so that the shifts below stay within 31-bit integers.
      const high = Math.floor(v / 2 ** 30);
      return this.uint(high, bits - 30).uint(v - high * 2 ** 30, 30);
    }
    let remaining = bits;
    while (remaining > 0) {
      const take = Math.min(6 - this.used, remaining);
      remaining -= take;
      this.current = (this.current << take) | ((v >>> remaining) & ((1 << take) - 1));
      this.used += take;
      if (this.used === 6) {
        this.six.push(this.current);
        this.current = 0;
        this.used = 0;
      }
    }
    this.length += bits;
    return this;
  }

  bool(value: boolean): this {
    return this.uint(value ? 1 : 0, 1);
  }

  /** AIS six-bit text, upper-cased, unknown characters as `?`, padded with `@` to `chars`. */
  text(value: string, chars: number): this {
    const upper = value.toUpperCase();
    for (let i = 0; i < chars; i++) {
      const code = i < upper.length ? upper.charCodeAt(i) : 64;
      const six = code < 128 ? ASCII_TO_SIXBIT[code]! : -1;
      this.uint(six < 0 ? 63 : six, 6);
    }
    return this;
  }

  fields(fields: readonly BitField[]): this {
    for (const [value, bits] of fields) this.uint(value, bits);
    return this;
  }

  /** The armored payload; the last character is zero-padded and the padding counted as fill bits. */
  armor(): { payload: string; fillBits: number } {
    const codes = this.six.map((value) => ARMOR_CODES[value]!);
    let fillBits = 0;
    if (this.used > 0) {
      fillBits = 6 - this.used;
      codes.push(ARMOR_CODES[this.current << fillBits]!);
    }
    return { payload: String.fromCharCode(...codes), fillBits };
  }
}

/** Six-bit text as raw fields (for hand-built payloads). */
export function sixbitText(text: string, chars: number): BitField[] {
  const padded = text.padEnd(chars, '@');
  return [...padded.slice(0, chars)].map((ch) => [Math.max(0, SIXBIT_ASCII.indexOf(ch)), 6] as const);
}

/** Armored payload and fill bits for the concatenated fields. */
export function armor(fields: readonly BitField[]): { payload: string; fillBits: number } {
  return new PayloadWriter().fields(fields).armor();
}

/** NMEA checksum (XOR of the characters between the delimiters) as two upper-case hex digits. */
export function nmeaChecksum(body: string): string {
  let sum = 0;
  for (let i = 0; i < body.length; i++) sum ^= body.charCodeAt(i);
  return (sum < 16 ? '0' : '') + sum.toString(16).toUpperCase();
}

export interface SentenceOptions {
  /** Radio channel, default `A`. */
  channel?: string;
  /** Talker and formatter, default `AIVDM`. */
  formatter?: string;
}

/** One fragment `!AIVDM,count,number,seq,channel,payload,fill*hh`. */
export function fragment(payload: string, fillBits: number, count: number, number: number, sequenceId: string, options: SentenceOptions = {}): string {
  const body = `${options.formatter ?? 'AIVDM'},${count},${number},${sequenceId},${options.channel ?? 'A'},${payload},${fillBits}`;
  return `!${body}*${nmeaChecksum(body)}`;
}

/** A complete single-fragment sentence from raw fields. */
export function sentence(fields: readonly BitField[], options: SentenceOptions = {}): string {
  const { payload, fillBits } = armor(fields);
  return fragment(payload, fillBits, 1, 1, '', options);
}

/** NMEA 4 tag block `\c:<seconds>,s:<source>[,g:n-m-id]*hh\`. */
export function tagBlock(timeMs: number, source: string | null, group?: { number: number; count: number; id: number }): string {
  let body = `c:${Math.floor(timeMs / 1000)}`;
  if (source !== null) body += `,s:${source}`;
  if (group !== undefined) body += `,g:${group.number}-${group.count}-${group.id}`;
  return `\\${body}*${nmeaChecksum(body)}\\`;
}

export interface EncodeOptions extends SentenceOptions {
  /** Observation time written as a tag block `c:` (whole seconds); no tag block when absent. */
  timeMs?: number;
  /** Tag block `s:` source station. */
  source?: string;
  /** Sequential message id 0–9 for multipart messages (also the tag block group id). */
  sequenceId?: number;
}

/** Splits a payload into as many sentences as needed, each with its own tag block when a time is given. */
export function toSentences(encoded: { payload: string; fillBits: number }, options: EncodeOptions = {}): string[] {
  const { payload, fillBits } = encoded;
  const count = Math.max(1, Math.ceil(payload.length / MAX_PAYLOAD_CHARS_PER_SENTENCE));
  const sequence = count > 1 ? String((options.sequenceId ?? 0) % 10) : '';
  const lines: string[] = [];
  for (let number = 1; number <= count; number++) {
    const part = payload.slice((number - 1) * MAX_PAYLOAD_CHARS_PER_SENTENCE, number * MAX_PAYLOAD_CHARS_PER_SENTENCE);
    let line = fragment(part, number === count ? fillBits : 0, count, number, sequence, options);
    if (options.timeMs !== undefined) {
      const group = count > 1 ? { number, count, id: options.sequenceId ?? 0 } : undefined;
      line = tagBlock(options.timeMs, options.source ?? null, group) + line;
    }
    lines.push(line);
  }
  return lines;
}

/** The fix of a class A or class B position report, scaled as the decoder returns it; null writes "not available". */
interface FixInput {
  repeat?: number;
  mmsi: number;
  /** Knots, 0.1 resolution; ≥ 102.2 is written as 102.2. */
  speed: number | null;
  accuracy?: boolean;
  lon: number | null;
  lat: number | null;
  /** Course over ground, degrees. */
  course: number | null;
  /** True heading, integer degrees. */
  heading: number | null;
  /** UTC second of the fix, 0–59 (60 = not available). */
  second?: number;
}

/** Scaled values as the decoder returns them; null writes the "not available" value. */
export interface PositionReportInput extends FixInput {
  type?: 1 | 2 | 3;
  /** Navigation status 0–15 (15 = not defined). */
  status: number;
  /** Degrees per minute (sign: right positive), `fastleft`/`fastright`, or null. */
  turn?: number | 'fastleft' | 'fastright' | null;
  maneuver?: number;
  raim?: boolean;
  radio?: number;
}

export interface StaticVoyageInput {
  repeat?: number;
  mmsi: number;
  aisVersion?: number;
  /** 7-digit IMO number, 0 when the ship has none. */
  imo: number;
  callsign: string;
  shipname: string;
  shiptype: number;
  toBow: number;
  toStern: number;
  toPort: number;
  toStarboard: number;
  /** Position fix device, 1 = GPS. */
  epfd?: number;
  /** ETA in UTC; null fields are "not available". */
  eta: { month: number | null; day: number | null; hour: number | null; minute: number | null };
  /** Metres, 0.1 resolution; null = not available. */
  draught: number | null;
  destination: string;
  dte?: boolean;
}

export interface ClassBPositionInput extends FixInput {
  /** Carrier-sense unit (most class B transceivers). */
  cs?: boolean;
  display?: boolean;
  dsc?: boolean;
  band?: boolean;
  msg22?: boolean;
  assigned?: boolean;
  raim?: boolean;
  radio?: number;
}

export interface StaticPartAInput {
  repeat?: number;
  mmsi: number;
  shipname: string;
}

export interface StaticPartBInput {
  repeat?: number;
  mmsi: number;
  shiptype: number;
  vendorid?: string;
  model?: number;
  serial?: number;
  callsign: string;
  toBow: number;
  toStern: number;
  toPort: number;
  toStarboard: number;
}

const LON_NOT_AVAILABLE = 181 * 600000;
const LAT_NOT_AVAILABLE = 91 * 600000;

function clamp(value: number, min: number, max: number): number {
  return value < min ? min : value > max ? max : value;
}
function speedRaw(knots: number | null): number {
  return knots === null ? 1023 : clamp(Math.round(knots * 10), 0, 1022);
}
function lonRaw(lon: number | null): number {
  return lon === null ? LON_NOT_AVAILABLE : Math.round(lon * 600000);
}
function latRaw(lat: number | null): number {
  return lat === null ? LAT_NOT_AVAILABLE : Math.round(lat * 600000);
}
function courseRaw(course: number | null): number {
  if (course === null) return 3600;
  const tenths = Math.round(course * 10) % 3600;
  return tenths < 0 ? tenths + 3600 : tenths;
}
function headingRaw(heading: number | null): number {
  if (heading === null) return 511;
  const degrees = Math.round(heading) % 360;
  return degrees < 0 ? degrees + 360 : degrees;
}
/** Degrees/minute → ROT_AIS = 4.733 √|rot| with sign, limited to ±126 (±127 mean "fast turn, no indicator"). */
function turnRaw(turn: PositionReportInput['turn']): number {
  if (turn === undefined || turn === null) return -128;
  if (turn === 'fastright') return 127;
  if (turn === 'fastleft') return -127;
  const magnitude = Math.min(126, Math.round(4.733 * Math.sqrt(Math.abs(turn))));
  return turn < 0 ? -magnitude : magnitude;
}

/** A payload begun with the header every message has: type, repeat indicator and MMSI. */
function messageStart(type: number, input: { repeat?: number; mmsi: number }): PayloadWriter {
  return new PayloadWriter()
    .uint(type, 6)
    .uint(input.repeat ?? 0, 2)
    .uint(input.mmsi, 30);
}

/** Speed, accuracy, position, course, heading and UTC second, as class A and class B position reports both carry them. */
function fixFields(input: FixInput): BitField[] {
  return [
    [speedRaw(input.speed), 10],
    [input.accuracy ? 1 : 0, 1],
    [lonRaw(input.lon), 28],
    [latRaw(input.lat), 27],
    [courseRaw(input.course), 12],
    [headingRaw(input.heading), 9],
    [input.second ?? 60, 6],
  ];
}

/** Types 1, 2, 3: class A position report (168 bits). */
export function encodePositionReport(input: PositionReportInput): { payload: string; fillBits: number } {
  return messageStart(input.type ?? 1, input)
    .uint(clamp(input.status, 0, 15), 4)
    .uint(turnRaw(input.turn), 8)
    .fields(fixFields(input))
    .uint(input.maneuver ?? 0, 2)
    .uint(0, 3)
    .bool(input.raim ?? false)
    .uint(input.radio ?? 0, 19)
    .armor();
}

/** Type 5: static and voyage related data (424 bits: two sentences). */
export function encodeStaticVoyage(input: StaticVoyageInput): { payload: string; fillBits: number } {
  const { eta } = input;
  return messageStart(5, input)
    .uint(input.aisVersion ?? 0, 2)
    .uint(input.imo, 30)
    .text(input.callsign, 7)
    .text(input.shipname, 20)
    .uint(input.shiptype, 8)
    .uint(clamp(input.toBow, 0, 511), 9)
    .uint(clamp(input.toStern, 0, 511), 9)
    .uint(clamp(input.toPort, 0, 63), 6)
    .uint(clamp(input.toStarboard, 0, 63), 6)
    .uint(input.epfd ?? 1, 4)
    .uint(eta.month ?? 0, 4)
    .uint(eta.day ?? 0, 5)
    .uint(eta.hour ?? 24, 5)
    .uint(eta.minute ?? 60, 6)
    .uint(input.draught === null ? 0 : clamp(Math.round(input.draught * 10), 0, 255), 8)
    .text(input.destination, 20)
    .bool(input.dte ?? false)
    .uint(0, 1)
    .armor();
}

/** Type 18: class B position report (168 bits). */
export function encodeClassBPosition(input: ClassBPositionInput): { payload: string; fillBits: number } {
  return messageStart(18, input)
    .uint(0, 8)
    .fields(fixFields(input))
    .uint(0, 2)
    .bool(input.cs ?? true)
    .bool(input.display ?? false)
    .bool(input.dsc ?? false)
    .bool(input.band ?? true)
    .bool(input.msg22 ?? true)
    .bool(input.assigned ?? false)
    .bool(input.raim ?? false)
    .uint(input.radio ?? 0, 20)
    .armor();
}

/** Type 24 part A: name (160 bits). */
export function encodeStaticPartA(input: StaticPartAInput): { payload: string; fillBits: number } {
  return messageStart(24, input).uint(0, 2).text(input.shipname, 20).armor();
}

/** Type 24 part B: type, vendor, call sign and dimensions (168 bits). */
export function encodeStaticPartB(input: StaticPartBInput): { payload: string; fillBits: number } {
  return messageStart(24, input)
    .uint(1, 2)
    .uint(input.shiptype, 8)
    .text(input.vendorid ?? '', 3)
    .uint(input.model ?? 0, 4)
    .uint(input.serial ?? 0, 20)
    .text(input.callsign, 7)
    .uint(clamp(input.toBow, 0, 511), 9)
    .uint(clamp(input.toStern, 0, 511), 9)
    .uint(clamp(input.toPort, 0, 63), 6)
    .uint(clamp(input.toStarboard, 0, 63), 6)
    .uint(0, 6)
    .armor();
}
