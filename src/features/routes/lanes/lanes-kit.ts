import type { Caller } from '../../../access/principals.js';
import { DAY, iso, isoOrNull, type Clock } from '../../../platform/clock.js';
import type { ShipCategory } from '../../../fleet/ship-types.js';
import type { CursorCodec } from '../../../http/cursor-codec.js';
import { AppError } from '../../../platform/errors.js';
import type { EventsService } from '../../events/events-service.js';
import { coverageFields, parseTime } from '../../kit/time-window.js';
import type { PortRecord } from '../../ports/port-table.js';
import { correctedPortFlags, type PortsService } from '../../ports/ports-service.js';
import type { RoutesService } from '../routes-service.js';
import { flagsFor } from '../../vessels/vessel-views.js';
import type { LanesFilter, LanesRepo, WindowSpan } from './lanes-repo.js';
import type { Voyage } from './lanes-math.js';
import { plausibleVoyages, shipTypeCodes, vesselCount, type Facts, type Window } from './lanes-facts.js';
import { lanesTogether, sumLanes, totalsOf, type DatedLaneParts, type LaneParts, type LaneStats, type SummedLanes } from './lane-stats.js';
import { departuresPerDayAndHour, sumLanesPer, voyagesOfLanes, voyagesPer, voyagesPerLane } from './lane-series.js';
import { greatCircleNmOf, voyageCountsOf } from '../../../events/lane-rule.js';

/** A call that began this long before the window may still end in it (longer calls are not seen as origins). */
export const CALL_LOOKBACK_MS = 30 * DAY;
/** top-lanes' window when the caller gives no days; scenario's busiest pairs use it too. */
export const TOP_LANES_DEFAULT_DAYS = 30;
/** Lanes routed for the heatmap (the busiest ones). */
export const HEATMAP_MAX_LANES = 200;
/** Weeks averaged by the stability forecast. */
export const FORECAST_K = 4;
export const METHOD_REFERENCE = 'docs/lanes.md';

export type PortView = { port_id: number; name: string | null; locode: string | null; country: string | null; lat: number | null; lon: number | null };
export type LaneRoute = { distance_nm: number; passages: string[]; geometry: { type: 'LineString'; coordinates: number[][] } | { type: 'MultiLineString'; coordinates: number[][][] } };

/** Which voyages one answer loads (beside its ship type): an origin, a destination, a port touched, or none at all. */
export interface LoadScope {
  from?: number;
  to?: number;
  touching?: number;
  /** Only the counts of calls (the answer counts calls, not voyages). */
  noVoyages?: boolean;
}

/** What one answer summed from the voyage cells stands on (docs/decisions/149): Facts with lanes instead of voyages. */
export interface LaneFacts extends Omit<Facts, 'voyages'> {
  lanes: LaneStats[];
  /** Some cell read held sketches, not its voyages: distinct vessels and hours are estimates (docs/lanes.md). */
  approximate: boolean;
  /**
   * The distinct vessels of all of the window's lanes from the window cells (docs/decisions/163), when the answer
   * is approximate and reads every lane and ship type: its total without merging every lane's registers.
   */
  windowVessels?: number;
}

/** Quality flag of an answer built from approximate cells. */
export const APPROXIMATE_FLAG = 'approximate_distinct_counts';

export type LanesDeps = { repo: LanesRepo; events: EventsService; ports: Pick<PortsService, 'byId'>; routes: RoutesService; clock: Clock; cursors: CursorCodec };

/** What the view modules share: the store reads of one answer, the port views, the routes, and the envelope. */
export type LanesKit = ReturnType<typeof createLanesKit>;

