/**
 * Port areas (issue 26, docs/decisions/116): where a port's ships lie, as cells of a grid merged into
 * areas, each `berth` or `anchorage`, with its provenance and evidence. A pure function of one facts
 * object: the Global Fishing Watch anchorage points the port table assigns to each port, and the
 * stops of stored port calls (where a vessel lay, at which port, and whether it swung at anchor).
 *
 * - `gfw`: the cells holding a port's GFW points, neighbouring cells merged into one area;
 * - `learnt`: cells outside every GFW area where at least `minVessels` distinct vessels stopped, each
 *   cell for one port (of those whose calls stopped there, the one with the nearest charted point), merged with neighbours of the same kind and
 *   split at density gaps (decision 122), attached to the port the calls were at (the port-call detector's choice:
 *   nearest port within 30 km, decision 075), so an area no point marks becomes an object of its own;
 * - kind by behaviour: `anchorage` when most of the area's stops with a known kind were at anchor
 *   (swinging, or AIS status 1: decision 076), `berth` when most were alongside; a GFW area without
 *   any stop is `anchorage` (what GFW charts), with confidence 0.5;
 * - confidence: (stops agreeing with the kind + 1) / (stops + 2), so evidence moves it from 0.5.
 */
export const PORT_AREA_CELL_DEG = 0.005;

export interface PortAreaFacts {
  /** GFW anchorage points by port (the port table's `anchorages`). */
  gfwPoints: ReadonlyArray<{ portId: number; lat: number; lon: number }>;
  /**
   * The charted points of the ports (positions and anchorage points): a cell where the calls of several
   * ports stopped is learnt for the one with the nearest point (without them: the most vessels).
   */
  portPoints?: ReadonlyArray<{ portId: number; lat: number; lon: number }>;
  /** Stops of stored port calls. */
  stops: ReadonlyArray<{ portId: number; vslId: string; lat: number; lon: number; kind: 'berth' | 'anchorage' }>;
}

export interface PortAreaParameters {
  /** Distinct vessels that must have stopped in a cell for it to be learnt. */
  minVessels: number;
  /**
   * Two neighbouring learnt areas around separate peaks of vessels per cell stay apart unless the
   * cells joining them hold at least this share of the lower peak's vessels (a density gap splits a
   * busy channel into its terminals; decision 122).
   */
  saddleShare: number;
}

export const PORT_AREA_PARAMETERS: PortAreaParameters = { minVessels: 2, saddleShare: 0.5 };

export interface PortArea {
  portId: number;
  /**
   * Stable key `port_id:row:col` of the area's anchor cell (the cell with most stops, else most GFW
   * points; the first such in row, col order): area ids change at every rebuild, the key does not while
   * the area's busiest cell stays (operator corrections name areas by it; decision 121).
   */
  key: string;
  provenance: 'gfw' | 'learnt';
  kind: 'berth' | 'anchorage';
  /** Grid cells [row, col] of PORT_AREA_CELL_DEG, sorted. */
  cells: Array<[number, number]>;
  /** Mean of the cells' centres. */
  lat: number;
  lon: number;
  confidence: number;
  vessels: number;
  stops: number;
  anchorStops: number;
  gfwPoints: number;
}

const cellOf = (lat: number, lon: number): [number, number] => [Math.floor(lat / PORT_AREA_CELL_DEG), Math.floor(lon / PORT_AREA_CELL_DEG)];
const keyOf = (row: number, col: number) => `${row}:${col}`;

/** Connected groups (8-neighbour) of a set of cells; `joins` may refuse a link between two neighbours. */
function components(cells: ReadonlySet<string>, joins: (a: string, b: string) => boolean = () => true): Array<Array<[number, number]>> {
  const seen = new Set<string>();
  const groups: Array<Array<[number, number]>> = [];
  for (const start of [...cells].sort()) {
    if (seen.has(start)) continue;
    seen.add(start);
    const group: Array<[number, number]> = [];
    const queue = [start];
    while (queue.length > 0) {
      const [row, col] = queue.pop()!.split(':').map(Number) as [number, number];
      group.push([row, col]);
      for (let dr = -1; dr <= 1; dr++)
        for (let dc = -1; dc <= 1; dc++) {
          const next = keyOf(row + dr, col + dc);
          if (cells.has(next) && !seen.has(next) && joins(keyOf(row, col), next)) {
            seen.add(next);
            queue.push(next);
          }
        }
    }
    groups.push(group.sort((a, b) => a[0] - b[0] || a[1] - b[1]));
  }
  return groups;
}

