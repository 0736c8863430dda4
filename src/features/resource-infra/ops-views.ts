import { join } from 'node:path';
import { iso } from '../../platform/clock.js';
import { sourceStates, type LayerFacts } from './facts.js';
import { CANDIDATE_SOURCES } from './sources.js';
import { backlogItems, ingestAction, runSummary, stabilityGateView } from './views.js';

/**
 * The operator's views of the layer (bosun resource-infra ops, the internal roadmap): pure functions of
 * LayerFacts and the directory the shipped source files are read from.
 */

export function opsSnapshotView(f: LayerFacts, dataDir: string) {
  return {
    generated_at: iso(f.now),
    data_dir: dataDir,
    running: f.runs.filter((r) => r.state === 'running').map(runSummary),
    last_runs: sourceStates(f).map((s) => (s.lastRun ? runSummary(s.lastRun) : { source: s.source.id, state: 'not_ingested' as const })),
    objects: f.layer.objects.length,
    findings: f.findings.length,
    failures_last_runs: f.failureCounts.reduce((a, c) => a + c.n, 0),
    index: { version: f.layer.version, objects: f.layer.objects.length, body_bytes: f.layer.objects.reduce((a, o) => a + o.bytes, 0) },
    gate: stabilityGateView(f),
  };
}

/** What keeps each declared source (its file missing, its last run failed) and each candidate source out of the layer. */
export function sourceBlockersView(f: LayerFacts, dataDir: string) {
  const declared = sourceStates(f).map((s) => {
    const blockers: string[] = [];
    if (!f.shippedFilePresent[s.source.id]) blockers.push(`file missing: ${join(dataDir, s.source.file)}`);
    if (s.lastRun?.state === 'failed') blockers.push(`last run ${s.lastRun.id} failed: ${s.lastRun.error}`);
    return { source: s.source.id, declared: true, blocked: blockers.length > 0, blockers, action: blockers.length > 0 ? ingestAction(f, s) : null };
  });
  const candidates = CANDIDATE_SOURCES.map((c) => ({ source: c.id, declared: false, blocked: true, blockers: [`${c.blocker}: ${c.detail}`], action: c.obtain }));
  return [...declared, ...candidates];
}

/** What is left to do on the layer: failing gate checks, the backlog, the candidate sources. */
export function internalOnlyRoadmapView(f: LayerFacts, dataDir: string) {
  const gate = stabilityGateView(f);
  const items = [
    ...gate.checks.filter((c) => !c.passed).map((c) => ({ track: 'gate', id: `gate:${c.id}`, detail: c.detail, next: 'make the check pass (stability_gate)' })),
    ...backlogItems(f).map((b) => ({ track: 'backlog', id: b.id, detail: b.detail, next: b.action })),
    ...CANDIDATE_SOURCES.map((c) => ({ track: 'source', id: `candidate:${c.id}`, detail: `${c.title} (${c.licence}): ${c.blocker}`, next: c.obtain })),
  ];
  return { items, data_dir: dataDir };
}
