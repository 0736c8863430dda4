import type { Caller } from '../../../access/principals.js';
import { DAY, iso } from '../../../platform/clock.js';
import { coverageOf } from '../../kit/time-window.js';
import { LANE_GEOJSON_ATTRIBUTION } from './attribution.js';
import type { LanesKit } from './lanes-kit.js';
import { changePct, componentSizes, mean, round, slope } from './lanes-math.js';
import { categoryMix, directionOf, maybe, shipTypeCodes, type Common } from './lanes-facts.js';
import { periodCategoryKeys, voyagesOfLanes } from './lane-series.js';
import { hubsOfLanes, hubVesselsOf, totalsOf, type LaneStats } from './lane-stats.js';

/** The network views (docs/lanes.md): hubs, the network overview, weekly summaries and trends, seasonality. */
export function createNetworkViews(kit: LanesKit) {
  const hubsAnswer = async (query: Common & { limit?: number }, caller: Caller) => {
    const l = await kit.loadLanes(kit.windowOf(query, caller, 30), query.ship_type);
    const all = hubsOfLanes(l.lanes);
    const shown = all.slice(0, query.limit ?? 10);
    // the vessels of the hubs shown only (docs/decisions/163): the other ports' lanes are not merged
    const vessels = hubVesselsOf(
      l.lanes,
      shown.map((h) => h.portId),
    );
    const items = shown.map(({ portId, ...h }, i) => ({ rank: i + 1, port: kit.portView(portId), ...h, vessels: vessels.get(portId)! }));
    const data = { ...kit.lanesMeta(l), ship_type: query.ship_type ?? null, ports_total: all.length, items };
    return kit.envelope(
      l,
      data,
      items.map((i) => i.port.port_id),
      { lanes: l },
    );
  };

  return {
    hubs: hubsAnswer,

    async hubsGeoJson(query: Common & { limit?: number }, caller: Caller) {
      const answer = await hubsAnswer(query, caller);
      const { items, ...rest } = answer.data;
      const placed = items.filter((i) => i.port.lat !== null && i.port.lon !== null);
      const features = placed.map((i) => ({ type: 'Feature' as const, geometry: { type: 'Point' as const, coordinates: [i.port.lon!, i.port.lat!] }, properties: i }));
      return { ...answer, data: { type: 'FeatureCollection' as const, features, ...rest, unplaced_ports: items.length - placed.length, attribution: [...LANE_GEOJSON_ATTRIBUTION.hubs] } };
    },

    async networkOverview(query: Common, caller: Caller) {
      const l = await kit.loadLanes(kit.windowOf(query, caller, 30), query.ship_type);
      const lanes = l.lanes;
      const hubs = hubsOfLanes(lanes);
      const sizes = componentSizes(
        hubs.map((h) => h.portId),
        lanes.map((x) => [x.from, x.to] as const),
      );
      const totals = totalsOf(lanes, l.windowVessels);
      const top = hubs[0];
      const data = {
        ...kit.lanesMeta(l),
        ship_type: query.ship_type ?? null,
        ports: hubs.length,
        lanes: lanes.length,
        voyages: totals.voyages,
        vessels: totals.vessels,
        connected_components: sizes.length,
        largest_component_ports: sizes[0] ?? 0,
        density: hubs.length > 1 ? round(lanes.length / (hubs.length * (hubs.length - 1)), 4) : null,
        median_voyage_hours: maybe(totals.medianHours, 1),
        top_hub: top ? { port: kit.portView(top.portId), voyages_total: top.voyages_total, partners: top.partners } : null,
        top_lane: lanes[0] ? { from: kit.portView(lanes[0].from), to: kit.portView(lanes[0].to), voyages: lanes[0].voyages } : null,
      };
      return kit.envelope(l, data, [...(top ? [top.portId] : []), ...(lanes[0] ? [lanes[0].from, lanes[0].to] : [])], { lanes: l });
    },

    async weeklySummary(query: Omit<Common, 'days'> & { weeks?: number }, caller: Caller) {
      const weeks = query.weeks ?? 4;
      const window = kit.windowOf({ days: weeks * 7, until: query.until }, caller, 0);
      const weekStarts = Array.from({ length: weeks }, (_, i) => window.since + i * 7 * DAY);
      const weekOf = (departure: number) => Math.floor((departure - window.since) / (7 * DAY));
      const departedPerWeek = new Array<number>(weeks).fill(0);
      for (const d of await kit.deps.repo.departuresPerBucket(kit.span(window), 7 * DAY, { shipTypes: shipTypeCodes(query.ship_type) })) departedPerWeek[d.bucket] = d.n;
      // all ship types (docs/decisions/162 and 164): each week's lanes, vessels and hours from the lane cells (two a
      // lane and week), the window's as the weeks' together, the voyages per week and category from the category cells
      // (runs and blocks), counts only;
      // a ship type: each week's vessels and hours apart, the approximate category cells merged week by week
      const { l, parts, weekLanes } =
        query.ship_type === undefined
          ? await (async () => {
              const perWeek = await kit.lanesPerSpan(
                window,
                weekStarts.map((start) => ({ since: start, until: start + 7 * DAY })),
              );
              return { l: perWeek.facts, parts: await kit.voyageCountParts(window), weekLanes: perWeek.perSpan.map((week) => week.lanes) };
            })()
          : await (async () => {
              const loaded = await kit.loadLaneParts(window, query.ship_type, {}, { boundaries: weekStarts, byCategory: true });
              const perWeek = kit.lanesPer(loaded.parts, weekOf);
              return { l: loaded.facts, parts: loaded.parts, weekLanes: weekStarts.map((_, i): LaneStats[] => perWeek.get(i)?.lanes ?? []) };
            })();
      const keys = periodCategoryKeys(weeks);
      const perWeekAndCategory = kit.voyagesPer(parts, (departure, category) => keys.of(weekOf(departure), category));
      const items = weekStarts
        .map((start, i) => {
          const totals = totalsOf(weekLanes[i]!);
          const byCategory = new Map<string, number>();
          for (const [key, n] of perWeekAndCategory) if (keys.period(key) === i) byCategory.set(keys.category(key), n);
          return {
            week_start: iso(start),
            week_end: iso(start + 7 * DAY),
            voyages: totals.voyages,
            departures: departedPerWeek[i]!,
            vessels: totals.vessels,
            lanes: weekLanes[i]!.length,
            median_voyage_hours: maybe(totals.medianHours, 1),
            by_ship_type: categoryMix(byCategory).map(({ ship_type, voyages }) => ({ ship_type, voyages })),
          };
        })
        .map((item, i, all) => ({ ...item, voyages_change_pct: i === 0 ? null : changePct(item.voyages, all[i - 1]!.voyages) }));
      const data = { ...kit.lanesMeta(l), weeks, ship_type: query.ship_type ?? null, items };
      return kit.envelope(l, data, [], { lanes: l });
    },

    async weeklyTrend(query: Omit<Common, 'days' | 'ship_type'> & { weeks?: number }, caller: Caller) {
      const weeks = query.weeks ?? 8;
      // the window's lanes and vessels from the lane cells, the voyages per week and category counted from the
      // category cells without their vessels (docs/decisions/162)
      const l = await kit.loadLanes(kit.windowOf({ days: weeks * 7, until: query.until }, caller, 0), undefined, {}, 'sample');
      const parts = await kit.voyageCountParts(l.window);
      // weeks before the store's first data are missing, not zero traffic (decision 133): null in `weekly`, left out of the slope
      const weeksWithData = coverageOf(l.window, l.dataFrom, 7 * DAY).periods;
      const weekOf = (departure: number) => Math.floor((departure - l.window.since) / (7 * DAY));
      const trendOf = (voyages: number, all: number[]) => {
        const withData = all.slice(weeks - weeksWithData);
        const s = withData.length < 2 ? null : slope(withData);
        const pct = withData.length < 2 ? null : changePct(withData[withData.length - 1]!, withData[withData.length - 2]!);
        return {
          voyages,
          weekly: all.map((n, k) => (k < weeks - weeksWithData ? null : n)),
          last_week_change_pct: pct,
          slope_per_week: maybe(s, 3),
          direction: directionOf(s === null || mean(withData) === 0 ? null : round(((s * withData.length) / mean(withData)!) * 100, 1), s),
        };
      };
      // one pass over the parts: voyages per ship category and week (the overall series is their sum)
      const seriesPerType = new Map<string, number[]>();
      const keys = periodCategoryKeys(weeks);
      for (const [key, n] of kit.voyagesPer(parts, (departure, category) => keys.of(weekOf(departure), category))) {
        const shipType = keys.category(key);
        const series = seriesPerType.get(shipType) ?? seriesPerType.set(shipType, new Array<number>(weeks).fill(0)).get(shipType)!;
        series[keys.period(key)]! += n;
      }
      const overall = new Array<number>(weeks).fill(0);
      for (const series of seriesPerType.values()) series.forEach((n, k) => (overall[k]! += n));
      const byType = [...seriesPerType.entries()].map(([shipType, series]) => ({ shipType, series, voyages: series.reduce((sum, n) => sum + n, 0) }));
      const data = {
        ...kit.lanesMeta(l),
        weeks,
        week_starts: Array.from({ length: weeks }, (_, i) => iso(l.window.since + i * 7 * DAY)),
        overall: trendOf(voyagesOfLanes(l.lanes), overall),
        by_ship_type: byType.sort((a, b) => b.voyages - a.voyages || a.shipType.localeCompare(b.shipType)).map((t) => ({ ship_type: t.shipType, ...trendOf(t.voyages, t.series) })),
      };
      return kit.envelope(l, data, [], { lanes: l });
    },

    async seasonality(query: Common & { port?: string }, caller: Caller) {
      const port = query.port === undefined ? undefined : kit.requirePort(query.port, 'query.port');
      // from the cells (docs/decisions/158): an approximate cell keeps its voyages per day and per hour of departure
      const { facts: l, parts } = await kit.loadLaneParts(kit.windowOf(query, caller, 90), query.ship_type, { from: port?.port_id }, { byCategory: false, vessels: 'sample' });
      const { perDay, perHour: hour } = kit.departuresPerDayAndHour(parts);
      const total = voyagesOfLanes(l.lanes);
      const share = (n: number) => (total === 0 ? null : round(n / total, 3));
      const weekday = new Array<number>(7).fill(0);
      const month = new Map<string, number>();
      for (const [day, n] of perDay) {
        const d = new Date(day);
        weekday[(d.getUTCDay() + 6) % 7]! += n;
        const m = d.toISOString().slice(0, 7);
        month.set(m, (month.get(m) ?? 0) + n);
      }
      const names = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
      const daysWithData = coverageOf(l.window, l.dataFrom).periods;
      const weeksCovered = Math.floor(daysWithData / 7);
      const data = {
        ...kit.lanesMeta(l),
        ship_type: query.ship_type ?? null,
        port: port ? kit.portView(port.port_id) : null,
        by_weekday: weekday.map((n, i) => ({ weekday: names[i]!, voyages: n, share: share(n) })),
        by_hour: hour.map((n, h) => ({ hour_utc: h, voyages: n, share: share(n) })),
        by_month: [...month.entries()].sort().map(([m, n]) => ({ month: m, voyages: n, share: share(n) })),
        weekday_occurrences: weeksCovered,
        enough_history: { weekday: weeksCovered >= 4, hour: daysWithData >= 14, month: daysWithData >= 365 },
      };
      const env = kit.envelope(l, data, port ? [port.port_id] : [], { lanes: l });
      if (!data.enough_history.weekday) env.qualityFlags.push('window_too_short_for_weekday');
      if (!data.enough_history.month) env.qualityFlags.push('window_too_short_for_month');
      return env;
    },
  };
}
