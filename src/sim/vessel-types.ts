/** The kinds of vessel in the demo fleet, with plausible dimensions, speeds and port times. */

export type VesselKind = 'container' | 'bulk' | 'tanker' | 'lng' | 'roro' | 'general' | 'passenger' | 'tug' | 'fishing' | 'sts_storage' | 'sts_shuttle' | 'loiterer' | 'dark';

export interface VesselProfile {
  kind: VesselKind;
  /** Share of the fleet (STS vessels are counted separately). */
  share: number;
  /** AIS ship and cargo type codes to choose from. */
  shipTypes: readonly number[];
  /** Class B transponders send types 18 and 24 instead of 1 and 5. */
  classB: boolean;
  lengthM: readonly [number, number];
  /** Beam as a fraction of length. */
  beamRatio: readonly [number, number];
  draughtM: readonly [number, number];
  /** Service speed, knots. */
  speedKn: readonly [number, number];
  berthHours: readonly [number, number];
  /** Probability of waiting at anchor before berthing, and for how long. */
  anchorChance: number;
  anchorHours: readonly [number, number];
  /** Chance of taking the long way round a passage that the shortest route uses (route choice). */
  avoidSuezChance: number;
  hasImo: boolean;
  names: readonly [readonly string[], readonly string[]];
}

const OCEAN_WORDS = [
  'OCEAN',
  'PACIFIC',
  'ATLANTIC',
  'NORDIC',
  'CAPE',
  'GOLDEN',
  'SILVER',
  'BLUE',
  'EASTERN',
  'WESTERN',
  'SOUTHERN',
  'NORTHERN',
  'GRAND',
  'ROYAL',
  'STAR',
  'SEA',
  'CORAL',
  'JADE',
  'AURORA',
  'POLAR',
];
const CARGO_WORDS = [
  'PIONEER',
  'HARMONY',
  'SPIRIT',
  'VOYAGER',
  'GLORY',
  'FORTUNE',
  'TRADER',
  'PROGRESS',
  'HORIZON',
  'EXPRESS',
  'BRIDGE',
  'VENTURE',
  'LEGEND',
  'PRIDE',
  'MERIDIAN',
  'NAVIGATOR',
  'ENDEAVOUR',
  'DAWN',
  'BREEZE',
  'CROWN',
];
const TANKER_FIRST = ['ATHINA', 'NISSOS', 'KRITI', 'MINERVA', 'DELTA', 'AEGEAN', 'HELLAS', 'ANDROS', 'ARIADNE', 'EVRIDIKI', 'OLYMPIC', 'SEAWAYS', 'FRONT', 'EAGLE', 'MARAN'];
const TANKER_SECOND = ['SPIRIT', 'STAR', 'GLORY', 'WAVE', 'DREAM', 'LADY', 'VALOR', 'ASPIRATION', 'PRIDE', 'SUN', 'PEARL', 'VISION'];
const LNG_FIRST = ['LNG', 'GAS', 'ARCTIC', 'METHANE', 'CRYO', 'POLAR', 'BRITISH', 'GOLAR'];
const LNG_SECOND = ['AURORA', 'ENERGY', 'SPIRIT', 'VOYAGER', 'JUPITER', 'SATURN', 'BREEZE', 'FLAME', 'HARVEST', 'SKY'];
const RORO_FIRST = ['AUTO', 'CAR', 'HOEGH', 'GRANDE', 'MORNING', 'RORO', 'TRANS', 'CITY'];
const RORO_SECOND = ['TRANSPORTER', 'CARRIER', 'EXPRESS', 'SPIRIT', 'LIGHT', 'STAR', 'VENTURE', 'MOVER'];
const GENERAL_FIRST = ['BALTIC', 'MED', 'IBERIAN', 'ARCTIC', 'CARIBBEAN', 'CELTIC', 'ADRIATIC', 'LEVANT', 'ANDAMAN', 'JAVA'];
const GENERAL_SECOND = ['TRADER', 'CARRIER', 'SKIPPER', 'FREIGHTER', 'MARINER', 'COASTER', 'RUNNER', 'WAY'];
const PASSENGER_FIRST = ['SPIRIT OF', 'PRIDE OF', 'STAR OF', 'QUEEN OF', 'ISLAND', 'COASTAL', 'SEA'];
const PASSENGER_SECOND = ['DOVER', 'CALAIS', 'TALLINN', 'HELSINKI', 'TANGIER', 'PRINCESS', 'DREAM', 'EXPLORER', 'JOURNEY', 'SERENADE', 'ODYSSEY'];
const TUG_FIRST = ['SVITZER', 'SMIT', 'BOKA', 'KOTUG', 'ALPHA', 'HERCULES', 'TITAN', 'ATLAS', 'BRAVO', 'MAGNUS'];
const TUG_SECOND = ['ONE', 'TWO', 'THREE', 'FOUR', 'FIVE', 'ALPHA', 'BRAVO', 'CHARLIE', 'DELTA', 'ECHO', 'FOXTROT', 'GOLF'];
const FISHING_FIRST = ['SEA', 'MORNING', 'NORTH', 'SOUTH', 'LUCKY', 'BRIGHT', 'SILVER', 'GOOD', 'FAITHFUL', 'ROSE'];
const FISHING_SECOND = ['HUNTER', 'HARVEST', 'STAR', 'DAWN', 'HOPE', 'TIDE', 'GULL', 'CATCH', 'PROVIDER', 'WAVE'];

