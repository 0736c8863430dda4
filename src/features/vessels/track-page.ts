import { SECOND } from '../../platform/clock.js';
import type { FleetReads } from '../../fleet/fleet-reads.js';
import type { PositionRow } from '../../fleet/fleet-repo.js';

/**
 * One page of a vessel's stored track (GET /v1/vessels/{vsl_id}/positions): `limit` positions after `after`,
 * or with `downsampleSeconds` the first position of each bucket of that length, read in chunks of 1,000 so a
 * long window is never held whole. `nextAfter` is where the next page starts, or null on the last.
 */
export async function trackPage(
  track: FleetReads['track'],
  vslId: string,
  window: { from: number; to: number; after: number | null },
  includeFlagged: boolean,
  limit: number,
  downsampleSeconds: number | undefined,
): Promise<{ points: PositionRow[]; nextAfter: number | null }> {
  const { from, to, after } = window;
  if (downsampleSeconds === undefined) {
    const rows = await track(vslId, { from, to, after }, includeFlagged, limit + 1);
    const points = rows.slice(0, limit);
    return { points, nextAfter: rows.length > limit ? Number(points[points.length - 1]!.observed_at) : null };
  }
  const bucketMs = downsampleSeconds * SECOND;
  const bucketOf = (t: number) => Math.floor(t / bucketMs);
  let points: PositionRow[] = [];
  let scanAfter = after;
  let lastBucket: number | null = null;
  const CHUNK = 1000;
  for (;;) {
    const rows = await track(vslId, { from, to, after: scanAfter }, includeFlagged, CHUNK);
    for (const row of rows) {
      const bucket = bucketOf(Number(row.observed_at));
      if (bucket === lastBucket) continue;
      lastBucket = bucket;
      points.push(row);
      if (points.length > limit) break;
    }
    if (points.length > limit || rows.length < CHUNK) break;
    scanAfter = Number(rows[rows.length - 1]!.observed_at);
  }
  if (points.length <= limit) return { points, nextAfter: null };
  points = points.slice(0, limit);
  return { points, nextAfter: (bucketOf(Number(points[points.length - 1]!.observed_at)) + 1) * bucketMs - 1 };
}
