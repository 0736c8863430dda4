import { sql, type Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import type { PositionRow } from './fleet-repo.js';

export interface PositionFilter {
  vslIds?: readonly string[];
  bbox?: { minLon: number; minLat: number; maxLon: number; maxLat: number };
  /** Leave out positions whose quality flags keep them from being a latest position. */
  usableOnly?: boolean;
}

/** The columns the event detectors read of a position (fixOf in src/features/events/event-writes.ts): a third of a row's parse and garbage left out. */
export const DETECTION_COLUMNS = ['seq', 'vsl_id', 'observed_at', 'lat', 'lon', 'sog', 'nav_status', 'heading', 'simulated'] as const;
export type DetectionPositionRow = Pick<PositionRow, (typeof DETECTION_COLUMNS)[number]>;

/**
 * The fleet's read API over stored positions: the only place outside the fleet's writer that queries
 * the positions table. Other features read positions here and live vessel state from FleetService.
 */
export function createFleetReads(db: Kysely<Database>) {
  // The anonymous preview runs this on every call. Built once; the literal LIMIT 1 lets SQLite stop at the first
  // index entry, where a bound limit made the same statement about four times slower.
  const firstUsable = (observedAt: '<=' | '>', order: 'desc' | 'asc') =>
    db.selectFrom('positions').where('vsl_id', '=', '').where('observed_at', observedAt, 0).where('usable', '=', sql.lit(1)).orderBy('observed_at', order).limit(sql.lit(1));
  const newestUsableAtOrBefore = firstUsable('<=', 'desc').selectAll().compile();
  const oldestUsableAfter = firstUsable('>', 'asc').select('observed_at').compile();

  return {
    /** Positions observed at or after `since` (the site's "positions in the last hour"); uses the (observed_at, seq) index. */
    async countObservedSince(since: number): Promise<number> {
      const row = await db
        .selectFrom('positions')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('observed_at', '>=', since)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    /**
     * The newest stored seq. Every seq at or below it that will ever be visible is visible now:
     * position writers take their numbers in commit order (POSITION_SEQUENCE_LOCK in fleet-repo.ts).
     */
    async headSeq(): Promise<number> {
      const row = await db
        .selectFrom('positions')
        .select((eb) => eb.fn.max<number | null>('seq').as('head'))
        .executeTakeFirstOrThrow();
      return Number(row.head ?? 0);
    },

    /** Positions with head ≥ seq > after, in seq order, matching the filter. */
    async positionsAfter(after: number, head: number, filter: PositionFilter, limit: number): Promise<PositionRow[]> {
      let query = db.selectFrom('positions').selectAll().where('seq', '>', after).where('seq', '<=', head);
      if (filter.usableOnly) query = query.where('usable', '=', 1);
      if (filter.vslIds) query = query.where('vsl_id', 'in', filter.vslIds.length > 0 ? [...filter.vslIds] : ['']);
      if (filter.bbox) {
        const box = filter.bbox;
        query = query.where('lat', '>=', box.minLat).where('lat', '<=', box.maxLat);
        query = box.minLon <= box.maxLon ? query.where('lon', '>=', box.minLon).where('lon', '<=', box.maxLon) : query.where((eb) => eb.or([eb('lon', '>=', box.minLon), eb('lon', '<=', box.maxLon)]));
      }
      return query.orderBy('seq', 'asc').limit(limit).execute();
    },

    /** Usable positions with head ≥ seq > after, in seq order, as the detectors read them (DETECTION_COLUMNS only). */
    async usableForDetectionAfter(after: number, head: number, limit: number): Promise<DetectionPositionRow[]> {
      return db.selectFrom('positions').select(DETECTION_COLUMNS).where('seq', '>', after).where('seq', '<=', head).where('usable', '=', 1).orderBy('seq', 'asc').limit(limit).execute();
    },

    /** One vessel's positions with from ≤ observed_at ≤ to and observed_at > after, oldest first. */
    async track(vslId: string, range: { from: number; to: number; after: number | null }, includeUnusable: boolean, limit: number): Promise<PositionRow[]> {
      let query = db.selectFrom('positions').selectAll().where('vsl_id', '=', vslId).where('observed_at', '>=', range.from).where('observed_at', '<=', range.to);
      if (range.after !== null) query = query.where('observed_at', '>', range.after);
      if (!includeUnusable) query = query.where('usable', '=', 1);
      return query.orderBy('observed_at', 'asc').limit(limit).execute();
    },

    /** Usable positions with from ≤ observed_at ≤ to, in (observed_at, seq) order, after the keyset `after`. */
    async usableByTime(from: number, to: number, after: { observedAt: number; seq: number } | null, limit: number): Promise<PositionRow[]> {
      let query = db.selectFrom('positions').selectAll().where('observed_at', '>=', from).where('observed_at', '<=', to).where('usable', '=', 1);
      if (after) query = query.where((eb) => eb.or([eb('observed_at', '>', after.observedAt), eb.and([eb('observed_at', '=', after.observedAt), eb('seq', '>', after.seq)])]));
      return query.orderBy('observed_at', 'asc').orderBy('seq', 'asc').limit(limit).execute();
    },

    /** The AIS ship type of each given vessel (null where unknown). */
    async shipTypes(vslIds: readonly string[]): Promise<Map<string, number | null>> {
      const out = new Map<string, number | null>();
      for (let i = 0; i < vslIds.length; i += 500) {
        const rows = await db
          .selectFrom('vessels')
          .select(['vsl_id', 'ship_type'])
          .where('vsl_id', 'in', vslIds.slice(i, i + 500))
          .execute();
        for (const row of rows) out.set(row.vsl_id, row.ship_type);
      }
      return out;
    },

    /** A vessel's newest usable position observed at or before `cutoff`. */
    async newestUsableAtOrBefore(vslId: string, cutoff: number): Promise<PositionRow | undefined> {
      const { rows } = await db.executeQuery<PositionRow>({ ...newestUsableAtOrBefore, parameters: [vslId, cutoff] });
      return rows[0];
    },

    /** The observation time of a vessel's oldest usable position observed after `after`, or null. */
    async oldestUsableAfter(vslId: string, after: number): Promise<number | null> {
      const { rows } = await db.executeQuery<{ observed_at: number | string }>({ ...oldestUsableAfter, parameters: [vslId, after] });
      return rows[0] ? Number(rows[0].observed_at) : null;
    },

    /** Changes of a vessel's voyage fields (destination, eta, draught_m) observed after `after`, oldest first. */
    async voyageChangesAfter(vslId: string, after: number): Promise<VoyageChange[]> {
      const rows = await db
        .selectFrom('vessel_identity_history')
        .select(['field', 'old_value', 'changed_at'])
        .where('vsl_id', '=', vslId)
        .where('changed_at', '>', after)
        .where('field', 'in', [...VOYAGE_FIELDS])
        .orderBy('changed_at')
        .orderBy('id')
        .execute();
      return rows.map((r) => ({ field: r.field as VoyageField, oldValue: r.old_value, changedAt: Number(r.changed_at) }));
    },
  };
}

/** The voyage fields of an AIS static report, as vessel_identity_history names them. */
export const VOYAGE_FIELDS = ['destination', 'eta', 'draught_m'] as const;
export type VoyageField = (typeof VOYAGE_FIELDS)[number];
export interface VoyageChange {
  field: VoyageField;
  oldValue: string | null;
  changedAt: number;
}

export type FleetReads = ReturnType<typeof createFleetReads>;