/**
 * Splits a connected group of learnt cells at density gaps (decision 122): each cell drains to its
 * neighbour with the most vessels (a watershed over vessels per cell), each peak's basin is an area,
 * and two touching basins merge only when the best pair of neighbouring cells across their border
 * both hold at least `saddleShare` of the lower peak's vessels.
 */
function splitAtGaps(group: ReadonlyArray<[number, number]>, vesselsAt: (key: string) => number, saddleShare: number): Array<Array<[number, number]>> {
  const keys = group.map(([r, c]) => keyOf(r, c));
  const inGroup = new Set(keys);
  const neighbours = (row: number, col: number) => {
    const out: string[] = [];
    for (let dr = -1; dr <= 1; dr++) for (let dc = -1; dc <= 1; dc++) if ((dr || dc) && inGroup.has(keyOf(row + dr, col + dc))) out.push(keyOf(row + dr, col + dc));
    return out;
  };
  // a strict order: more vessels first, then the key (so flat plateaus drain one way)
  const higher = (a: string, b: string) => vesselsAt(a) > vesselsAt(b) || (vesselsAt(a) === vesselsAt(b) && a < b);
  const next = new Map<string, string>();
  for (const [row, col] of group) {
    const key = keyOf(row, col);
    let best = key;
    for (const n of neighbours(row, col)) if (higher(n, best)) best = n;
    next.set(key, best);
  }
  const peakOf = (key: string): string => {
    let k = key;
    while (next.get(k) !== k) k = next.get(k)!;
    return k;
  };
  const basin = new Map(keys.map((k) => [k, peakOf(k)]));
  // union of basins whose saddle is high enough against the lower peak
  const parent = new Map<string, string>();
  const find = (k: string): string => {
    let r = k;
    while (parent.has(r)) r = parent.get(r)!;
    return r;
  };
  const saddles = new Map<string, number>();
  for (const [row, col] of group) {
    const a = keyOf(row, col);
    for (const b of neighbours(row, col)) {
      const [pa, pb] = [basin.get(a)!, basin.get(b)!];
      if (pa >= pb) continue;
      const pair = `${pa}|${pb}`;
      saddles.set(pair, Math.max(saddles.get(pair) ?? 0, Math.min(vesselsAt(a), vesselsAt(b))));
    }
  }
  for (const [pair, saddle] of [...saddles].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1))) {
    const [pa, pb] = pair.split('|') as [string, string];
    const [ra, rb] = [find(pa), find(pb)];
    if (ra === rb) continue;
    if (saddle >= saddleShare * Math.min(vesselsAt(pa), vesselsAt(pb))) parent.set(ra < rb ? rb : ra, ra < rb ? ra : rb);
  }
  const parts = new Map<string, Array<[number, number]>>();
  for (const [row, col] of group) {
    const root = find(basin.get(keyOf(row, col))!);
    const part = parts.get(root) ?? [];
    parts.set(root, part);
    part.push([row, col]);
  }
  return [...parts.values()];
}

interface CellEvidence {
  vessels: Set<string>;
  stops: number;
  anchorStops: number;
  gfwPoints: number;
}

