import { performance } from 'node:perf_hooks';
import type { Clock } from '../../../platform/clock.js';
import { iso } from '../../../platform/clock.js';
import { AppError } from '../../../platform/errors.js';
import { percentile, round } from '../../../platform/stats.js';
import { RoutingError } from '../../../routing/engine.js';
import type { LoadedSeaNetwork } from '../../../routing/network-file.js';
import { BENCHMARK_PAIRS, BENCHMARK_TOLERANCE } from './readiness-rules.js';

/** What the benchmark needs: the network, the place resolver of the routes service, the clock. */
export interface BenchmarkDeps {
  network: () => LoadedSeaNetwork;
  resolvePlace(input: string, field: string): { lat: number; lon: number };
  clock: Clock;
}

export type BenchmarkResult = ReturnType<typeof runBenchmark>;

/** Each reference pair routed `runs` times: its distance against the published one, and the time taken. */
export function runBenchmark(deps: BenchmarkDeps, runs: number) {
  const started = performance.now();
  const network = deps.network();
  const { engine } = network;
  const pairs = BENCHMARK_PAIRS.map((pair) => {
    const ref = pair.reference_nm;
    const base = { from: pair.from, to: pair.to, avoid: pair.avoid, label: pair.label, source: pair.source, reference_nm: ref };
    const times: number[] = [];
    let distance = 0;
    let passages: string[] = [];
    try {
      const a = deps.resolvePlace(pair.from, 'from');
      const b = deps.resolvePlace(pair.to, 'to');
      const mask = engine.passageMask(pair.avoid ? [pair.avoid] : []);
      for (let i = 0; i < runs; i++) {
        const t0 = performance.now();
        const route = engine.route([a, b], { excludedMask: mask });
        times.push(performance.now() - t0);
        distance = route.distanceNm;
        passages = route.passages.map((p) => p.id);
      }
    } catch (err) {
      // a reference pair that cannot be routed (a port gone from the table, a network change) is a failed pair, not a failed answer
      if (!(err instanceof AppError) && !(err instanceof RoutingError)) throw err;
      return { ...base, distance_nm: null, passages: [], deviation_pct: null, within_tolerance: ref === null ? null : false, time_ms: null, error: { code: err.code, message: err.message } };
    }
    const distanceNm = round(distance, 1);
    const deviation = ref === null ? null : distanceNm < ref.min ? (distanceNm - ref.min) / ref.min : distanceNm > ref.max ? (distanceNm - ref.max) / ref.max : 0;
    const sorted = [...times].sort((x, y) => x - y);
    return {
      ...base,
      distance_nm: distanceNm,
      passages,
      deviation_pct: deviation === null ? null : round(deviation * 100, 2),
      within_tolerance: deviation === null ? null : Math.abs(deviation) <= pair.tolerance,
      time_ms: { median: round(sorted[Math.floor((sorted.length - 1) / 2)]!, 3), min: round(sorted[0]!, 3), max: round(sorted.at(-1)!, 3), runs: times.length },
      error: null,
    };
  });
  const judged = pairs.filter((p) => p.within_tolerance !== null);
  return {
    computed_at: iso(deps.clock.now()),
    runs_per_pair: runs,
    tolerance_pct: BENCHMARK_TOLERANCE * 100,
    engine: { network: 'Eurostat marnet', resolution_km: network.resolutionKm, nodes: engine.graph.nodeCount, edges: engine.graph.edgeCount, load_ms: round(network.loadMs, 1) },
    wall_ms: round(performance.now() - started, 1),
    summary: {
      pairs: pairs.length,
      with_reference: judged.length,
      within_tolerance: judged.filter((p) => p.within_tolerance).length,
      share_within: judged.length ? round(judged.filter((p) => p.within_tolerance).length / judged.length) : null,
      median_time_ms: (() => {
        const medians = pairs.flatMap((p) => (p.time_ms ? [p.time_ms.median] : [])).sort((x, y) => x - y);
        return medians.length ? round(percentile(medians, 50)!, 3) : null;
      })(),
    },
    pairs,
  };
}
