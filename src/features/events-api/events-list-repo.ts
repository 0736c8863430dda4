import type { ExpressionBuilder } from 'kysely';
import type { Db } from '../../store/db.js';
import type { Database } from '../../store/schema.js';
import type { AisGapRow, EncounterRow, LoiteringRow, PortCallRow, TransitRow } from '../events/event-rows.js';

/** Each type's place among events that began at the same moment. */
export const RANK = { port_call: 0, encounter: 1, chokepoint_transit: 2, loitering: 3, ais_gap: 4 } as const;

/** Position in the listing's order: start time, then type rank (port_call 0, encounter 1, chokepoint_transit 2, loitering 3, ais_gap 4), then row id. */
export interface EventKey {
  start: number;
  rank: number;
  id: number;
}

export interface EventsListFilter {
  /** Events under way at some moment of [from, to]. */
  from: number;
  to: number;
  /** Visible: began by the horizon and ended by it (or, with `ongoing`, not ended yet). */
  horizon: number;
  ongoing: boolean;
  vslIds?: readonly string[];
  /** Port calls at these ports (port_id, or the ports of an area). */
  portIds?: readonly number[];
  /** Encounters and loitering whose position, gaps whose either end, lies in the box (minLon > maxLon crosses the antimeridian). */
  box?: { minLon: number; minLat: number; maxLon: number; maxLat: number };
  /** Encounters and transits in these chokepoint gates. */
  zones?: readonly string[];
  settings?: readonly string[];
  minDurationMs?: number;
  after?: EventKey;
  limit: number;
}

type Table = 'port_calls' | 'encounters' | 'transits' | 'loitering_events' | 'ais_gaps';
type Eb<T extends Table> = ExpressionBuilder<Database, T>;

/** The keyset condition after `key` for a table of type rank `rank`, on its start column. */
function afterKey<T extends Table>(eb: Eb<T>, start: 'arrival' | 'start_at' | 'entered_at', rank: number, key: EventKey) {
  const s = eb.ref(start as never);
  if (rank > key.rank) return eb(s, '>=', key.start as never);
  if (rank < key.rank) return eb(s, '>', key.start as never);
  return eb.or([eb(s, '>', key.start as never), eb.and([eb(s, '=', key.start as never), eb(eb.ref('id' as never), '>', key.id as never)])]);
}

const ids = <T>(list: readonly T[], none: T): T[] => (list.length > 0 ? [...list] : [none]);

type Box = NonNullable<EventsListFilter['box']>;

/** lat/lon columns inside the box (minLon > maxLon crosses the antimeridian). */
function inBox<T extends Table>(eb: Eb<T>, box: Box, lat: string, lon: string) {
  const la = eb.ref(lat as never);
  const lo = eb.ref(lon as never);
  const lons =
    box.minLon <= box.maxLon ? eb.and([eb(lo, '>=', box.minLon as never), eb(lo, '<=', box.maxLon as never)]) : eb.or([eb(lo, '>=', box.minLon as never), eb(lo, '<=', box.maxLon as never)]);
  return eb.and([eb(la, '>=', box.minLat as never), eb(la, '<=', box.maxLat as never), lons]);
}

