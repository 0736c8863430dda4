import { createHash } from 'node:crypto';
import { iso, isoOrNull } from '../../platform/clock.js';
import { LAND_ATTRIBUTION } from '../../geo/land.js';
import { windingIssues } from '../../geo/winding.js';
import { isStale, releaseAgeDays, sourceHealth, sourceStates, type BacklogItem, type LayerFacts, type SourceState } from './facts.js';
import type { LayerObject } from './layer-index.js';
import { CANDIDATE_SOURCES, INFRA_CATEGORIES, INFRA_SOURCES, UNCOVERED_CATEGORIES, type ReferenceCount } from './sources.js';

/**
 * The quality, coverage and status views of the layer (docs/resource-infra.md has one line per
 * operation). Each is a pure function of LayerFacts: stored objects, runs, failures and findings.
 */

const count = <T>(items: readonly T[], key: (t: T) => string | null | undefined) => {
  const out: Record<string, number> = {};
  for (const item of items) {
    const k = key(item) ?? 'unknown';
    out[k] = (out[k] ?? 0) + 1;
  }
  return out;
};
const sorted = (counts: Record<string, number>) => Object.fromEntries(Object.entries(counts).sort(([a], [b]) => (a < b ? -1 : 1)));
const ratio = (a: number, b: number) => (b === 0 ? null : Math.round((a / b) * 10000) / 10000);
const skippedOf = (s: SourceState) => (s.lastSuccess ? Object.values(JSON.parse(s.lastSuccess.skipped) as Record<string, number>).reduce((a, b) => a + b, 0) : 0);
const dataAsOf = (f: LayerFacts) => isoOrNull(f.runs.filter((r) => r.finished_at !== null).reduce<number | null>((m, r) => (m === null || r.finished_at! > m ? r.finished_at : m), null));

export const ATTRIBUTION_CONTEXT = [LAND_ATTRIBUTION, 'Nearest ports: the Bosun port table (World Port Index, UN/LOCODE); see GET /v1/ports/search.'];

/** The attribution lines of the sources the given objects come from (every line once, source order). */
export function attributionFor(objects: Iterable<LayerObject>): string[] {
  const ids = new Set<string>();
  for (const o of objects) ids.add(o.source_id);
  return [...new Set(INFRA_SOURCES.filter((s) => ids.has(s.id)).map((s) => s.attribution))];
}

export function attributionView(f: LayerFacts) {
  const states = sourceStates(f);
  return {
    required: true,
    sources: states.map((s) => ({
      source: s.source.id,
      title: s.source.title,
      publisher: s.source.publisher,
      licence: s.source.licence,
      licence_url: s.source.licenceUrl,
      attribution: s.source.attribution,
      objects: s.objects,
    })),
    lines: [...new Set(states.filter((s) => s.objects > 0).map((s) => s.source.attribution))],
    context: ATTRIBUTION_CONTEXT,
    how_to_attribute: 'Show every line of `lines` wherever the data (or a map made from it) appears; each GeoJSON feature also carries its own line in properties.attribution.',
  };
}

export function sourcesView(f: LayerFacts) {
  return sourceStates(f).map((s) => ({
    id: s.source.id,
    title: s.source.title,
    publisher: s.source.publisher,
    file: s.source.file,
    format: s.source.format,
    file_present: f.shippedFilePresent[s.source.id] ?? false,
    licence: s.source.licence,
    attribution: s.source.attribution,
    release: s.source.release,
    cadence_days: s.source.cadenceDays,
    categories: s.source.categories,
    coverage_area: s.source.coverageArea,
    rules: s.source.rules,
    objects: s.objects,
    runs: s.runs,
    last_run: s.lastRun ? runSummary(s.lastRun) : null,
  }));
}

export const runSummary = (r: LayerFacts['runs'][number]) => ({
  run_id: r.id,
  source: r.source_id,
  state: r.state,
  started_at: iso(r.started_at),
  finished_at: isoOrNull(r.finished_at),
  rows_read: r.rows_read,
  created: r.created,
  updated: r.updated,
  unchanged: r.unchanged,
  removed: r.removed,
  failed: r.failed,
  skipped: JSON.parse(r.skipped) as Record<string, number>,
  objects_after: r.objects_after,
  shipped_file: r.shipped_file === 1,
  error: r.error,
});

