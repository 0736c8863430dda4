import { createHash } from 'node:crypto';
import type { Caller } from '../../access/principals.js';
import { DAY, iso, type Clock } from '../../platform/clock.js';
import { CHOKEPOINTS } from '../../events/chokepoints.js';
import { ENCOUNTER_SETTINGS } from '../../events/encounters.js';
import type { FleetService } from '../../fleet/fleet-service.js';
import type { CursorCodec } from '../../http/cursor-codec.js';
import { AppError } from '../../platform/errors.js';
import type { PortCallRow } from '../events/event-rows.js';
import type { EventsService } from '../events/events-service.js';
import { correctedVessel, type Corrections } from '../kit/override-fields.js';
import { parseTime } from '../kit/time-window.js';
import { parseVesselRef } from '../kit/vessel-ids.js';
import type { PortsService } from '../ports/ports-service.js';
import { parseZone } from '../sts/sts-service.js';
import { flagsFor } from '../vessels/vessel-views.js';
import { encounterView, gapView, loiteringView, portCallView, portsIn, transitView, zonesIn, type EventView } from './event-views.js';
import { RANK, type EventKey, type EventsListFilter, type EventsListRepo } from './events-list-repo.js';
import { EVENT_TYPES, type EventType } from './schemas.js';

export const EVENTS_DEFAULT_WINDOW_MS = 30 * DAY;
export const EVENTS_MAX_WINDOW_MS = 366 * DAY;
export const EVENTS_MAX_VESSELS = 20;
/** Port ids bound in one statement at most (SQLite and PostgreSQL bound far more; a plan stays sane). */
const PORT_IDS_BOUND = 1000;

const PREFIX: Record<EventType, string> = { port_call: 'pc', encounter: 'enc', chokepoint_transit: 'tr', loitering: 'lt', ais_gap: 'gap' };
const EVENT_ID = /^(pc|enc|tr|lt|gap)_([0-9]{1,15})$/;
const PAGE_CURSOR = /^ev:(-?\d{1,15}):(-?\d{1,15}):([0-4]):(\d{1,15}):([0-9a-f]{16})$/;

export interface EventsListOptions {
  type?: string;
  vessel?: string;
  port_id?: number;
  area?: string;
  from?: string;
  to?: string;
  min_duration?: number;
  setting?: string;
  limit: number;
  cursor?: string;
}

/** type: comma-separated event types. */
export function parseTypes(text: string | undefined): EventType[] {
  if (text === undefined) return [...EVENT_TYPES];
  const words = [...new Set(text.split(',').map((w) => w.trim().toLowerCase()))];
  for (const word of words) {
    if (!(EVENT_TYPES as readonly string[]).includes(word))
      throw new AppError('invalid_request', `unknown event type ${JSON.stringify(word)}; types: ${EVENT_TYPES.join(', ')}`, { field: 'query.type' });
  }
  return EVENT_TYPES.filter((t) => words.includes(t));
}