/** Reads of the event store for GET /v1/events: the five event tables, each in (start, id) order from a keyset. */
export function createEventsListRepo(db: Db) {
  return {
    async portCalls(f: EventsListFilter): Promise<PortCallRow[]> {
      let q = db
        .selectFrom('port_calls')
        .selectAll()
        .where('arrival', '<=', Math.min(f.to, f.horizon))
        .where((eb) =>
          f.ongoing
            ? eb.or([eb('departure', 'is', null), eb.and([eb('departure', '>=', f.from), eb('departure', '<=', f.horizon)])])
            : eb.and([eb('departure', 'is not', null), eb('departure', '>=', f.from), eb('departure', '<=', f.horizon)]),
        );
      if (f.vslIds) q = q.where('vsl_id', 'in', ids(f.vslIds, '-'));
      if (f.portIds) q = q.where('port_id', 'in', ids(f.portIds, -1));
      if (f.minDurationMs !== undefined) {
        const min = f.minDurationMs;
        q = q.where((eb) => eb.or([eb(eb('departure', '-', eb.ref('arrival')), '>=', min), eb.and([eb('departure', 'is', null), eb('arrival', '<=', f.horizon - min)])]));
      }
      if (f.after) {
        const key = f.after;
        q = q.where((eb) => afterKey(eb, 'arrival', RANK.port_call, key));
      }
      return q.orderBy('arrival', 'asc').orderBy('id', 'asc').limit(f.limit).execute();
    },

    async encounters(f: EventsListFilter): Promise<EncounterRow[]> {
      let q = db.selectFrom('encounters').selectAll().where('start_at', '<=', Math.min(f.to, f.horizon)).where('end_at', '>=', f.from).where('end_at', '<=', f.horizon);
      if (f.vslIds) {
        const list = ids(f.vslIds, '-');
        q = q.where((eb) => eb.or([eb('vsl_a', 'in', list), eb('vsl_b', 'in', list)]));
      }
      if (f.zones) q = q.where('zone', 'in', ids(f.zones, '-'));
      if (f.box) {
        const box = f.box;
        q = q.where('lat', '>=', box.minLat).where('lat', '<=', box.maxLat);
        q = box.minLon <= box.maxLon ? q.where('lon', '>=', box.minLon).where('lon', '<=', box.maxLon) : q.where((eb) => eb.or([eb('lon', '>=', box.minLon), eb('lon', '<=', box.maxLon)]));
      }
      if (f.settings) q = q.where('setting', 'in', ids(f.settings, '-'));
      if (f.minDurationMs !== undefined) {
        const min = f.minDurationMs;
        q = q.where((eb) => eb(eb('end_at', '-', eb.ref('start_at')), '>=', min));
      }
      if (f.after) {
        const key = f.after;
        q = q.where((eb) => afterKey(eb, 'start_at', RANK.encounter, key));
      }
      return q.orderBy('start_at', 'asc').orderBy('id', 'asc').limit(f.limit).execute();
    },

    async transits(f: EventsListFilter): Promise<TransitRow[]> {
      let q = db.selectFrom('transits').selectAll().where('entered_at', '<=', Math.min(f.to, f.horizon)).where('exited_at', '>=', f.from).where('exited_at', '<=', f.horizon);
      if (f.vslIds) q = q.where('vsl_id', 'in', ids(f.vslIds, '-'));
      if (f.zones) q = q.where('zone', 'in', ids(f.zones, '-'));
      if (f.minDurationMs !== undefined) {
        const min = f.minDurationMs;
        q = q.where((eb) => eb(eb('exited_at', '-', eb.ref('entered_at')), '>=', min));
      }
      if (f.after) {
        const key = f.after;
        q = q.where((eb) => afterKey(eb, 'entered_at', RANK.chokepoint_transit, key));
      }
      return q.orderBy('entered_at', 'asc').orderBy('id', 'asc').limit(f.limit).execute();
    },

    /** Loitering and AIS gaps: complete events only (written when they end), under way in [from, to]. */
    async loitering(f: EventsListFilter): Promise<LoiteringRow[]> {
      let q = db.selectFrom('loitering_events').selectAll().where('start_at', '<=', Math.min(f.to, f.horizon)).where('end_at', '>=', f.from).where('end_at', '<=', f.horizon);
      if (f.vslIds) q = q.where('vsl_id', 'in', ids(f.vslIds, '-'));
      if (f.box) {
        const box = f.box;
        q = q.where((eb) => inBox(eb, box, 'lat', 'lon'));
      }
      if (f.minDurationMs !== undefined) {
        const min = f.minDurationMs;
        q = q.where((eb) => eb(eb('end_at', '-', eb.ref('start_at')), '>=', min));
      }
      if (f.after) {
        const key = f.after;
        q = q.where((eb) => afterKey(eb, 'start_at', RANK.loitering, key));
      }
      return q.orderBy('start_at', 'asc').orderBy('id', 'asc').limit(f.limit).execute();
    },

    async gaps(f: EventsListFilter): Promise<AisGapRow[]> {
      let q = db.selectFrom('ais_gaps').selectAll().where('start_at', '<=', Math.min(f.to, f.horizon)).where('end_at', '>=', f.from).where('end_at', '<=', f.horizon);
      if (f.vslIds) q = q.where('vsl_id', 'in', ids(f.vslIds, '-'));
      if (f.box) {
        const box = f.box;
        q = q.where((eb) => eb.or([inBox(eb, box, 'start_lat', 'start_lon'), inBox(eb, box, 'end_lat', 'end_lon')]));
      }
      if (f.minDurationMs !== undefined) {
        const min = f.minDurationMs;
        q = q.where((eb) => eb(eb('end_at', '-', eb.ref('start_at')), '>=', min));
      }
      if (f.after) {
        const key = f.after;
        q = q.where((eb) => afterKey(eb, 'start_at', RANK.ais_gap, key));
      }
      return q.orderBy('start_at', 'asc').orderBy('id', 'asc').limit(f.limit).execute();
    },

    portCall: (id: number) => db.selectFrom('port_calls').selectAll().where('id', '=', id).executeTakeFirst(),
    encounter: (id: number) => db.selectFrom('encounters').selectAll().where('id', '=', id).executeTakeFirst(),
    transit: (id: number) => db.selectFrom('transits').selectAll().where('id', '=', id).executeTakeFirst(),
    loiteringEvent: (id: number) => db.selectFrom('loitering_events').selectAll().where('id', '=', id).executeTakeFirst(),
    gap: (id: number) => db.selectFrom('ais_gaps').selectAll().where('id', '=', id).executeTakeFirst(),
  };
}
export type EventsListRepo = ReturnType<typeof createEventsListRepo>;