export function categoriesView(f: LayerFacts) {
  return INFRA_CATEGORIES.map((c) => {
    const objects = f.layer.objects.filter((o) => o.category === c.id);
    return {
      id: c.id,
      label: c.label,
      geometry: c.geometry,
      offshore_kind: c.offshore,
      objects: objects.length,
      subcategories: sorted(count(objects, (o) => o.subcategory ?? 'none')),
      statuses: sorted(count(objects, (o) => o.status)),
      settings: sorted(count(objects, (o) => o.body.setting)),
      sources: INFRA_SOURCES.filter((s) => s.categories.includes(c.id)).map((s) => s.id),
      style: c.style,
    };
  });
}

/** Quality flags whose capacity is left out of capacity totals (docs/decisions/092). */
export const CAPACITY_EXCLUDING_FLAGS = ['capacity_implausible'] as const;

export function overviewView(objects: LayerObject[], flagsOf: (id: string) => readonly string[] = () => []) {
  const capacity: Record<string, Record<string, number>> = {};
  const excluded: Array<{ id: string; name: string; category: string; capacity: number; unit: string; flag: string }> = [];
  for (const o of objects) {
    if (o.body.capacity === null || !o.body.capacity_unit) continue;
    const flag = CAPACITY_EXCLUDING_FLAGS.find((f) => flagsOf(o.id).includes(f));
    if (flag) {
      excluded.push({ id: o.id, name: o.name, category: o.category, capacity: o.body.capacity, unit: o.body.capacity_unit, flag });
      continue;
    }
    const byUnit = (capacity[o.category] ??= {});
    byUnit[o.body.capacity_unit] = Math.round(((byUnit[o.body.capacity_unit] ?? 0) + o.body.capacity) * 1000) / 1000;
  }
  const countries = Object.entries(count(objects, (o) => o.country))
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
    .slice(0, 20)
    .map(([country, n]) => ({ country, objects: n }));
  return {
    objects: objects.length,
    by_category: sorted(count(objects, (o) => o.category)),
    by_status: sorted(count(objects, (o) => o.status)),
    by_setting: sorted(count(objects, (o) => o.body.setting)),
    by_geometry: sorted(count(objects, (o) => o.geometry_type)),
    by_source: sorted(count(objects, (o) => o.source_id)),
    top_countries: countries,
    capacity_by_category: capacity,
    capacity_excluded: excluded,
    attribution: attributionFor(objects),
  };
}

export function statusView(f: LayerFacts) {
  const states = sourceStates(f);
  return {
    state: layerState(f),
    objects: f.layer.objects.length,
    by_category: sorted(count(f.layer.objects, (o) => o.category)),
    sources_ingested: states.filter((s) => s.lastSuccess).length,
    sources_declared: states.length,
    findings: sorted(count(f.findings, (x) => x.kind)),
    data_version: f.layer.version,
    data_as_of: dataAsOf(f),
    sources: states.map((s) => ({
      source: s.source.id,
      objects: s.objects,
      last_run: s.lastRun ? { run_id: s.lastRun.id, state: s.lastRun.state, finished_at: isoOrNull(s.lastRun.finished_at) } : null,
    })),
  };
}

/** empty: nothing ingested; partial: some declared sources have no successful run; ready: all have one. */
export function layerState(f: LayerFacts): 'empty' | 'partial' | 'ready' {
  const states = sourceStates(f);
  if (f.layer.objects.length === 0) return 'empty';
  return states.every((s) => s.lastSuccess) ? 'ready' : 'partial';
}

export function readinessView(f: LayerFacts) {
  const states = sourceStates(f);
  const state = layerState(f);
  return {
    ready: state === 'ready',
    state,
    objects: f.layer.objects.length,
    sources: states.map((s) => ({
      source: s.source.id,
      state: !s.lastRun ? 'not_ingested' : s.lastRun.state === 'failed' ? 'last_run_failed' : 'ingested',
      objects: s.objects,
      file_present: f.shippedFilePresent[s.source.id] ?? false,
    })),
    how_to_fill:
      state === 'ready'
        ? null
        : 'An operator runs `bosun layers ingest resource_infra` (all declared sources from ../shared/data/infra) or `--source ID [--file PATH]`; the layer is filled by the CLI only (docs/decisions/050).',
  };
}