export function createLanesKit(deps: LanesDeps) {
  const portRecord = (portId: number) => deps.ports.byId(portId);
  const portView = (portId: number): PortView => {
    const p = portRecord(portId);
    return p ? { port_id: p.port_id, name: p.name, locode: p.locode, country: p.country, lat: p.lat, lon: p.lon } : { port_id: portId, name: null, locode: null, country: null, lat: null, lon: null };
  };
  /** A window as answers state it: its bounds, its length and the part of it the store covers. */
  const windowView = (w: Window, dataFrom: number | null) => ({ since: iso(w.since), until: iso(w.until), days: w.days, ...coverageFields(w, dataFrom) });
  const greatCircleNm = greatCircleNmOf(deps.ports);
  /** No ship type nor port asked for: the window cells hold the answer's vessels (docs/decisions/163). */
  const everyLane = (shipType: ShipCategory | undefined, scope: Omit<LoadScope, 'noVoyages'>) =>
    shipType === undefined && scope.from === undefined && scope.to === undefined && scope.touching === undefined;
  const span = (w: Window): WindowSpan => ({ since: w.since, until: w.until, lookbackMs: CALL_LOOKBACK_MS });
  /** The facts of one answer from what `read` reads of the window's cells, its lanes as `sum` sums them. */
  const factsOfWindow = async <R, S extends SummedLanes>(
    window: Window,
    shipType: ShipCategory | undefined,
    scope: Omit<LoadScope, 'noVoyages'>,
    read: (w: WindowSpan, f: LanesFilter) => Promise<R>,
    sum: (read: R) => S,
  ): Promise<{ facts: LaneFacts; read: R; summed: S }> => {
    await deps.events.voyageCellsUpToDate({ from: window.since, to: window.until });
    const [got, callsInWindow, analysedUpTo, dataFrom] = await Promise.all([
      read(span(window), { shipTypes: shipTypeCodes(shipType), from: scope.from, to: scope.to, touching: scope.touching }),
      deps.repo.callsInWindow(span(window)),
      deps.events.analysedUpTo(),
      deps.repo.firstArrival(),
    ]);
    const summed = sum(got);
    const { lanes, leftOut, approximate } = summed;
    const windowVessels = approximate && everyLane(shipType, scope) ? (await deps.repo.windowVessels(span(window), voyageCountsOf(deps.ports))).count() : undefined;
    return { facts: { window, lanes, callsInWindow, analysedUpTo, dataFrom, leftOut, approximate, windowVessels }, read: got, summed };
  };
  const lanesOfWindow = async <P extends LaneParts>(
    window: Window,
    shipType: ShipCategory | undefined,
    scope: Omit<LoadScope, 'noVoyages'>,
    read: (w: WindowSpan, f: LanesFilter) => Promise<P[]>,
  ): Promise<{ facts: LaneFacts; parts: P[] }> => {
    const { facts, read: parts } = await factsOfWindow(window, shipType, scope, read, (p) => sumLanes(p, greatCircleNm));
    return { facts, parts };
  };
  const sampleMeta = (l: Omit<Facts, 'voyages'>, voyages: number, vessels: number) => ({
    window: windowView(l.window, l.dataFrom),
    sample: { port_calls: l.callsInWindow, voyages, vessels, left_out: l.leftOut },
    analysed_up_to: isoOrNull(l.analysedUpTo),
    method_reference: METHOD_REFERENCE,
  });
  return {
    deps,
    span,
    portView,
    greatCircleNm,
    /** A port given as port_id or UN/LOCODE (not a position). */
    requirePort(input: string, field: string): PortRecord {
      const place = deps.routes.resolvePlace(input, field);
      if (place.kind !== 'port' || place.port === null) throw new AppError('invalid_request', `${field} must be a port_id or a UN/LOCODE, not a position`, { field });
      return portRecord(place.port.port_id)!;
    },
    /** Whole UTC days ending at the start of the day of `until` (default and latest: the caller's horizon). */
    windowOf(query: { days?: number; until?: string }, caller: Caller, defaultDays: number): Window {
      const horizon = deps.events.horizon(caller);
      const requested = query.until === undefined ? horizon : parseTime(query.until, 'until');
      const until = Math.floor(Math.min(requested, horizon) / DAY) * DAY;
      const days = query.days ?? defaultDays;
      return { since: until - days * DAY, until, days };
    },
    /** The facts of one answer: the stored voyages of the window (of the ship type and scope), and the count of its calls. */
    async load(window: Window, shipType: ShipCategory | undefined, scope: LoadScope = {}): Promise<Facts> {
      const [stored, callsInWindow, analysedUpTo, dataFrom] = await Promise.all([
        scope.noVoyages ? Promise.resolve([]) : deps.repo.voyagesForWindow(span(window), { shipTypes: shipTypeCodes(shipType), from: scope.from, to: scope.to, touching: scope.touching }),
        deps.repo.callsInWindow(span(window)),
        deps.events.analysedUpTo(),
        deps.repo.firstArrival(),
      ]);
      const { kept: voyages, leftOut } = plausibleVoyages(stored, greatCircleNm);
      return { window, voyages, callsInWindow, analysedUpTo, dataFrom, leftOut };
    },
    /**
     * The facts of one answer summed per lane from the voyage cells (docs/decisions/149): the lanes of the
     * window (of the ship type and scope) after the plausibility rule, and the count of its calls; `vessels`
     * 'sample': the answer shows the window's distinct vessels only, not its lanes' (docs/decisions/168).
     */
    async loadLanes(window: Window, shipType: ShipCategory | undefined, scope: Omit<LoadScope, 'noVoyages'> = {}, vessels: 'lanes' | 'sample' = 'lanes'): Promise<LaneFacts> {
      const read = { countsOnly: vessels === 'sample' && everyLane(shipType, scope) };
      return (await lanesOfWindow(window, shipType, scope, (w, f) => deps.repo.laneParts(w, f, read))).facts;
    },
    /**
     * loadLanes with the parts it summed, for answers that split the window by day, week or ship category
     * (lane-series, docs/decisions/154 and 158); `boundaries` (whole days): where the answer needs the vessels or
     * hours of each side apart (an approximate part then lies on one side); `byCategory`: whether it splits by
     * ship category (approximate parts of every category are merged otherwise); `vessels`: which distinct vessels
     * the answer shows (docs/decisions/168), the approximate parts' registers read for those only: the window's
     * (`'sample'`: none read when the window cells count them), or those of the lanes from a boundary on; all by default.
     */
    async loadLaneParts(
      window: Window,
      shipType: ShipCategory | undefined,
      scope: Omit<LoadScope, 'noVoyages'>,
      split: { boundaries?: readonly number[]; byCategory: boolean; vessels?: 'sample' | { from: number } },
    ) {
      const read = {
        boundaries: split.boundaries,
        byCategory: split.byCategory,
        countsOnly: split.vessels === 'sample' && everyLane(shipType, scope),
        vesselsFrom: typeof split.vessels === 'object' ? split.vessels.from : undefined,
      };
      return lanesOfWindow(window, shipType, scope, (w, f) => deps.repo.datedLaneParts(w, f, read));
    },
    /**
     * The facts of the window (all ship types) summed from the lane cells of the voyages that departed in each span,
     * and each span's lanes summed as the window's are (docs/decisions/162 and 164): the spans are whole days that
     * cover the window one after another, so the window's lanes are the spans' lanes together (lane-stats
     * `lanesTogether`, docs/decisions/176: each part summed once) and no cell is read twice. For an answer that shows
     * no lane order: lanes of equal voyages are ordered by their ports, their vessels not counted.
     */
    async lanesPerSpan(window: Window, spans: ReadonlyArray<{ since: number; until: number }>) {
      if (spans.some((s, i) => s.since !== (i === 0 ? window.since : spans[i - 1]!.until)) || spans[spans.length - 1]?.until !== window.until)
        throw new Error('lanesPerSpan: the spans must cover the window one after another');
      const { facts, summed } = await factsOfWindow(
        window,
        undefined,
        {},
        (w) => deps.repo.lanePartsPerSpan(w, {}, spans),
        (partsPerSpan) => {
          const perSpan = partsPerSpan.map((parts) => sumLanes(parts, greatCircleNm, 'ports'));
          return { ...lanesTogether(perSpan, 'ports'), perSpan };
        },
      );
      return { facts, perSpan: summed.perSpan };
    },
    /**
     * The window's parts of every ship type per category, for counting voyages only (their vessels left empty,
     * docs/decisions/162); the caller loaded the window's facts first (loadLanes brings its cells up to date).
     */
    voyageCountParts(window: Window): Promise<DatedLaneParts[]> {
      return deps.repo.datedLaneParts(span(window), { shipTypes: null }, { byCategory: true, countsOnly: true });
    },
    /** The voyages the lanes count in the parts per UTC day and per UTC hour of departure. */
    departuresPerDayAndHour(parts: readonly DatedLaneParts[]) {
      return departuresPerDayAndHour(parts, greatCircleNm);
    },
    /** The lanes of the parts per key of departure (a period, a ship category; null: left out), summed as the window's are. */
    lanesPer<K extends number | string>(parts: readonly DatedLaneParts[], keyOf: (departure: number, category: string) => K | null) {
      return sumLanesPer(parts, keyOf, greatCircleNm);
    },
    /** The voyages the lanes count in the parts per key of departure and ship category (null: not counted), over all lanes or per lane. */
    voyagesPer<K extends number | string>(parts: readonly DatedLaneParts[], keyOf: (departure: number, category: string) => K | null) {
      return voyagesPer(parts, keyOf, greatCircleNm);
    },
    voyagesPerLane<K extends number | string>(parts: readonly DatedLaneParts[], keyOf: (departure: number, category: string) => K | null) {
      return voyagesPerLane(parts, keyOf, greatCircleNm);
    },
    windowView,
    meta(l: Facts, voyages: readonly Voyage[] = l.voyages) {
      return sampleMeta(l, voyages.length, vesselCount(voyages));
    },
    /** meta of an answer summed per lane, over `lanes` (all of the window's by default). */
    lanesMeta(l: LaneFacts, lanes: readonly LaneStats[] = l.lanes) {
      // all of the window's lanes of an approximate answer: its vessels from the window cells (docs/decisions/163)
      if (lanes === l.lanes && l.windowVessels !== undefined) return sampleMeta(l, voyagesOfLanes(lanes), l.windowVessels);
      const totals = totalsOf(lanes);
      return sampleMeta(l, totals.voyages, totals.vessels);
    },
    /** The answer with its flags; `basis` is what it counts: voyages, lanes summed from cells, or port calls (how many, any simulated). */
    envelope<D>(l: Omit<Facts, 'voyages'>, data: D, portIds: Iterable<number>, basis: { voyages: readonly Voyage[] } | { lanes: LaneFacts } | { calls: { count: number; simulated: boolean } }) {
      const flags: string[] = [];
      const voyageCount = 'voyages' in basis ? basis.voyages.length : 'lanes' in basis ? basis.lanes.lanes.length : null;
      if (l.analysedUpTo === null) flags.push('events_not_analysed');
      if (l.callsInWindow === 0) flags.push('no_port_calls_in_window');
      else if (voyageCount === 0) flags.push('no_voyages_in_window');
      else if ('calls' in basis && basis.calls.count === 0) flags.push('no_matching_calls_in_window');
      if ('lanes' in basis && basis.lanes.approximate) flags.push(APPROXIMATE_FLAG);
      const simulated = 'voyages' in basis ? basis.voyages.some((v) => v.simulated) : 'lanes' in basis ? basis.lanes.lanes.some((lane) => lane.simulatedVoyages > 0) : basis.calls.simulated;
      return {
        data,
        freshnessSeconds: l.analysedUpTo === null ? 0 : Math.max(0, (deps.clock.now() - Math.min(l.window.until, l.analysedUpTo)) / 1000),
        qualityFlags: [...flags, ...flagsFor(simulated), ...correctedPortFlags([...portIds].map(portRecord))],
      };
    },
    /** The sea route of a lane from the routing engine (cached there), or null when the ports cannot be routed. */
    laneRoute(from: number, to: number): LaneRoute | null {
      try {
        const answer = deps.routes.direct({ from: String(from), to: String(to) });
        const data = answer.data as { distance_nm: number; passages: { id: string }[]; geometry: LaneRoute['geometry'] };
        return { distance_nm: data.distance_nm, passages: data.passages.map((p) => p.id), geometry: data.geometry };
      } catch (err) {
        if (err instanceof AppError) return null;
        throw err;
      }
    },
  };
}
