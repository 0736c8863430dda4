import type { InfraFindingRow, InfraRunRow } from './infra-repo.js';
import type { LayerIndex } from './layer-index.js';
import { INFRA_SOURCES, type InfraSource } from './sources.js';

/** Everything the status, coverage and quality views are computed from: stored objects, runs and findings, at one moment. */
export interface LayerFacts {
  now: number;
  layer: LayerIndex;
  runs: InfraRunRow[];
  findings: InfraFindingRow[];
  /** Failures per run and reason. */
  failureCounts: Array<{ run_id: number; reason: string; n: number }>;
  /** Whether each source's shipped file exists at its default path. */
  shippedFilePresent: Record<string, boolean>;
}

export interface SourceState {
  source: InfraSource;
  lastRun: InfraRunRow | null;
  lastSuccess: InfraRunRow | null;
  runs: number;
  objects: number;
  countries: number;
  findings: Record<string, number>;
}

const DAY_MS = 86_400_000;

export function sourceStates(f: LayerFacts): SourceState[] {
  return INFRA_SOURCES.map((source) => {
    const runs = f.runs.filter((r) => r.source_id === source.id && r.state !== 'running');
    const objects = f.layer.objects.filter((o) => o.source_id === source.id);
    const findings: Record<string, number> = {};
    for (const x of f.findings) if (x.source_id === source.id) findings[x.kind] = (findings[x.kind] ?? 0) + 1;
    return {
      source,
      lastRun: runs.at(-1) ?? null,
      lastSuccess: runs.filter((r) => r.state === 'succeeded').at(-1) ?? null,
      runs: runs.length,
      objects: objects.length,
      countries: new Set(objects.map((o) => o.country).filter(Boolean)).size,
      findings,
    };
  });
}

export type Health = 'ok' | 'degraded' | 'failing' | 'not_ingested';

export interface SourceHealth {
  source: string;
  health: Health;
  reasons: string[];
  last_run_id: number | null;
  last_run_state: string | null;
  failure_rate: number | null;
  finding_rate: number | null;
  stale: boolean | null;
}

/** Failure rate above this (failed rows / rows read) makes a source degraded. */
export const DEGRADED_FAILURE_RATE = 0.05;

export function releaseAgeDays(source: InfraSource, now: number): number {
  return Math.floor((now - Date.parse(source.release + 'T00:00:00Z')) / DAY_MS);
}

export const isStale = (source: InfraSource, now: number) => releaseAgeDays(source, now) > source.cadenceDays;

export function sourceHealth(state: SourceState, now: number): SourceHealth {
  const { source, lastRun, lastSuccess } = state;
  const reasons: string[] = [];
  if (!lastRun) return { source: source.id, health: 'not_ingested', reasons: ['no ingest run yet'], last_run_id: null, last_run_state: null, failure_rate: null, finding_rate: null, stale: null };
  const run = lastSuccess ?? lastRun;
  const failureRate = run.rows_read ? Math.round((run.failed / run.rows_read) * 10000) / 10000 : 0;
  const findingTotal = Object.entries(state.findings)
    .filter(([k]) => k !== 'duplicate')
    .reduce((a, [, n]) => a + n, 0);
  const findingRate = run.rows_read ? Math.round((findingTotal / run.rows_read) * 10000) / 10000 : 0;
  let health: Health = 'ok';
  if (lastRun.state === 'failed') {
    health = lastSuccess ? 'degraded' : 'failing';
    reasons.push(`last run ${lastRun.id} failed: ${lastRun.error ?? 'unknown error'}`);
  }
  if (failureRate > DEGRADED_FAILURE_RATE) {
    if (health === 'ok') health = 'degraded';
    reasons.push(`${(failureRate * 100).toFixed(2)}% of rows failed (over ${DEGRADED_FAILURE_RATE * 100}%)`);
  }
  const stale = isStale(source, now);
  if (stale) reasons.push(`release ${source.release} is older than the expected cadence of ${source.cadenceDays} days`);
  return { source: source.id, health, reasons, last_run_id: lastRun.id, last_run_state: lastRun.state, failure_rate: failureRate, finding_rate: findingRate, stale };
}

export interface BacklogItem {
  id: string;
  kind: 'source_not_ingested' | 'source_run_failed' | 'rows_failed' | 'category_empty' | 'category_uncovered' | 'source_stale' | 'reference_gap';
  subject: string;
  detail: string;
  priority: 1 | 2 | 3;
  action: string;
}
