/**
 * Ship size against the passages of the network (issue 28, decision 084): a ship's length, beam and
 * draught — given, or from a named class — close the passages it does not fit. Limits as published by
 * the authority of each passage (sources in PASSAGE_LIMITS and docs/routing.md); passages without a
 * published size limit (straits open to any ship: Gibraltar, Dover, Hormuz, Bab-el-Mandeb, the capes…)
 * are never closed by size.
 */
import { passageByName } from './graph.js';

export interface ShipDimensions {
  loa_m: number | null;
  beam_m: number | null;
  draught_m: number | null;
}

/** Typical laden dimensions of the usual size classes (the class's defining limit where it has one). */
export const SHIP_CLASSES = {
  handysize: { loa_m: 180, beam_m: 30, draught_m: 10, note: 'bulk carrier of 15,000–35,000 dwt' },
  panamax: { loa_m: 294.1, beam_m: 32.3, draught_m: 12.04, note: 'the limits of the original Panama Canal locks' },
  kiel_max: { loa_m: 235, beam_m: 32.5, draught_m: 7, note: 'the largest ships the Kiel Canal takes' },
  aframax: { loa_m: 245, beam_m: 42, draught_m: 14.5, note: 'tanker of 80,000–120,000 dwt' },
  neopanamax: { loa_m: 366, beam_m: 51.25, draught_m: 15.2, note: 'the limits of the Panama Canal locks opened in 2016' },
  suezmax: { loa_m: 275, beam_m: 48, draught_m: 20.1, note: 'tanker of 120,000–200,000 dwt, at the Suez Canal draught for its beam' },
  capesize: { loa_m: 290, beam_m: 45, draught_m: 18, note: 'bulk carrier of 150,000–200,000 dwt' },
  vlcc: { loa_m: 330, beam_m: 60, draught_m: 22, note: 'very large crude carrier, 200,000–320,000 dwt, laden' },
  ulcc: { loa_m: 380, beam_m: 68, draught_m: 24.5, note: 'ultra large crude carrier, over 320,000 dwt, laden' },
  ulcv: { loa_m: 400, beam_m: 61.5, draught_m: 16, note: 'ultra large container ship, 18,000–24,000 TEU' },
} as const satisfies Record<string, ShipDimensions & { note: string }>;

export type ShipClass = keyof typeof SHIP_CLASSES;
export const SHIP_CLASS_IDS = Object.keys(SHIP_CLASSES) as ShipClass[];

export interface PassageLimit {
  passage: string;
  loa_m?: number;
  beam_m?: number;
  /** Fixed draught limit, or the draught allowed for a beam (the Suez Canal's table). */
  draught_m?: number | ((beam_m: number | null) => number);
  describe: string;
  source: string;
}

/** Suez Canal: 20.1 m (66 ft) up to 50 m beam, falling to 12.2 m at the largest beam, 77.5 m (straight line between the table's ends). */
const suezDraught = (beam: number | null) => (beam === null || beam <= 50 ? 20.1 : beam >= 77.5 ? 12.2 : 20.1 - ((beam - 50) / 27.5) * (20.1 - 12.2));

export const PASSAGE_LIMITS: readonly PassageLimit[] = [
  {
    passage: 'panama',
    loa_m: 366,
    beam_m: 51.25,
    draught_m: 15.24,
    describe: 'Neopanamax locks: length 366 m, beam 51.25 m, draught 15.24 m (50 ft, tropical fresh water)',
    source: 'Autoridad del Canal de Panamá, Maritime Regulations / OP Notice to Shipping N-1 (vessel requirements)',
  },
  {
    passage: 'suez',
    beam_m: 77.5,
    draught_m: suezDraught,
    describe: 'draught 20.1 m (66 ft) up to 50 m beam, less for wider ships down to 12.2 m at 77.5 m beam',
    source: 'Suez Canal Authority, Rules of Navigation (draught table since the 2010 deepening)',
  },
  {
    passage: 'malacca',
    draught_m: 20.5,
    describe: 'draught 20.5 m ("Malaccamax": 25 m least depth in the Singapore Strait less the under-keel clearance)',
    source: 'IMO-adopted Straits of Malacca and Singapore routeing system (under-keel clearance 3.5 m); Malaccamax as commonly defined',
  },
  {
    passage: 'kiel',
    loa_m: 235,
    beam_m: 32.5,
    draught_m: 9.5,
    describe: 'length 235 m, beam 32.5 m, draught 9.5 m (less for the longest ships)',
    source: 'Wasserstraßen- und Schifffahrtsverwaltung des Bundes, Nord-Ostsee-Kanal ship size limits',
  },
  {
    passage: 'corinth',
    beam_m: 17.6,
    draught_m: 7.3,
    describe: 'beam 17.6 m, draught 7.3 m',
    source: 'Corinth Canal S.A. (AIK), transit conditions',
  },
  {
    passage: 'bosporus',
    loa_m: 300,
    describe: 'ships of 300 m and longer only by special arrangement with the Turkish authorities (Bosun treats the strait as closed to them)',
    source: 'Maritime Traffic Regulations for the Turkish Straits (1998), art. 29',
  },
];

export interface SizeCheck {
  /** Exclusion bits of the passages the ship does not fit. */
  mask: number;
  closed: { passage: string; limit: string; source: string; exceeds: string[] }[];
}

/** The passages a ship of these dimensions does not fit (null dimensions are not checked). */
export function passagesClosedBySize(ship: ShipDimensions): SizeCheck {
  const out: SizeCheck = { mask: 0, closed: [] };
  for (const limit of PASSAGE_LIMITS) {
    const exceeds: string[] = [];
    if (limit.loa_m !== undefined && ship.loa_m !== null && ship.loa_m > limit.loa_m) exceeds.push(`length ${ship.loa_m} m > ${limit.loa_m} m`);
    if (limit.beam_m !== undefined && ship.beam_m !== null && ship.beam_m > limit.beam_m) exceeds.push(`beam ${ship.beam_m} m > ${limit.beam_m} m`);
    if (limit.draught_m !== undefined && ship.draught_m !== null) {
      const allowed = typeof limit.draught_m === 'number' ? limit.draught_m : limit.draught_m(ship.beam_m);
      if (ship.draught_m > allowed) exceeds.push(`draught ${ship.draught_m} m > ${Math.round(allowed * 100) / 100} m`);
    }
    if (exceeds.length === 0) continue;
    out.mask |= 1 << passageByName(limit.passage)!.index;
    out.closed.push({ passage: limit.passage, limit: limit.describe, source: limit.source, exceeds });
  }
  return out;
}

/** Dimensions from a class and explicit values (explicit values win); null when neither is given. */
export function shipDimensions(shipClass: ShipClass | undefined, given: { loa_m?: number; beam_m?: number; draught_m?: number }): ShipDimensions | null {
  const base = shipClass === undefined ? null : SHIP_CLASSES[shipClass];
  if (base === null && given.loa_m === undefined && given.beam_m === undefined && given.draught_m === undefined) return null;
  return { loa_m: given.loa_m ?? base?.loa_m ?? null, beam_m: given.beam_m ?? base?.beam_m ?? null, draught_m: given.draught_m ?? base?.draught_m ?? null };
}
