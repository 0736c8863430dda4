/**
 * The sea network as a compact graph: node coordinates, CSR adjacency, edge lengths in nautical
 * miles (great-circle segment lengths) and a passage id per edge (docs/routing.md, decision 032).
 */
import { distanceNm } from '../geo/distance.js';

/** One marnet LineString: its `pass` property and its coordinates as [lon, lat] pairs. */
export interface NetworkLine {
  pass: string | null;
  coordinates: readonly (readonly [number, number])[];
}

export type PassageKind = 'canal' | 'strait' | 'cape' | 'arctic';

export interface PassageInfo {
  /** Bit index in an exclusion mask; 0 is never used (edges without a passage carry 0). */
  index: number;
  id: string;
  name: string;
  kind: PassageKind;
  /** marnet: the network's own `pass` attribute; gate: edges crossing a line drawn here (see GATES). */
  source: 'marnet' | 'gate';
}

/** Passages of the marnet `pass` attribute, then those Bosun marks itself with gates. Indices are stable. */
export const PASSAGES: readonly PassageInfo[] = [
  { index: 1, id: 'suez', name: 'Suez Canal', kind: 'canal', source: 'marnet' },
  { index: 2, id: 'panama', name: 'Panama Canal', kind: 'canal', source: 'marnet' },
  { index: 3, id: 'malacca', name: 'Strait of Malacca', kind: 'strait', source: 'marnet' },
  { index: 4, id: 'gibraltar', name: 'Strait of Gibraltar', kind: 'strait', source: 'marnet' },
  { index: 5, id: 'dover', name: 'Strait of Dover', kind: 'strait', source: 'marnet' },
  { index: 6, id: 'bering', name: 'Bering Strait', kind: 'strait', source: 'marnet' },
  { index: 7, id: 'magellan', name: 'Strait of Magellan', kind: 'strait', source: 'marnet' },
  { index: 8, id: 'babelmandeb', name: 'Bab-el-Mandeb', kind: 'strait', source: 'marnet' },
  { index: 9, id: 'kiel', name: 'Kiel Canal', kind: 'canal', source: 'marnet' },
  { index: 10, id: 'corinth', name: 'Corinth Canal', kind: 'canal', source: 'marnet' },
  { index: 11, id: 'northwest', name: 'Northwest Passage', kind: 'arctic', source: 'marnet' },
  { index: 12, id: 'northeast', name: 'Northeast Passage (Northern Sea Route)', kind: 'arctic', source: 'marnet' },
  { index: 13, id: 'bosporus', name: 'Bosporus', kind: 'strait', source: 'gate' },
  { index: 14, id: 'hormuz', name: 'Strait of Hormuz', kind: 'strait', source: 'gate' },
  { index: 15, id: 'good_hope', name: 'Cape of Good Hope', kind: 'cape', source: 'gate' },
  { index: 16, id: 'cape_horn', name: 'Cape Horn (Drake Passage)', kind: 'cape', source: 'gate' },
];

/** Other spellings accepted where a passage is named (avoid=, closed=). */
export const PASSAGE_ALIASES: Readonly<Record<string, string>> = {
  bab_el_mandeb: 'babelmandeb',
  'bab-el-mandeb': 'babelmandeb',
  bosphorus: 'bosporus',
  cape_of_good_hope: 'good_hope',
  cape: 'good_hope',
  horn: 'cape_horn',
  drake: 'cape_horn',
  nsr: 'northeast',
  northern_sea_route: 'northeast',
};

/**
 * Passages marnet does not label: an edge whose segment crosses the gate line (lon/lat, planar; all
 * gates are short or follow a meridian) belongs to the passage. The capes are meridian lines from the
 * coast to Antarctica, so every route round them crosses exactly one gate edge.
 */
const GATES: Readonly<Record<string, readonly [[number, number], [number, number]]>> = {
  bosporus: [
    [29.0, 41.12],
    [29.1, 41.12],
  ],
  hormuz: [
    [56.3, 26.75],
    [56.3, 25.2],
  ],
  good_hope: [
    [20.0, -34.85],
    [20.0, -75],
  ],
  cape_horn: [
    [-67.3, -55.9],
    [-67.3, -75],
  ],
};

const passageByKey = new Map(PASSAGES.map((p) => [p.id, p]));

/** The passage a name designates (an id or an alias, case and spaces ignored), or undefined. */
export function passageByName(name: string): PassageInfo | undefined {
  const key = name.trim().toLowerCase().replace(/[\s]+/g, '_');
  return passageByKey.get(PASSAGE_ALIASES[key] ?? key);
}