export function coverageView(f: LayerFacts, groupBy: 'category' | 'country' | 'region' | 'source') {
  const key = (o: LayerObject) => (groupBy === 'category' ? o.category : groupBy === 'country' ? o.country : groupBy === 'region' ? o.region : o.source_id);
  const groups = new Map<string, LayerObject[]>();
  for (const o of f.layer.objects) {
    const k = key(o) ?? 'unknown';
    const list = groups.get(k);
    if (list) list.push(o);
    else groups.set(k, [o]);
  }
  const total = f.layer.objects.length;
  return {
    group_by: groupBy,
    total,
    groups: [...groups.entries()]
      .sort(([a, x], [b, y]) => y.length - x.length || (a < b ? -1 : 1))
      .map(([k, list]) => ({
        key: k,
        objects: list.length,
        share: ratio(list.length, total)!,
        by_category: sorted(count(list, (o) => o.category)),
        offshore: list.filter((o) => o.body.setting === 'offshore').length,
      })),
    sources: sourceStates(f)
      .map((s) => referenceRows(f, s)[0] ?? null)
      .filter((r) => r !== null),
  };
}

function referenceValue(f: LayerFacts, s: SourceState, ref: ReferenceCount): number | null {
  if (!s.lastSuccess) return null;
  const objects = f.layer.objects.filter((o) => o.source_id === s.source.id && o.body.derived_from === null && (!ref.categories || ref.categories.includes(o.category)));
  switch (ref.compare) {
    case 'rows':
      return s.lastSuccess.rows_read;
    case 'objects':
      return objects.length;
    case 'resolved':
      return objects.length + skippedOf(s);
    case 'countries':
      return new Set(objects.map((o) => o.country).filter(Boolean)).size;
  }
}

function referenceRows(f: LayerFacts, s: SourceState) {
  return s.source.reference.map((ref) => {
    const value = referenceValue(f, s, ref);
    return {
      source: s.source.id,
      measure: ref.measure,
      compare: ref.compare,
      reference: ref.value,
      layer: value,
      ratio: value === null ? null : ratio(value, ref.value),
      gap: value === null ? ref.value : ref.value - value,
    };
  });
}

export function externalCoverageView(f: LayerFacts) {
  const rows = sourceStates(f).flatMap((s) => referenceRows(f, s));
  return {
    reference: 'Totals stated in the provenance of each shipped file (../shared/data/infra/PROVENANCE.md), compared with what the newest successful run stored.',
    items: rows,
    matched: rows.filter((r) => r.gap === 0).length,
    total: rows.length,
  };
}

export function qualityView(f: LayerFacts) {
  const objects = f.layer.objects;
  return {
    objects: objects.length,
    findings: sorted(count(f.findings, (x) => x.kind)),
    findings_by_source: Object.fromEntries(
      INFRA_SOURCES.map((s) => [
        s.id,
        sorted(
          count(
            f.findings.filter((x) => x.source_id === s.id),
            (x) => x.kind,
          ),
        ),
      ]),
    ),
    location_accuracy: sorted(count(objects, (o) => o.body.location_accuracy ?? 'not_stated')),
    geometry_types: sorted(count(objects, (o) => o.geometry_type)),
    settings: sorted(count(objects, (o) => o.body.setting)),
    rejected_rows: f.findings.filter((x) => x.object_id === null).length,
  };
}

export function findingView(x: LayerFacts['findings'][number]) {
  return { id: x.id, kind: x.kind, source: x.source_id, run_id: x.run_id, object_id: x.object_id, row_ref: x.row_ref, lon: x.lon, lat: x.lat, detail: JSON.parse(x.detail) as Record<string, unknown> };
}

export function freshnessView(f: LayerFacts) {
  return sourceStates(f).map((s) => ({
    source: s.source.id,
    release: s.source.release,
    release_age_days: releaseAgeDays(s.source, f.now),
    cadence_days: s.source.cadenceDays,
    stale: isStale(s.source, f.now),
    last_success_at: isoOrNull(s.lastSuccess?.finished_at ?? null),
    last_success_age_seconds: s.lastSuccess?.finished_at ? Math.floor((f.now - s.lastSuccess.finished_at) / 1000) : null,
  }));
}

