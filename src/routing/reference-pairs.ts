/**
 * Independent references for the sea routing engine (issue 28, decision 080): port pairs with distances
 * published by others, each with its source, and the great circle between the two ports. The engine is
 * never judged against its own output. Used by `bench/routing/reference-main.ts` and the routes
 * benchmark (release readiness).
 */

export interface ReferencePair {
  from: string;
  to: string;
  /** Passages the published route avoids (the published route goes another way). */
  avoid: string | null;
  label: string;
  /** Published distance in nm: one figure (min = max) or the range the source gives. */
  published_nm: { min: number; max: number };
  /** Who published it (the table or page and the figure as given). */
  source: string;
  /** Short-sea: a published distance under 100 nm (held to 5 %). */
  short_sea: boolean;
}

const PROVENANCE = 'shared/data/PROVENANCE.md "Reference distances"';
const PUB151 = 'NGA Pub. 151, Distances Between Ports (2001)';
const NOAA = 'NOAA, Distances Between United States Ports (13th ed., 2019)';

export const REFERENCE_PAIRS: readonly ReferencePair[] = [
  { from: 'NLRTM', to: 'SGSIN', avoid: null, label: 'Rotterdam – Singapore via Suez', published_nm: { min: 8300, max: 8400 }, source: `${PROVENANCE}: ≈ 8,300–8,400 nm`, short_sea: false },
  { from: 'NLRTM', to: 'SGSIN', avoid: 'suez', label: 'Rotterdam – Singapore via the Cape', published_nm: { min: 11700, max: 11900 }, source: `${PROVENANCE}: ≈ 11,700–11,900 nm`, short_sea: false },
  { from: 'USHOU', to: 'NLRTM', avoid: null, label: 'Houston – Rotterdam', published_nm: { min: 5070, max: 5070 }, source: `${PROVENANCE}: ≈ 5,070 nm`, short_sea: false },
  { from: 'USLAX', to: 'USNYC', avoid: null, label: 'Los Angeles – New York via Panama', published_nm: { min: 4950, max: 5000 }, source: `${PROVENANCE}: 4,950–5,000 nm`, short_sea: false },
  { from: 'JPYOK', to: 'CAVAN', avoid: null, label: 'Yokohama – Vancouver', published_nm: { min: 4260, max: 4260 }, source: 'issue 28: published ≈ 4,260 nm', short_sea: false },
  { from: 'GBDVR', to: 'FRCQF', avoid: null, label: 'Dover – Calais', published_nm: { min: 22, max: 25 }, source: 'issue 28: ≈ 22–25 nm (the ferry crossing)', short_sea: true },
  { from: 'USNYC', to: 'LKCMB', avoid: null, label: 'New York – Colombo via Gibraltar and Suez', published_nm: { min: 8604, max: 8604 }, source: `${PUB151}: 8,604 nm`, short_sea: false },
  { from: 'USSFO', to: 'USHNL', avoid: null, label: 'San Francisco – Honolulu', published_nm: { min: 2091, max: 2091 }, source: `${NOAA}: 2,091 nm`, short_sea: false },
  {
    from: 'USLAX',
    to: 'USHNL',
    avoid: null,
    label: 'Los Angeles – Honolulu',
    published_nm: { min: 2225, max: 2228 },
    source: `${NOAA}: 2,228 nm (Los Angeles); the Transpac race course from Point Fermin 2,225 nm`,
    short_sea: false,
  },
  { from: 'USSFO', to: 'JPYOK', avoid: null, label: 'San Francisco – Yokohama', published_nm: { min: 4536, max: 4536 }, source: `${PUB151}: 4,536 nm`, short_sea: false },
  { from: 'USHNL', to: 'JPYOK', avoid: null, label: 'Honolulu – Yokohama', published_nm: { min: 3394, max: 3394 }, source: `${PUB151}: 3,394 nm`, short_sea: false },
  { from: 'USSFO', to: 'PABLB', avoid: null, label: 'San Francisco – Balboa (Panama)', published_nm: { min: 3245, max: 3245 }, source: `${PUB151}: 3,245 nm`, short_sea: false },
  { from: 'USNYC', to: 'PACTB', avoid: null, label: 'New York – Cristóbal (Panama)', published_nm: { min: 1974, max: 1974 }, source: `${PUB151}: 1,974 nm`, short_sea: false },
  { from: 'SGSIN', to: 'HKHKG', avoid: null, label: 'Singapore – Hong Kong', published_nm: { min: 1460, max: 1460 }, source: `${PUB151}: 1,460 nm`, short_sea: false },
  { from: 'HKHKG', to: 'JPYOK', avoid: null, label: 'Hong Kong – Yokohama', published_nm: { min: 1576, max: 1576 }, source: `${PUB151}: 1,576 nm`, short_sea: false },
  { from: 'SGSIN', to: 'LKCMB', avoid: null, label: 'Singapore – Colombo', published_nm: { min: 1570, max: 1570 }, source: `${PUB151}: 1,570 nm`, short_sea: false },
  { from: 'LKCMB', to: 'YEADE', avoid: null, label: 'Colombo – Aden', published_nm: { min: 2093, max: 2093 }, source: `${PUB151}: 2,093 nm`, short_sea: false },
  { from: 'EGPSD', to: 'GIGIB', avoid: null, label: 'Port Said – Gibraltar', published_nm: { min: 1912, max: 1912 }, source: `${PUB151}: 1,912 nm`, short_sea: false },
  { from: 'AUSYD', to: 'NZAKL', avoid: null, label: 'Sydney – Auckland', published_nm: { min: 1281, max: 1281 }, source: `${PUB151}: 1,281 nm`, short_sea: false },
  {
    from: 'USNYC',
    to: 'GBSOU',
    avoid: null,
    label: 'New York – Southampton',
    published_nm: { min: 3100, max: 3200 },
    source: `${PUB151}: 3,100–3,200 nm by season (the North Atlantic track routes)`,
    short_sea: false,
  },
  {
    from: 'FIHEL',
    to: 'EETLL',
    avoid: null,
    label: 'Helsinki – Tallinn',
    published_nm: { min: 43, max: 47 },
    source: 'ferry operators (Tallink, Viking Line, Eckerö): 80–85 km (43–46 nm)',
    short_sea: true,
  },
];

/** Deviation of a distance from a published figure or range: 0 inside the range, else signed fraction of the nearer bound. */
export function referenceDeviation(distanceNm: number, published: { min: number; max: number }): number {
  if (distanceNm < published.min) return (distanceNm - published.min) / published.min;
  if (distanceNm > published.max) return (distanceNm - published.max) / published.max;
  return 0;
}

/** Done means of issue 28: median |deviation| within 2 %, none beyond 4 %; short-sea pairs within 5 %. */
export const REFERENCE_MEDIAN_TOLERANCE = 0.02;
export const REFERENCE_MAX_TOLERANCE = 0.04;
export const SHORT_SEA_TOLERANCE = 0.05;
/** Open-ocean pairs (the great circle between them stays at sea): at most this factor of the great circle. */
export const OPEN_OCEAN_GC_FACTOR = 1.02;
