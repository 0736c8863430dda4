import { distanceM } from '../../geo/distance.js';
import type { PortRecord } from './port-table.js';

/**
 * Which port a table entry rolls up to for visit rank (docs/decisions/079-visit-rank-by-port.md): the
 * World Port Index and UN/LOCODE list a port's terminals, anchorages and neighbouring places as ports
 * of their own (the Houston Ship Channel: Houston, Norsworthy, Sinco, Pasadena, Deer Park, Baytown,
 * Morgans Point). An entry rolls up to the largest port (by harbour size) within `radiusKm`, nearest
 * first among equals, when that port is larger than itself; followed to the top.
 */
export const ROLL_UP_RADIUS_KM = 30;

const SIZE_RANK: Record<string, number> = { large: 4, medium: 3, small: 2, very_small: 1 };
const sizeRank = (p: PortRecord) => (p.harbor_size ? (SIZE_RANK[p.harbor_size] ?? 0) : 0);

/** Entry → the port it rolls up to (entries that roll up to none are absent). */
export function portRollUp(ports: readonly PortRecord[], radiusKm = ROLL_UP_RADIUS_KM): Map<number, number> {
  const CELL = 0.5;
  const cellKey = (lat: number, lon: number) => `${Math.floor(lat / CELL)}:${Math.floor(lon / CELL)}`;
  const grid = new Map<string, PortRecord[]>();
  for (const p of ports) {
    if (sizeRank(p) === 0) continue; // only a sized port gathers others
    const key = cellKey(p.lat, p.lon);
    grid.set(key, [...(grid.get(key) ?? []), p]);
  }
  const parent = new Map<number, number>();
  for (const p of ports) {
    const own = sizeRank(p);
    let best: { id: number; rank: number; d: number } | null = null;
    const r = Math.floor(p.lat / CELL);
    const c = Math.floor(p.lon / CELL);
    for (let dr = -1; dr <= 1; dr++) {
      for (let dc = -1; dc <= 1; dc++) {
        for (const q of grid.get(`${r + dr}:${c + dc}`) ?? []) {
          const rank = sizeRank(q);
          if (rank <= own) continue;
          const d = distanceM(p.lat, p.lon, q.lat, q.lon);
          if (d > radiusKm * 1000) continue;
          if (!best || rank > best.rank || (rank === best.rank && d < best.d)) best = { id: q.port_id, rank, d };
        }
      }
    }
    if (best) parent.set(p.port_id, best.id);
  }
  // to the top: a chain only climbs in size, so it ends
  const root = new Map<number, number>();
  for (const id of parent.keys()) {
    let top = id;
    while (parent.has(top)) top = parent.get(top)!;
    root.set(id, top);
  }
  return root;
}