export function progressView(f: LayerFacts) {
  const states = sourceStates(f);
  const running = f.runs.filter((r) => r.state === 'running');
  const done = states.filter((s) => s.lastSuccess).length;
  return {
    sources_ingested: done,
    sources_declared: states.length,
    percent: Math.round((done / states.length) * 1000) / 10,
    running: running.map((r) => ({ run_id: r.id, source: r.source_id, started_at: iso(r.started_at) })),
    sources: states.map((s) => {
      const rows = s.source.reference.find((r) => r.compare === 'rows')?.value ?? null;
      const read = s.lastSuccess?.rows_read ?? 0;
      return { source: s.source.id, rows_expected: rows, rows_read: read, percent: rows ? Math.min(100, Math.round((read / rows) * 1000) / 10) : null, ingested: s.lastSuccess !== null };
    }),
  };
}

export function sourceHealthView(f: LayerFacts) {
  const health = sourceStates(f).map((s) => sourceHealth(s, f.now));
  return { sources: health, summary: sorted(count(health, (h) => h.health)) };
}

export function sourceHealthDetailView(f: LayerFacts, sourceId: string, runLimit: number) {
  const s = sourceStates(f).find((x) => x.source.id === sourceId)!;
  const runs = f.runs
    .filter((r) => r.source_id === sourceId)
    .slice(-runLimit)
    .reverse();
  return {
    ...sourceHealth(s, f.now),
    objects: s.objects,
    countries: s.countries,
    findings: sorted(s.findings),
    failure_reasons: sorted(f.failureCounts.filter((c) => c.run_id === s.lastRun?.id).reduce<Record<string, number>>((acc, c) => ({ ...acc, [c.reason]: (acc[c.reason] ?? 0) + c.n }), {})),
    runs: runs.map(runSummary),
  };
}

export function growthTimelineView(f: LayerFacts) {
  const days = new Map<string, { runs: number; created: number; updated: number; removed: number; objects_after: number }>();
  for (const r of f.runs) {
    if (r.state !== 'succeeded' || r.finished_at === null) continue;
    const day = iso(r.finished_at).slice(0, 10);
    const d = days.get(day) ?? { runs: 0, created: 0, updated: 0, removed: 0, objects_after: 0 };
    d.runs++;
    d.created += r.created;
    d.updated += r.updated;
    d.removed += r.removed;
    d.objects_after = r.objects_after;
    days.set(day, d);
  }
  return { bucket: 'day', points: [...days.entries()].map(([day, d]) => ({ day, ...d })), objects_now: f.layer.objects.length };
}

export function publicStatusView(f: LayerFacts) {
  const health = sourceStates(f).map((s) => sourceHealth(s, f.now));
  return {
    state: layerState(f),
    objects: f.layer.objects.length,
    sources_ok: health.filter((h) => h.health === 'ok').length,
    sources_total: health.length,
    data_as_of: dataAsOf(f),
  };
}

export function importDiagnosticsView(f: LayerFacts) {
  return sourceStates(f).map((s) => ({
    source: s.source.id,
    last_run_id: s.lastRun?.id ?? null,
    state: s.lastRun?.state ?? 'not_ingested',
    rows_read: s.lastRun?.rows_read ?? 0,
    failed: s.lastRun?.failed ?? 0,
    failure_reasons: sorted(f.failureCounts.filter((c) => c.run_id === s.lastRun?.id).reduce<Record<string, number>>((acc, c) => ({ ...acc, [c.reason]: (acc[c.reason] ?? 0) + c.n }), {})),
    skipped: s.lastRun ? (JSON.parse(s.lastRun.skipped) as Record<string, number>) : {},
    error: s.lastRun?.error ?? null,
  }));
}

export function externalImportSummaryView(f: LayerFacts) {
  const groups = (shipped: boolean) => {
    const runs = f.runs.filter((r) => (r.shipped_file === 1) === shipped);
    return {
      runs: runs.length,
      succeeded: runs.filter((r) => r.state === 'succeeded').length,
      failed: runs.filter((r) => r.state === 'failed').length,
      rows_read: runs.reduce((a, r) => a + r.rows_read, 0),
      sources: [...new Set(runs.map((r) => r.source_id))].sort(),
      last_run_at: isoOrNull(runs.at(-1)?.started_at ?? null),
    };
  };
  return { shipped_files: groups(true), operator_files: groups(false) };
}

export interface GateCheck {
  id: string;
  passed: boolean;
  detail: string;
}

