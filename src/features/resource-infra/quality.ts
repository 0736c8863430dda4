import { distanceM } from '../../geo/distance.js';

/** Same normalised name within this distance: the same facility (import/export pairs, a wind farm in both EMODnet layers). */
export const SAME_NAME_RADIUS_M = 5000;
/** Different names, same category, within this distance: probably the same facility listed twice. */
export const SAME_PLACE_RADIUS_M = 50;

const CELL_DEG = 0.1;

export const normaliseName = (name: string) =>
  name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/\b(lng|terminal|import|export|power station|power plant|nuclear power plant|offshore|wind farm|project|phase|coal|oil and gas field)\b/g, ' ')
    .replace(/[^a-z0-9]+/g, '');

/** Categories compared with each other: LNG import and export terminals together, every other category alone. */
const family = (category: string) => (category.startsWith('lng_') ? 'lng_terminal' : category);

export interface DuplicatePair<T> {
  a: T;
  b: T;
  distance_m: number;
  rule: 'same_name_nearby' | 'same_place';
}

/** Pairs of objects of one category family (a before b by id) that look like the same facility: found on a 0.1° grid, each pair once. */
export function duplicatePairs<T extends { id: string; name: string; category: string; lon: number; lat: number }>(objects: readonly T[]): Array<DuplicatePair<T>> {
  const cells = new Map<string, number[]>();
  const cellOf = (lon: number, lat: number) => [Math.floor(lon / CELL_DEG), Math.floor(lat / CELL_DEG)] as const;
  objects.forEach((o, i) => {
    const [x, y] = cellOf(o.lon, o.lat);
    const key = `${x},${y}`;
    const list = cells.get(key);
    if (list) list.push(i);
    else cells.set(key, [i]);
  });
  const names = objects.map((o) => normaliseName(o.name));
  const pairs: Array<DuplicatePair<T>> = [];
  objects.forEach((o, i) => {
    const [x, y] = cellOf(o.lon, o.lat);
    for (let dx = -1; dx <= 1; dx++)
      for (let dy = -1; dy <= 1; dy++) {
        for (const j of cells.get(`${x + dx},${y + dy}`) ?? []) {
          if (j <= i) continue;
          const other = objects[j]!;
          const d = distanceM(o.lat, o.lon, other.lat, other.lon);
          if (family(o.category) !== family(other.category)) continue;
          const sameName = names[i] !== '' && names[i] === names[j];
          const rule = sameName && d <= SAME_NAME_RADIUS_M ? 'same_name_nearby' : !sameName && d <= SAME_PLACE_RADIUS_M ? 'same_place' : null;
          if (!rule) continue;
          const [a, b] = o.id < other.id ? [o, other] : [other, o];
          pairs.push({ a, b, distance_m: Math.round(d), rule });
        }
      }
  });
  return pairs.sort((p, q) => (p.a.id === q.a.id ? (p.b.id < q.b.id ? -1 : 1) : p.a.id < q.a.id ? -1 : 1));
}
