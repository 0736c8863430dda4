import type { Db } from '../../store/db.js';
import type { AisGapsTable, EncountersTable, LoiteringEventsTable, PortCallsTable, TransitsTable } from '../../store/schema.js';
import type { EncounterRow, PortCallRow, TransitRow } from './event-rows.js';
import type { Executor } from '../../store/transaction.js';
import type { Insertable } from 'kysely';
import { createDetectorStateRepo, type DetectorCheckpoint } from './detector-state-repo.js';
import { createVoyageCellsKeeper } from './voyage-cells-repo.js';
import type { PortPositions } from '../../events/lane-rule.js';
import { createVisitCellsKeeper } from './visit-cells-repo.js';
import { createVisitBoundsKeeper, markAllVisitBoundsDirty, markVisitBoundsDirty } from './visit-bounds-repo.js';
import { changedFromInRange, changedFromOf, rebuildAllVoyages, refreshVoyages } from './voyages-repo.js';
import { CallDayDeltas, callDaysInRange, rebuildAllCallDays, storedCallsOf } from './call-days-repo.js';
import { TransitCellDeltas, rebuildAllTransitCells, storedTransitsOf, transitsEnteredIn } from './transit-cells-repo.js';

export type PortCallWrite = Insertable<PortCallsTable>;
export type EncounterWrite = Insertable<EncountersTable>;
export type TransitWrite = Insertable<TransitsTable>;
export type LoiteringWrite = Insertable<LoiteringEventsTable>;
export type AisGapWrite = Insertable<AisGapsTable>;
export type { DetectorCheckpoint };
export type { EncounterRow, PortCallRow, TransitRow };

/** Rows per statement: far below SQLite's bound-parameter limit at 17 columns. */
const CHUNK = 400;

function chunks<T>(rows: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += CHUNK) out.push(rows.slice(i, i + CHUNK));
  return out;
}

export interface EncounterFilter {
  /** Encounters that ended in [from, to]. */
  from: number;
  to: number;
  vslId?: string;
  bbox?: { minLon: number; minLat: number; maxLon: number; maxLat: number };
  zone?: string;
  /** Settings listed (docs/decisions/077). */
  settings?: readonly string[];
  minDurationMs?: number;
  /** Keyset of the page before (newest first: end_at desc, id desc). */
  before?: { endAt: number; id: number };
  limit: number;
}

/** A write changed these vessels' calls from these arrivals on: their visit bounds are marked (docs/decisions/165) and their voyages written again (decision 123). */
async function callsChangedFrom(ex: Executor, changed: ReadonlyMap<string, number>): Promise<void> {
  await markVisitBoundsDirty(ex, changed);
  await refreshVoyages(ex, changed);
}

/** The keepers of what the event runner's pass counts after it writes (decisions 149, 161, 165; the voyage cells measure lanes by `ports`, decision 177). */
function createKeepers(db: Db, ports: PortPositions) {
  const voyageCells = createVoyageCellsKeeper(db, ports);
  const visitCells = createVisitCellsKeeper(db);
  const visitBounds = createVisitBoundsKeeper(db);
  return {
    voyageCells,
    visitCells,
    visitBounds,
    /** The runner's pass: the marked visit cells and visit bounds counted, then the voyage cells summed. */
    async afterWrites(): Promise<number> {
      await visitCells.refresh();
      await visitBounds.refresh();
      return voyageCells.refresh();
    },
  };
}