export function stabilityGateView(f: LayerFacts) {
  const states = sourceStates(f);
  const health = states.map((s) => sourceHealth(s, f.now));
  const reruns = states.filter((s) => {
    const ok = f.runs.filter((r) => r.source_id === s.source.id && r.state === 'succeeded');
    const last = ok.at(-1);
    const previous = ok.at(-2);
    return last && previous && last.file_sha256 === previous.file_sha256 && last.created + last.updated + last.removed === 0;
  });
  const invalid = f.findings.filter((x) => x.kind === 'invalid_geometry').length;
  const wrongWinding = f.layer.objects.filter((o) => o.body.geometry.type !== 'Point' && windingIssues(o.body.geometry).length > 0).length;
  const checks: GateCheck[] = [
    { id: 'all_sources_ingested', passed: states.every((s) => s.lastSuccess), detail: `${states.filter((s) => s.lastSuccess).length} of ${states.length} declared sources have a successful run` },
    {
      id: 'last_runs_succeeded',
      passed: states.every((s) => s.lastRun?.state === 'succeeded'),
      detail: `${states.filter((s) => s.lastRun?.state === 'failed').length} sources whose newest run failed`,
    },
    { id: 'failure_rate_below_5pct', passed: health.every((h) => h.failure_rate !== null && h.failure_rate <= 0.05), detail: health.map((h) => `${h.source} ${h.failure_rate ?? 'n/a'}`).join(', ') },
    { id: 'rerun_idempotent', passed: reruns.length > 0 && reruns.length === states.filter((s) => s.runs >= 2).length, detail: `${reruns.length} sources re-ran the same file with no change` },
    { id: 'no_invalid_geometry', passed: invalid + wrongWinding === 0, detail: `${invalid} invalid geometries, ${wrongWinding} polygons wound against RFC 7946 §3.1.6` },
    { id: 'attribution_complete', passed: states.every((s) => s.objects === 0 || s.source.attribution.length > 0), detail: 'every source with objects has an attribution line' },
  ];
  return { passed: checks.every((c) => c.passed), checks };
}

export function backlogItems(f: LayerFacts): BacklogItem[] {
  const items: BacklogItem[] = [];
  for (const s of sourceStates(f)) {
    if (!s.lastRun)
      items.push({
        id: `ingest:${s.source.id}`,
        kind: 'source_not_ingested',
        subject: s.source.id,
        detail: `${s.source.title}: never ingested`,
        priority: 1,
        action: `bosun layers ingest resource_infra --source ${s.source.id}`,
      });
    else if (s.lastRun.state === 'failed')
      items.push({
        id: `rerun:${s.source.id}`,
        kind: 'source_run_failed',
        subject: s.source.id,
        detail: `run ${s.lastRun.id} failed: ${s.lastRun.error}`,
        priority: 1,
        action: `bosun layers ingest resource_infra --source ${s.source.id}`,
      });
    if (s.lastSuccess && s.lastSuccess.failed > 0)
      items.push({
        id: `rows:${s.source.id}`,
        kind: 'rows_failed',
        subject: s.source.id,
        detail: `${s.lastSuccess.failed} rows failed in run ${s.lastSuccess.id}`,
        priority: 3,
        action: 'review GET /v1/layers/resource_infra/ingest_failures',
      });
    if (isStale(s.source, f.now))
      items.push({
        id: `stale:${s.source.id}`,
        kind: 'source_stale',
        subject: s.source.id,
        detail: `release ${s.source.release} is past its ${s.source.cadenceDays}-day cadence`,
        priority: 2,
        action: 'obtain the newer release and ingest it with --file',
      });
    for (const row of referenceRows(f, s))
      if (row.layer !== null && row.gap > 0)
        items.push({
          id: `gap:${s.source.id}:${row.measure}`,
          kind: 'reference_gap',
          subject: s.source.id,
          detail: `${row.measure}: ${row.layer} of ${row.reference}`,
          priority: 3,
          action: 'see import_diagnostics for failed and skipped rows',
        });
  }
  for (const c of INFRA_CATEGORIES)
    if (!f.layer.objects.some((o) => o.category === c.id))
      items.push({
        id: `empty:${c.id}`,
        kind: 'category_empty',
        subject: c.id,
        detail: `no ${c.label} objects stored`,
        priority: 2,
        action: `ingest ${INFRA_SOURCES.filter((s) => s.categories.includes(c.id))
          .map((s) => s.id)
          .join(' or ')}`,
      });
  for (const c of UNCOVERED_CATEGORIES)
    items.push({
      id: `uncovered:${c}`,
      kind: 'category_uncovered',
      subject: c,
      detail: `no shipped source covers ${c}`,
      priority: 3,
      action: `candidates: ${CANDIDATE_SOURCES.filter((x) => x.categories.includes(c))
        .map((x) => x.id)
        .join(', ')}`,
    });
  return items.sort((a, b) => a.priority - b.priority || (a.id < b.id ? -1 : 1));
}