export function buildPortAreas(facts: PortAreaFacts, params: PortAreaParameters = PORT_AREA_PARAMETERS): PortArea[] {
  // evidence per port and cell
  const byPort = new Map<number, Map<string, CellEvidence>>();
  const evidence = (portId: number, lat: number, lon: number) => {
    const cells = byPort.get(portId) ?? new Map<string, CellEvidence>();
    byPort.set(portId, cells);
    const key = keyOf(...cellOf(lat, lon));
    const cell = cells.get(key) ?? { vessels: new Set<string>(), stops: 0, anchorStops: 0, gfwPoints: 0 };
    cells.set(key, cell);
    return cell;
  };
  for (const p of facts.gfwPoints) evidence(p.portId, p.lat, p.lon).gfwPoints++;
  for (const s of facts.stops) {
    const cell = evidence(s.portId, s.lat, s.lon);
    cell.vessels.add(s.vslId);
    cell.stops++;
    if (s.kind === 'anchorage') cell.anchorStops++;
  }

  // a cell is learnt for one port only, so the areas of neighbouring ports do not overlap (a vessel in a call at one port may stop
  // within another's reach): of the ports whose calls stopped there, the one with the nearest charted point, else the most distinct
  // vessels (then most stops, then the lower port_id)
  const pointsOf = new Map<number, Array<{ lat: number; lon: number }>>();
  for (const p of facts.portPoints ?? []) (pointsOf.get(p.portId) ?? pointsOf.set(p.portId, []).get(p.portId)!).push(p);
  const nearestM = (portId: number, key: string) => {
    const [row, col] = key.split(':').map(Number) as [number, number];
    const [lat, lon] = [(row + 0.5) * PORT_AREA_CELL_DEG, (col + 0.5) * PORT_AREA_CELL_DEG];
    const cos = Math.cos((lat * Math.PI) / 180);
    let best = Infinity;
    for (const p of pointsOf.get(portId) ?? []) best = Math.min(best, Math.hypot(p.lat - lat, (p.lon - lon) * cos));
    return best;
  };
  const owner = new Map<string, { portId: number; distance: number; vessels: number; stops: number }>();
  for (const portId of [...byPort.keys()].sort((a, b) => a - b)) {
    for (const [key, c] of byPort.get(portId)!) {
      if (c.stops === 0) continue;
      const best = owner.get(key);
      const candidate = { portId, distance: pointsOf.size > 0 ? nearestM(portId, key) : 0, vessels: c.vessels.size, stops: c.stops };
      const better =
        !best ||
        candidate.distance < best.distance ||
        (candidate.distance === best.distance && (candidate.vessels > best.vessels || (candidate.vessels === best.vessels && candidate.stops > best.stops)));
      if (better) owner.set(key, candidate);
    }
  }

  const areas: PortArea[] = [];
  for (const portId of [...byPort.keys()].sort((a, b) => a - b)) {
    const cells = byPort.get(portId)!;
    const gfw = new Set([...cells].filter(([, c]) => c.gfwPoints > 0).map(([k]) => k));
    const learnt = new Set([...cells].filter(([k, c]) => !gfw.has(k) && c.vessels.size >= params.minVessels && owner.get(k)?.portId === portId).map(([k]) => k));
    // learnt cells merge only with neighbours of their own kind (berths and anchored ships side by side stay apart), then split at density gaps (decision 122)
    const cellKind = (k: string) => (cells.get(k)!.anchorStops * 2 > cells.get(k)!.stops ? 'anchorage' : 'berth');
    const vesselsAt = (k: string) => cells.get(k)!.vessels.size;
    const groups: Array<['gfw' | 'learnt', Array<[number, number]>]> = [
      ...components(gfw).map((g) => ['gfw', g] as ['gfw', Array<[number, number]>]),
      ...components(learnt, (a, b) => cellKind(a) === cellKind(b)).flatMap((g) =>
        splitAtGaps(g, vesselsAt, params.saddleShare).map((part) => ['learnt', part.sort((a, b) => a[0] - b[0] || a[1] - b[1])] as ['learnt', Array<[number, number]>]),
      ),
    ];
    {
      for (const [provenance, group] of groups) {
        const vessels = new Set<string>();
        let stops = 0;
        let anchorStops = 0;
        let gfwPoints = 0;
        for (const [row, col] of group) {
          const c = cells.get(keyOf(row, col))!;
          for (const v of c.vessels) vessels.add(v);
          stops += c.stops;
          anchorStops += c.anchorStops;
          gfwPoints += c.gfwPoints;
        }
        const kind = stops === 0 || anchorStops * 2 > stops ? 'anchorage' : 'berth';
        const agreeing = kind === 'anchorage' ? anchorStops : stops - anchorStops;
        // the anchor cell: most stops, else most GFW points, the first in row, col order on a tie (group is sorted)
        let anchor = group[0]!;
        let best = -1;
        for (const [row, col] of group) {
          const c = cells.get(keyOf(row, col))!;
          const weight = c.stops * 1_000_000 + c.gfwPoints;
          if (weight > best) [anchor, best] = [[row, col], weight];
        }
        areas.push({
          portId,
          key: areaKey(portId, anchor),
          provenance,
          kind,
          cells: group,
          lat: round5(group.reduce((sum, [row]) => sum + (row + 0.5) * PORT_AREA_CELL_DEG, 0) / group.length),
          lon: round5(group.reduce((sum, [, col]) => sum + (col + 0.5) * PORT_AREA_CELL_DEG, 0) / group.length),
          confidence: Math.round(((agreeing + 1) / (stops + 2)) * 100) / 100,
          vessels: vessels.size,
          stops,
          anchorStops,
          gfwPoints,
        });
      }
    }
  }
  return areas;
}

const round5 = (x: number) => Math.round(x * 1e5) / 1e5;

/** The stable key of an area: its port and anchor cell. */
export const areaKey = (portId: number, [row, col]: readonly [number, number]) => `${portId}:${row}:${col}`;

