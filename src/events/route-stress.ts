/**
 * The route stress index of a chokepoint (docs/decisions/023-route-stress-index.md): a documented
 * composite of measured inputs, each compared with its own baseline (the same measure over the
 * windows before), turned into a stress between 0 and 1, and weighted. Components that cannot be
 * measured (no data in the window, or no method yet) are listed as unavailable and their weight is
 * shared out among the others; the index says how much weight it stands on.
 */
export type StressComponentName = 'transit_volume' | 'gate_speed' | 'gate_waiting' | 'port_congestion' | 'detours' | 'sts_activity';

export interface StressInput {
  /** The measure in the window (null: not measured). */
  value: number | null;
  /** The same measure's mean over the baseline windows (null: no baseline). */
  baseline: number | null;
  /** Age of the newest observation behind the value, seconds. */
  dataAgeSeconds: number | null;
  /** Why a component is unavailable, when it is. */
  note?: string;
}

export const STRESS_WEIGHTS: Readonly<Record<StressComponentName, number>> = {
  transit_volume: 0.3,
  gate_speed: 0.15,
  gate_waiting: 0.2,
  port_congestion: 0.15,
  detours: 0.1,
  sts_activity: 0.1,
};

const UNITS: Record<StressComponentName, string> = {
  transit_volume: 'transits',
  gate_speed: 'knots (mean speed over ground in the gate)',
  gate_waiting: 'hours stopped in the gate per transit',
  port_congestion: 'hours (median anchorage wait at ports near the gate)',
  detours: 'share of passages avoiding the gate',
  sts_activity: 'encounters near the gate',
};

/** Components whose stress is a ratio to the baseline: a zero baseline gives them nothing to compare with. The others measure excess over a floor, so "usually none" is a baseline. */
const RATIO_OF_BASELINE: ReadonlySet<StressComponentName> = new Set(['transit_volume', 'gate_speed']);

const clamp01 = (x: number) => Math.max(0, Math.min(1, x));

/** How each measure against its baseline becomes a stress in [0, 1]. */
const STRESS: Record<StressComponentName, (value: number, baseline: number) => number> = {
  // a collapse or a surge of traffic both strain a passage: |ratio − 1|
  transit_volume: (v, b) => clamp01(Math.abs(v / b - 1)),
  // half the usual speed is full stress
  gate_speed: (v, b) => clamp01(((b - v) / b) * 2),
  // extra hours stopped, against the usual (at least one hour)
  gate_waiting: (v, b) => clamp01((v - b) / Math.max(b, 1)),
  port_congestion: (v, b) => clamp01((v - b) / Math.max(b, 1)),
  // a share: ten points more than usual is full stress
  detours: (v, b) => clamp01((v - b) * 10),
  sts_activity: (v, b) => clamp01((v - b) / Math.max(b, 1)),
};

export interface StressComponent {
  name: StressComponentName;
  unit: string;
  value: number | null;
  baseline: number | null;
  stress: number | null;
  weight: number;
  data_age_seconds: number | null;
  available: boolean;
  note: string | null;
}

export interface RouteStress {
  /** 0–100, or null when no component could be measured. */
  index: number | null;
  level: 'low' | 'elevated' | 'high' | 'severe' | null;
  /** Sum of the weights of the measured components (1 when all were). */
  weight_measured: number;
  components: StressComponent[];
}

export function routeStressIndex(inputs: Readonly<Record<StressComponentName, StressInput>>): RouteStress {
  const components: StressComponent[] = (Object.keys(STRESS_WEIGHTS) as StressComponentName[]).map((name) => {
    const input = inputs[name];
    const available = input.value !== null && input.baseline !== null && (input.baseline > 0 || !RATIO_OF_BASELINE.has(name));
    const stress = available ? Math.round(STRESS[name](input.value!, input.baseline!) * 1000) / 1000 : null;
    return {
      name,
      unit: UNITS[name],
      value: input.value,
      baseline: input.baseline,
      stress,
      weight: STRESS_WEIGHTS[name],
      data_age_seconds: input.dataAgeSeconds,
      available,
      note: available ? null : (input.note ?? (input.value === null ? 'not measured in the window' : 'no baseline to compare with')),
    };
  });
  const measured = components.filter((c) => c.available);
  const weight = measured.reduce((sum, c) => sum + c.weight, 0);
  const index = weight === 0 ? null : Math.round((measured.reduce((sum, c) => sum + c.weight * c.stress!, 0) / weight) * 1000) / 10;
  return {
    index,
    level: index === null ? null : index < 25 ? 'low' : index < 50 ? 'elevated' : index < 75 ? 'high' : 'severe',
    weight_measured: Math.round(weight * 100) / 100,
    components,
  };
}
