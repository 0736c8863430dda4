/**
 * Canals, rivers and lakes that ships use but Natural Earth 1:10m draws as land (or leaves out): the
 * land check (src/routing/land-check.ts, decision 052) does not count a position inside one of them as
 * inland. Each is a corridor (a centre line and a half-width) or, for networks of inland waterways
 * that marnet follows, a box. Outlines drawn by Bosun from the published course of each waterway
 * (coordinates to about 0.05°, from public maps) around the marnet lines that run there; they are
 * deliberately generous across the channel and never reach out over open sea.
 */
import { closestFractionOnSegment } from '../geo/distance.js';

export interface Waterway {
  name: string;
  kind: 'canal' | 'river' | 'strait' | 'inland_waterways';
  /** A corridor: [lon, lat] centre line and half-width in km. */
  path?: readonly (readonly [number, number])[];
  halfWidthKm?: number;
  /** Or a box: [west, south, east, north]. */
  box?: readonly [number, number, number, number];
}

export const WATERWAYS_SOURCE = 'Bosun: corridors and boxes drawn from the published course of each waterway (public maps), around the marnet lines there';

export const WATERWAYS: readonly Waterway[] = [
  // Canals
  {
    name: 'Suez Canal',
    kind: 'canal',
    halfWidthKm: 4,
    path: [
      [32.3, 31.35],
      [32.31, 31.2],
      [32.32, 30.85],
      [32.28, 30.6],
      [32.35, 30.45],
      [32.42, 30.3],
      [32.57, 30.1],
      [32.56, 29.9],
    ],
  },
  {
    name: 'Panama Canal',
    kind: 'canal',
    halfWidthKm: 7,
    path: [
      [-79.92, 9.4],
      [-79.92, 9.27],
      [-79.85, 9.2],
      [-79.75, 9.14],
      [-79.69, 9.12],
      [-79.65, 9.05],
      [-79.59, 8.99],
      [-79.55, 8.88],
    ],
  },
  {
    name: 'Kiel Canal',
    kind: 'canal',
    halfWidthKm: 3,
    path: [
      [9.1, 53.88],
      [9.3, 54.0],
      [9.55, 54.2],
      [9.7, 54.3],
      [9.95, 54.33],
      [10.15, 54.37],
    ],
  },
  {
    name: 'Corinth Canal',
    kind: 'canal',
    halfWidthKm: 3,
    path: [
      [22.95, 37.95],
      [23.02, 37.9],
    ],
  },
  {
    name: 'Bosporus',
    kind: 'strait',
    halfWidthKm: 3,
    path: [
      [29.12, 41.25],
      [29.06, 41.15],
      [29.02, 41.06],
      [28.98, 41.0],
    ],
  },
  {
    name: 'Dardanelles',
    kind: 'strait',
    halfWidthKm: 3,
    path: [
      [26.15, 40.02],
      [26.38, 40.15],
      [26.42, 40.22],
      [26.62, 40.35],
      [26.72, 40.45],
    ],
  },
  // Rivers to ports
  {
    name: 'Nieuwe Waterweg and Maas to Rotterdam',
    kind: 'river',
    halfWidthKm: 4,
    path: [
      [4.0, 51.99],
      [4.2, 51.93],
      [4.35, 51.9],
      [4.5, 51.9],
    ],
  },
  {
    name: 'Scheldt to Antwerp',
    kind: 'river',
    halfWidthKm: 5,
    path: [
      [3.55, 51.42],
      [3.8, 51.4],
      [4.05, 51.38],
      [4.25, 51.35],
      [4.3, 51.3],
      [4.4, 51.23],
    ],
  },
  {
    name: 'Elbe to Hamburg and up to Lauenburg',
    kind: 'river',
    halfWidthKm: 5,
    path: [
      [8.6, 53.9],
      [8.9, 53.85],
      [9.2, 53.86],
      [9.4, 53.7],
      [9.55, 53.58],
      [9.8, 53.54],
      [10.05, 53.53],
      [10.25, 53.43],
      [10.55, 53.37],
    ],
  },
  {
    name: 'Weser to Bremen',
    kind: 'river',
    halfWidthKm: 5,
    path: [
      [8.3, 53.7],
      [8.55, 53.55],
      [8.5, 53.35],
      [8.6, 53.2],
      [8.8, 53.08],
    ],
  },
  {
    name: 'Ems to Emden and Papenburg',
    kind: 'river',
    halfWidthKm: 5,
    path: [
      [7.0, 53.45],
      [7.2, 53.35],
      [7.3, 53.2],
      [7.38, 53.0],
      [7.4, 52.8],
    ],
  },
  {
    name: 'Thames to London',
    kind: 'river',
    halfWidthKm: 5,
    path: [
      [1.6, 51.5],
      [1.0, 51.5],
      [0.6, 51.47],
      [0.3, 51.46],
      [0.0, 51.5],
      [-0.1, 51.5],
    ],
  },
  {
    name: 'Humber',
    kind: 'river',
    halfWidthKm: 5,
    path: [
      [0.25, 53.55],
      [-0.1, 53.62],
      [-0.4, 53.7],
      [-0.75, 53.7],
      [-1.0, 53.7],
    ],
  },
  {
    name: 'Seine to Rouen',
    kind: 'river',
    halfWidthKm: 5,
    path: [
      [0.0, 49.45],
      [0.3, 49.45],
      [0.55, 49.42],
      [0.8, 49.45],
      [1.1, 49.44],
    ],
  },
  {
    name: 'Loire to Nantes',
    kind: 'river',
    halfWidthKm: 5,
    path: [
      [-2.3, 47.25],
      [-2.0, 47.28],
      [-1.55, 47.2],
    ],
  },
  {
    name: 'Guadalquivir to Seville',
    kind: 'river',
    halfWidthKm: 5,
    path: [
      [-6.4, 36.78],
      [-6.3, 36.9],
      [-6.15, 37.05],
      [-6.0, 37.38],
    ],
  },
  {
    name: 'Shatt al-Arab and Khor Abdullah',
    kind: 'river',
    halfWidthKm: 8,
    path: [
      [48.8, 29.85],
      [48.6, 29.95],
      [48.3, 30.2],
      [48.0, 30.45],
      [47.8, 30.55],
    ],
  },
  {
    name: 'Congo River to Matadi',
    kind: 'river',
    halfWidthKm: 6,
    path: [
      [12.2, -6.05],
      [12.6, -5.95],
      [13.0, -5.85],
      [13.5, -5.8],
      [13.75, -5.82],
    ],
  },
  {
    name: 'Savannah River',
    kind: 'river',
    halfWidthKm: 3,
    path: [
      [-80.85, 32.03],
      [-80.95, 32.05],
      [-81.1, 32.08],
      [-81.15, 32.12],
    ],
  },
  {
    name: 'Houston Ship Channel',
    kind: 'river',
    halfWidthKm: 4,
    path: [
      [-94.75, 29.33],
      [-94.85, 29.45],
      [-94.98, 29.62],
      [-95.1, 29.72],
      [-95.28, 29.73],
    ],
  },
  {
    name: 'Mississippi to New Orleans and Baton Rouge',
    kind: 'river',
    halfWidthKm: 8,
    path: [
      [-89.1, 28.95],
      [-89.3, 29.2],
      [-89.5, 29.45],
      [-89.9, 29.8],
      [-90.1, 29.95],
      [-90.6, 30.05],
      [-91.2, 30.45],
    ],
  },
  {
    name: 'Delaware River to Philadelphia',
    kind: 'river',
    halfWidthKm: 6,
    path: [
      [-75.1, 38.8],
      [-75.35, 39.2],
      [-75.55, 39.55],
      [-75.4, 39.8],
      [-75.14, 39.95],
    ],
  },
  // New York: the 1:10m mask draws the Hudson and the East River as water but for a few narrows; narrow channels
  // (decision 136), so that nothing beside them (Bay Ridge, Queens, the Bronx) is exempted.
  {
    name: 'New York harbour: the Narrows, the Upper Bay and the Hudson',
    kind: 'river',
    halfWidthKm: 0.5,
    path: [
      [-74.03, 40.55],
      [-74.045, 40.61],
      [-74.05, 40.65],
      [-74.04, 40.68],
      [-74.02, 40.7],
      [-74.02, 40.72],
      [-74.01, 40.75],
      [-74.0, 40.77],
      [-73.98, 40.8],
    ],
  },
  {
    name: 'East River',
    kind: 'river',
    halfWidthKm: 0.5,
    path: [
      [-74.013, 40.7],
      [-73.997, 40.707],
      [-73.97, 40.713],
      [-73.962, 40.735],
      [-73.967, 40.752],
      [-73.955, 40.762],
      [-73.94, 40.775],
      [-73.928, 40.78],
      [-73.912, 40.79],
      [-73.885, 40.793],
      [-73.86, 40.8],
      [-73.83, 40.8],
      [-73.795, 40.805],
      [-73.78, 40.81],
    ],
  },
  {
    name: 'Columbia River to Portland',
    kind: 'river',
    halfWidthKm: 6,
    path: [
      [-124.1, 46.25],
      [-123.6, 46.25],
      [-123.2, 46.18],
      [-122.9, 46.1],
      [-122.8, 45.85],
      [-122.7, 45.6],
    ],
  },
  {
    name: 'Manchester Ship Canal and the Mersey',
    kind: 'canal',
    halfWidthKm: 4,
    path: [
      [-3.0, 53.38],
      [-2.8, 53.33],
      [-2.6, 53.38],
      [-2.45, 53.45],
      [-2.28, 53.47],
    ],
  },
  {
    name: 'Mississippi River Gulf Outlet and Lake Borgne',
    kind: 'canal',
    halfWidthKm: 6,
    path: [
      [-90.05, 30.04],
      [-89.85, 29.95],
      [-89.6, 29.8],
      [-89.3, 29.6],
      [-89.04, 29.47],
    ],
  },
  {
    name: 'Laguna Madre channel at Port Mansfield',
    kind: 'canal',
    halfWidthKm: 3,
    path: [
      [-97.43, 26.56],
      [-97.2, 26.555],
      [-96.96, 26.553],
    ],
  },
  {
    name: 'Cape Cod Canal',
    kind: 'canal',
    halfWidthKm: 3,
    path: [
      [-70.5, 41.88],
      [-70.5, 41.78],
      [-70.57, 41.76],
      [-70.64, 41.735],
      [-70.68, 41.65],
      [-70.706, 41.545],
    ],
  },
  {
    // the 1:10m mask closes the barrier beach at Port-Bouët: the canal that opens the Ébrié lagoon to the sea (decision 136)
    name: 'Vridi Canal to Abidjan',
    kind: 'canal',
    halfWidthKm: 0.3,
    path: [
      [-4.0105, 5.2425],
      [-4.008, 5.226],
    ],
  },
  {
    name: 'Karnaphuli River to Chittagong',
    kind: 'river',
    halfWidthKm: 3,
    path: [
      [91.74, 22.19],
      [91.79, 22.26],
      [91.82, 22.31],
    ],
  },
  {
    // the 1:10m mask draws the river as land from Kolkata down to the estuary off Haldia (88.08, 22.02)
    name: 'Hooghly to Kolkata (Calcutta) and Haldia',
    kind: 'river',
    halfWidthKm: 4,
    path: [
      [88.35, 22.58],
      [88.3, 22.54],
      [88.25, 22.52],
      [88.18, 22.48],
      [88.11, 22.46],
      [88.09, 22.38],
      [88.07, 22.3],
      [88.07, 22.23],
      [88.13, 22.2],
      [88.19, 22.18],
      [88.15, 22.1],
      [88.08, 22.02],
      [88.05, 21.95],
    ],
  },
  {
    name: 'Long Tau river to Ho Chi Minh City',
    kind: 'river',
    halfWidthKm: 4,
    path: [
      [107.05, 10.33],
      [107.0, 10.42],
      [106.93, 10.5],
      [106.85, 10.6],
      [106.77, 10.69],
    ],
  },
  {
    name: 'Świna to the Szczecin Lagoon',
    kind: 'river',
    halfWidthKm: 3,
    path: [
      [14.25, 54.0],
      [14.27, 53.91],
      [14.3, 53.82],
      [14.43, 53.75],
    ],
  },
  {
    name: 'Göta älv to Lake Vänern',
    kind: 'river',
    halfWidthKm: 5,
    path: [
      [11.7, 57.69],
      [11.95, 57.72],
      [12.0, 57.9],
      [12.2, 58.15],
      [12.3, 58.3],
    ],
  },
  // Networks of inland waterways marnet follows (boxes)
  { name: 'Lake Vänern', kind: 'inland_waterways', box: [12.2, 58.3, 14.2, 59.45] },
  { name: 'Lake Mälaren and the Södertälje Canal', kind: 'inland_waterways', box: [16.0, 58.95, 18.05, 59.7] },
  { name: 'Rhine, Maas and Scheldt inland waterways', kind: 'inland_waterways', box: [4.3, 50.4, 7.8, 52.3] },
  { name: 'IJsselmeer, the North Sea Canal and the Amsterdam–Rhine Canal', kind: 'inland_waterways', box: [4.6, 52.25, 6.1, 53.1] },
  { name: 'Dutch and German inland waterways to the Ems', kind: 'inland_waterways', box: [5.9, 52.2, 7.5, 53.35] },
  { name: 'Oder to Szczecin', kind: 'inland_waterways', box: [13.8, 52.5, 14.7, 53.75] },
  { name: 'Peene, Peenestrom and the Szczecin Lagoon', kind: 'inland_waterways', box: [13.0, 53.7, 14.0, 54.2] },
  { name: 'Elbe–Havel, Mittelland and Elbe Lateral canals (to Berlin and Braunschweig)', kind: 'inland_waterways', box: [9.75, 52.1, 14.5, 53.45] },
  { name: 'Fyris river to Uppsala', kind: 'inland_waterways', box: [17.5, 59.65, 17.75, 59.9] },
  { name: 'Vistula Lagoon', kind: 'inland_waterways', box: [19.4, 54.25, 20.6, 54.75] },
  { name: 'Volga–Don waterways', kind: 'inland_waterways', box: [38.9, 47.05, 50.3, 56.5] },
  { name: 'Neva, Lake Ladoga, Lake Onega and the Volga–Baltic waterway', kind: 'inland_waterways', box: [30.1, 59.05, 38.7, 63.0] },
  { name: 'Pechora', kind: 'inland_waterways', box: [52.9, 67.5, 54.5, 68.4] },
  { name: 'Yenisei', kind: 'inland_waterways', box: [80.5, 67.3, 86.8, 72.4] },
  { name: 'Great Lakes and the St. Lawrence Seaway', kind: 'inland_waterways', box: [-92.5, 41.3, -70.8, 49.5] },
  { name: 'Ohio and Mississippi river system', kind: 'inland_waterways', box: [-91.5, 30.4, -80.0, 41.3] },
  { name: 'Kuskokwim and Yukon', kind: 'inland_waterways', box: [-162.7, 59.6, -155.5, 63.0] },
];