export function candidatesView(f: LayerFacts) {
  const backlog = backlogItems(f);
  return CANDIDATE_SOURCES.map((c) => ({
    id: c.id,
    title: c.title,
    licence: c.licence,
    categories: c.categories,
    blocker: c.blocker,
    detail: c.detail,
    obtain: c.obtain,
    fills: backlog.filter((b) => (b.kind === 'category_uncovered' || b.kind === 'category_empty') && c.categories.includes(b.subject)).map((b) => b.id),
  }));
}

const openLicence = (c: { blocker: string }) => c.blocker !== 'non_commercial_licence' && c.blocker !== 'licence_unverified';

export function candidatesDigestView(f: LayerFacts) {
  const candidates = candidatesView(f);
  // the candidate to obtain first: an open licence before a restricted one, then the most open backlog items it closes
  const best = [...candidates].filter((c) => c.fills.length > 0).sort((a, b) => Number(openLicence(b)) - Number(openLicence(a)) || b.fills.length - a.fills.length || (a.id < b.id ? -1 : 1))[0];
  return {
    candidates: candidates.length,
    by_blocker: sorted(count(candidates, (c) => c.blocker)),
    open_licence: candidates.filter(openLicence).length,
    categories_they_would_add: [...new Set(candidates.flatMap((c) => c.categories))].sort(),
    backlog_items_they_close: [...new Set(candidates.flatMap((c) => c.fills))].sort(),
    next: best ? { id: best.id, closes: best.fills.length, blocker: best.blocker, obtain: best.obtain } : null,
  };
}

/** What an operator runs to bring a declared source into the layer: the ingest, after obtaining its file when it is missing. */
export function ingestAction(f: LayerFacts, s: SourceState): string {
  const ingest = `bosun layers ingest resource_infra --source ${s.source.id}`;
  return f.shippedFilePresent[s.source.id] ? ingest : `obtain ${s.source.file} (${s.source.publisher}, ../shared/data/infra/PROVENANCE.md), then ${ingest}`;
}

export function coveragePlanView(f: LayerFacts) {
  return backlogItems(f).map((b, i) => ({ step: i + 1, backlog_id: b.id, priority: b.priority, do: b.action, because: b.detail }));
}

export function digest(f: LayerFacts): string {
  const hash = createHash('sha256');
  for (const o of f.layer.objects) hash.update(`${o.id}:${o.content_hash}\n`);
  return hash.digest('hex');
}