/** The events the detectors stored, listed by vessel, port, area and time (GET /v1/events, docs/decisions/112). */
export function createEventsApiService(deps: {
  events: EventsService;
  repo: EventsListRepo;
  fleet: FleetService;
  ports: PortsService;
  cursors: CursorCodec;
  clock: Clock;
  corrections?: (vslId: string) => Corrections | undefined;
}) {
  function vesselView(vslId: string) {
    const v = correctedVessel(deps.fleet, vslId, deps.corrections);
    return { vsl_id: vslId, mmsi: v?.mmsi ?? null, imo: v?.imo ?? null, name: v?.name ?? null };
  }

  /**
   * The vsl_ids of `vessel`; vessel_not_found (naming it) for one the fleet has never seen, or, under
   * the delay, first heard after the caller's horizon (decision 109: no sign of a vessel newer than it).
   */
  function vesselIds(text: string, horizon: number, live: boolean): string[] {
    const refs = text
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean);
    if (refs.length === 0 || refs.length > EVENTS_MAX_VESSELS) throw new AppError('invalid_request', `vessel lists 1 to ${EVENTS_MAX_VESSELS} vessels, comma-separated`, { field: 'query.vessel' });
    return [
      ...new Set(
        refs.map((raw) => {
          const ref = parseVesselRef(raw, 'query.vessel');
          const state = ref.kind === 'imo' ? deps.fleet.byImoNumber(ref.imo) : ref.kind === 'mmsi' ? deps.fleet.byMmsiNumber(ref.mmsi) : deps.fleet.byVesselId(ref.vslId);
          if (!state || (!live && state.firstSeenAt > horizon)) throw new AppError('vessel_not_found', `no vessel ${raw} is known`, { field: 'query.vessel' });
          return state.vslId;
        }),
      ),
    ];
  }

  /**
   * Port calls at the ports; an area holding more ports than a statement should bind (a continent) is
   * read in batches from the keyset and filtered here instead.
   */
  async function portCallsAt(filter: EventsListFilter, portIds: readonly number[] | undefined): Promise<PortCallRow[]> {
    if (portIds === undefined || portIds.length <= PORT_IDS_BOUND) return deps.repo.portCalls({ ...filter, ...(portIds ? { portIds } : {}) });
    const wanted = new Set(portIds);
    const out: PortCallRow[] = [];
    let after = filter.after;
    const batch = Math.max(filter.limit, 500);
    for (;;) {
      const rows = await deps.repo.portCalls({ ...filter, ...(after ? { after } : {}), limit: batch });
      for (const r of rows) if (wanted.has(r.port_id) && out.length < filter.limit) out.push(r);
      const last = rows[rows.length - 1];
      if (out.length >= filter.limit || rows.length < batch || !last) return out;
      after = { start: last.arrival, rank: RANK.port_call, id: last.id };
    }
  }

  return {
    async list(caller: Caller, options: EventsListOptions) {
      const asked = deps.clock.now();
      const horizon = deps.events.horizon(caller);
      const live = horizon >= asked;
      let types = parseTypes(options.type);
      // port_id and setting name one type's rows: they narrow the listing to it (decision 112)
      for (const [given, only, field] of [
        [options.port_id !== undefined, 'port_call', 'port_id'],
        [options.setting !== undefined, 'encounter', 'setting'],
      ] as const) {
        if (!given) continue;
        if (options.type !== undefined && !types.includes(only)) throw new AppError('invalid_request', `${field} filters ${only} events; type does not include ${only}`, { field: `query.${field}` });
        types = [only];
      }
      if (options.port_id !== undefined && options.setting !== undefined)
        throw new AppError('invalid_request', 'port_id lists port calls and setting encounters: give one of them', { field: 'query.setting' });
      if (options.port_id !== undefined && deps.ports.byId(options.port_id) === undefined) throw new AppError('port_not_found', `no port has port_id ${options.port_id}`, { field: 'query.port_id' });

      const to = options.to !== undefined ? parseTime(options.to, 'to') : asked;
      const from = options.from !== undefined ? parseTime(options.from, 'from') : to - EVENTS_DEFAULT_WINDOW_MS;
      if (from > to) throw new AppError('invalid_range', 'from must not be after to', { field: 'query.from' });
      if (to - from > EVENTS_MAX_WINDOW_MS) throw new AppError('invalid_range', 'the window (from to to) may span at most 366 days', { field: 'query.from' });
      const area = options.area !== undefined ? parseArea(options.area) : null;
      const vslIds = options.vessel !== undefined ? vesselIds(options.vessel, horizon, live) : undefined;
      const settings = options.setting === undefined || options.setting === 'all' ? undefined : ENCOUNTER_SETTINGS.filter((s) => options.setting!.split(',').includes(s));

      // a cursor belongs to one query (its filters as resolved, the caller's visibility) and keeps the first page's horizon
      const queryHash = createHash('sha256')
        .update(JSON.stringify([types, from, to, options.port_id ?? null, area, vslIds ?? null, options.min_duration ?? null, settings ?? null, live]))
        .digest('hex')
        .slice(0, 16);
      let pageHorizon = horizon;
      let after: EventKey | undefined;
      if (options.cursor !== undefined) {
        const [, cursorHorizon, start, rank, id, hash] = deps.cursors.read(options.cursor, PAGE_CURSOR, 'query.cursor');
        if (hash !== queryHash) throw new AppError('cursor_invalid', 'this cursor belongs to another query (or another caller); start again without cursor', { field: 'query.cursor' });
        pageHorizon = Math.min(Number(cursorHorizon), horizon);
        after = { start: Number(start), rank: Number(rank), id: Number(id) };
      }

      const filter: EventsListFilter = {
        from,
        to,
        horizon: pageHorizon,
        ongoing: live,
        ...(vslIds ? { vslIds } : {}),
        ...(options.min_duration !== undefined ? { minDurationMs: options.min_duration * 1000 } : {}),
        ...(after ? { after } : {}),
        limit: options.limit + 1,
      };
      const portIds = options.port_id !== undefined ? [options.port_id] : area ? portsIn(area, deps.ports.table()) : undefined;
      const zones = area ? zonesIn(area) : undefined;
      type Listed = { key: EventKey; view: EventView };
      const listed: Listed[] = [];
      if (types.includes('port_call')) {
        for (const r of await portCallsAt(filter, portIds))
          listed.push({ key: { start: r.arrival, rank: RANK.port_call, id: r.id }, view: portCallView(r, deps.ports.byId(r.port_id), vesselView, pageHorizon) });
      }
      if (types.includes('encounter')) {
        const where = area ? ('box' in area ? { box: area.box } : { zones: [area.key] }) : {};
        for (const r of await deps.repo.encounters({ ...filter, ...where, ...(settings ? { settings } : {}) }))
          listed.push({ key: { start: r.start_at, rank: RANK.encounter, id: r.id }, view: encounterView(r, vesselView, vslIds) });
      }
      if (types.includes('chokepoint_transit')) {
        for (const r of await deps.repo.transits({ ...filter, ...(zones ? { zones } : {}) }))
          listed.push({ key: { start: r.entered_at, rank: RANK.chokepoint_transit, id: r.id }, view: transitView(r, vesselView) });
      }
      // loitering and gaps in a chokepoint: within the box around its gate
      const box = area ? ('box' in area ? area.box : gateBox(area.key)) : undefined;
      if (types.includes('loitering')) {
        for (const r of await deps.repo.loitering({ ...filter, ...(box ? { box } : {}) }))
          listed.push({ key: { start: r.start_at, rank: RANK.loitering, id: r.id }, view: loiteringView(r, vesselView) });
      }
      if (types.includes('ais_gap')) {
        for (const r of await deps.repo.gaps({ ...filter, ...(box ? { box } : {}) })) listed.push({ key: { start: r.start_at, rank: RANK.ais_gap, id: r.id }, view: gapView(r, vesselView) });
      }
      listed.sort((a, b) => a.key.start - b.key.start || a.key.rank - b.key.rank || a.key.id - b.key.id);
      const page = listed.slice(0, options.limit);
      const last = page[page.length - 1];
      const next = listed.length > options.limit && last ? deps.cursors.seal(`ev:${pageHorizon}:${last.key.start}:${last.key.rank}:${last.key.id}:${queryHash}`) : null;
      return {
        data: {
          window: { from: iso(from), to: iso(to) },
          visible_up_to: iso(pageHorizon),
          types: [...types],
          items: page.map((l) => l.view),
          next_cursor: next,
        },
        qualityFlags: flagsFor(
          page.some((l) => l.view.simulated),
          !live,
        ),
      };
    },

    /** One event by id; event_not_found when unknown or not visible to the caller (same answer for both). */
    async get(caller: Caller, eventId: string) {
      const asked = deps.clock.now();
      const horizon = deps.events.horizon(caller);
      const live = horizon >= asked;
      const match = EVENT_ID.exec(eventId);
      const notFound = () =>
        new AppError('event_not_found', `no event ${eventId} is visible to you (events that ended less than 50,400 s ago, or are under way, need vessels:live)`, { field: 'params.event_id' });
      if (!match) throw notFound();
      const id = Number(match[2]);
      const visible = (start: number, end: number | null) => start <= horizon && (end === null ? live : end <= horizon);
      let view: EventView | undefined;
      if (match[1] === PREFIX.loitering) {
        const row = await deps.repo.loiteringEvent(id);
        if (row && visible(row.start_at, row.end_at)) view = loiteringView(row, vesselView);
      } else if (match[1] === PREFIX.ais_gap) {
        const row = await deps.repo.gap(id);
        if (row && visible(row.start_at, row.end_at)) view = gapView(row, vesselView);
      } else if (match[1] === PREFIX.port_call) {
        const row = await deps.repo.portCall(id);
        if (row && visible(row.arrival, row.departure)) view = portCallView(row, deps.ports.byId(row.port_id), vesselView, horizon);
      } else if (match[1] === PREFIX.encounter) {
        const row = await deps.repo.encounter(id);
        if (row && visible(row.start_at, row.end_at)) view = encounterView(row, vesselView, undefined);
      } else {
        const row = await deps.repo.transit(id);
        if (row && visible(row.entered_at, row.exited_at)) view = transitView(row, vesselView);
      }
      if (!view) throw notFound();
      return { data: { event: view, visible_up_to: iso(horizon) }, qualityFlags: flagsFor(view.simulated, !live) };
    },
  };
}
export type EventsApiService = ReturnType<typeof createEventsApiService>;

/** The box around a chokepoint's gate (its disc's north, south, east and west edges). */
function gateBox(key: string): { minLon: number; minLat: number; maxLon: number; maxLat: number } {
  const gate = CHOKEPOINTS.find((c) => c.key === key)!;
  const dLat = gate.radiusKm / 111.2;
  const dLon = gate.radiusKm / (111.2 * Math.cos((gate.lat * Math.PI) / 180));
  return { minLon: gate.lon - dLon, minLat: gate.lat - dLat, maxLon: gate.lon + dLon, maxLat: gate.lat + dLat };
}

/** area: a box or a chokepoint key (parseZone's rules), errors on query.area. */
function parseArea(text: string): ReturnType<typeof parseZone> {
  try {
    return parseZone(text);
  } catch (error) {
    if (error instanceof AppError) throw new AppError(error.code, error.message.replace(/^a zone box/, 'an area box').replace(/^zone /, 'area '), { field: 'query.area' });
    throw error;
  }
}