const KM_PER_DEG = 111.195;

/**
 * Each waterway's bounding box [west, south, east, north]: its box, or its path widened by its half-width
 * (in longitude at the path's latitude farthest from the equator, so the box holds the whole corridor).
 */
const WATERWAY_BOUNDS: readonly (readonly [number, number, number, number])[] = WATERWAYS.map((w) => {
  if (w.box !== undefined) return w.box;
  const lons = w.path!.map((p) => p[0]);
  const lats = w.path!.map((p) => p[1]);
  const dLat = w.halfWidthKm! / KM_PER_DEG;
  const maxAbsLat = Math.min(89, Math.max(...lats.map((l) => Math.abs(l))) + dLat);
  const dLon = dLat / Math.cos((maxAbsLat * Math.PI) / 180);
  return [Math.min(...lons) - dLon, Math.min(...lats) - dLat, Math.max(...lons) + dLon, Math.max(...lats) + dLat];
});

/** Per 1° cell (from -180, -90) that a waterway's bounding box touches, those waterways in list order (other cells hold none). */
const WATERWAYS_BY_CELL = new Map<number, number[]>();
WATERWAY_BOUNDS.forEach(([west, south, east, north], i) => {
  for (let y = Math.max(0, Math.floor(south + 90)); y <= Math.min(179, Math.floor(north + 90)); y++) {
    for (let x = Math.max(0, Math.floor(west + 180)); x <= Math.min(359, Math.floor(east + 180)); x++) {
      const cell = y * 360 + x;
      WATERWAYS_BY_CELL.set(cell, [...(WATERWAYS_BY_CELL.get(cell) ?? []), i]);
    }
  }
});
const NO_WATERWAY: readonly number[] = [];
const EVERY_WATERWAY: readonly number[] = WATERWAYS.map((_, i) => i);

