/**
 * Port areas (issue 26, docs/decisions/116): where a port's ships lie, as cells of a grid merged into
 * areas, each `berth` or `anchorage`, with its provenance and evidence. A pure function of one facts
 * object: the Global Fishing Watch anchorage points the port table assigns to each port, and the
 * stops of stored port calls (where a vessel lay, at which port, and whether it swung at anchor).
 *
 * - `gfw`: the cells holding a port's GFW points, neighbouring cells merged into one area;
 * - `learnt`: cells outside every GFW area where at least `minVessels` distinct vessels stopped,
 *   merged the same way, attached to the port the calls were at (the port-call detector's choice:
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
  /** Stops of stored port calls. */
  stops: ReadonlyArray<{ portId: number; vslId: string; lat: number; lon: number; kind: 'berth' | 'anchorage' }>;
}

export interface PortAreaParameters {
  /** Distinct vessels that must have stopped in a cell for it to be learnt. */
  minVessels: number;
}

export const PORT_AREA_PARAMETERS: PortAreaParameters = { minVessels: 2 };

export interface PortArea {
  portId: number;
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

/** Connected groups (8-neighbour) of a set of cells. */
function components(cells: ReadonlySet<string>): Array<Array<[number, number]>> {
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
          if (cells.has(next) && !seen.has(next)) {
            seen.add(next);
            queue.push(next);
          }
        }
    }
    groups.push(group.sort((a, b) => a[0] - b[0] || a[1] - b[1]));
  }
  return groups;
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

  const areas: PortArea[] = [];
  for (const portId of [...byPort.keys()].sort((a, b) => a - b)) {
    const cells = byPort.get(portId)!;
    const gfw = new Set([...cells].filter(([, c]) => c.gfwPoints > 0).map(([k]) => k));
    const learnt = new Set([...cells].filter(([k, c]) => !gfw.has(k) && c.vessels.size >= params.minVessels).map(([k]) => k));
    for (const [provenance, set] of [
      ['gfw', gfw],
      ['learnt', learnt],
    ] as const) {
      for (const group of components(set)) {
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
        areas.push({
          portId,
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
