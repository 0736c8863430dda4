/** Vessel identities: MMSIs with real MID country prefixes, IMO numbers with valid check digits, names, call signs. */
import type { Rng } from './random.js';

/** Maritime Identification Digits (ITU) of the flags the demo fleet uses, with a call-sign prefix of that flag. */
export const FLAG_MIDS: Readonly<Record<string, { mids: readonly number[]; callsign: string }>> = {
  PA: { mids: [351, 352, 353, 354, 355, 356, 357, 370, 371, 372, 373], callsign: '3E' },
  LR: { mids: [636], callsign: 'A8' },
  MH: { mids: [538], callsign: 'V7' },
  HK: { mids: [477], callsign: 'VR' },
  SG: { mids: [563, 564, 565, 566], callsign: '9V' },
  MT: { mids: [215, 229, 248, 249, 256], callsign: '9H' },
  BS: { mids: [308, 309, 311], callsign: 'C6' },
  GR: { mids: [237, 239, 240, 241], callsign: 'SV' },
  CN: { mids: [412, 413, 414], callsign: 'BO' },
  CY: { mids: [209, 210, 212], callsign: '5B' },
  NO: { mids: [257, 258, 259], callsign: 'LA' },
  DK: { mids: [219, 220], callsign: 'OU' },
  NL: { mids: [244, 245, 246], callsign: 'PB' },
  DE: { mids: [211, 218], callsign: 'DA' },
  GB: { mids: [232, 233, 234, 235], callsign: 'MA' },
  JP: { mids: [431, 432], callsign: 'JD' },
  KR: { mids: [440, 441], callsign: 'DS' },
  US: { mids: [338, 366, 367, 368, 369], callsign: 'WD' },
  IT: { mids: [247], callsign: 'IB' },
  FR: { mids: [226, 227, 228], callsign: 'FA' },
  ES: { mids: [224, 225], callsign: 'EA' },
  PT: { mids: [263], callsign: 'CS' },
  BE: { mids: [205], callsign: 'OR' },
  SE: { mids: [265, 266], callsign: 'SB' },
  FI: { mids: [230], callsign: 'OJ' },
  EE: { mids: [276], callsign: 'ES' },
  PL: { mids: [261], callsign: 'SP' },
  RU: { mids: [273], callsign: 'UB' },
  TR: { mids: [271], callsign: 'TC' },
  EG: { mids: [622], callsign: 'SU' },
  MA: { mids: [242], callsign: 'CN' },
  AE: { mids: [470], callsign: 'A6' },
  OM: { mids: [461], callsign: 'A4' },
  SA: { mids: [403], callsign: 'HZ' },
  QA: { mids: [466], callsign: 'A7' },
  IR: { mids: [422], callsign: 'EP' },
  DJ: { mids: [621], callsign: 'J2' },
  KE: { mids: [634], callsign: '5Z' },
  ZA: { mids: [601], callsign: 'ZS' },
  NG: { mids: [657], callsign: '5N' },
  TG: { mids: [671], callsign: '5V' },
  CI: { mids: [619], callsign: 'TU' },
  SN: { mids: [663], callsign: '6W' },
  AO: { mids: [603], callsign: 'D2' },
  MY: { mids: [533], callsign: '9M' },
  TW: { mids: [416], callsign: 'BM' },
  VN: { mids: [574], callsign: '3W' },
  TH: { mids: [567], callsign: 'HS' },
  ID: { mids: [525], callsign: 'PK' },
  PH: { mids: [548], callsign: 'DU' },
  LK: { mids: [417], callsign: '4R' },
  IN: { mids: [419], callsign: 'AT' },
  PK: { mids: [463], callsign: 'AP' },
  BD: { mids: [405], callsign: 'S2' },
  AU: { mids: [503], callsign: 'VJ' },
  NZ: { mids: [512], callsign: 'ZM' },
  CA: { mids: [316], callsign: 'CF' },
  MX: { mids: [345], callsign: 'XC' },
  CO: { mids: [730], callsign: 'HK' },
  BR: { mids: [710], callsign: 'PP' },
  AR: { mids: [701], callsign: 'LW' },
  UY: { mids: [770], callsign: 'CX' },
  CL: { mids: [725], callsign: 'CB' },
  PE: { mids: [760], callsign: 'OA' },
};