/** The passage of index `index` (1..PASSAGES.length). */
export function passageAt(index: number): PassageInfo {
  const passage = PASSAGES[index - 1];
  if (passage === undefined) throw new Error(`no passage ${index}`);
  return passage;
}

export interface SeaGraph {
  nodeCount: number;
  edgeCount: number;
  lat: Float64Array;
  lon: Float64Array;
  /** CSR: the arcs of node n are offsets[n] .. offsets[n+1]-1 in target/arcEdge. */
  offsets: Int32Array;
  target: Int32Array;
  arcEdge: Int32Array;
  /** Per undirected edge: its two nodes, length in nm and passage index (0: none). */
  edgeA: Int32Array;
  edgeB: Int32Array;
  edgeNm: Float64Array;
  edgePassage: Uint8Array;
}

function segmentsCross(p1: readonly [number, number], p2: readonly [number, number], q1: readonly [number, number], q2: readonly [number, number]): boolean {
  const orient = (a: readonly [number, number], b: readonly [number, number], c: readonly [number, number]) => Math.sign((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]));
  return orient(p1, p2, q1) !== orient(p1, p2, q2) && orient(q1, q2, p1) !== orient(q1, q2, p2);
}

/**
 * Builds the graph: every vertex of every line is a node (lines meet at shared vertices), every
 * consecutive pair an edge. Longitude -180 is written as 180, which joins the two sides of the
 * antimeridian: the network's lines end on it at the same latitudes.
 */
export function buildSeaGraph(lines: readonly NetworkLine[]): SeaGraph {
  const ids = new Map<string, number>();
  const lats: number[] = [];
  const lons: number[] = [];
  const node = (lon: number, lat: number) => {
    const l = lon === -180 ? 180 : lon;
    const key = `${l},${lat}`;
    let id = ids.get(key);
    if (id === undefined) {
      id = lats.length;
      ids.set(key, id);
      lats.push(lat);
      lons.push(l);
    }
    return id;
  };
  const a: number[] = [];
  const b: number[] = [];
  const nm: number[] = [];
  const passage: number[] = [];
  const seen = new Set<string>();
  for (const line of lines) {
    const fromAttribute = line.pass === null ? 0 : (passageByName(line.pass)?.index ?? 0);
    for (let i = 1; i < line.coordinates.length; i++) {
      const p = line.coordinates[i - 1]!;
      const q = line.coordinates[i]!;
      const u = node(p[0], p[1]);
      const v = node(q[0], q[1]);
      const key = u < v ? `${u}:${v}` : `${v}:${u}`;
      if (u === v || seen.has(key)) continue;
      seen.add(key);
      let pass = fromAttribute;
      if (pass === 0) {
        for (const [id, gate] of Object.entries(GATES)) {
          if (segmentsCross(p, q, gate[0], gate[1])) pass = passageByKey.get(id)!.index;
        }
      }
      a.push(u);
      b.push(v);
      nm.push(distanceNm(p[1], p[0], q[1], q[0]));
      passage.push(pass);
    }
  }
  const nodeCount = lats.length;
  const edgeCount = a.length;
  const degree = new Int32Array(nodeCount + 1);
  for (let e = 0; e < edgeCount; e++) {
    degree[a[e]! + 1]!++;
    degree[b[e]! + 1]!++;
  }
  const offsets = new Int32Array(nodeCount + 1);
  for (let n = 0; n < nodeCount; n++) offsets[n + 1] = offsets[n]! + degree[n + 1]!;
  const fill = offsets.slice(0, nodeCount);
  const target = new Int32Array(edgeCount * 2);
  const arcEdge = new Int32Array(edgeCount * 2);
  for (let e = 0; e < edgeCount; e++) {
    const u = a[e]!;
    const v = b[e]!;
    target[fill[u]!] = v;
    arcEdge[fill[u]!++] = e;
    target[fill[v]!] = u;
    arcEdge[fill[v]!++] = e;
  }
  return {
    nodeCount,
    edgeCount,
    lat: Float64Array.from(lats),
    lon: Float64Array.from(lons),
    offsets,
    target,
    arcEdge,
    edgeA: Int32Array.from(a),
    edgeB: Int32Array.from(b),
    edgeNm: Float64Array.from(nm),
    edgePassage: Uint8Array.from(passage),
  };
}

/** Bytes held by the graph's typed arrays. */
export function graphBytes(g: SeaGraph): number {
  return [g.lat, g.lon, g.offsets, g.target, g.arcEdge, g.edgeA, g.edgeB, g.edgeNm, g.edgePassage].reduce((sum, arr) => sum + arr.byteLength, 0);
}
