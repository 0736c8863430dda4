import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { InfraFailureRow, InfraFindingRow, InfraObjectRow, InfraRunRow, LayerSourceRows } from './infra-repo.js';
import { INFRA_SOURCES } from './sources.js';

/**
 * The resource_infra layer as it ships with Bosun: `resources/infra/resource-infra.json.gz`, the
 * result of a full ingest of the declared sources (../shared/data/infra) written by
 * `npm run build:infra` (docs/decisions/090). A fresh install loads it into an empty layer, so a
 * clone without the source files serves the whole layer; `bosun layers ingest resource_infra`
 * updates it from the source files like any later ingest.
 */
export interface InfraLayerFile {
  format: 'bosun-resource-infra/1';
  /** One line per source (CC BY 4.0 asks for it wherever the data is shared). */
  attribution: string[];
  sources: InfraLayerFileSource[];
}

/** One source's ingest run as the build made it, with what it stored (`file`: the source file read, relative to ../shared/data/infra). */
export type InfraLayerFileSource = LayerSourceRows;

/** Bosun's own directory: the nearest above this module holding package.json (from dist/ or from sources). */
function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

export const SHIPPED_INFRA_LAYER = () => join(projectRoot(), 'resources', 'infra', 'resource-infra.json.gz');

/** What a run loaded from the built file records as its file: the built file and the source file it was built from. */
export const builtFileLabel = (sourceFile: string) => `resources/infra/resource-infra.json.gz (built from ${sourceFile})`;

export function encodeInfraLayer(file: InfraLayerFile): Buffer {
  return gzipSync(JSON.stringify(file), { level: 9 });
}

export function readInfraLayerFile(path: string = SHIPPED_INFRA_LAYER()): InfraLayerFile {
  const file = JSON.parse(gunzipSync(readFileSync(path)).toString('utf8')) as InfraLayerFile;
  if (file.format !== 'bosun-resource-infra/1' || !Array.isArray(file.sources) || !file.sources.every((s) => Array.isArray(s.objects)))
    throw new Error(`${path} is not a Bosun resource_infra layer file`);
  const declared = new Set(INFRA_SOURCES.map((s) => s.id));
  const unknown = file.sources.filter((s) => !declared.has(s.source_id)).map((s) => s.source_id);
  if (unknown.length) throw new Error(`${path} holds undeclared sources: ${unknown.join(', ')}`);
  return file;
}

/**
 * The stored layer as a layer file: per source, its newest successful run, its objects, its findings
 * (duplicates with the source of their first object) and the failures of that run. Run ids and times
 * are left out: they belong to the store that loads it.
 */
export function layerFileOf(state: { runs: InfraRunRow[]; objects: InfraObjectRow[]; findings: InfraFindingRow[]; failures: InfraFailureRow[] }): InfraLayerFile {
  const sources: InfraLayerFileSource[] = [];
  for (const source of INFRA_SOURCES) {
    const run = state.runs.filter((r) => r.source_id === source.id && r.state === 'succeeded').at(-1);
    if (!run) continue;
    sources.push({
      source_id: source.id,
      file: source.file,
      file_sha256: run.file_sha256,
      run: { rows_read: run.rows_read, created: run.created, updated: run.updated, unchanged: run.unchanged, removed: run.removed, failed: run.failed, skipped: run.skipped },
      objects: state.objects
        .filter((o) => o.source_id === source.id)
        .map(({ first_run_id: _f, last_run_id: _l, created_at: _c, updated_at: _u, ...o }) => o)
        .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
      findings: state.findings.filter((f) => f.source_id === source.id).map(({ id: _id, run_id: _run, ...f }) => f),
      failures: state.failures.filter((f) => f.run_id === run.id).map((f) => ({ row_ref: f.row_ref, reason: f.reason, detail: f.detail })),
    });
  }
  return { format: 'bosun-resource-infra/1', attribution: sources.map((s) => INFRA_SOURCES.find((d) => d.id === s.source_id)!.attribution), sources };
}
