/**
 * The lanes analytics as they were before issue 31 (docs/decisions/123): voyages computed on every
 * request from the window's port calls. Kept only as the reference the property tests compare the
 * aggregate-reading service with (test/integration/lanes-aggregates-property.test.ts); not shipped.
 */
import type { Caller } from '../../src/access/principals.js';
import { LANE_GEOJSON_ATTRIBUTION } from '../../src/features/routes/lanes/attribution.js';
import { DAY, HOUR, iso, isoOrNull, type Clock } from '../../src/platform/clock.js';
import { shipCategory, type ShipCategory } from '../../src/fleet/ship-types.js';
import type { CursorCodec } from '../../src/http/cursor-codec.js';
import { AppError } from '../../src/platform/errors.js';
import type { EventsService } from '../../src/features/events/events-service.js';
import { parseTime } from '../../src/features/kit/time-window.js';
import type { PortRecord } from '../../src/features/ports/port-table.js';
import { correctedPortFlags, type PortsService } from '../../src/features/ports/ports-service.js';
import type { RoutesService } from '../../src/features/routes/routes-service.js';
import { flagsFor } from '../../src/features/vessels/vessel-views.js';
import type { Db } from '../../src/store/db.js';
import {
  cellsOfLines,
  changePct,
  coefficientOfVariation,
  componentSizes,
  mean,
  meanOfLastK,
  median,
  nearestRank,
  robustZ,
  round,
  slope,
  stdDev,
  voyagesOf,
  type LaneCall,
  type Voyage,
} from '../../src/features/routes/lanes/lanes-math.js';
import { groupBy } from '../../src/platform/stats.js';

/** A call that began this long before the window may still end in it (longer calls are not seen as origins). */
const CALL_LOOKBACK_MS = 30 * DAY;
/** Port calls one answer may read; a longer window over a busier store is refused (invalid_range). */
const MAX_CALLS = 200_000;
/** Lanes routed for the heatmap (the busiest ones). */
const HEATMAP_MAX_LANES = 200;
/** Weeks averaged by the stability forecast. */
const FORECAST_K = 4;
const METHOD_REFERENCE = 'docs/lanes.md';

type PortView = { port_id: number; name: string | null; locode: string | null; country: string | null; lat: number | null; lon: number | null };

interface Window {
  since: number;
  until: number;
  days: number;
}

interface Loaded {
  window: Window;
  calls: LaneCall[];
  voyages: Voyage[];
  /** Calls that began or ended in the window. */
  callsInWindow: number;
  analysedUpTo: number | null;
}

interface Common {
  days?: number;
  until?: string;
  ship_type?: ShipCategory;
}

const laneKey = (from: number, to: number) => `${from}>${to}`;
const hours = (ms: number) => round(ms / HOUR, 1);
const maybe = (x: number | null, places: number) => (x === null ? null : round(x, places));