/** The waterway containing the point, or null (hot: asked for every sampled point of a route near a coast). */
export function waterwayAt(lon: number, lat: number): Waterway | null {
  const inGrid = lon >= -180 && lon <= 180 && lat >= -90 && lat <= 90;
  const candidates = inGrid ? (WATERWAYS_BY_CELL.get(Math.min(179, Math.floor(lat + 90)) * 360 + Math.min(359, Math.floor(lon + 180))) ?? NO_WATERWAY) : EVERY_WATERWAY;
  for (let k = 0; k < candidates.length; k++) {
    const i = candidates[k]!;
    const [west, south, east, north] = WATERWAY_BOUNDS[i]!;
    if (lon < west || lon > east || lat < south || lat > north) continue;
    const w = WATERWAYS[i]!;
    if (w.box !== undefined || nearPath(lon, lat, w.path!, w.halfWidthKm!)) return w;
  }
  return null;
}

/** Within `km` of the polyline (local equirectangular plane: the corridors are short). */
function nearPath(lon: number, lat: number, path: readonly (readonly [number, number])[], km: number): boolean {
  const k = Math.cos((lat * Math.PI) / 180);
  const limit = (km / KM_PER_DEG) ** 2;
  for (let i = 0; i + 1 < path.length; i++) {
    const [ax, ay] = path[i]!;
    const [bx, by] = path[i + 1]!;
    const t = closestFractionOnSegment(lon, lat, ax, ay, bx, by, k);
    const dx = (lon - ax) * k - t * ((bx - ax) * k);
    const dy = lat - ay - t * (by - ay);
    if (dx * dx + dy * dy <= limit) return true;
  }
  return false;
}
