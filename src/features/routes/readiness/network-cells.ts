import type { SeaGraph } from '../../../routing/graph.js';

/** Grid cell size of the coverage views, degrees of latitude and longitude (decision 068). */
export const COVERAGE_CELL_DEG = 1;
const ROWS = Math.round(180 / COVERAGE_CELL_DEG);
const COLS = Math.round(360 / COVERAGE_CELL_DEG);

/** A cell's key: row (from latitude −90) × COLS + column (from longitude −180). */
export const cellKey = (row: number, col: number): number => Math.min(ROWS - 1, Math.max(0, row)) * COLS + (((col % COLS) + COLS) % COLS);
export const cellOfPoint = (lat: number, lon: number): number => cellKey(Math.floor((lat + 90) / COVERAGE_CELL_DEG), Math.floor((lon + 180) / COVERAGE_CELL_DEG));
export const cellRow = (key: number) => Math.floor(key / COLS);
export const cellCol = (key: number) => key % COLS;
/** South-west corner of a cell. */
export const cellCorner = (key: number) => ({ lat: cellRow(key) * COVERAGE_CELL_DEG - 90, lon: cellCol(key) * COVERAGE_CELL_DEG - 180 });

/**
 * The cells the sea-lane network crosses: every edge is sampled at a quarter of a cell along its
 * straight lon/lat segment (longitudes unwrapped across ±180°), so no crossed cell is skipped.
 */
export function networkCells(graph: SeaGraph): Set<number> {
  const cells = new Set<number>();
  const step = COVERAGE_CELL_DEG / 4;
  for (let e = 0; e < graph.edgeCount; e++) {
    const a = graph.edgeA[e]!;
    const b = graph.edgeB[e]!;
    const lat0 = graph.lat[a]!;
    const lon0 = graph.lon[a]!;
    const lat1 = graph.lat[b]!;
    let lon1 = graph.lon[b]!;
    if (lon1 - lon0 > 180) lon1 -= 360;
    else if (lon0 - lon1 > 180) lon1 += 360;
    const n = Math.max(1, Math.ceil(Math.max(Math.abs(lat1 - lat0), Math.abs(lon1 - lon0)) / step));
    for (let i = 0; i <= n; i++) {
      const t = i / n;
      let lon = lon0 + (lon1 - lon0) * t;
      if (lon >= 180) lon -= 360;
      else if (lon < -180) lon += 360;
      cells.add(cellOfPoint(lat0 + (lat1 - lat0) * t, lon));
    }
  }
  return cells;
}

/** Groups cells into contiguous sets (8 neighbours, joined across ±180°), each listed by its cells. */
export function contiguousGroups(cells: ReadonlySet<number>): number[][] {
  const seen = new Set<number>();
  const groups: number[][] = [];
  for (const start of [...cells].sort((a, b) => a - b)) {
    if (seen.has(start)) continue;
    const group: number[] = [];
    const stack = [start];
    seen.add(start);
    while (stack.length > 0) {
      const key = stack.pop()!;
      group.push(key);
      const row = cellRow(key);
      const col = cellCol(key);
      for (let dr = -1; dr <= 1; dr++) {
        const r = row + dr;
        if (r < 0 || r >= ROWS) continue;
        for (let dc = -1; dc <= 1; dc++) {
          const next = cellKey(r, col + dc);
          if (cells.has(next) && !seen.has(next)) {
            seen.add(next);
            stack.push(next);
          }
        }
      }
    }
    groups.push(group.sort((a, b) => a - b));
  }
  return groups;
}
