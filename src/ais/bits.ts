/**
 * AIS payload bit access. The armored payload is de-armored once into a Uint8Array of
 * 6-bit values; fields are then read with integer arithmetic, never via bit strings.
 */

/** Armor character code → 6-bit value, or -1 for characters outside the AIS armor set. */
const ARMOR_TO_SIXBIT: Int8Array = (() => {
  const table = new Int8Array(128).fill(-1);
  for (let code = 48; code <= 87; code++) table[code] = code - 48; // '0'..'W'
  for (let code = 96; code <= 119; code++) table[code] = code - 56; // '`'..'w'
  return table;
})();

/** 6-bit value → ASCII character, as used by AIS text fields (ITU-R M.1371 table 47). */
export const SIXBIT_ASCII = '@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_ !"#$%&\'()*+,-./0123456789:;<=>?';
const SIXBIT_CHAR_CODES: Uint8Array = Uint8Array.from(SIXBIT_ASCII, (ch) => ch.charCodeAt(0));

const HEX_DIGITS = '0123456789abcdef';
/** Longest payload accepted: 5 slots of 1,008 bits need 168 characters; leave ample room. */
export const MAX_PAYLOAD_CHARS = 1024;
const SPILL = 16;

export class PayloadBits {
  /** One 6-bit value per payload character, zero-padded past the end. */
  readonly six = new Uint8Array(MAX_PAYLOAD_CHARS + SPILL);
  /** Usable bits: characters × 6 − fill bits. */
  bitLength = 0;

  /**
   * De-armor `payload[start, end)`. Returns false when a character is outside the armor set
   * or the payload is too long; the buffer content is then unspecified.
   */
  load(payload: string, start: number, end: number, fillBits: number): boolean {
    const count = end - start;
    if (count > MAX_PAYLOAD_CHARS) return false;
    const six = this.six;
    for (let i = 0; i < count; i++) {
      const code = payload.charCodeAt(start + i);
      const value = code < 128 ? ARMOR_TO_SIXBIT[code]! : -1;
      if (value < 0) return false;
      six[i] = value;
    }
    six.fill(0, count, count + SPILL);
    const bits = count * 6 - fillBits;
    this.bitLength = bits > 0 ? bits : 0;
    if (fillBits > 0 && count > 0) {
      // Fill bits are meant to be zero; clear them so trailing data and text decode identically.
      six[count - 1] = six[count - 1]! & ((0x3f << fillBits) & 0x3f);
    }
    return true;
  }

  /** Unsigned field of `length` bits (≤ 32) starting at bit `start`; bits past the end read as 0. */
  u(start: number, length: number): number {
    const six = this.six;
    let index = (start / 6) | 0;
    let offset = start - index * 6;
    if (index >= MAX_PAYLOAD_CHARS) return 0;
    let value = 0;
    let remaining = length;
    while (remaining > 0) {
      const available = 6 - offset;
      const take = available < remaining ? available : remaining;
      const chunk = (six[index]! >> (available - take)) & ((1 << take) - 1);
      value = value * (1 << take) + chunk;
      remaining -= take;
      offset = 0;
      index++;
    }
    return value;
  }

  /** Two's-complement signed field of `length` bits (≤ 31). */
  s(start: number, length: number): number {
    const shift = 32 - length;
    return (this.u(start, length) << shift) >> shift;
  }

  bool(start: number): boolean {
    const index = (start / 6) | 0;
    return ((this.six[index]! >> (5 - (start - index * 6))) & 1) === 1;
  }

  /**
   * Six-bit text of `chars` characters from `start`, clipped to the payload. Like gpsd, the text
   * ends at the first '@' and trailing spaces are trimmed.
   */
  text(start: number, chars: number): string {
    const available = Math.floor((this.bitLength - start) / 6);
    const count = available < chars ? available : chars;
    let end = 0;
    const codes: number[] = [];
    for (let i = 0; i < count; i++) {
      const value = this.u(start + i * 6, 6);
      if (value === 0) break;
      const code = SIXBIT_CHAR_CODES[value]!;
      codes.push(code);
      if (code !== 32) end = codes.length;
    }
    if (end === 0) return '';
    return String.fromCharCode.apply(null, end === codes.length ? codes : codes.slice(0, end));
  }

  /** Six-bit text without stopping at '@' or trimming, for text extended across two fields. */
  rawText(start: number, chars: number): string {
    const available = Math.floor((this.bitLength - start) / 6);
    const count = available < chars ? available : chars;
    let out = '';
    for (let i = 0; i < count; i++) out += SIXBIT_ASCII[this.u(start + i * 6, 6)]!;
    return out;
  }

  /** gpsd-style binary dump "bitcount:hex" of the bits from `start` to the end of the payload. */
  hexData(start: number, endBit: number = this.bitLength): string {
    const bitCount = endBit - start > 0 ? endBit - start : 0;
    let hex = '';
    for (let bit = 0; bit < bitCount; bit += 8) {
      const take = bitCount - bit < 8 ? bitCount - bit : 8;
      const byte = this.u(start + bit, take) << (8 - take);
      hex += HEX_DIGITS[byte >> 4]! + HEX_DIGITS[byte & 15]!;
    }
    return bitCount + ':' + hex;
  }
}