export const PROFILES: Readonly<Record<VesselKind, VesselProfile>> = {
  container: {
    kind: 'container',
    share: 0.22,
    shipTypes: [70, 71, 79],
    classB: false,
    lengthM: [170, 399],
    beamRatio: [0.14, 0.16],
    draughtM: [10, 16],
    speedKn: [15, 20],
    berthHours: [12, 36],
    anchorChance: 0.5,
    anchorHours: [2, 24],
    avoidSuezChance: 0.15,
    hasImo: true,
    names: [OCEAN_WORDS, CARGO_WORDS],
  },
  bulk: {
    kind: 'bulk',
    share: 0.2,
    shipTypes: [70, 70, 79],
    classB: false,
    lengthM: [180, 300],
    beamRatio: [0.15, 0.18],
    draughtM: [11, 18],
    speedKn: [11, 14],
    berthHours: [36, 96],
    anchorChance: 0.75,
    anchorHours: [6, 60],
    avoidSuezChance: 0.35,
    hasImo: true,
    names: [OCEAN_WORDS, CARGO_WORDS],
  },
  tanker: {
    kind: 'tanker',
    share: 0.16,
    shipTypes: [80, 81, 82, 83],
    classB: false,
    lengthM: [180, 333],
    beamRatio: [0.17, 0.19],
    draughtM: [11, 21],
    speedKn: [12, 15],
    berthHours: [24, 48],
    anchorChance: 0.7,
    anchorHours: [4, 48],
    avoidSuezChance: 0.35,
    hasImo: true,
    names: [TANKER_FIRST, TANKER_SECOND],
  },
  lng: {
    kind: 'lng',
    share: 0.04,
    shipTypes: [80, 84],
    classB: false,
    lengthM: [280, 299],
    beamRatio: [0.155, 0.17],
    draughtM: [11, 12.5],
    speedKn: [17, 19],
    berthHours: [24, 36],
    anchorChance: 0.4,
    anchorHours: [2, 24],
    avoidSuezChance: 0.3,
    hasImo: true,
    names: [LNG_FIRST, LNG_SECOND],
  },
  roro: {
    kind: 'roro',
    share: 0.06,
    shipTypes: [70, 79],
    classB: false,
    lengthM: [180, 230],
    beamRatio: [0.14, 0.16],
    draughtM: [8.5, 10.5],
    speedKn: [16, 19],
    berthHours: [10, 24],
    anchorChance: 0.3,
    anchorHours: [2, 12],
    avoidSuezChance: 0.2,
    hasImo: true,
    names: [RORO_FIRST, RORO_SECOND],
  },
  general: {
    kind: 'general',
    share: 0.08,
    shipTypes: [70, 79],
    classB: false,
    lengthM: [90, 160],
    beamRatio: [0.14, 0.17],
    draughtM: [5.5, 9],
    speedKn: [10, 13],
    berthHours: [24, 72],
    anchorChance: 0.5,
    anchorHours: [2, 36],
    avoidSuezChance: 0.1,
    hasImo: true,
    names: [GENERAL_FIRST, GENERAL_SECOND],
  },
  passenger: {
    kind: 'passenger',
    share: 0.06,
    shipTypes: [60, 69],
    classB: false,
    lengthM: [150, 330],
    beamRatio: [0.11, 0.14],
    draughtM: [6, 8.5],
    speedKn: [18, 22],
    berthHours: [0.75, 12],
    anchorChance: 0,
    anchorHours: [0, 0],
    avoidSuezChance: 0,
    hasImo: true,
    names: [PASSENGER_FIRST, PASSENGER_SECOND],
  },
  tug: {
    kind: 'tug',
    share: 0.09,
    shipTypes: [52],
    classB: false,
    lengthM: [24, 36],
    beamRatio: [0.33, 0.4],
    draughtM: [4, 6],
    speedKn: [8, 12],
    berthHours: [2, 10],
    anchorChance: 0,
    anchorHours: [0, 0],
    avoidSuezChance: 0,
    hasImo: true,
    names: [TUG_FIRST, TUG_SECOND],
  },
  fishing: {
    kind: 'fishing',
    share: 0.09,
    shipTypes: [30],
    classB: true,
    lengthM: [14, 38],
    beamRatio: [0.25, 0.3],
    draughtM: [2.5, 5],
    speedKn: [8, 10],
    berthHours: [8, 36],
    anchorChance: 0,
    anchorHours: [0, 0],
    avoidSuezChance: 0,
    hasImo: false,
    names: [FISHING_FIRST, FISHING_SECOND],
  },
  sts_storage: {
    kind: 'sts_storage',
    share: 0,
    shipTypes: [80],
    classB: false,
    lengthM: [320, 333],
    beamRatio: [0.18, 0.18],
    draughtM: [17, 21],
    speedKn: [12, 13],
    berthHours: [0, 0],
    anchorChance: 0,
    anchorHours: [0, 0],
    avoidSuezChance: 0,
    hasImo: true,
    names: [TANKER_FIRST, TANKER_SECOND],
  },
  sts_shuttle: {
    kind: 'sts_shuttle',
    share: 0,
    shipTypes: [80, 81],
    classB: false,
    lengthM: [180, 250],
    beamRatio: [0.17, 0.18],
    draughtM: [10, 14],
    speedKn: [12, 14],
    berthHours: [10, 20],
    anchorChance: 0.6,
    anchorHours: [1, 4],
    avoidSuezChance: 0,
    hasImo: true,
    names: [TANKER_FIRST, TANKER_SECOND],
  },
  // labelled vessels (docs/demo-fleet.md): tankers that stop at sea on each passage, cargo ships that go silent
  loiterer: {
    kind: 'loiterer',
    share: 0,
    shipTypes: [80, 81],
    classB: false,
    lengthM: [180, 250],
    beamRatio: [0.17, 0.18],
    draughtM: [10, 14],
    speedKn: [12, 14],
    berthHours: [6, 12],
    anchorChance: 0.3,
    anchorHours: [1, 3],
    avoidSuezChance: 0,
    hasImo: true,
    names: [TANKER_FIRST, TANKER_SECOND],
  },
  dark: {
    kind: 'dark',
    share: 0,
    shipTypes: [70, 79],
    classB: false,
    lengthM: [90, 160],
    beamRatio: [0.14, 0.17],
    draughtM: [5.5, 9],
    speedKn: [11, 13],
    berthHours: [6, 12],
    anchorChance: 0.3,
    anchorHours: [1, 3],
    avoidSuezChance: 0,
    hasImo: true,
    names: [GENERAL_FIRST, GENERAL_SECOND],
  },
};

/** The kinds that make up the ordinary fleet, in a fixed order. */
export const FLEET_KINDS: readonly VesselKind[] = ['container', 'bulk', 'tanker', 'lng', 'roro', 'general', 'passenger', 'tug', 'fishing'];