/** Voyages and lanes from the event store's port calls (docs/lanes.md, decisions 062 and 063). */
export function createReferenceLanesService(deps: { repo: ReferenceLanesRepo; events: EventsService; ports: Pick<PortsService, 'byId'>; routes: RoutesService; clock: Clock; cursors: CursorCodec }) {
  const portRecord = (portId: number) => deps.ports.byId(portId);
  const portView = (portId: number): PortView => {
    const p = portRecord(portId);
    return p ? { port_id: p.port_id, name: p.name, locode: p.locode, country: p.country, lat: p.lat, lon: p.lon } : { port_id: portId, name: null, locode: null, country: null, lat: null, lon: null };
  };

  /** A port given as port_id or UN/LOCODE (not a position). */
  const requirePort = (input: string, field: string): PortRecord => {
    const place = deps.routes.resolvePlace(input, field);
    if (place.kind !== 'port' || place.port === null) throw new AppError('invalid_request', `${field} must be a port_id or a UN/LOCODE, not a position`, { field });
    return portRecord(place.port.port_id)!;
  };

  /** Whole UTC days ending at the start of the day of `until` (default and latest: the caller's horizon). */
  const windowOf = (query: { days?: number; until?: string }, caller: Caller, defaultDays: number): Window => {
    const horizon = deps.events.horizon(caller);
    const requested = query.until === undefined ? horizon : parseTime(query.until, 'until');
    const until = Math.floor(Math.min(requested, horizon) / DAY) * DAY;
    const days = query.days ?? defaultDays;
    return { since: until - days * DAY, until, days };
  };

  const load = async (window: Window, shipType: ShipCategory | undefined): Promise<Loaded> => {
    const calls = await deps.repo.callsForWindow(window.since, window.until, CALL_LOOKBACK_MS, MAX_CALLS);
    if (calls.length > MAX_CALLS) throw new AppError('invalid_range', `the window holds more than ${MAX_CALLS} port calls: ask for fewer days`, { field: 'query.days' });
    const all = voyagesOf(calls, window.since, window.until);
    const voyages = shipType === undefined ? all : all.filter((v) => shipCategory(v.shipType) === shipType);
    const inWindow = (t: number | null) => t !== null && t >= window.since && t < window.until;
    const callsInWindow = calls.filter((c) => inWindow(c.arrival) || inWindow(c.departure)).length;
    return { window, calls, voyages, callsInWindow, analysedUpTo: await deps.events.analysedUpTo() };
  };

  const meta = (l: Loaded, voyages: readonly Voyage[] = l.voyages) => ({
    window: { since: iso(l.window.since), until: iso(l.window.until), days: l.window.days },
    sample: { port_calls: l.callsInWindow, voyages: voyages.length, vessels: new Set(voyages.map((v) => v.vslId)).size },
    analysed_up_to: isoOrNull(l.analysedUpTo),
    method_reference: METHOD_REFERENCE,
  });

  /** The answer with its flags; `basis` is what it counts: voyages, or port calls (departures, arrivals). */
  const envelope = <D>(l: Loaded, data: D, portIds: Iterable<number>, basis: { voyages: readonly Voyage[] } | { calls: readonly LaneCall[] }) => {
    const flags: string[] = [];
    if (l.analysedUpTo === null) flags.push('events_not_analysed');
    if (l.callsInWindow === 0) flags.push('no_port_calls_in_window');
    else if ('voyages' in basis && basis.voyages.length === 0) flags.push('no_voyages_in_window');
    else if ('calls' in basis && basis.calls.length === 0) flags.push('no_matching_calls_in_window');
    const simulated = 'voyages' in basis ? basis.voyages.some((v) => v.simulated) : basis.calls.some((c) => c.simulated === 1);
    return {
      data,
      freshnessSeconds: l.analysedUpTo === null ? 0 : Math.max(0, (deps.clock.now() - Math.min(l.window.until, l.analysedUpTo)) / 1000),
      qualityFlags: [...flags, ...flagsFor(simulated), ...correctedPortFlags([...portIds].map(portRecord))],
    };
  };

  /** The sea route of a lane from the routing engine (cached there), or null when the ports cannot be routed. */
  const laneRoute = (from: number, to: number) => {
    try {
      const answer = deps.routes.direct({ from: String(from), to: String(to) });
      const data = answer.data as {
        distance_nm: number;
        passages: { id: string }[];
        geometry: { type: 'LineString'; coordinates: number[][] } | { type: 'MultiLineString'; coordinates: number[][][] };
      };
      return { distance_nm: data.distance_nm, passages: data.passages.map((p) => p.id), geometry: data.geometry };
    } catch (err) {
      if (err instanceof AppError) return null;
      throw err;
    }
  };

  interface LaneAgg {
    from: number;
    to: number;
    voyages: Voyage[];
  }
  const lanesOf = (voyages: readonly Voyage[]): LaneAgg[] => {
    const lanes = new Map<string, LaneAgg>();
    for (const v of voyages) {
      const key = laneKey(v.from, v.to);
      const held = lanes.get(key);
      if (held) held.voyages.push(v);
      else lanes.set(key, { from: v.from, to: v.to, voyages: [v] });
    }
    const vessels = (l: LaneAgg) => new Set(l.voyages.map((v) => v.vslId)).size;
    return [...lanes.values()].sort((a, b) => b.voyages.length - a.voyages.length || vessels(b) - vessels(a) || a.from - b.from || a.to - b.to);
  };
  const departures = (voyages: readonly Voyage[]) => voyages.map((v) => v.departure);
  const touches = (portId: number | undefined) => (v: Voyage) => portId === undefined || v.from === portId || v.to === portId;

  /** Counts of times (all in [since, until)) per bucket of `bucketMs` from since, oldest first. */
  const countPer = (times: readonly number[], since: number, until: number, bucketMs: number) => {
    const counts = new Array<number>(Math.ceil((until - since) / bucketMs)).fill(0);
    for (const t of times) counts[Math.floor((t - since) / bucketMs)]!++;
    return counts;
  };
  /** Voyages per 7-day period ending at until, oldest first; the oldest period is shorter when the window is not whole weeks. */
  const weekly = (voyages: readonly Voyage[], since: number, until: number) => {
    const week = 7 * DAY;
    const n = Math.ceil((until - since) / week);
    const counts = new Array<number>(n).fill(0);
    for (const t of departures(voyages)) counts[n - 1 - Math.floor((until - 1 - t) / week)]!++;
    return counts.map((count, i) => ({ week_start: iso(Math.max(since, until - (n - i) * week)), week_end: iso(until - (n - 1 - i) * week), voyages: count }));
  };

  const laneSummary = (lane: LaneAgg, withRoute: boolean) => {
    const hrs = lane.voyages.map((v) => (v.arrival - v.departure) / HOUR);
    const route = withRoute ? laneRoute(lane.from, lane.to) : null;
    return {
      from: portView(lane.from),
      to: portView(lane.to),
      voyages: lane.voyages.length,
      vessels: new Set(lane.voyages.map((v) => v.vslId)).size,
      median_voyage_hours: maybe(median(hrs), 1),
      sea_distance_nm: route ? round(route.distance_nm, 1) : null,
      simulated_voyages: lane.voyages.filter((v) => v.simulated).length,
    };
  };

  const directionOf = (pct: number | null, slopeValue: number | null) => {
    const x = pct ?? (slopeValue === null || slopeValue === 0 ? null : slopeValue > 0 ? 100 : -100);
    if (x === null) return slopeValue === 0 ? 'steady' : 'unknown';
    return x > 10 ? 'rising' : x < -10 ? 'falling' : 'steady';
  };

  const shipTypeMix = (voyages: readonly Voyage[]) => {
    const counts = new Map<string, number>();
    for (const v of voyages) {
      const key = shipCategory(v.shipType) ?? 'unknown';
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([ship_type, n]) => ({ ship_type, voyages: n, share: round(n / voyages.length, 3) }));
  };

  const hubsOf = (voyages: readonly Voyage[]) => {
    const hubs = new Map<number, { out: number; in: number; dest: Set<number>; orig: Set<number>; vessels: Set<string> }>();
    const hub = (id: number) => {
      let h = hubs.get(id);
      if (!h) hubs.set(id, (h = { out: 0, in: 0, dest: new Set(), orig: new Set(), vessels: new Set() }));
      return h;
    };
    for (const v of voyages) {
      const a = hub(v.from);
      a.out++;
      a.dest.add(v.to);
      a.vessels.add(v.vslId);
      const b = hub(v.to);
      b.in++;
      b.orig.add(v.from);
      b.vessels.add(v.vslId);
    }
    return [...hubs.entries()]
      .map(([portId, h]) => ({
        portId,
        voyages_out: h.out,
        voyages_in: h.in,
        voyages_total: h.out + h.in,
        out_degree: h.dest.size,
        in_degree: h.orig.size,
        partners: new Set([...h.dest, ...h.orig]).size,
        vessels: h.vessels.size,
      }))
      .sort((a, b) => b.voyages_total - a.voyages_total || b.partners - a.partners || a.portId - b.portId);
  };

  const laneHeatmapAnswer = async (query: Common & { cell_deg?: number; limit?: number }, caller: Caller) => {
    const cellDeg = query.cell_deg ?? 2;
    const l = await load(windowOf(query, caller, 30), query.ship_type);
    const lanes = lanesOf(l.voyages);
    const routed = lanes.slice(0, HEATMAP_MAX_LANES);
    const cells = new Map<string, { voyages: number; lanes: number }>();
    let unroutable = 0;
    let voyagesMapped = 0;
    for (const lane of routed) {
      const route = laneRoute(lane.from, lane.to);
      if (!route) {
        unroutable++;
        continue;
      }
      voyagesMapped += lane.voyages.length;
      const lines = route.geometry.type === 'LineString' ? [route.geometry.coordinates] : route.geometry.coordinates;
      for (const key of cellsOfLines(lines, cellDeg)) {
        const held = cells.get(key);
        if (held) {
          held.voyages += lane.voyages.length;
          held.lanes++;
        } else cells.set(key, { voyages: lane.voyages.length, lanes: 1 });
      }
    }
    const ranked = [...cells.entries()]
      .map(([key, c]) => {
        const [i, j] = key.split(',').map(Number) as [number, number];
        const west = round(i * cellDeg, 6);
        const south = round(j * cellDeg, 6);
        return { west, south, east: round(west + cellDeg, 6), north: round(Math.min(90, south + cellDeg), 6), voyages: c.voyages, lanes: c.lanes };
      })
      .sort((a, b) => b.voyages - a.voyages || b.lanes - a.lanes || a.south - b.south || a.west - b.west);
    const data = {
      ...meta(l),
      ship_type: query.ship_type ?? null,
      cell_deg: cellDeg,
      lanes_total: lanes.length,
      lanes_mapped: routed.length - unroutable,
      unroutable_lanes: unroutable,
      voyages_mapped: voyagesMapped,
      cells_total: ranked.length,
      max_voyages: ranked[0]?.voyages ?? 0,
      cells: ranked.slice(0, query.limit ?? 500),
    };
    return envelope(l, data, [], { voyages: l.voyages });
  };

  const hubsAnswer = async (query: Common & { limit?: number }, caller: Caller) => {
    const l = await load(windowOf(query, caller, 30), query.ship_type);
    const all = hubsOf(l.voyages);
    const items = all.slice(0, query.limit ?? 10).map(({ portId, ...h }, i) => ({ rank: i + 1, port: portView(portId), ...h }));
    const data = { ...meta(l), ship_type: query.ship_type ?? null, ports_total: all.length, items };
    return envelope(
      l,
      data,
      items.map((i) => i.port.port_id),
      { voyages: l.voyages },
    );
  };

  return {
    async topLanes(query: Common & { limit?: number; port?: string }, caller: Caller) {
      const port = query.port === undefined ? undefined : requirePort(query.port, 'query.port');
      const l = await load(windowOf(query, caller, 30), query.ship_type);
      const voyages = l.voyages.filter(touches(port?.port_id));
      const lanes = lanesOf(voyages);
      const items = lanes.slice(0, query.limit ?? 10).map((lane, i) => ({ rank: i + 1, ...laneSummary(lane, true) }));
      const data = { ...meta(l, voyages), ship_type: query.ship_type ?? null, port: port ? portView(port.port_id) : null, lanes_total: lanes.length, items };
      return envelope(l, data, [...(port ? [port.port_id] : []), ...items.flatMap((i) => [i.from.port_id, i.to.port_id])], { voyages });
    },

    async laneDetails(query: Common & { from: string; to: string; limit?: number; offset?: number; cursor?: string }, caller: Caller) {
      const from = requirePort(query.from, 'query.from');
      const to = requirePort(query.to, 'query.to');
      if (from.port_id === to.port_id) throw new AppError('same_origin_destination', 'from and to are the same port: a lane joins two ports', { field: 'query.to' });
      const l = await load(windowOf(query, caller, 30), query.ship_type);
      const voyages = l.voyages.filter((v) => v.from === from.port_id && v.to === to.port_id).sort((a, b) => a.departure - b.departure || a.vslId.localeCompare(b.vslId));
      const hrs = voyages.map((v) => (v.arrival - v.departure) / HOUR);
      const route = laneRoute(from.port_id, to.port_id);
      const medianHours = median(hrs);
      const limit = query.limit ?? 20;
      if (query.cursor !== undefined && query.offset !== undefined) throw new AppError('invalid_request', 'give cursor or offset, not both', { field: 'query.offset' });
      const lane = `lane:${from.port_id}:${to.port_id}:`;
      const offset = query.cursor !== undefined ? Number(deps.cursors.read(query.cursor, new RegExp(`^${lane}(\\d{1,6})$`), 'query.cursor')[1]) : (query.offset ?? 0);
      const page = voyages.slice(offset, offset + limit);
      const nextOffset = offset + limit < voyages.length ? offset + limit : null;
      const data = {
        ...meta(l, voyages),
        ship_type: query.ship_type ?? null,
        from: portView(from.port_id),
        to: portView(to.port_id),
        voyages_count: voyages.length,
        vessels: new Set(voyages.map((v) => v.vslId)).size,
        transit_hours: {
          min: maybe(hrs.length ? Math.min(...hrs) : null, 1),
          median: maybe(medianHours, 1),
          mean: maybe(mean(hrs), 1),
          p90: maybe(nearestRank(hrs, 90), 1),
          max: maybe(hrs.length ? Math.max(...hrs) : null, 1),
        },
        ship_types: shipTypeMix(voyages),
        weekly: weekly(voyages, l.window.since, l.window.until),
        route: route
          ? { distance_nm: round(route.distance_nm, 1), passages: route.passages, implied_speed_kn: medianHours && medianHours > 0 ? round(route.distance_nm / medianHours, 1) : null }
          : { distance_nm: null, passages: [], implied_speed_kn: null },
        voyages: page.map((v) => ({
          vsl_id: v.vslId,
          departure: iso(v.departure),
          arrival: iso(v.arrival),
          hours: hours(v.arrival - v.departure),
          ship_type: shipCategory(v.shipType),
          simulated: v.simulated,
        })),
        next_cursor: nextOffset === null ? null : deps.cursors.seal(`${lane}${nextOffset}`),
        offset,
        next_offset: nextOffset,
      };
      return envelope(l, data, [from.port_id, to.port_id], { voyages });
    },

    async laneTrends(query: Omit<Common, 'days'> & { weeks?: number; limit?: number; port?: string }, caller: Caller) {
      const port = query.port === undefined ? undefined : requirePort(query.port, 'query.port');
      const weeks = query.weeks ?? 8;
      const w = windowOf({ days: 2 * weeks * 7, until: query.until }, caller, 0);
      const l = await load(w, query.ship_type);
      const mid = w.until - weeks * 7 * DAY;
      const voyages = l.voyages.filter(touches(port?.port_id));
      const current = voyages.filter((v) => v.departure >= mid);
      const previous = new Map<string, number>();
      for (const v of voyages) if (v.departure < mid) previous.set(laneKey(v.from, v.to), (previous.get(laneKey(v.from, v.to)) ?? 0) + 1);
      const lanes = lanesOf(current);
      const items = lanes.slice(0, query.limit ?? 10).map((lane, i) => {
        const counts = countPer(departures(lane.voyages), mid, w.until, 7 * DAY);
        const before = previous.get(laneKey(lane.from, lane.to)) ?? 0;
        const s = slope(counts);
        const pct = changePct(lane.voyages.length, before);
        return {
          rank: i + 1,
          from: portView(lane.from),
          to: portView(lane.to),
          voyages: lane.voyages.length,
          previous_voyages: before,
          change_pct: pct,
          slope_per_week: maybe(s, 3),
          direction: directionOf(pct, s),
          weekly: counts,
        };
      });
      const data = {
        ...meta(l, current),
        window: { since: iso(mid), until: iso(w.until), days: weeks * 7 },
        previous_window: { since: iso(w.since), until: iso(mid), voyages: voyages.length - current.length },
        weeks,
        ship_type: query.ship_type ?? null,
        port: port ? portView(port.port_id) : null,
        lanes_total: lanes.length,
        items,
      };
      return envelope(l, data, [...(port ? [port.port_id] : []), ...items.flatMap((i) => [i.from.port_id, i.to.port_id])], { voyages });
    },

    async laneVolatility(query: Common & { bucket?: 'day' | 'week'; limit?: number; min_voyages?: number }, caller: Caller) {
      const bucket = query.bucket ?? 'week';
      const bucketMs = bucket === 'day' ? DAY : 7 * DAY;
      const days = query.days ?? 56;
      if (bucket === 'week' && days % 7 !== 0) throw new AppError('invalid_request', 'with bucket=week, days must be a multiple of 7', { field: 'query.days' });
      const l = await load(windowOf({ ...query, days }, caller, 56), query.ship_type);
      const minVoyages = query.min_voyages ?? 2;
      const lanes = lanesOf(l.voyages).filter((lane) => lane.voyages.length >= minVoyages);
      const rows = lanes.map((lane) => {
        const counts = countPer(departures(lane.voyages), l.window.since, l.window.until, bucketMs);
        return { lane, counts, mean: mean(counts)!, std: stdDev(counts)!, cv: coefficientOfVariation(counts)! };
      });
      rows.sort((a, b) => round(b.cv, 6) - round(a.cv, 6) || b.lane.voyages.length - a.lane.voyages.length || a.lane.from - b.lane.from || a.lane.to - b.lane.to);
      const items = rows.slice(0, query.limit ?? 10).map((r, i) => ({
        rank: i + 1,
        from: portView(r.lane.from),
        to: portView(r.lane.to),
        voyages: r.lane.voyages.length,
        mean_per_bucket: round(r.mean, 3),
        std_per_bucket: round(r.std, 3),
        cv: round(r.cv, 3),
        counts: r.counts,
      }));
      const overall = countPer(departures(l.voyages), l.window.since, l.window.until, bucketMs);
      const data = {
        ...meta(l),
        ship_type: query.ship_type ?? null,
        bucket,
        buckets: overall.length,
        min_voyages: minVoyages,
        lanes_total: lanes.length,
        overall: { counts: overall, mean: maybe(mean(overall), 3), std: maybe(stdDev(overall), 3), cv: maybe(coefficientOfVariation(overall), 3) },
        items,
      };
      return envelope(
        l,
        data,
        items.flatMap((i) => [i.from.port_id, i.to.port_id]),
        { voyages: l.voyages },
      );
    },

    async topPolylines(query: Common & { limit?: number }, caller: Caller) {
      const l = await load(windowOf(query, caller, 30), query.ship_type);
      const lanes = lanesOf(l.voyages).slice(0, query.limit ?? 10);
      let unroutable = 0;
      const features = [];
      for (const [i, lane] of lanes.entries()) {
        const route = laneRoute(lane.from, lane.to);
        if (!route) {
          unroutable++;
          continue;
        }
        const s = laneSummary(lane, false);
        features.push({ type: 'Feature' as const, geometry: route.geometry, properties: { rank: i + 1, ...s, sea_distance_nm: round(route.distance_nm, 1), passages: route.passages } });
      }
      const data = { type: 'FeatureCollection' as const, features, ...meta(l), ship_type: query.ship_type ?? null, unroutable_lanes: unroutable, attribution: [...LANE_GEOJSON_ATTRIBUTION.routed] };
      return envelope(
        l,
        data,
        lanes.flatMap((x) => [x.from, x.to]),
        { voyages: l.voyages },
      );
    },

    laneHeatmap: laneHeatmapAnswer,

    async laneHeatmapGeoJson(query: Common & { cell_deg?: number; limit?: number }, caller: Caller) {
      const answer = await laneHeatmapAnswer(query, caller);
      const { cells, ...rest } = answer.data;
      const features = cells.map((c) => ({
        type: 'Feature' as const,
        geometry: {
          type: 'Polygon' as const,
          coordinates: [
            [
              [c.west, c.south],
              [c.east, c.south],
              [c.east, c.north],
              [c.west, c.north],
              [c.west, c.south],
            ],
          ],
        },
        properties: c,
      }));
      return { ...answer, data: { type: 'FeatureCollection' as const, features, ...rest, attribution: [...LANE_GEOJSON_ATTRIBUTION.routed] } };
    },

    hubs: hubsAnswer,

    async hubsGeoJson(query: Common & { limit?: number }, caller: Caller) {
      const answer = await hubsAnswer(query, caller);
      const { items, ...rest } = answer.data;
      const placed = items.filter((i) => i.port.lat !== null && i.port.lon !== null);
      const features = placed.map((i) => ({ type: 'Feature' as const, geometry: { type: 'Point' as const, coordinates: [i.port.lon!, i.port.lat!] }, properties: i }));
      return { ...answer, data: { type: 'FeatureCollection' as const, features, ...rest, unplaced_ports: items.length - placed.length, attribution: [...LANE_GEOJSON_ATTRIBUTION.hubs] } };
    },

    async networkOverview(query: Common, caller: Caller) {
      const l = await load(windowOf(query, caller, 30), query.ship_type);
      const lanes = lanesOf(l.voyages);
      const hubs = hubsOf(l.voyages);
      const sizes = componentSizes(
        hubs.map((h) => h.portId),
        lanes.map((x) => [x.from, x.to] as const),
      );
      const hrs = l.voyages.map((v) => (v.arrival - v.departure) / HOUR);
      const top = hubs[0];
      const data = {
        ...meta(l),
        ship_type: query.ship_type ?? null,
        ports: hubs.length,
        lanes: lanes.length,
        voyages: l.voyages.length,
        vessels: new Set(l.voyages.map((v) => v.vslId)).size,
        connected_components: sizes.length,
        largest_component_ports: sizes[0] ?? 0,
        density: hubs.length > 1 ? round(lanes.length / (hubs.length * (hubs.length - 1)), 4) : null,
        median_voyage_hours: maybe(median(hrs), 1),
        top_hub: top ? { port: portView(top.portId), voyages_total: top.voyages_total, partners: top.partners } : null,
        top_lane: lanes[0] ? { from: portView(lanes[0].from), to: portView(lanes[0].to), voyages: lanes[0].voyages.length } : null,
      };
      return envelope(l, data, [...(top ? [top.portId] : []), ...(lanes[0] ? [lanes[0].from, lanes[0].to] : [])], { voyages: l.voyages });
    },

    async weeklySummary(query: Omit<Common, 'days'> & { weeks?: number }, caller: Caller) {
      const weeks = query.weeks ?? 4;
      const l = await load(windowOf({ days: weeks * 7, until: query.until }, caller, 0), query.ship_type);
      const since = l.window.since;
      const departedPerWeek = countPer(
        l.calls
          .filter((c) => c.departure !== null && c.departure >= since && c.departure < l.window.until && (query.ship_type === undefined || shipCategory(c.ship_type) === query.ship_type))
          .map((c) => c.departure!),
        since,
        l.window.until,
        7 * DAY,
      );
      const items = Array.from({ length: weeks }, (_, i) => {
        const start = since + i * 7 * DAY;
        const vs = l.voyages.filter((v) => v.departure >= start && v.departure < start + 7 * DAY);
        return {
          week_start: iso(start),
          week_end: iso(start + 7 * DAY),
          voyages: vs.length,
          departures: departedPerWeek[i]!,
          vessels: new Set(vs.map((v) => v.vslId)).size,
          lanes: new Set(vs.map((v) => laneKey(v.from, v.to))).size,
          median_voyage_hours: maybe(median(vs.map((v) => (v.arrival - v.departure) / HOUR)), 1),
          by_ship_type: shipTypeMix(vs).map(({ ship_type, voyages }) => ({ ship_type, voyages })),
        };
      }).map((item, i, all) => ({ ...item, voyages_change_pct: i === 0 ? null : changePct(item.voyages, all[i - 1]!.voyages) }));
      const data = { ...meta(l), weeks, ship_type: query.ship_type ?? null, items };
      return envelope(l, data, [], { voyages: l.voyages });
    },

    async weeklyTrend(query: Omit<Common, 'days' | 'ship_type'> & { weeks?: number }, caller: Caller) {
      const weeks = query.weeks ?? 8;
      const l = await load(windowOf({ days: weeks * 7, until: query.until }, caller, 0), undefined);
      const trendOf = (voyages: readonly Voyage[]) => {
        const counts = countPer(departures(voyages), l.window.since, l.window.until, 7 * DAY);
        const s = slope(counts);
        const last = counts[counts.length - 1]!;
        const prev = counts.length > 1 ? counts[counts.length - 2]! : 0;
        const pct = counts.length > 1 ? changePct(last, prev) : null;
        return {
          voyages: voyages.length,
          weekly: counts,
          last_week_change_pct: pct,
          slope_per_week: maybe(s, 3),
          direction: directionOf(s === null || mean(counts) === 0 ? null : round(((s * counts.length) / mean(counts)!) * 100, 1), s),
        };
      };
      const byType = groupBy(l.voyages, (v) => shipCategory(v.shipType) ?? 'unknown');
      const data = {
        ...meta(l),
        weeks,
        week_starts: Array.from({ length: weeks }, (_, i) => iso(l.window.since + i * 7 * DAY)),
        overall: trendOf(l.voyages),
        by_ship_type: [...byType.entries()].sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0])).map(([ship_type, vs]) => ({ ship_type, ...trendOf(vs) })),
      };
      return envelope(l, data, [], { voyages: l.voyages });
    },

    async seasonality(query: Common & { port?: string }, caller: Caller) {
      const port = query.port === undefined ? undefined : requirePort(query.port, 'query.port');
      const l = await load(windowOf(query, caller, 90), query.ship_type);
      const voyages = l.voyages.filter((v) => port === undefined || v.from === port.port_id);
      const share = (n: number) => (voyages.length === 0 ? null : round(n / voyages.length, 3));
      const weekday = new Array<number>(7).fill(0);
      const hour = new Array<number>(24).fill(0);
      const month = new Map<string, number>();
      for (const v of voyages) {
        const d = new Date(v.departure);
        weekday[(d.getUTCDay() + 6) % 7]!++;
        hour[d.getUTCHours()]!++;
        const m = d.toISOString().slice(0, 7);
        month.set(m, (month.get(m) ?? 0) + 1);
      }
      const names = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
      const weeksCovered = Math.floor(l.window.days / 7);
      const data = {
        ...meta(l, voyages),
        ship_type: query.ship_type ?? null,
        port: port ? portView(port.port_id) : null,
        by_weekday: weekday.map((n, i) => ({ weekday: names[i]!, voyages: n, share: share(n) })),
        by_hour: hour.map((n, h) => ({ hour_utc: h, voyages: n, share: share(n) })),
        by_month: [...month.entries()].sort().map(([m, n]) => ({ month: m, voyages: n, share: share(n) })),
        weekday_occurrences: weeksCovered,
        enough_history: { weekday: weeksCovered >= 4, hour: l.window.days >= 14, month: l.window.days >= 365 },
      };
      const env = envelope(l, data, port ? [port.port_id] : [], { voyages });
      if (!data.enough_history.weekday) env.qualityFlags.push('window_too_short_for_weekday');
      if (!data.enough_history.month) env.qualityFlags.push('window_too_short_for_month');
      return env;
    },

    async anomalyDays(query: Common & { port?: string; threshold?: number }, caller: Caller) {
      const port = query.port === undefined ? undefined : requirePort(query.port, 'query.port');
      const threshold = query.threshold ?? 3.5;
      const l = await load(windowOf(query, caller, 30), undefined);
      const { since, until } = l.window;
      const departed = l.calls.filter(
        (c) =>
          c.departure !== null &&
          c.departure >= since &&
          c.departure < until &&
          (port === undefined || c.port_id === port.port_id) &&
          (query.ship_type === undefined || shipCategory(c.ship_type) === query.ship_type),
      );
      const counts = new Array<number>(l.window.days).fill(0);
      for (const c of departed) counts[Math.floor((c.departure! - since) / DAY)]!++;
      const z = robustZ(counts);
      const days = counts.map((n, i) => ({ day: iso(since + i * DAY).slice(0, 10), departures: n, z: maybe(z.z[i] ?? null, 2) }));
      const anomalies = days.filter((d) => d.z !== null && Math.abs(d.z) >= threshold).map((d) => ({ ...d, direction: d.z! > 0 ? ('high' as const) : ('low' as const) }));
      const data = {
        ...meta(l, []),
        sample: { port_calls: l.callsInWindow, departures: departed.length, days: counts.length },
        ship_type: query.ship_type ?? null,
        port: port ? portView(port.port_id) : null,
        threshold,
        baseline: { median: z.median, mad: z.mad, scale: z.scale },
        days,
        anomalies,
      };
      return envelope(l, data, port ? [port.port_id] : [], { calls: departed });
    },

    async portActivityImbalance(query: Common & { port?: string; limit?: number; min_calls?: number }, caller: Caller) {
      const port = query.port === undefined ? undefined : requirePort(query.port, 'query.port');
      const l = await load(windowOf(query, caller, 30), undefined);
      const { since, until } = l.window;
      const per = new Map<number, { arrivals: number; departures: number }>();
      const counted: LaneCall[] = [];
      const at = (id: number) => {
        let p = per.get(id);
        if (!p) per.set(id, (p = { arrivals: 0, departures: 0 }));
        return p;
      };
      for (const c of l.calls) {
        if (port !== undefined && c.port_id !== port.port_id) continue;
        if (query.ship_type !== undefined && shipCategory(c.ship_type) !== query.ship_type) continue;
        const arrived = c.arrival >= since && c.arrival < until;
        const departed = c.departure !== null && c.departure >= since && c.departure < until;
        if (!arrived && !departed) continue;
        const p = at(c.port_id);
        if (arrived) p.arrivals++;
        if (departed) p.departures++;
        counted.push(c);
      }
      const minCalls = query.min_calls ?? 1;
      const rows = [...per.entries()]
        .filter(([, p]) => p.arrivals + p.departures >= minCalls)
        .map(([id, p]) => ({ id, ...p, net: p.arrivals - p.departures }))
        .sort((a, b) => Math.abs(b.net) - Math.abs(a.net) || b.arrivals + b.departures - (a.arrivals + a.departures) || a.id - b.id);
      const items = rows.slice(0, query.limit ?? 10).map((r, i) => ({
        rank: i + 1,
        port: portView(r.id),
        arrivals: r.arrivals,
        departures: r.departures,
        net_flow: r.net,
        imbalance_ratio: round(r.net / (r.arrivals + r.departures), 3),
        balance: r.net > 0 ? ('accumulating' as const) : r.net < 0 ? ('draining' as const) : ('balanced' as const),
      }));
      const data = { ...meta(l), ship_type: query.ship_type ?? null, port: port ? portView(port.port_id) : null, min_calls: minCalls, ports_total: rows.length, items };
      return envelope(l, data, [...(port ? [port.port_id] : []), ...items.map((i) => i.port.port_id)], { calls: counted });
    },

    async destOpportunities(query: Common & { from: string; limit?: number }, caller: Caller) {
      const origin = requirePort(query.from, 'query.from');
      const days = query.days ?? 30;
      const w = windowOf({ days: 2 * days, until: query.until }, caller, 0);
      const l = await load(w, query.ship_type);
      const mid = w.until - days * DAY;
      const out = l.voyages.filter((v) => v.from === origin.port_id);
      const dest = new Map<number, { recent: number; previous: number; vessels: Set<string> }>();
      for (const v of out) {
        let d = dest.get(v.to);
        if (!d) dest.set(v.to, (d = { recent: 0, previous: 0, vessels: new Set() }));
        if (v.departure >= mid) {
          d.recent++;
          d.vessels.add(v.vslId);
        } else d.previous++;
      }
      const rows = [...dest.entries()].map(([id, d]) => ({ id, ...d, score: (d.recent - d.previous) / (d.vessels.size + 1) }));
      rows.sort((a, b) => b.score - a.score || b.recent - a.recent || a.id - b.id);
      const items = rows.slice(0, query.limit ?? 10).map((r, i) => ({
        rank: i + 1,
        to: portView(r.id),
        voyages_recent: r.recent,
        voyages_previous: r.previous,
        demand_growth_pct: changePct(r.recent, r.previous),
        vessels_recent: r.vessels.size,
        opportunity_score: round(r.score, 3),
      }));
      const data = {
        ...meta(l, out),
        window: { since: iso(mid), until: iso(w.until), days },
        previous_window: { since: iso(w.since), until: iso(mid), days },
        ship_type: query.ship_type ?? null,
        from: portView(origin.port_id),
        destinations_total: rows.length,
        items,
      };
      return envelope(l, data, [origin.port_id, ...items.map((i) => i.to.port_id)], { voyages: out });
    },

    async stabilityForecast(query: Omit<Common, 'days'> & { weeks?: number; from?: string; to?: string }, caller: Caller) {
      if ((query.from === undefined) !== (query.to === undefined))
        throw new AppError('invalid_request', 'give both from and to (one lane) or neither (all voyages)', { field: query.from === undefined ? 'query.from' : 'query.to' });
      const from = query.from === undefined ? undefined : requirePort(query.from, 'query.from');
      const to = query.to === undefined ? undefined : requirePort(query.to, 'query.to');
      if (from && to && from.port_id === to.port_id) throw new AppError('same_origin_destination', 'from and to are the same port: a lane joins two ports', { field: 'query.to' });
      const weeks = query.weeks ?? 12;
      const l = await load(windowOf({ days: weeks * 7, until: query.until }, caller, 0), query.ship_type);
      const voyages = from && to ? l.voyages.filter((v) => v.from === from.port_id && v.to === to.port_id) : l.voyages;
      const all = countPer(departures(voyages), l.window.since, l.window.until, 7 * DAY);
      // weeks that began before the store's first port call have no data (not zero voyages)
      const first = await deps.repo.firstArrival();
      const covered = first === null ? 0 : all.filter((_, i) => l.window.since + i * 7 * DAY >= Math.floor(first / DAY) * DAY).length;
      const history = all.slice(all.length - covered);
      const fc = meanOfLastK(history, FORECAST_K);
      const cv = coefficientOfVariation(history);
      const data = {
        ...meta(l, voyages),
        ship_type: query.ship_type ?? null,
        lane: from && to ? { from: portView(from.port_id), to: portView(to.port_id) } : null,
        weeks,
        weeks_with_data: covered,
        history: history.map((n, i) => ({ week_start: iso(l.window.until - (covered - i) * 7 * DAY), voyages: n })),
        method: { name: 'mean_of_last_k_weeks', k: FORECAST_K, interval: 'forecast ± 1.96 × backtest RMSE, floored at 0' },
        forecast: fc ? { week_start: iso(l.window.until), week_end: iso(l.window.until + 7 * DAY), voyages: round(fc.forecast, 2), low: round(fc.low, 2), high: round(fc.high, 2) } : null,
        backtest: fc ? { points: fc.backtestPoints, mae: round(fc.mae, 3), rmse: round(fc.rmse, 3) } : null,
        cv: maybe(cv, 3),
        stability: cv === null ? null : cv < 0.25 ? ('stable' as const) : cv < 0.5 ? ('variable' as const) : ('volatile' as const),
      };
      const env = envelope(l, data, [...(from ? [from.port_id] : []), ...(to ? [to.port_id] : [])], { voyages });
      if (!fc) env.qualityFlags.push('history_too_short');
      return env;
    },
  };
}

/** The reference's repo: the window's raw port calls (the pre-issue-31 lanes repo). */
export function createReferenceLanesRepo(db: Db) {
  return {
    async callsForWindow(since: number, until: number, lookbackMs: number, cap: number): Promise<LaneCall[]> {
      return db
        .selectFrom('port_calls')
        .select(['vsl_id', 'port_id', 'ship_type', 'arrival', 'departure', 'last_fix_at', 'simulated'])
        .where('arrival', '>=', since - lookbackMs)
        .where('arrival', '<', until)
        .where((eb) => eb.or([eb('arrival', '>=', since), eb('departure', '>=', since), eb.and([eb('departure', 'is', null), eb('last_fix_at', '>=', since)])]))
        .orderBy('vsl_id', 'asc')
        .orderBy('arrival', 'asc')
        .limit(cap + 1)
        .execute();
    },
    async firstArrival(): Promise<number | null> {
      const row = await db
        .selectFrom('port_calls')
        .select((eb) => eb.fn.min('arrival').as('first'))
        .executeTakeFirst();
      return row?.first === null || row?.first === undefined ? null : Number(row.first);
    },
  };
}
type ReferenceLanesRepo = ReturnType<typeof createReferenceLanesRepo>;