export function metaView(f: LayerFacts, which: 'backlog_machine' | 'external_sources_completion' | 'layer_status_snapshot' | 'completion_status' | 'project_closeout_status' | 'reports_freshness') {
  const base = { document: which, generated_at: iso(f.now), data_version: f.layer.version, data_as_of: dataAsOf(f) };
  const states = sourceStates(f);
  switch (which) {
    case 'backlog_machine': {
      const items = backlogItems(f);
      return {
        ...base,
        items: items.length,
        by_kind: sorted(count(items, (i) => i.kind)),
        by_priority: sorted(count(items, (i) => String(i.priority))),
        source_operation: '/v1/layers/resource_infra/coverage_backlog',
      };
    }
    case 'external_sources_completion': {
      const ingested = states.filter((s) => s.lastSuccess).length;
      return {
        ...base,
        declared_sources: states.length,
        ingested_sources: ingested,
        candidate_sources: CANDIDATE_SOURCES.length,
        completion: ratio(ingested, states.length + CANDIDATE_SOURCES.length),
        not_ingested: states
          .filter((s) => !s.lastSuccess)
          .map((s) => ({
            source: s.source.id,
            file_present: f.shippedFilePresent[s.source.id] ?? false,
            last_error: s.lastRun?.state === 'failed' ? s.lastRun.error : null,
            action: ingestAction(f, s),
          })),
      };
    }
    case 'layer_status_snapshot':
      return { ...base, state: layerState(f), objects: f.layer.objects.length, findings: f.findings.length, runs: f.runs.length, content_digest: digest(f) };
    case 'completion_status': {
      const filled = INFRA_CATEGORIES.filter((c) => f.layer.objects.some((o) => o.category === c.id)).length;
      const total = INFRA_CATEGORIES.length + UNCOVERED_CATEGORIES.length;
      const empty = INFRA_CATEGORIES.filter((c) => !f.layer.objects.some((o) => o.category === c.id)).map((c) => ({
        category: c.id,
        actions: states.filter((s) => s.source.categories.includes(c.id)).map((s) => (s.lastSuccess ? `re-ingest ${s.source.id}: its last run stored no ${c.id}` : ingestAction(f, s))),
      }));
      const candidatesFor = (category: string) => CANDIDATE_SOURCES.filter((c) => c.categories.includes(category)).map((c) => c.id);
      return {
        ...base,
        categories_filled: filled,
        categories_total: total,
        completion: ratio(filled, total),
        uncovered: UNCOVERED_CATEGORIES,
        empty_categories: empty,
        uncovered_candidates: UNCOVERED_CATEGORIES.map((category) => ({ category, candidates: candidatesFor(category) })),
      };
    }
    case 'project_closeout_status': {
      const gate = stabilityGateView(f);
      const open = backlogItems(f).filter((b) => b.priority === 1).length;
      return { ...base, gate_passed: gate.passed, failing_checks: gate.checks.filter((c) => !c.passed).map((c) => c.id), open_priority_1_items: open, closable: gate.passed && open === 0 };
    }
    case 'reports_freshness':
      return {
        ...base,
        age_seconds: base.data_as_of ? Math.floor((f.now - Date.parse(base.data_as_of)) / 1000) : null,
        reports: ['status', 'coverage', 'geometry_quality', 'freshness', 'source_health', 'stability_gate'],
        stale_sources: states.filter((s) => isStale(s.source, f.now)).map((s) => s.source.id),
      };
  }
}

export const MAP_REQUIRED_PROPERTIES = ['id', 'name', 'category', 'status', 'attribution'] as const;
/** Features one layer page may carry (the layer operation's limit maximum). */
export const MAP_PAGE_MAX = 500;
/** A geometry with more vertices than this slows a web map down. */
export const MAP_HEAVY_VERTICES = 2000;

/** Object ids a map check names at most (the count is in its detail). */
export const MAP_CHECK_SAMPLE = 20;

/** A map check with the objects that fail it and what the operator does about them. */
export interface MapCheck extends GateCheck {
  objects: string[];
  action: string | null;
}

export function mapUiContractView(f: LayerFacts) {
  const styled = new Set(INFRA_CATEGORIES.map((c) => c.id));
  const unstyled = [...new Set(f.layer.objects.map((o) => o.category))].filter((c) => !styled.has(c));
  const unnamed = f.layer.objects.filter((o) => !o.name);
  const noAttribution = f.layer.objects.filter((o) => !INFRA_SOURCES.some((s) => s.id === o.source_id));
  const badBox = f.layer.objects.filter((o) => !o.body.bbox.every(Number.isFinite) || o.body.bbox[1] < -90 || o.body.bbox[3] > 90 || o.body.bbox[0] < -180 || o.body.bbox[2] > 180);
  const wrongWinding = f.layer.objects.filter((o) => o.body.geometry.type !== 'Point' && windingIssues(o.body.geometry).length > 0);
  const sourcesOf = (objects: LayerObject[]) => [...new Set(objects.map((o) => o.source_id))].sort();
  const reingest = (objects: LayerObject[], why: string) =>
    objects.length
      ? `${sourcesOf(objects)
          .map((s) => `bosun layers ingest resource_infra --source ${s}`)
          .join('; ')} (${why})`
      : null;
  const check = (id: string, failing: LayerObject[], detail: string, action: string | null): MapCheck => ({
    id,
    passed: failing.length === 0,
    detail,
    objects: failing.slice(0, MAP_CHECK_SAMPLE).map((o) => o.id),
    action: failing.length ? action : null,
  });
  const checks: MapCheck[] = [
    check('feature_collection_rfc7946', badBox, `${badBox.length} objects with coordinates outside WGS84 ranges`, 'correct the rows in the source file (see /object?id=) and re-ingest it'),
    check(
      'ring_winding_rfc7946',
      wrongWinding,
      `${wrongWinding.length} polygon objects with an exterior ring clockwise or a hole counter-clockwise (RFC 7946 §3.1.6)`,
      reingest(wrongWinding, 'the ingest turns rings as RFC 7946 asks; objects stored by an older ingest keep the rings of the file'),
    ),
    check('required_properties', unnamed, `properties ${MAP_REQUIRED_PROPERTIES.join(', ')} on every feature; ${unnamed.length} unnamed`, 'give the rows a name in the source file and re-ingest it'),
    check('attribution_per_feature', noAttribution, `${noAttribution.length} objects of an undeclared source`, 'declare the source with its attribution line (sources.ts) or remove its objects'),
    {
      id: 'category_styles',
      passed: unstyled.length === 0,
      detail: unstyled.length ? `no style for ${unstyled.join(', ')}` : 'every category has a color and icon',
      objects: [],
      action: unstyled.length ? `add a style for ${unstyled.join(', ')} to INFRA_CATEGORIES (sources.ts)` : null,
    },
    { id: 'paging', passed: true, detail: `pages of at most ${MAP_PAGE_MAX} features with next_cursor; bbox filter for the viewport`, objects: [], action: null },
  ];
  return {
    passed: checks.every((c) => c.passed),
    checks,
    required_properties: [...MAP_REQUIRED_PROPERTIES],
    categories: INFRA_CATEGORIES.map((c) => ({ id: c.id, geometry: c.geometry, style: c.style })),
  };
}

