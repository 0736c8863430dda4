import { inBBox, type BBox } from '../../fleet/geo.js';

/**
 * The most recent stored positions, kept in memory for long polls (docs/decisions/012).
 *
 * In a storm every woken poll asks for "positions after my cursor, up to head". Polls answered at
 * different moments hold different cursors, so sharing identical reads is not enough: each distinct
 * cursor was one more query. Instead the window is extended once per new head (one query for the
 * rows between its head and the new one) and every poll whose cursor lies inside the window is
 * answered from memory. Polls with older cursors read the store as before.
 *
 * Invariant: every row the store returns for (from, head] is in `rows`, in sequence order.
 */
export interface WindowRow {
  seq: number;
  vsl_id: string;
  lat: number;
  lon: number;
}

export interface PositionFilter {
  vslIds?: string[];
  bbox?: BBox;
}

export type ReadPositions<R> = (after: number, head: number, filter: PositionFilter, limit: number) => Promise<R[]>;

/** Rows held at most; a longer window drops its oldest rows. */
export const RECENT_WINDOW_ROWS = 20_000;

export interface RecentPositions<R> {
  /** Up to `limit` rows with after < seq ≤ head matching the filter, in sequence order (as `read` would return). */
  read(after: number, head: number, filter: PositionFilter, limit: number): Promise<R[]>;
}

export function createRecentPositions<R extends WindowRow>(readStore: ReadPositions<R>, maxRows = RECENT_WINDOW_ROWS): RecentPositions<R> {
  let from = Number.NaN;
  let windowHead = Number.NaN;
  let rows: R[] = [];
  let extending: Promise<void> | null = null;

  async function extendTo(head: number): Promise<void> {
    while (!(windowHead >= head)) {
      if (extending) {
        await extending;
        continue;
      }
      extending = (async () => {
        if (Number.isNaN(windowHead)) {
          // Nothing cached yet: start empty at this head; rows stored from now on enter the window.
          from = windowHead = head;
          return;
        }
        const added = await readStore(windowHead, head, {}, maxRows + 1);
        if (added.length > maxRows) {
          from = windowHead = head;
          rows = [];
          return;
        }
        rows = rows.concat(added);
        windowHead = head;
        if (rows.length > maxRows) {
          const dropped = rows.length - maxRows;
          from = Number(rows[dropped - 1]!.seq);
          rows = rows.slice(dropped);
        }
      })().finally(() => (extending = null));
    }
  }

  function firstAfter(after: number): number {
    let lo = 0;
    let hi = rows.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (Number(rows[mid]!.seq) > after) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  return {
    async read(after, head, filter, limit) {
      await extendTo(head);
      if (!(after >= from && head <= windowHead)) return readStore(after, head, filter, limit);
      const ids = filter.vslIds ? new Set(filter.vslIds) : null;
      const out: R[] = [];
      for (let i = firstAfter(after); i < rows.length && out.length < limit; i++) {
        const row = rows[i]!;
        if (Number(row.seq) > head) break;
        if (ids && !ids.has(row.vsl_id)) continue;
        if (filter.bbox && !inBBox(filter.bbox, row.lat, row.lon)) continue;
        out.push(row);
      }
      return out;
    },
  };
}
