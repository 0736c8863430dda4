import type { Caller } from '../../../access/principals.js';
import { DAY, iso, type Clock } from '../../../platform/clock.js';
import { CHOKEPOINTS, type Chokepoint } from '../../../events/chokepoints.js';
import type { FleetReads } from '../../../fleet/fleet-reads.js';
import { AppError } from '../../../platform/errors.js';
import type { EventsService } from '../../events/events-service.js';
import { coverageOf, parseRange } from '../../kit/time-window.js';
import { BASELINE_WINDOWS, STRESS_DEFAULT_RANGE_MS, STRESS_MAX_RANGE_MS, type RouteStressService } from '../stress/route-stress-service.js';
import { CHOKEPOINT_PASSAGES } from '../chokepoint-passages.js';
import { DELAYED_POSITION_FLAG } from '../../vessels/entitlements.js';
import {
  ANOMALY_Z,
  addSums,
  baselineFigures,
  dayFigures,
  daysBack,
  detailOf,
  emptySums,
  figuresOf,
  health,
  mean,
  regimes,
  robustZ,
  round,
  slope,
  stability,
  watch,
  windowsBack,
  type DayFigures,
  type TransitSums,
  type WindowFigures,
} from './corridor-stats.js';
import type { CorridorsRepo } from './corridors-repo.js';

export const DAILY_DEFAULT_DAYS = 28;
export const DAILY_MIN_DAYS = 7;
export const DAILY_MAX_DAYS = 60;
/** A pressure slope of at least this many percent of the mean pressure per day is a trend. */
export const PRESSURE_TREND_PCT = 2;
export const RANKING_METRICS = ['transits', 'stress', 'slowdown', 'waiting'] as const;
export type RankingMetric = (typeof RANKING_METRICS)[number];

export const NO_TRANSITS_FLAG = 'no_transits_in_window';
export const NOT_ANALYSED_FLAG = 'events_not_analysed';
export const NO_BASELINE_FLAG = 'no_baseline';

const directionsOf = (gate: Chokepoint) => gate.directions;

export const corridorKeys = () => CHOKEPOINTS.map((c) => c.key);

function describe(gate: Chokepoint) {
  return { key: gate.key, name: gate.name, passage: CHOKEPOINT_PASSAGES[gate.key] ?? null, directions: [...gate.directions] };
}

/** A corridor by its chokepoint key or its routing passage name (babelmandeb, good_hope), case ignored. */
export function resolveCorridors(text: string | undefined): Chokepoint[] {
  if (text === undefined) return [...CHOKEPOINTS];
  const key = text.trim().toLowerCase();
  const gate = CHOKEPOINTS.find((c) => c.key === key || CHOKEPOINT_PASSAGES[c.key] === key);
  if (!gate) throw new AppError('unknown_zone', `corridor must be one of ${corridorKeys().join(', ')} (or the routing passage names babelmandeb, good_hope)`, { field: 'query.corridor' });
  return [gate];
}