/** Flags of ocean-going merchant ships, weighted roughly by registered tonnage. */
export const OCEAN_FLAGS: readonly [flag: string, weight: number][] = [
  ['PA', 16],
  ['LR', 16],
  ['MH', 13],
  ['HK', 8],
  ['SG', 7],
  ['MT', 6],
  ['BS', 4],
  ['GR', 3],
  ['CN', 4],
  ['CY', 2],
  ['NO', 2],
  ['DK', 2],
  ['JP', 2],
  ['PT', 2],
  ['GB', 1],
  ['NL', 1],
  ['DE', 1],
  ['KR', 1],
  ['IT', 1],
];

/** IMO check digit: digits 1–6 weighted 7…2, sum mod 10. */
export function imoCheckDigit(firstSix: number): number {
  let sum = 0;
  let rest = firstSix;
  for (let weight = 2; weight <= 7; weight++) {
    sum += (rest % 10) * weight;
    rest = Math.floor(rest / 10);
  }
  return sum % 10;
}

/** Hands out unique MMSIs, IMO numbers, names and call signs from one generator. */
export class IdentityFactory {
  private readonly mmsis = new Set<number>();
  private readonly imos = new Set<number>();
  private readonly names = new Set<string>();
  private readonly callsigns = new Set<string>();

  constructor(private readonly rng: Rng) {}

  /** Keeps identifiers given out elsewhere (the sample vessel) from being drawn again. */
  reserve(mmsi: number, imo: number): void {
    this.mmsis.add(mmsi);
    this.imos.add(imo);
  }

  mmsi(flag: string): number {
    const mids = FLAG_MIDS[flag]?.mids ?? FLAG_MIDS.PA!.mids;
    for (;;) {
      const mmsi = this.rng.pick(mids) * 1_000_000 + this.rng.int(100_000, 999_999);
      if (!this.mmsis.has(mmsi)) {
        this.mmsis.add(mmsi);
        return mmsi;
      }
    }
  }

  /** A 7-digit IMO number in the range of ships built from the 1990s on. */
  imo(): number {
    for (;;) {
      const firstSix = this.rng.int(920_000, 989_999);
      const imo = firstSix * 10 + imoCheckDigit(firstSix);
      if (!this.imos.has(imo)) {
        this.imos.add(imo);
        return imo;
      }
    }
  }

  callsign(flag: string): string {
    const prefix = FLAG_MIDS[flag]?.callsign ?? '3E';
    const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
    for (;;) {
      let callsign = prefix;
      const extra = this.rng.int(3, 5) - (prefix.length - 2);
      for (let i = 0; i < extra; i++) callsign += this.rng.chance(0.8) ? this.rng.pick([...letters]) : String(this.rng.int(0, 9));
      if (!this.callsigns.has(callsign)) {
        this.callsigns.add(callsign);
        return callsign;
      }
    }
  }

  /** A unique name from first and second word lists (≤ 20 characters, the AIS limit). */
  name(first: readonly string[], second: readonly string[]): string {
    for (let attempt = 0; ; attempt++) {
      let name = `${this.rng.pick(first)} ${this.rng.pick(second)}`;
      if (attempt >= 20) name += ` ${attempt < 40 ? ['II', 'III', 'IV', 'V', 'VI', 'VII', 'VIII', 'IX', 'X'][attempt % 9] : attempt}`;
      if (name.length <= 20 && !this.names.has(name)) {
        this.names.add(name);
        return name;
      }
    }
  }
}