/** The event store: port calls, encounters, chokepoint transits, and the detector runner's checkpoint and lease. */
export function createEventsRepo(db: Db, ports: PortPositions) {
  const { voyageCells, visitCells, visitBounds, afterWrites } = createKeepers(db, ports);
  return {
    /** Sums the voyage cells of the days whose voyages changed (docs/decisions/149), of all or those in [from, to); returns how many weeks. Without a range (the runner's pass after it writes) the marked visit cells and visit bounds are counted too (decisions 161, 165). */
    sumMarkedVoyageCells: (range?: { from: number; to: number }) => (range ? voyageCells.refresh(range) : afterWrites()),
    /** Counts the marked visit cells (docs/decisions/161) of the days in [from, to), or of all days; returns how many days. */
    countMarkedVisitCells: (range?: { from: number; to: number }) => visitCells.refresh(range),
    /** Counts the marked vessels' visit bounds (docs/decisions/165), of all or those marked from an arrival before `before`; returns how many vessels. */
    countMarkedVisitBounds: (range?: { before: number }) => visitBounds.refresh(range),

    /** Inserts calls or replaces them (same vessel and arrival): an ongoing call is rewritten until it ends. The vessels' voyages follow. */
    async upsertCalls(rows: readonly PortCallWrite[], ex: Executor = db): Promise<void> {
      const callDays = new CallDayDeltas();
      for (const chunk of chunks(rows)) {
        // the cells lose the calls this chunk replaces and gain its calls (the last of a key, as the upsert keeps)
        for (const replaced of await storedCallsOf(ex, chunk)) callDays.add(replaced, -1);
        for (const written of new Map(chunk.map((r) => [`${r.vsl_id}|${r.arrival}`, r])).values())
          callDays.add({ ...written, ship_type: written.ship_type ?? null, departure: written.departure ?? null }, 1);
        await ex
          .insertInto('port_calls')
          .values(chunk)
          .onConflict((oc) =>
            oc.columns(['vsl_id', 'arrival']).doUpdateSet((eb) => ({
              port_id: eb.ref('excluded.port_id'),
              ship_type: eb.ref('excluded.ship_type'),
              departure: eb.ref('excluded.departure'),
              last_fix_at: eb.ref('excluded.last_fix_at'),
              anchorage_ms: eb.ref('excluded.anchorage_ms'),
              berth_ms: eb.ref('excluded.berth_ms'),
              stops: eb.ref('excluded.stops'),
              first_seq: eb.ref('excluded.first_seq'),
              last_seq: eb.ref('excluded.last_seq'),
              fixes: eb.ref('excluded.fixes'),
              gaps: eb.ref('excluded.gaps'),
              confidence: eb.ref('excluded.confidence'),
              simulated: eb.ref('excluded.simulated'),
              updated_at: eb.ref('excluded.updated_at'),
            })),
          )
          .execute();
      }
      await callDays.write(ex);
      await callsChangedFrom(ex, changedFromOf(rows));
    },

    /** Removes calls written while under way that ended as no call (a pass through the port area without a stop). The vessels' voyages follow. */
    async deleteCalls(keys: ReadonlyArray<{ vslId: string; arrival: number }>, ex: Executor = db): Promise<void> {
      const callDays = new CallDayDeltas();
      for (const removed of await storedCallsOf(
        ex,
        keys.map((k) => ({ vsl_id: k.vslId, arrival: k.arrival })),
      ))
        callDays.add(removed, -1);
      await callDays.write(ex);
      for (const key of keys) await ex.deleteFrom('port_calls').where('vsl_id', '=', key.vslId).where('arrival', '=', key.arrival).execute();
      await callsChangedFrom(ex, changedFromOf(keys.map((k) => ({ vsl_id: k.vslId, arrival: k.arrival }))));
    },

    /** All voyages and the call counts per day written again from all calls (a bulk load that bypassed upsertCalls; docs/decisions/123 and 138). */
    async rebuildVoyages(ex: Executor = db): Promise<number> {
      await rebuildAllCallDays(ex);
      await markAllVisitBoundsDirty(ex);
      return rebuildAllVoyages(ex);
    },

    async upsertEncounters(rows: readonly EncounterWrite[], ex: Executor = db): Promise<void> {
      for (const chunk of chunks(rows)) {
        await ex
          .insertInto('encounters')
          .values(chunk)
          .onConflict((oc) =>
            oc.columns(['vsl_a', 'vsl_b', 'start_at']).doUpdateSet((eb) => ({
              end_at: eb.ref('excluded.end_at'),
              median_distance_m: eb.ref('excluded.median_distance_m'),
              lat: eb.ref('excluded.lat'),
              lon: eb.ref('excluded.lon'),
              zone: eb.ref('excluded.zone'),
              setting: eb.ref('excluded.setting'),
              observations: eb.ref('excluded.observations'),
              first_seq: eb.ref('excluded.first_seq'),
              last_seq: eb.ref('excluded.last_seq'),
              confidence: eb.ref('excluded.confidence'),
              simulated: eb.ref('excluded.simulated'),
              updated_at: eb.ref('excluded.updated_at'),
            })),
          )
          .execute();
      }
    },

    /** Inserts transits or replaces them (same vessel, gate and entry); the transit cells follow (docs/decisions/155). */
    async upsertTransits(rows: readonly TransitWrite[], ex: Executor = db): Promise<void> {
      const cells = new TransitCellDeltas();
      for (const chunk of chunks(rows)) {
        for (const replaced of await storedTransitsOf(ex, chunk)) cells.add(replaced, -1);
        for (const written of new Map(chunk.map((r) => [`${r.vsl_id}|${r.zone}|${r.entered_at}`, r])).values()) cells.add({ ...written, mean_speed_kn: written.mean_speed_kn ?? null }, 1);
        await ex
          .insertInto('transits')
          .values(chunk)
          .onConflict((oc) =>
            oc.columns(['vsl_id', 'zone', 'entered_at']).doUpdateSet((eb) => ({
              direction: eb.ref('excluded.direction'),
              exited_at: eb.ref('excluded.exited_at'),
              mean_speed_kn: eb.ref('excluded.mean_speed_kn'),
              stopped_ms: eb.ref('excluded.stopped_ms'),
              first_seq: eb.ref('excluded.first_seq'),
              last_seq: eb.ref('excluded.last_seq'),
              fixes: eb.ref('excluded.fixes'),
              simulated: eb.ref('excluded.simulated'),
              updated_at: eb.ref('excluded.updated_at'),
            })),
          )
          .execute();
      }
      await cells.write(ex);
    },

    /** The transit cells counted again from all transits (after a bulk load that bypassed upsertTransits). */
    rebuildTransitCells: (ex: Executor = db) => rebuildAllTransitCells(ex),

    async upsertLoitering(rows: readonly LoiteringWrite[], ex: Executor = db): Promise<void> {
      for (const chunk of chunks(rows)) {
        await ex
          .insertInto('loitering_events')
          .values(chunk)
          .onConflict((oc) =>
            oc.columns(['vsl_id', 'start_at']).doUpdateSet((eb) => ({
              end_at: eb.ref('excluded.end_at'),
              lat: eb.ref('excluded.lat'),
              lon: eb.ref('excluded.lon'),
              mean_speed_kn: eb.ref('excluded.mean_speed_kn'),
              distance_nm: eb.ref('excluded.distance_nm'),
              min_shore_nm: eb.ref('excluded.min_shore_nm'),
              fixes: eb.ref('excluded.fixes'),
              first_seq: eb.ref('excluded.first_seq'),
              last_seq: eb.ref('excluded.last_seq'),
              simulated: eb.ref('excluded.simulated'),
              updated_at: eb.ref('excluded.updated_at'),
            })),
          )
          .execute();
      }
    },

    async upsertGaps(rows: readonly AisGapWrite[], ex: Executor = db): Promise<void> {
      for (const chunk of chunks(rows)) {
        await ex
          .insertInto('ais_gaps')
          .values(chunk)
          .onConflict((oc) =>
            oc.columns(['vsl_id', 'start_at']).doUpdateSet((eb) => ({
              end_at: eb.ref('excluded.end_at'),
              end_lat: eb.ref('excluded.end_lat'),
              end_lon: eb.ref('excluded.end_lon'),
              distance_nm: eb.ref('excluded.distance_nm'),
              implied_speed_kn: eb.ref('excluded.implied_speed_kn'),
              end_shore_nm: eb.ref('excluded.end_shore_nm'),
              near_shore: eb.ref('excluded.near_shore'),
              last_seq: eb.ref('excluded.last_seq'),
              simulated: eb.ref('excluded.simulated'),
              updated_at: eb.ref('excluded.updated_at'),
            })),
          )
          .execute();
      }
    },

    /** Deletes the events that began in [from, to] (before a rebuild of that range). */
    async deleteStartedBetween(from: number, to: number, ex: Executor = db): Promise<{ calls: number; encounters: number; transits: number; loitering: number; gaps: number }> {
      const changed = await changedFromInRange(ex, from, to);
      const callDays = new CallDayDeltas();
      for (const cell of await callDaysInRange(ex, from, to)) callDays.add(cell, -cell.calls);
      await callDays.write(ex);
      const calls = await ex.deleteFrom('port_calls').where('arrival', '>=', from).where('arrival', '<=', to).executeTakeFirst();
      await callsChangedFrom(ex, changed);
      const encounters = await ex.deleteFrom('encounters').where('start_at', '>=', from).where('start_at', '<=', to).executeTakeFirst();
      const transitCells = new TransitCellDeltas();
      for (const removed of await transitsEnteredIn(ex, from, to)) transitCells.add(removed, -1);
      await transitCells.write(ex);
      const transits = await ex.deleteFrom('transits').where('entered_at', '>=', from).where('entered_at', '<=', to).executeTakeFirst();
      const loitering = await ex.deleteFrom('loitering_events').where('start_at', '>=', from).where('start_at', '<=', to).executeTakeFirst();
      const gaps = await ex.deleteFrom('ais_gaps').where('start_at', '>=', from).where('start_at', '<=', to).executeTakeFirst();
      return {
        calls: Number(calls.numDeletedRows),
        encounters: Number(encounters.numDeletedRows),
        transits: Number(transits.numDeletedRows),
        loitering: Number(loitering.numDeletedRows),
        gaps: Number(gaps.numDeletedRows),
      };
    },

    // ---- reads ----

    /** A port's calls under way at some moment of [from, to]: arrived by `to`, not departed before `from`. */
    async callsAtPort(portId: number, from: number, to: number, shipTypes: readonly number[] | null = null): Promise<PortCallRow[]> {
      let query = db
        .selectFrom('port_calls')
        .selectAll()
        .where('port_id', '=', portId)
        .where('arrival', '<=', to)
        .where((eb) => eb.or([eb('departure', 'is', null), eb('departure', '>', from)]));
      if (shipTypes) query = query.where('ship_type', 'in', shipTypes.length > 0 ? [...shipTypes] : [-1]);
      return query.orderBy('arrival', 'asc').execute();
    },

    /** Calls that ended in [from, to] at any of the ports, oldest departure first. */
    async callsDepartedAt(portIds: readonly number[], from: number, to: number): Promise<PortCallRow[]> {
      if (portIds.length === 0) return [];
      return db
        .selectFrom('port_calls')
        .selectAll()
        .where('port_id', 'in', [...portIds])
        .where('departure', '>=', from)
        .where('departure', '<=', to)
        .orderBy('departure', 'asc')
        .execute();
    },

    /** Calls that began in [from, to), oldest first. */
    async callsArrivedBetween(from: number, to: number): Promise<PortCallRow[]> {
      return db.selectFrom('port_calls').selectAll().where('arrival', '>=', from).where('arrival', '<', to).orderBy('arrival', 'asc').execute();
    },

    /** Who was in which port when, for calls that began in [from, to): the columns voyages and port time need, without the stops. */
    async callSpansArrivedBetween(from: number, to: number): Promise<Pick<PortCallRow, 'vsl_id' | 'port_id' | 'arrival' | 'departure' | 'last_fix_at' | 'simulated'>[]> {
      return db.selectFrom('port_calls').select(['vsl_id', 'port_id', 'arrival', 'departure', 'last_fix_at', 'simulated']).where('arrival', '>=', from).where('arrival', '<', to).execute();
    },

    /** Encounters ended in the window, newest first (end_at desc, id desc). */
    async encounters(filter: EncounterFilter): Promise<EncounterRow[]> {
      let query = db.selectFrom('encounters').selectAll().where('end_at', '>=', filter.from).where('end_at', '<=', filter.to);
      if (filter.vslId !== undefined) {
        const id = filter.vslId;
        query = query.where((eb) => eb.or([eb('vsl_a', '=', id), eb('vsl_b', '=', id)]));
      }
      if (filter.zone !== undefined) query = query.where('zone', '=', filter.zone);
      if (filter.settings !== undefined) query = query.where('setting', 'in', filter.settings.length > 0 ? [...filter.settings] : ['-']);
      if (filter.bbox) {
        const box = filter.bbox;
        query = query.where('lat', '>=', box.minLat).where('lat', '<=', box.maxLat);
        query = box.minLon <= box.maxLon ? query.where('lon', '>=', box.minLon).where('lon', '<=', box.maxLon) : query.where((eb) => eb.or([eb('lon', '>=', box.minLon), eb('lon', '<=', box.maxLon)]));
      }
      if (filter.minDurationMs !== undefined) {
        const min = filter.minDurationMs;
        query = query.where((eb) => eb(eb('end_at', '-', eb.ref('start_at')), '>=', min));
      }
      if (filter.before) {
        const b = filter.before;
        query = query.where((eb) => eb.or([eb('end_at', '<', b.endAt), eb.and([eb('end_at', '=', b.endAt), eb('id', '<', b.id)])]));
      }
      return query.orderBy('end_at', 'desc').orderBy('id', 'desc').limit(filter.limit).execute();
    },

    /** Encounters ended in [from, to] within `radiusDeg`-ish box around a point (for a zone's surroundings). */
    async encountersInBox(box: { minLon: number; minLat: number; maxLon: number; maxLat: number }, from: number, to: number): Promise<EncounterRow[]> {
      return db
        .selectFrom('encounters')
        .selectAll()
        .where('end_at', '>=', from)
        .where('end_at', '<=', to)
        .where('lat', '>=', box.minLat)
        .where('lat', '<=', box.maxLat)
        .where('lon', '>=', box.minLon)
        .where('lon', '<=', box.maxLon)
        .execute();
    },

    /** Transits of a chokepoint that ended in [from, to], oldest first. */
    async transits(zone: string, from: number, to: number): Promise<TransitRow[]> {
      return db.selectFrom('transits').selectAll().where('zone', '=', zone).where('exited_at', '>=', from).where('exited_at', '<=', to).orderBy('exited_at', 'asc').execute();
    },

    /** One vessel's port calls and chokepoint transits under way in [from, to], newest first (the vessel services' timeline). */
    async vesselTimeline(vslId: string, from: number, to: number, limit: number): Promise<{ calls: PortCallRow[]; transits: TransitRow[] }> {
      const calls = await db
        .selectFrom('port_calls')
        .selectAll()
        .where('vsl_id', '=', vslId)
        .where('arrival', '<=', to)
        .where((eb) => eb.or([eb('departure', 'is', null), eb('departure', '>=', from)]))
        .orderBy('arrival', 'desc')
        .limit(limit)
        .execute();
      const transits = await db
        .selectFrom('transits')
        .selectAll()
        .where('vsl_id', '=', vslId)
        .where('entered_at', '<=', to)
        .where('exited_at', '>=', from)
        .orderBy('entered_at', 'desc')
        .limit(limit)
        .execute();
      return { calls, transits };
    },

    ...createDetectorStateRepo(db),
  };
}
export type EventsRepo = ReturnType<typeof createEventsRepo>;