/** Corridor analytics over the event store's chokepoint transits (docs/corridors.md, decisions 064, 065). */
export function createCorridorsService(deps: { repo: CorridorsRepo; events: EventsService; routeStress: RouteStressService; fleetReads: Pick<FleetReads, 'usableByTime'>; clock: Clock }) {
  /** The caller's horizon, what the detector has analysed and where the stored positions begin. */
  async function scope(caller: Caller) {
    const now = deps.clock.now();
    const to = deps.events.horizon(caller);
    const analysed = await deps.events.analysedUpTo();
    const seenUpTo = analysed === null ? null : Math.min(analysed, to);
    const dataFrom = (await deps.fleetReads.usableByTime(0, to, null, 1))[0]?.observed_at ?? null;
    const flags: string[] = [];
    if (to < now) flags.push(DELAYED_POSITION_FLAG);
    if (seenUpTo === null) flags.push(NOT_ANALYSED_FLAG);
    return {
      to,
      dataFrom,
      flags,
      meta: { analysed_up_to: seenUpTo === null ? null : iso(seenUpTo), data_from: dataFrom === null ? null : iso(dataFrom) },
      freshnessSeconds: seenUpTo === null ? 0 : Math.max(0, Math.round((now - seenUpTo) / 1000)),
    };
  }

  const finish = (flags: string[], used: readonly TransitSums[], anyInWindow: boolean) => [
    ...flags,
    ...(anyInWindow ? [] : [NO_TRANSITS_FLAG]),
    ...(used.some((sums) => sums.simulated > 0) ? ['simulated_source'] : []),
  ];

  /** The window ending at the horizon, its baseline windows and each corridor's figures in them. */
  async function windowed(caller: Caller, query: { range?: string; corridor?: string }) {
    const gates = resolveCorridors(query.corridor);
    const rangeMs = query.range !== undefined ? parseRange(query.range, 'range', STRESS_MAX_RANGE_MS) : STRESS_DEFAULT_RANGE_MS;
    const s = await scope(caller);
    const [current, ...before] = windowsBack(s.to, rangeMs, BASELINE_WINDOWS + 1) as [{ from: number; to: number }, ...Array<{ from: number; to: number }>];
    const covered = s.dataFrom === null ? [] : before.filter((w) => w.from >= s.dataFrom!);
    const oldest = covered.length ? covered[covered.length - 1]!.from : current.from;
    // the windows oldest first: [...covered reversed, current]
    const windows = [...covered].reverse().concat(current);
    const sums = await deps.repo.windowSums(
      gates.map((g) => g.key),
      [oldest, ...windows.map((w) => w.to)],
    );
    const items = gates.map((gate) => {
      const ofGate = sums.get(gate.key)!;
      const now = ofGate[ofGate.length - 1]!;
      const base = baselineFigures(
        ofGate
          .slice(0, -1)
          .reverse()
          .map((w) => figuresOf(w, directionsOf(gate))),
      );
      return { gate, sums: now, current: figuresOf(now, directionsOf(gate)), baseline: base };
    });
    const flags = [...s.flags, ...(covered.length === 0 ? [NO_BASELINE_FLAG] : [])];
    const inWindow = items.some((x) => x.sums.transits > 0);
    return {
      gates,
      items,
      current,
      envelope: {
        window: { from: iso(current.from), to: iso(current.to) },
        baseline: { from: iso(oldest), to: iso(current.from), windows: covered.length },
        ...s.meta,
      },
      qualityFlags: finish(flags, [...sums.values()].flat(), inWindow),
      freshnessSeconds: s.freshnessSeconds,
      range: query.range,
    };
  }

  /** The current window's figures with its distinct vessels and median hours in the gate, of the corridors given. */
  async function detailed<T extends { gate: Chokepoint; sums: TransitSums; current: WindowFigures }>(items: readonly T[], window: { from: number; to: number }) {
    const spreads = await deps.repo.spread(new Map(items.map((x) => [x.gate.key, x.sums.transits])), window);
    return items.map((x) => ({ ...x, current: detailOf(x.current, spreads.get(x.gate.key)!) }));
  }

  async function stressOf(caller: Caller, gate: Chokepoint, range: string | undefined) {
    const answer = await deps.routeStress.index(caller, { zone_key: gate.key, ...(range !== undefined ? { range } : {}) });
    return { value: { index: answer.data.index, level: answer.data.level, weight_measured: answer.data.weight_measured }, flags: answer.qualityFlags ?? [] };
  }

  /** Daily series of `days` 24-hour days ending at the horizon, days the stored data covers only. */
  async function daily(caller: Caller, query: { days?: number; corridor?: string }) {
    const gates = resolveCorridors(query.corridor);
    const days = query.days ?? DAILY_DEFAULT_DAYS;
    const s = await scope(caller);
    const from = s.to - days * DAY;
    // the one window rule (kit/time-window.ts): the day the stored positions begin counts as a day with data
    const coveredFrom = s.to - coverageOf({ since: from, until: s.to }, s.dataFrom).periods * DAY;
    const covered = daysBack(s.to, days, coveredFrom);
    const sums =
      covered.length === 0
        ? new Map<string, TransitSums[]>()
        : await deps.repo.windowSums(
            gates.map((g) => g.key),
            [covered[0]!.from, ...covered.map((d) => d.to)],
          );
    const items = gates.map((gate) => {
      const daySums = sums.get(gate.key) ?? [];
      const series = covered.map((d, i) => dayFigures(d, daySums[i]!, directionsOf(gate)));
      return { gate, series, daySums, total: daySums.reduce((sum, d) => addSums(sum, d), emptySums()) };
    });
    const used = items.map((x) => x.total);
    return {
      items,
      envelope: { window: { from: iso(from), to: iso(s.to) }, days, days_covered: covered.length, ...s.meta },
      qualityFlags: finish(
        s.flags,
        used,
        used.some((x) => x.transits > 0),
      ),
      freshnessSeconds: s.freshnessSeconds,
    };
  }

  const dayView = (d: DayFigures) => ({ from: iso(d.from), to: iso(d.to), transits: d.transits, mean_speed_kn: d.mean_speed_kn, stopped_share: d.stopped_share, pressure: d.pressure });

  return {
    async corridors(caller: Caller, query: { range?: string; corridor?: string }) {
      const w = await windowed(caller, query);
      const flags = new Set(w.qualityFlags);
      const stresses = await Promise.all(w.items.map((item) => stressOf(caller, item.gate, w.range)));
      const items = (await detailed(w.items, w.current)).map((item, i) => {
        for (const f of stresses[i]!.flags) flags.add(f);
        return { corridor: describe(item.gate), current: item.current, baseline: item.baseline, stress: stresses[i]!.value };
      });
      return { data: { ...w.envelope, items }, qualityFlags: [...flags], freshnessSeconds: w.freshnessSeconds };
    },

    async ranking(caller: Caller, query: { by?: RankingMetric; range?: string }) {
      const by = query.by ?? 'transits';
      const w = await windowed(caller, { ...(query.range !== undefined ? { range: query.range } : {}) });
      const flags = new Set(w.qualityFlags);
      const scored: Array<{ gate: Chokepoint; value: number | null; reason: string | null; current: WindowFigures }> = [];
      for (const { gate, current, baseline } of w.items) {
        let value: number | null = null;
        let reason: string | null = null;
        if (by === 'transits') {
          value = current.transits;
        } else if (by === 'stress') {
          const stress = await stressOf(caller, gate, w.range);
          for (const f of stress.flags) flags.add(f);
          value = stress.value.index;
          if (value === null) reason = 'no measurable route stress index';
        } else if (by === 'slowdown') {
          const b = baseline.mean_speed_kn;
          if (current.mean_speed_kn === null) reason = 'no transit speeds in the window';
          else if (b === null || b <= 0) reason = 'no baseline speed';
          else value = round(((b - current.mean_speed_kn) / b) * 100, 1);
        } else {
          value = current.waiting_hours_per_transit;
          if (value === null) reason = 'no transits in the window';
        }
        scored.push({ gate, value, reason, current });
      }
      const ranked = scored.filter((x) => x.value !== null).sort((a, b) => b.value! - a.value! || a.gate.key.localeCompare(b.gate.key));
      return {
        data: {
          ...w.envelope,
          by,
          unit: by === 'transits' ? 'transits' : by === 'stress' ? 'route stress index 0-100' : by === 'slowdown' ? 'percent below the baseline mean speed' : 'hours stopped in the gate per transit',
          items: ranked.map((x, i) => ({ rank: i + 1, corridor: describe(x.gate), value: x.value!, transits: x.current.transits })),
          unranked: scored.filter((x) => x.value === null).map((x) => ({ corridor: describe(x.gate), reason: x.reason ?? 'not measured' })),
        },
        qualityFlags: [...flags],
        freshnessSeconds: w.freshnessSeconds,
      };
    },

    async health(caller: Caller, query: { range?: string; corridor?: string }) {
      const w = await windowed(caller, query);
      return {
        data: { ...w.envelope, items: w.items.map((x) => ({ corridor: describe(x.gate), transits: x.current.transits, baseline_transits: x.baseline.transits, ...health(x.current, x.baseline) })) },
        qualityFlags: w.qualityFlags,
        freshnessSeconds: w.freshnessSeconds,
      };
    },

    async watch(caller: Caller, query: { range?: string; corridor?: string }) {
      const w = await windowed(caller, query);
      const alerting = w.items.map((x) => ({ ...x, alerts: watch(x.current, x.baseline) })).filter((x) => x.alerts.length > 0);
      const items = (await detailed(alerting, w.current)).map((x) => ({ corridor: describe(x.gate), alerts: x.alerts, current: x.current, baseline: x.baseline }));
      return { data: { ...w.envelope, checked: w.items.length, items }, qualityFlags: w.qualityFlags, freshnessSeconds: w.freshnessSeconds };
    },

    async pressureTrend(caller: Caller, query: { days?: number; corridor?: string }) {
      const d = await daily(caller, query);
      const items = d.items.map(({ gate, total, series }) => {
        const ys = total.transits ? series.map((x) => x.pressure) : [];
        const m = mean(ys);
        const k = slope(ys);
        const pct = k === null || m === null || m === 0 ? null : round((k / m) * 100, 1);
        return {
          corridor: describe(gate),
          days: series.length,
          transits: series.reduce((sum, x) => sum + x.transits, 0),
          mean_pressure: m === null ? null : round(m, 3),
          slope_per_day: k === null ? null : round(k, 4),
          slope_pct_per_day: pct,
          direction: pct === null ? null : pct >= PRESSURE_TREND_PCT ? ('rising' as const) : pct <= -PRESSURE_TREND_PCT ? ('falling' as const) : ('steady' as const),
          series: series.map(dayView),
        };
      });
      return { data: { ...d.envelope, items }, qualityFlags: d.qualityFlags, freshnessSeconds: d.freshnessSeconds };
    },

    async anomalyScore(caller: Caller, query: { days?: number; corridor?: string }) {
      const d = await daily(caller, query);
      const items = d.items.map(({ gate, total, series }) => {
        // the series ends at the horizon (coverage only trims its start): its last day is the latest
        const latest = series.at(-1) ?? null;
        const history = latest ? series.slice(0, -1) : series;
        const metric = (pick: (x: DayFigures) => number | null) =>
          total.transits === 0
            ? { ...robustZ(null, []), note: 'no transits in the period' }
            : robustZ(
                latest ? pick(latest) : null,
                history.map(pick).filter((x): x is number => x !== null),
              );
        const metrics = { transits: metric((x) => x.transits), mean_speed_kn: metric((x) => x.mean_speed_kn), stopped_share: metric((x) => x.stopped_share) };
        const zs = Object.values(metrics)
          .map((m) => m.z)
          .filter((z): z is number => z !== null);
        const rms = zs.length ? round(Math.sqrt(zs.reduce((sum, z) => sum + z * z, 0) / zs.length), 2) : null;
        const anomalousMetrics = Object.entries(metrics)
          .filter(([, m]) => m.anomalous)
          .map(([name]) => name);
        return {
          corridor: describe(gate),
          latest: latest ? dayView(latest) : null,
          history_days: history.length,
          metrics,
          combined: { score: rms, metrics_scored: zs.length, anomalous: anomalousMetrics.length > 0 || (rms !== null && rms >= ANOMALY_Z), anomalous_metrics: anomalousMetrics },
        };
      });
      return { data: { ...d.envelope, items }, qualityFlags: d.qualityFlags, freshnessSeconds: d.freshnessSeconds };
    },

    async stability(caller: Caller, query: { days?: number; corridor?: string }) {
      const d = await daily(caller, query);
      const items = d.items.map(({ gate, total, series }) => {
        const s = stability(series, directionsOf(gate));
        return { corridor: describe(gate), transits: total.transits, ...s, ...(total.transits === 0 ? { anomalous_day_share: null } : {}) };
      });
      return { data: { ...d.envelope, items }, qualityFlags: d.qualityFlags, freshnessSeconds: d.freshnessSeconds };
    },

    async regimes(caller: Caller, query: { days?: number; corridor?: string }) {
      const d = await daily(caller, query);
      const items = d.items.map(({ gate, total, series, daySums }) => {
        if (total.transits === 0) return { corridor: describe(gate), days: series.length, transits: 0, reference: null, current_regime: null, segments: [] };
        const r = regimes(series, daySums, directionsOf(gate));
        return {
          corridor: describe(gate),
          days: series.length,
          transits: series.reduce((sum, x) => sum + x.transits, 0),
          reference: r.reference,
          current_regime: r.days.length ? r.days[r.days.length - 1]!.regime : null,
          segments: r.segments.map((seg) => ({ ...seg, from: iso(seg.from), to: iso(seg.to) })),
        };
      });
      return { data: { ...d.envelope, items }, qualityFlags: d.qualityFlags, freshnessSeconds: d.freshnessSeconds };
    },
  };
}
export type CorridorsService = ReturnType<typeof createCorridorsService>;
