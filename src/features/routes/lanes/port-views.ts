import type { Caller } from '../../../access/principals.js';
import { DAY, iso } from '../../../platform/clock.js';
import { AppError } from '../../../platform/errors.js';
import { coverageOf } from '../../kit/time-window.js';
import { APPROXIMATE_FLAG, FORECAST_K, type LanesKit } from './lanes-kit.js';
import { changePct, coefficientOfVariation, meanOfLastK, robustZ, round } from './lanes-math.js';
import { maybe, shipTypeCodes, type Common } from './lanes-facts.js';
import { seriesOf } from './lane-series.js';

/** The port views (docs/lanes.md): departure anomalies, activity imbalance, destination opportunities, the stability forecast. */
export function createPortViews(kit: LanesKit) {
  return {
    async anomalyDays(query: Common & { port?: string; threshold?: number }, caller: Caller) {
      const port = query.port === undefined ? undefined : kit.requirePort(query.port, 'query.port');
      const threshold = query.threshold ?? 3.5;
      const l = await kit.load(kit.windowOf(query, caller, 30), undefined, { noVoyages: true });
      const { since } = l.window;
      const perDay = await kit.deps.repo.departuresPerBucket(kit.span(l.window), DAY, { shipTypes: shipTypeCodes(query.ship_type), port: port?.port_id });
      const all = new Array<number>(l.window.days).fill(0);
      for (const d of perDay) all[d.bucket] = d.n;
      // days before the store's first data are missing: neither listed nor part of the baseline
      const missingDays = l.window.days - coverageOf(l.window, l.dataFrom).periods;
      const counts = all.slice(missingDays);
      const departed = { count: perDay.reduce((sum, d) => sum + d.n, 0), simulated: perDay.some((d) => d.simulated) };
      const z = robustZ(counts);
      const days = counts.map((n, i) => ({ day: iso(since + (missingDays + i) * DAY).slice(0, 10), departures: n, z: maybe(z.z[i] ?? null, 2) }));
      const anomalies = days.filter((d) => d.z !== null && Math.abs(d.z) >= threshold).map((d) => ({ ...d, direction: d.z! > 0 ? ('high' as const) : ('low' as const) }));
      const data = {
        ...kit.meta(l, []),
        sample: { port_calls: l.callsInWindow, departures: departed.count, days: counts.length },
        ship_type: query.ship_type ?? null,
        port: port ? kit.portView(port.port_id) : null,
        threshold,
        baseline: { median: z.median, mad: z.mad, scale: z.scale },
        days,
        anomalies,
      };
      return kit.envelope(l, data, port ? [port.port_id] : [], { calls: departed });
    },

    async portActivityImbalance(query: Common & { port?: string; limit?: number; min_calls?: number }, caller: Caller) {
      const port = query.port === undefined ? undefined : kit.requirePort(query.port, 'query.port');
      const l = await kit.loadLanes(kit.windowOf(query, caller, 30), undefined);
      const activity = await kit.deps.repo.portActivity(kit.span(l.window), { shipTypes: shipTypeCodes(query.ship_type), port: port?.port_id });
      const per = new Map(activity.map((a) => [a.port_id, { arrivals: a.arrivals, departures: a.departures }]));
      const counted = { count: activity.reduce((sum, a) => sum + a.arrivals + a.departures, 0), simulated: activity.some((a) => a.simulated) };
      const minCalls = query.min_calls ?? 1;
      const rows = [...per.entries()]
        .filter(([, p]) => p.arrivals + p.departures >= minCalls)
        .map(([id, p]) => ({ id, ...p, net: p.arrivals - p.departures }))
        .sort((a, b) => Math.abs(b.net) - Math.abs(a.net) || b.arrivals + b.departures - (a.arrivals + a.departures) || a.id - b.id);
      const items = rows.slice(0, query.limit ?? 10).map((r, i) => ({
        rank: i + 1,
        port: kit.portView(r.id),
        arrivals: r.arrivals,
        departures: r.departures,
        net_flow: r.net,
        imbalance_ratio: round(r.net / (r.arrivals + r.departures), 3),
        balance: r.net > 0 ? ('accumulating' as const) : r.net < 0 ? ('draining' as const) : ('balanced' as const),
      }));
      const data = { ...kit.lanesMeta(l), ship_type: query.ship_type ?? null, port: port ? kit.portView(port.port_id) : null, min_calls: minCalls, ports_total: rows.length, items };
      const env = kit.envelope(l, data, [...(port ? [port.port_id] : []), ...items.map((i) => i.port.port_id)], { calls: counted });
      // its calls are counted exactly; the sample's vessels are an estimate when the lanes' are (docs/decisions/163)
      if (l.approximate) env.qualityFlags.push(APPROXIMATE_FLAG);
      return env;
    },

    async destOpportunities(query: Common & { from: string; limit?: number }, caller: Caller) {
      const origin = kit.requirePort(query.from, 'query.from');
      const days = query.days ?? 30;
      const w = kit.windowOf({ days: 2 * days, until: query.until }, caller, 0);
      const mid = w.until - days * DAY;
      const { facts: l, parts } = await kit.loadLaneParts(w, query.ship_type, { from: origin.port_id }, { boundaries: [mid], byCategory: false });
      const recent = kit.lanesPer(parts, (departure) => (departure >= mid ? 'recent' : null)).get('recent')?.lanes ?? [];
      const dest = new Map<number, { recent: number; previous: number; vessels: number }>();
      for (const lane of recent) dest.set(lane.to, { recent: lane.voyages, previous: 0, vessels: lane.vessels.count() });
      for (const { to, counts } of kit.voyagesPerLane(parts, (departure) => (departure < mid ? 'previous' : null)).values()) {
        const previous = counts.get('previous') ?? 0;
        const d = dest.get(to);
        if (d) d.previous = previous;
        else if (previous > 0) dest.set(to, { recent: 0, previous, vessels: 0 });
      }
      const rows = [...dest.entries()].map(([id, d]) => ({ id, ...d, score: (d.recent - d.previous) / (d.vessels + 1) }));
      rows.sort((a, b) => b.score - a.score || b.recent - a.recent || a.id - b.id);
      const items = rows.slice(0, query.limit ?? 10).map((r, i) => ({
        rank: i + 1,
        to: kit.portView(r.id),
        voyages_recent: r.recent,
        voyages_previous: r.previous,
        demand_growth_pct: changePct(r.recent, r.previous),
        vessels_recent: r.vessels,
        opportunity_score: round(r.score, 3),
      }));
      const data = {
        ...kit.lanesMeta(l),
        window: kit.windowView({ since: mid, until: w.until, days }, l.dataFrom),
        previous_window: kit.windowView({ since: w.since, until: mid, days }, l.dataFrom),
        ship_type: query.ship_type ?? null,
        from: kit.portView(origin.port_id),
        destinations_total: rows.length,
        items,
      };
      return kit.envelope(l, data, [origin.port_id, ...items.map((i) => i.to.port_id)], { lanes: l });
    },

    async stabilityForecast(query: Omit<Common, 'days'> & { weeks?: number; from?: string; to?: string }, caller: Caller) {
      if ((query.from === undefined) !== (query.to === undefined))
        throw new AppError('invalid_request', 'give both from and to (one lane) or neither (all voyages)', { field: query.from === undefined ? 'query.from' : 'query.to' });
      const from = query.from === undefined ? undefined : kit.requirePort(query.from, 'query.from');
      const to = query.to === undefined ? undefined : kit.requirePort(query.to, 'query.to');
      if (from && to && from.port_id === to.port_id) throw new AppError('same_origin_destination', 'from and to are the same port: a lane joins two ports', { field: 'query.to' });
      const weeks = query.weeks ?? 12;
      const { facts: l, parts } = await kit.loadLaneParts(
        kit.windowOf({ days: weeks * 7, until: query.until }, caller, 0),
        query.ship_type,
        { from: from?.port_id, to: to?.port_id },
        { byCategory: false, vessels: 'sample' },
      );
      const perWeek = kit.voyagesPer(parts, (departure) => Math.floor((departure - l.window.since) / (7 * DAY)));
      const all = seriesOf(perWeek, weeks, (k) => k);
      // weeks that began before the store's first port call have no data (not zero voyages)
      const covered = coverageOf(l.window, l.dataFrom, 7 * DAY).periods;
      const history = all.slice(all.length - covered);
      const fc = meanOfLastK(history, FORECAST_K);
      const cv = coefficientOfVariation(history);
      const data = {
        ...kit.lanesMeta(l),
        ship_type: query.ship_type ?? null,
        lane: from && to ? { from: kit.portView(from.port_id), to: kit.portView(to.port_id) } : null,
        weeks,
        weeks_with_data: covered,
        history: history.map((n, i) => ({ week_start: iso(l.window.until - (covered - i) * 7 * DAY), voyages: n })),
        method: { name: 'mean_of_last_k_weeks', k: FORECAST_K, interval: 'forecast ± 1.96 × backtest RMSE, floored at 0' },
        forecast: fc ? { week_start: iso(l.window.until), week_end: iso(l.window.until + 7 * DAY), voyages: round(fc.forecast, 2), low: round(fc.low, 2), high: round(fc.high, 2) } : null,
        backtest: fc ? { points: fc.backtestPoints, mae: round(fc.mae, 3), rmse: round(fc.rmse, 3) } : null,
        cv: maybe(cv, 3),
        // a stability label needs the history a forecast needs: one or two weeks say nothing about it
        stability: cv === null || !fc ? null : cv < 0.25 ? ('stable' as const) : cv < 0.5 ? ('variable' as const) : ('volatile' as const),
      };
      const env = kit.envelope(l, data, [...(from ? [from.port_id] : []), ...(to ? [to.port_id] : [])], { lanes: l });
      if (!fc) env.qualityFlags.push('history_too_short');
      return env;
    },
  };
}
