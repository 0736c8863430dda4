import type { Caller } from '../../../access/principals.js';
import { DAY, iso } from '../../../platform/clock.js';
import { shipCategory } from '../../../fleet/ship-types.js';
import { AppError } from '../../../platform/errors.js';
import { coverageFields, coverageOf } from '../../kit/time-window.js';
import { LANE_GEOJSON_ATTRIBUTION } from './attribution.js';
import { HEATMAP_MAX_LANES, TOP_LANES_DEFAULT_DAYS, type LanesKit } from './lanes-kit.js';
import { cellsOfLines, changePct, coefficientOfVariation, mean, round, slope, stdDev } from './lanes-math.js';
import { plausibleFromMs } from '../../../events/lane-rule.js';
import { directionOf, hours, laneKey, maybe, shipTypeCodes, type Common } from './lanes-facts.js';
import { laneFiguresOf } from './lane-details.js';
import { overLanes, seriesOf, voyagesOfLanes } from './lane-series.js';
import type { LaneStats } from './lane-stats.js';

/** The lane views (docs/lanes.md): the busiest lanes, one lane's voyages, trends, volatility, lines and the heatmap. */
export function createLaneViews(kit: LanesKit) {
  const laneSummary = (lane: LaneStats, withRoute: boolean) => {
    const route = withRoute ? kit.laneRoute(lane.from, lane.to) : null;
    return {
      from: kit.portView(lane.from),
      to: kit.portView(lane.to),
      voyages: lane.voyages,
      vessels: lane.vessels.count(),
      median_voyage_hours: maybe(lane.hours.median(), 1),
      sea_distance_nm: route ? round(route.distance_nm, 1) : null,
      simulated_voyages: lane.simulatedVoyages,
    };
  };

  const laneHeatmapAnswer = async (query: Common & { cell_deg?: number; limit?: number }, caller: Caller) => {
    const cellDeg = query.cell_deg ?? 2;
    const l = await kit.loadLanes(kit.windowOf(query, caller, 30), query.ship_type);
    const lanes = l.lanes;
    const routed = lanes.slice(0, HEATMAP_MAX_LANES);
    const cells = new Map<string, { voyages: number; lanes: number }>();
    let unroutable = 0;
    let voyagesMapped = 0;
    for (const lane of routed) {
      const route = kit.laneRoute(lane.from, lane.to);
      if (!route) {
        unroutable++;
        continue;
      }
      voyagesMapped += lane.voyages;
      const lines = route.geometry.type === 'LineString' ? [route.geometry.coordinates] : route.geometry.coordinates;
      for (const key of cellsOfLines(lines, cellDeg)) {
        const held = cells.get(key);
        if (held) {
          held.voyages += lane.voyages;
          held.lanes++;
        } else cells.set(key, { voyages: lane.voyages, lanes: 1 });
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
      ...kit.lanesMeta(l),
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
    return kit.envelope(l, data, [], { lanes: l });
  };

  return {
    async topLanes(query: Common & { limit?: number; port?: string }, caller: Caller) {
      const port = query.port === undefined ? undefined : kit.requirePort(query.port, 'query.port');
      const l = await kit.loadLanes(kit.windowOf(query, caller, TOP_LANES_DEFAULT_DAYS), query.ship_type, { touching: port?.port_id });
      const items = l.lanes.slice(0, query.limit ?? 10).map((lane, i) => ({ rank: i + 1, ...laneSummary(lane, true) }));
      const data = { ...kit.lanesMeta(l), ship_type: query.ship_type ?? null, port: port ? kit.portView(port.port_id) : null, lanes_total: l.lanes.length, items };
      return kit.envelope(l, data, [...(port ? [port.port_id] : []), ...items.flatMap((i) => [i.from.port_id, i.to.port_id])], { lanes: l });
    },

    async laneDetails(query: Common & { from: string; to: string; limit?: number; offset?: number; cursor?: string }, caller: Caller) {
      const from = kit.requirePort(query.from, 'query.from');
      const to = kit.requirePort(query.to, 'query.to');
      if (from.port_id === to.port_id) throw new AppError('same_origin_destination', 'from and to are the same port: a lane joins two ports', { field: 'query.to' });
      const limit = query.limit ?? 20;
      if (query.cursor !== undefined && query.offset !== undefined) throw new AppError('invalid_request', 'give cursor or offset, not both', { field: 'query.offset' });
      const lane = `lane:${from.port_id}:${to.port_id}:`;
      const offset = query.cursor !== undefined ? Number(kit.deps.cursors.read(query.cursor, new RegExp(`^${lane}(\\d{1,6})$`), 'query.cursor')[1]) : (query.offset ?? 0);
      // the figures from the lane's cells per ship category, the page of voyages from the voyages (docs/decisions/169)
      const window = kit.windowOf(query, caller, 30);
      const { facts: l, parts } = await kit.loadLaneParts(window, query.ship_type, { from: from.port_id, to: to.port_id }, { byCategory: true });
      const nm = kit.greatCircleNm(from.port_id, to.port_id);
      const figures = laneFiguresOf(l.lanes[0], parts, nm, l.window);
      const fromMs = plausibleFromMs(nm);
      const page =
        fromMs === null
          ? { voyages: [], more: false }
          : await kit.deps.repo.laneVoyagesPage(kit.span(l.window), { shipTypes: shipTypeCodes(query.ship_type), from: from.port_id, to: to.port_id }, fromMs, offset, limit);
      const route = kit.laneRoute(from.port_id, to.port_id);
      const medianHours = figures.transitHours.median;
      const nextOffset = page.more ? offset + limit : null;
      const data = {
        ...kit.lanesMeta(l),
        ship_type: query.ship_type ?? null,
        from: kit.portView(from.port_id),
        to: kit.portView(to.port_id),
        voyages_count: figures.voyages,
        vessels: figures.vessels,
        transit_hours: {
          min: maybe(figures.transitHours.min, 1),
          median: maybe(medianHours, 1),
          mean: maybe(figures.transitHours.mean, 1),
          p90: maybe(figures.transitHours.p90, 1),
          max: maybe(figures.transitHours.max, 1),
        },
        ship_types: figures.shipTypes,
        weekly: figures.weekly,
        route: route
          ? { distance_nm: round(route.distance_nm, 1), passages: route.passages, implied_speed_kn: medianHours && medianHours > 0 ? round(route.distance_nm / medianHours, 1) : null }
          : { distance_nm: null, passages: [], implied_speed_kn: null },
        voyages: page.voyages.map((v) => ({
          vsl_id: v.vslId,
          departure: iso(v.departure),
          arrival: iso(v.arrival),
          hours: hours(v.arrival - v.departure),
          ship_type: shipCategory(v.shipType),
          simulated: v.simulated,
        })),
        next_cursor: nextOffset === null ? null : kit.deps.cursors.seal(`${lane}${nextOffset}`),
        offset,
        next_offset: nextOffset,
      };
      return kit.envelope(l, data, [from.port_id, to.port_id], { lanes: l });
    },

    /** The busiest lanes of top-lanes' default window (scenario's pairs: one window and one voyage rule with top-lanes). */
    async busiestLanes(caller: Caller, limit: number) {
      const l = await kit.loadLanes(kit.windowOf({}, caller, TOP_LANES_DEFAULT_DAYS), undefined);
      const lanes = l.lanes.slice(0, limit);
      return {
        window: kit.windowView(l.window, l.dataFrom),
        pairs: lanes.map((lane) => ({ from: lane.from, to: lane.to, voyages: lane.voyages })),
        simulated: lanes.some((lane) => lane.simulatedVoyages > 0),
        analysedUpTo: l.analysedUpTo,
      };
    },

    async laneTrends(query: Omit<Common, 'days'> & { weeks?: number; limit?: number; port?: string }, caller: Caller) {
      const port = query.port === undefined ? undefined : kit.requirePort(query.port, 'query.port');
      const weeks = query.weeks ?? 8;
      const w = kit.windowOf({ days: 2 * weeks * 7, until: query.until }, caller, 0);
      const mid = w.until - weeks * 7 * DAY;
      const { facts: l, parts } = await kit.loadLaneParts(w, query.ship_type, { touching: port?.port_id }, { boundaries: [mid], byCategory: false, vessels: { from: mid } });
      const lanes = kit.lanesPer(parts, (departure) => (departure >= mid ? 'current' : null)).get('current')?.lanes ?? [];
      // per lane: its voyages per week of the current half, and (key -1) of the previous half
      const perLane = kit.voyagesPerLane(parts, (departure) => (departure < mid ? -1 : Math.floor((departure - mid) / (7 * DAY))));
      // weeks (and a previous period) before the store's first data are missing, not zero traffic
      const currentSpan = { since: mid, until: w.until, days: weeks * 7 };
      const previousSpan = { since: w.since, until: mid, days: weeks * 7 };
      const weeksWithData = coverageOf(currentSpan, l.dataFrom, 7 * DAY).periods;
      const previousCovered = coverageOf(previousSpan, l.dataFrom).periods === previousSpan.days;
      const items = lanes.slice(0, query.limit ?? 10).map((lane, i) => {
        const counts = perLane.get(laneKey(lane.from, lane.to))!.counts;
        const all = seriesOf(counts, weeks, (k) => k);
        const withData = all.slice(weeks - weeksWithData);
        const before = previousCovered ? (counts.get(-1) ?? 0) : null;
        const s = withData.length < 2 ? null : slope(withData);
        const pct = before === null ? null : changePct(lane.voyages, before);
        return {
          rank: i + 1,
          from: kit.portView(lane.from),
          to: kit.portView(lane.to),
          voyages: lane.voyages,
          previous_voyages: before,
          change_pct: pct,
          slope_per_week: maybe(s, 3),
          direction: directionOf(pct, s),
          weekly: all.map((n, k) => (k < weeks - weeksWithData ? null : n)),
        };
      });
      const data = {
        ...kit.lanesMeta(l, lanes),
        window: kit.windowView(currentSpan, l.dataFrom),
        previous_window: { since: iso(w.since), until: iso(mid), voyages: previousCovered ? voyagesOfLanes(l.lanes) - voyagesOfLanes(lanes) : null, ...coverageFields(previousSpan, l.dataFrom) },
        weeks,
        ship_type: query.ship_type ?? null,
        port: port ? kit.portView(port.port_id) : null,
        lanes_total: lanes.length,
        items,
      };
      return kit.envelope(l, data, [...(port ? [port.port_id] : []), ...items.flatMap((i) => [i.from.port_id, i.to.port_id])], { lanes: l });
    },

    async laneVolatility(query: Common & { bucket?: 'day' | 'week'; limit?: number; min_voyages?: number }, caller: Caller) {
      const bucket = query.bucket ?? 'week';
      const bucketMs = bucket === 'day' ? DAY : 7 * DAY;
      const days = query.days ?? 56;
      if (bucket === 'week' && days % 7 !== 0) throw new AppError('invalid_request', 'with bucket=week, days must be a multiple of 7', { field: 'query.days' });
      const { facts: l, parts } = await kit.loadLaneParts(kit.windowOf({ ...query, days }, caller, 56), query.ship_type, {}, { byCategory: false, vessels: 'sample' });
      const minVoyages = query.min_voyages ?? 2;
      const buckets = Math.ceil((l.window.until - l.window.since) / bucketMs);
      const bucketOf = (departure: number) => Math.floor((departure - l.window.since) / bucketMs);
      const perLane = kit.voyagesPerLane(parts, bucketOf);
      const lanes = l.lanes.filter((lane) => lane.voyages >= minVoyages);
      const rows = lanes.map((lane) => {
        const counts = seriesOf(perLane.get(laneKey(lane.from, lane.to))!.counts, buckets, (k) => k);
        return { lane, counts, mean: mean(counts)!, std: stdDev(counts)!, cv: coefficientOfVariation(counts)! };
      });
      rows.sort((a, b) => round(b.cv, 6) - round(a.cv, 6) || b.lane.voyages - a.lane.voyages || a.lane.from - b.lane.from || a.lane.to - b.lane.to);
      const items = rows.slice(0, query.limit ?? 10).map((r, i) => ({
        rank: i + 1,
        from: kit.portView(r.lane.from),
        to: kit.portView(r.lane.to),
        voyages: r.lane.voyages,
        mean_per_bucket: round(r.mean, 3),
        std_per_bucket: round(r.std, 3),
        cv: round(r.cv, 3),
        counts: r.counts,
      }));
      // the overall series from the same counts per lane (decision 164: counting the parts once, not twice)
      const overall = seriesOf(overLanes(perLane), buckets, (k) => k);
      const data = {
        ...kit.lanesMeta(l),
        ship_type: query.ship_type ?? null,
        bucket,
        buckets: overall.length,
        min_voyages: minVoyages,
        lanes_total: lanes.length,
        overall: { counts: overall, mean: maybe(mean(overall), 3), std: maybe(stdDev(overall), 3), cv: maybe(coefficientOfVariation(overall), 3) },
        items,
      };
      return kit.envelope(
        l,
        data,
        items.flatMap((i) => [i.from.port_id, i.to.port_id]),
        { lanes: l },
      );
    },

    async topPolylines(query: Common & { limit?: number }, caller: Caller) {
      const l = await kit.loadLanes(kit.windowOf(query, caller, 30), query.ship_type);
      const lanes = l.lanes.slice(0, query.limit ?? 10);
      let unroutable = 0;
      const features = [];
      for (const [i, lane] of lanes.entries()) {
        const route = kit.laneRoute(lane.from, lane.to);
        if (!route) {
          unroutable++;
          continue;
        }
        const s = laneSummary(lane, false);
        features.push({ type: 'Feature' as const, geometry: route.geometry, properties: { rank: i + 1, ...s, sea_distance_nm: round(route.distance_nm, 1), passages: route.passages } });
      }
      const data = {
        type: 'FeatureCollection' as const,
        features,
        ...kit.lanesMeta(l),
        ship_type: query.ship_type ?? null,
        unroutable_lanes: unroutable,
        attribution: [...LANE_GEOJSON_ATTRIBUTION.routed],
      };
      return kit.envelope(
        l,
        data,
        lanes.flatMap((x) => [x.from, x.to]),
        { lanes: l },
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
  };
}