/** The grid cell holding a position. */
export const areaCellOf = cellOf;

/** The area's cells as a GeoJSON MultiPolygon (one square per cell, counter-clockwise: RFC 7946). */
export function areaGeometry(cells: ReadonlyArray<readonly [number, number]>): { type: 'MultiPolygon'; coordinates: number[][][][] } {
  const d = PORT_AREA_CELL_DEG;
  return {
    type: 'MultiPolygon',
    coordinates: cells.map(([row, col]) => {
      const [s, w, n, e] = [round5(row * d), round5(col * d), round5((row + 1) * d), round5((col + 1) * d)];
      return [
        [
          [w, s],
          [e, s],
          [e, n],
          [w, n],
          [w, s],
        ],
      ];
    }),
  };
}

/** A stored area as the detector reads it (a `port_areas` row, parsed). */
export interface StoredPortArea {
  portId: number;
  provenance: 'gfw' | 'learnt' | 'operator';
  kind: 'berth' | 'anchorage';
  cells: ReadonlyArray<readonly [number, number]>;
  /** Operator rows: the cells of the area they correct, which no older area claims any more (decision 121). */
  masks?: ReadonlyArray<readonly [number, number]> | null;
  /** Stops the kind was learnt from (0: a GFW area's default kind, no evidence). */
  stops: number;
  updatedAt: number;
}

/** The area a cell belongs to, as the detector uses it. */
export interface AreaHit {
  portId: number;
  kind: 'berth' | 'anchorage';
  provenance: StoredPortArea['provenance'];
  /** Whether the kind rests on evidence (stops seen there, or the operator's word). */
  evidence: boolean;
}

/**
 * The cells each stored area holds once corrections are laid over them (decision 121): operator areas
 * first, newest first, then gfw, then learnt; a cell belongs to the first area that claims it, and the
 * cells an operator area masks (the area it corrects: moved, reclassified or removed) are claimed by no
 * older or built area. Areas left without cells are omitted.
 */
export function effectiveAreas<A extends StoredPortArea>(areas: readonly A[]): Array<{ area: A; cells: Array<[number, number]> }> {
  const rank = { operator: 0, gfw: 1, learnt: 2 } as const;
  const sorted = [...areas].sort((a, b) => rank[a.provenance] - rank[b.provenance] || (a.provenance === 'operator' ? b.updatedAt - a.updatedAt : 0));
  const masked = new Set<string>();
  const claimed = new Set<string>();
  const out: Array<{ area: A; cells: Array<[number, number]> }> = [];
  for (const area of sorted) {
    const cells: Array<[number, number]> = [];
    for (const [row, col] of area.cells) {
      const key = keyOf(row, col);
      if (masked.has(key) || claimed.has(key)) continue;
      claimed.add(key);
      cells.push([row, col]);
    }
    for (const [row, col] of area.masks ?? []) masked.add(keyOf(row, col));
    if (cells.length > 0) out.push({ area, cells });
  }
  return out;
}

/**
 * The stored areas by cell (docs/decisions/120, 121): operator areas first, newest first, then gfw, then
 * learnt; a cell belongs to the first area that claims it, and the cells an operator area masks (the
 * area it corrects, moved, reclassified or removed) are claimed by no older or built area.
 */
export class PortAreaIndex {
  private readonly byCell = new Map<string, AreaHit>();

  constructor(areas: readonly StoredPortArea[]) {
    for (const { area, cells } of effectiveAreas(areas)) {
      const hit: AreaHit = { portId: area.portId, kind: area.kind, provenance: area.provenance, evidence: area.provenance === 'operator' || area.stops > 0 };
      for (const [row, col] of cells) this.byCell.set(keyOf(row, col), hit);
    }
  }

  get size(): number {
    return this.byCell.size;
  }

  /** The area holding a position, or null. */
  at(lat: number, lon: number): AreaHit | null {
    return this.byCell.get(keyOf(...cellOf(lat, lon))) ?? null;
  }

  /** Whether a position is in or next to (one cell, about 500 m) an area of the port: a vessel there has not left it. */
  near(lat: number, lon: number, portId: number): boolean {
    const [row, col] = cellOf(lat, lon);
    for (let dr = -1; dr <= 1; dr++) for (let dc = -1; dc <= 1; dc++) if (this.byCell.get(keyOf(row + dr, col + dc))?.portId === portId) return true;
    return false;
  }

  /** Whether a cell is claimed (by the area it belongs to). */
  has(row: number, col: number): boolean {
    return this.byCell.has(keyOf(row, col));
  }
}
