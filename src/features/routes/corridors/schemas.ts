import { Type } from '@sinclair/typebox';
import { CHOKEPOINTS } from '../../../events/chokepoints.js';
import { RANGE_PATTERN } from '../../kit/time-window.js';
import { DAILY_DEFAULT_DAYS, DAILY_MAX_DAYS, DAILY_MIN_DAYS, RANKING_METRICS } from './corridors-service.js';
import { Nullable } from '../../kit/schema-kit.js';

const Literals = <T extends string>(values: readonly T[], description?: string) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    description ? { description } : {},
  );

const corridorParam = Type.Optional(
  Type.String({
    minLength: 1,
    maxLength: 40,
    description: `One corridor: a chokepoint key (${CHOKEPOINTS.map((c) => c.key).join(', ')}) or its routing passage name (babelmandeb, good_hope); all twelve when absent. Unknown: unknown_zone.`,
  }),
);
const rangeParam = Type.Optional(
  Type.String({
    pattern: RANGE_PATTERN,
    description: 'The window, back from your horizon: 24H, 7D, 30D (default 7D, at most 30D); the baseline is the 4 windows of this length before it that the stored positions cover.',
  }),
);
const daysParam = Type.Optional(
  Type.Integer({
    minimum: DAILY_MIN_DAYS,
    maximum: DAILY_MAX_DAYS,
    default: DAILY_DEFAULT_DAYS,
    description: `Days of the daily series, ${DAILY_MIN_DAYS}-${DAILY_MAX_DAYS} (default ${DAILY_DEFAULT_DAYS}): 24-hour days back from your horizon; days before the stored positions begin are left out.`,
  }),
);

export const CorridorWindowQuery = Type.Object({ range: rangeParam, corridor: corridorParam }, { additionalProperties: false });
export const CorridorRankingQuery = Type.Object(
  {
    by: Type.Optional(
      Literals(RANKING_METRICS, 'transits (default): transits that left the gate; stress: route stress index; slowdown: percent below the baseline mean speed; waiting: hours stopped per transit.'),
    ),
    range: rangeParam,
  },
  { additionalProperties: false },
);
export const CorridorDailyQuery = Type.Object({ days: daysParam, corridor: corridorParam }, { additionalProperties: false });

const Corridor = Type.Object(
  {
    key: Type.String({ description: 'Chokepoint key of the event layer.' }),
    name: Type.String(),
    passage: Nullable(Type.String(), 'The routing passage (GET /v1/routes/direct avoid/allow, what-if closed); null for gates the sea network does not mark (oresund, taiwan_strait, lombok).'),
    directions: Type.Array(Type.String(), { description: 'The two directions of travel: along the gate axis, then against it.' }),
  },
  { description: 'The corridor: a chokepoint gate of the event layer.' },
);

const ByDirection = Type.Array(Type.Object({ direction: Type.String(), transits: Type.Integer() }));

const Figures = Type.Object({
  transits: Type.Integer({ description: 'Transits that left the gate in the window.' }),
  by_direction: ByDirection,
  vessels: Type.Integer({ description: 'Distinct vessels among them.' }),
  median_transit_hours: Nullable(Type.Number(), 'Median of exited − entered, hours.'),
  mean_speed_kn: Nullable(Type.Number(), "Mean of the transits' mean speeds in the gate, knots."),
  stopped_share: Nullable(Type.Number(), 'Time stopped (< 0.5 kn) over time in the gate, all transits together (0-1).'),
  waiting_hours_per_transit: Nullable(Type.Number(), 'Hours stopped in the gate per transit.'),
});

const Baseline = Type.Object(
  {
    windows: Type.Integer({ description: 'Baseline windows the stored positions cover (0-4).' }),
    transits: Nullable(Type.Number()),
    mean_speed_kn: Nullable(Type.Number()),
    stopped_share: Nullable(Type.Number()),
    waiting_hours_per_transit: Nullable(Type.Number()),
  },
  { description: 'Means of the same figures over the baseline windows (counts over every window, the others over the windows that have a value).' },
);

const Level = Nullable(Literals(['low', 'elevated', 'high', 'severe'] as const));
const Stress = Type.Object(
  { index: Nullable(Type.Number()), level: Level, weight_measured: Type.Number() },
  { description: 'Route stress index of the gate over the same range (GET /v1/metrics/route_stress_index); null when no component is measurable.' },
);

const windowMeta = {
  window: Type.Object(
    { from: Type.String(), to: Type.String({ description: 'Your horizon: now with vessels:live, the preview delay ago otherwise.' }) },
    { description: 'Transits that left the gate in (from, to].' },
  ),
  baseline: Type.Object({ from: Type.String(), to: Type.String(), windows: Type.Integer() }),
  analysed_up_to: Nullable(Type.String(), 'Newest position the event detector has analysed (at most your horizon); null: nothing analysed.'),
  data_from: Nullable(Type.String(), 'Oldest stored position: windows and days before it are not counted.'),
};

export const CorridorsData = Type.Object({
  ...windowMeta,
  items: Type.Array(Type.Object({ corridor: Corridor, current: Figures, baseline: Baseline, stress: Stress })),
});

export const CorridorRankingData = Type.Object({
  ...windowMeta,
  by: Literals(RANKING_METRICS),
  unit: Type.String(),
  items: Type.Array(Type.Object({ rank: Type.Integer(), corridor: Corridor, value: Type.Number(), transits: Type.Integer({ description: 'Transits in the window (the sample).' }) }), {
    description: 'Highest value first; ties by key.',
  }),
  unranked: Type.Array(Type.Object({ corridor: Corridor, reason: Type.String() }), { description: 'Corridors without a value for this metric, and why.' }),
});

