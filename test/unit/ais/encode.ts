/** Builds AIVDM sentences from (value, bit width) fields, so tests can set exact raw values. */

export type BitField = readonly [value: number, bits: number];

const ARMOR = '0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVW`abcdefghijklmnopqrstuvw';

export function sixbitText(text: string, chars: number): BitField[] {
  const alphabet = '@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_ !"#$%&\'()*+,-./0123456789:;<=>?';
  const padded = text.padEnd(chars, '@');
  return [...padded].map((ch) => [alphabet.indexOf(ch), 6] as const);
}

/** Armored payload and fill bits for the concatenated fields. */
export function armor(fields: readonly BitField[]): { payload: string; fillBits: number } {
  let bitString = '';
  for (const [value, bits] of fields) {
    const unsigned = value < 0 ? 2 ** bits + value : value;
    bitString += unsigned.toString(2).padStart(bits, '0');
  }
  const fillBits = (6 - (bitString.length % 6)) % 6;
  bitString += '0'.repeat(fillBits);
  let payload = '';
  for (let i = 0; i < bitString.length; i += 6) payload += ARMOR[parseInt(bitString.slice(i, i + 6), 2)];
  return { payload, fillBits };
}

export function nmeaChecksum(body: string): string {
  let sum = 0;
  for (let i = 0; i < body.length; i++) sum ^= body.charCodeAt(i);
  return sum.toString(16).toUpperCase().padStart(2, '0');
}

/** A complete single-fragment sentence. */
export function sentence(fields: readonly BitField[], options: { channel?: string; formatter?: string } = {}): string {
  const { payload, fillBits } = armor(fields);
  return fragment(payload, fillBits, 1, 1, '', options);
}

export function fragment(
  payload: string,
  fillBits: number,
  count: number,
  number: number,
  sequenceId: string,
  options: { channel?: string; formatter?: string } = {},
): string {
  const body = `${options.formatter ?? 'AIVDM'},${count},${number},${sequenceId},${options.channel ?? 'A'},${payload},${fillBits}`;
  return `!${body}*${nmeaChecksum(body)}`;
}

/** Type 1 header and body with defaults overridable by name. */
export function positionReport(overrides: Partial<Record<'type' | 'status' | 'turn' | 'speed' | 'lon' | 'lat' | 'course' | 'heading', number>> = {}): BitField[] {
  return [
    [overrides.type ?? 1, 6], [0, 2], [227006760, 30], [overrides.status ?? 0, 4], [overrides.turn ?? 0, 8],
    [overrides.speed ?? 123, 10], [1, 1], [overrides.lon ?? 78828, 28], [overrides.lat ?? 29685346, 27],
    [overrides.course ?? 2240, 12], [overrides.heading ?? 215, 9], [33, 6], [0, 2], [0, 3], [0, 1], [34017, 19],
  ];
}