export function mapProfileView(f: LayerFacts) {
  return INFRA_CATEGORIES.map((c) => {
    const objects = f.layer.objects.filter((o) => o.category === c.id);
    const box = objects.reduce<[number, number, number, number] | null>(
      (b, o) => (b ? [Math.min(b[0], o.body.bbox[0]), Math.min(b[1], o.body.bbox[1]), Math.max(b[2], o.body.bbox[2]), Math.max(b[3], o.body.bbox[3])] : [...o.body.bbox]),
      null,
    );
    let vertices = 0;
    let heaviest = 0;
    for (const o of objects) {
      const n = JSON.stringify(o.body.geometry.coordinates).split('],[').length;
      vertices += n;
      heaviest = Math.max(heaviest, n);
    }
    return {
      category: c.id,
      objects: objects.length,
      geometry_types: sorted(count(objects, (o) => o.geometry_type)),
      bbox: box,
      vertices,
      heaviest_vertices: heaviest,
      body_bytes: objects.reduce((a, o) => a + o.bytes, 0),
      pages_at_max_limit: Math.ceil(objects.length / MAP_PAGE_MAX),
      style: c.style,
    };
  });
}

export function mapProfileAlertsView(f: LayerFacts) {
  const alerts: Array<{ level: 'info' | 'warning'; category: string; alert: string; detail: string }> = [];
  for (const p of mapProfileView(f)) {
    if (p.objects === 0) alerts.push({ level: 'warning', category: p.category, alert: 'empty_category', detail: 'no objects to draw' });
    if (p.objects > MAP_PAGE_MAX) alerts.push({ level: 'info', category: p.category, alert: 'needs_paging', detail: `${p.objects} objects need ${p.pages_at_max_limit} pages at the maximum limit` });
    if (p.heaviest_vertices > MAP_HEAVY_VERTICES)
      alerts.push({ level: 'warning', category: p.category, alert: 'heavy_geometry', detail: `a geometry with ${p.heaviest_vertices} vertices (over ${MAP_HEAVY_VERTICES})` });
  }
  const onLand = f.findings.filter((x) => x.kind === 'offshore_on_land');
  if (onLand.length) alerts.push({ level: 'warning', category: 'offshore', alert: 'offshore_on_land', detail: `${onLand.length} offshore objects drawn on land (1:10m coast)` });
  return alerts;
}

export function opsHealthRollupView(f: LayerFacts) {
  const health = sourceHealthView(f);
  const gate = stabilityGateView(f);
  const readiness = readinessView(f);
  const worst = health.sources.some((h) => h.health === 'failing') ? 'failing' : health.sources.some((h) => h.health !== 'ok') || !gate.passed ? 'degraded' : 'ok';
  return {
    status: readiness.state === 'empty' ? 'empty' : worst,
    readiness: readiness.state,
    sources: health.summary,
    gate_passed: gate.passed,
    failing_checks: gate.checks.filter((c) => !c.passed).map((c) => c.id),
    alerts: mapProfileAlertsView(f).length,
  };
}