const HealthComponent = Type.Object({
  name: Literals(['speed', 'stopped', 'volume'] as const),
  value: Nullable(Type.Number()),
  baseline: Nullable(Type.Number()),
  score: Nullable(Type.Number({ description: '0-100' })),
  weight: Type.Number(),
  available: Type.Boolean(),
  note: Nullable(Type.String()),
});

export const CorridorHealthData = Type.Object({
  ...windowMeta,
  items: Type.Array(
    Type.Object({
      corridor: Corridor,
      transits: Type.Integer(),
      baseline_transits: Nullable(Type.Number()),
      score: Nullable(Type.Number({ description: 'Weighted mean of the available component scores, 0-100.' })),
      level: Nullable(Literals(['healthy', 'strained', 'impaired'] as const)),
      weight_measured: Type.Number(),
      components: Type.Array(HealthComponent),
    }),
  ),
});

const Alert = Type.Object({
  reason: Literals(['volume_drop', 'volume_surge', 'slowdown', 'waiting'] as const),
  metric: Type.String(),
  value: Type.Number(),
  baseline: Type.Number(),
  change_pct: Nullable(Type.Number()),
  threshold: Type.String(),
});

export const CorridorWatchData = Type.Object({
  ...windowMeta,
  checked: Type.Integer({ description: 'Corridors examined.' }),
  items: Type.Array(Type.Object({ corridor: Corridor, alerts: Type.Array(Alert), current: Figures, baseline: Baseline }), { description: 'Corridors with at least one alert.' }),
});

const dailyMeta = {
  window: Type.Object({ from: Type.String(), to: Type.String() }, { description: 'The days asked for: (from, to], to = your horizon.' }),
  days: Type.Integer(),
  days_covered: Type.Integer({ description: 'Days the stored positions cover from their start (the others are left out).' }),
  analysed_up_to: windowMeta.analysed_up_to,
  data_from: windowMeta.data_from,
};

const Day = Type.Object({
  from: Type.String(),
  to: Type.String(),
  transits: Type.Integer(),
  mean_speed_kn: Nullable(Type.Number()),
  stopped_share: Nullable(Type.Number()),
  pressure: Type.Number({ description: 'transits × (1 + stopped_share).' }),
});

export const CorridorPressureTrendData = Type.Object({
  ...dailyMeta,
  items: Type.Array(
    Type.Object({
      corridor: Corridor,
      days: Type.Integer(),
      transits: Type.Integer(),
      mean_pressure: Nullable(Type.Number()),
      slope_per_day: Nullable(Type.Number({ description: 'Least-squares slope of the daily pressure, per day.' })),
      slope_pct_per_day: Nullable(Type.Number({ description: 'The slope as a percentage of the mean pressure.' })),
      direction: Nullable(Literals(['rising', 'falling', 'steady'] as const)),
      series: Type.Array(Day, { description: 'Oldest first.' }),
    }),
  ),
});

const Z = Type.Object({
  value: Nullable(Type.Number(), 'The latest day.'),
  median: Nullable(Type.Number(), 'Of the history days.'),
  mad: Nullable(Type.Number()),
  scale: Nullable(Type.Number({ description: '1.4826 × MAD, or 1.2533 × the mean absolute deviation when the MAD is 0.' })),
  z: Nullable(Type.Number()),
  history: Type.Integer({ description: 'History days with a value.' }),
  anomalous: Type.Boolean(),
  note: Nullable(Type.String()),
});

export const CorridorAnomalyScoreData = Type.Object({
  ...dailyMeta,
  items: Type.Array(
    Type.Object({
      corridor: Corridor,
      latest: Nullable(Day),
      history_days: Type.Integer(),
      metrics: Type.Object({ transits: Z, mean_speed_kn: Z, stopped_share: Z }),
      combined: Type.Object({
        score: Nullable(Type.Number({ description: 'Root mean square of the metric z-scores.' })),
        metrics_scored: Type.Integer(),
        anomalous: Type.Boolean(),
        anomalous_metrics: Type.Array(Type.String()),
      }),
    }),
  ),
});

export const CorridorStabilityData = Type.Object({
  ...dailyMeta,
  items: Type.Array(
    Type.Object({
      corridor: Corridor,
      transits: Type.Integer(),
      days: Type.Integer(),
      mean_daily_transits: Nullable(Type.Number()),
      sd_daily_transits: Nullable(Type.Number()),
      cv: Nullable(Type.Number({ description: 'sd / mean of the daily transits.' })),
      class: Nullable(Literals(['stable', 'variable', 'volatile'] as const)),
      by_direction: ByDirection,
      direction_balance: Nullable(Type.Number({ description: '1 − |a − b| / (a + b).' })),
      anomalous_days: Type.Integer(),
      anomalous_day_share: Nullable(Type.Number()),
    }),
  ),
});

export const CorridorRegimesData = Type.Object({
  ...dailyMeta,
  items: Type.Array(
    Type.Object({
      corridor: Corridor,
      days: Type.Integer(),
      transits: Type.Integer(),
      reference: Nullable(Type.Object({ median_daily_transits: Type.Number(), median_daily_speed_kn: Nullable(Type.Number()) })),
      current_regime: Nullable(Literals(['normal', 'busy', 'quiet', 'disrupted'] as const)),
      segments: Type.Array(
        Type.Object({
          regime: Literals(['normal', 'busy', 'quiet', 'disrupted'] as const),
          from: Type.String(),
          to: Type.String(),
          days: Type.Integer(),
          transits: Type.Integer(),
          mean_daily_transits: Type.Number(),
          mean_speed_kn: Nullable(Type.Number()),
          stopped_share: Nullable(Type.Number()),
        }),
        { description: 'Consecutive days of one regime, oldest first.' },
      ),
    }),
  ),
});
