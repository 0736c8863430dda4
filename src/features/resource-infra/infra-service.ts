import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Clock } from '../../platform/clock.js';
import { iso } from '../../platform/clock.js';
import { landIndex, type LandIndex } from '../../geo/land.js';
import type { CursorCodec } from '../../http/cursor-codec.js';
import { AppError } from '../../platform/errors.js';
import type { PortPoint } from './classify.js';
import type { LayerFacts } from './facts.js';
import { IngestLockLost, type InfraRepo, type LockHold } from './infra-repo.js';
import { buildLayerIndex, type LayerFilter, type LayerIndex } from './layer-index.js';
import { ingestSource, type IngestReport } from './pipeline.js';
import { INFRA_SOURCES, sourceById } from './sources.js';
import { featureCollectionChunks, objectDetail, objectFeature, objectSummary, qualityFlagsByObject } from './object-views.js';
import { internalOnlyRoadmapView, opsSnapshotView, sourceBlockersView } from './ops-views.js';
import * as views from './views.js';
import { builtFileLabel, layerFileOf, readInfraLayerFile, SHIPPED_INFRA_LAYER, type InfraLayerFile } from './layer-file.js';

/** Bosun's own directory (the nearest above this module holding package.json). */
function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

/** Where the shipped source files are looked for: ../shared/data/infra beside the project (docs/decisions/050). */
export const DEFAULT_INFRA_DATA_DIR = () => resolve(projectRoot(), '..', 'shared', 'data', 'infra');

export interface IngestProgress {
  source: string;
  rows: number;
  bytes: number;
  size: number;
  phase: 'reading' | 'classifying' | 'writing';
}

export interface QueryOptions extends LayerFilter {
  limit: number;
  cursor?: string;
}

/** 16 characters of a SHA-256 of the query: a cursor is bound to the query that issued it. */
const queryKey = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 16);

/** The one ingest lock of the layer: ingests of any sources are serialised (docs/decisions/057). */
const INGEST_LOCK = 'resource_infra';
/** How long an ingest's hold lasts without renewal; it renews every 500 rows, so only a stopped ingest lets it lapse. */
export const INGEST_LEASE_MS = 120_000;

/** Features serialised per chunk of a streamed FeatureCollection. */
export const STREAM_CHUNK_FEATURES = 200;

const CURSOR_SHAPE = /^ri:(\d{1,12}):(\d{1,7}):([A-Za-z0-9_-]{1,16})$/;

/** Claims the ingest lock for `purpose` (shown to whoever finds it held), a fresh owner and a full lease. */
async function claimIngestLock(repo: InfraRepo, clock: Clock, purpose: string) {
  const hold: LockHold = { name: INGEST_LOCK, owner: randomUUID(), leaseMs: INGEST_LEASE_MS, now: () => clock.now() };
  const claim = await repo.claimIngestLock({ name: hold.name, owner: hold.owner, holder: `pid ${process.pid} on ${hostname()}: ${purpose}`, now: hold.now(), leaseMs: hold.leaseMs });
  return { hold, claim };
}

/** The resource_infra layer: ingest, spatial queries and the views over stored objects, runs and findings. */
export function createInfraService(deps: {
  repo: InfraRepo;
  cursors: CursorCodec;
  clock: Clock;
  ports: () => readonly PortPoint[];
  land?: () => LandIndex;
  dataDir?: string;
  /** The built layer loaded into an empty layer (docs/decisions/090); default the shipped file, null: none. */
  layerFile?: string | null;
}) {
  const land = deps.land ?? landIndex;
  const dataDir = deps.dataDir ?? DEFAULT_INFRA_DATA_DIR();
  const layerFile = deps.layerFile === undefined ? SHIPPED_INFRA_LAYER() : deps.layerFile;
  let layer: LayerIndex | null = null;
  let flagsFor: Map<string, string[]> = new Map();
  let loaded: Promise<void> | null = null;

  /**
   * Loads the built layer file once into a layer that never had an ingest run, under the ingest lock
   * (docs/decisions/090). While another process holds the lock (it loads or ingests) nothing is done
   * and the next call tries again.
   */
  function ensureLoaded(): Promise<void> {
    if (!layerFile) return Promise.resolve();
    loaded ??= (async () => {
      if (!existsSync(layerFile) || (await deps.repo.hasRuns())) return;
      const file: InfraLayerFile = readInfraLayerFile(layerFile);
      const { hold, claim } = await claimIngestLock(deps.repo, deps.clock, 'loading the built layer file');
      if (!claim.acquired) {
        loaded = null;
        return;
      }
      try {
        await deps.repo.loadLayerFile(
          file.sources.map((s) => ({ ...s, file: builtFileLabel(s.file) })),
          hold,
        );
      } finally {
        await deps.repo.releaseIngestLock(hold.name, hold.owner);
      }
    })().catch((e: unknown) => {
      loaded = null;
      throw e;
    });
    return loaded;
  }

  async function currentLayer(): Promise<LayerIndex> {
    await ensureLoaded();
    const version = await deps.repo.dataVersion();
    if (layer && layer.version === version) return layer;
    const [rows, findings] = await Promise.all([deps.repo.objects(), deps.repo.findings()]);
    flagsFor = qualityFlagsByObject(findings);
    layer = buildLayerIndex(version, rows);
    return layer;
  }

  async function facts(): Promise<LayerFacts> {
    const current = await currentLayer();
    const runs = await deps.repo.runs();
    const findings = await deps.repo.findings();
    const lastRunIds = INFRA_SOURCES.map((s) => runs.filter((r) => r.source_id === s.id).at(-1)?.id).filter((id): id is number => id !== undefined);
    return {
      now: deps.clock.now(),
      layer: current,
      runs,
      findings,
      failureCounts: await deps.repo.failureCounts(lastRunIds),
      shippedFilePresent: Object.fromEntries(INFRA_SOURCES.map((s) => [s.id, existsSync(join(dataDir, s.file))])),
    };
  }

  const flagsOf = (id: string) => flagsFor.get(id) ?? [];

  const filterKey = (f: LayerFilter) => queryKey(JSON.stringify([f.bbox, f.near, f.categories, f.statuses, f.country?.toLowerCase(), f.source, f.setting]));

  async function page(options: QueryOptions) {
    const current = await currentLayer();
    const key = filterKey(options);
    let offset = 0;
    if (options.cursor) {
      const m = deps.cursors.read(options.cursor, CURSOR_SHAPE, 'cursor');
      if (m[3] !== key) throw new AppError('cursor_invalid', 'this cursor belongs to another query', { field: 'cursor' });
      offset = Number(m[2]);
    }
    const hits = current.query(options);
    const items = hits.slice(offset, offset + options.limit);
    const next = offset + options.limit < hits.length ? deps.cursors.seal(`ri:${current.version}:${offset + options.limit}:${key}`) : null;
    return { total: hits.length, items, next_cursor: next, version: current.version };
  }

  return {
    dataDir,
    /** Runs the pipeline on one declared source (optionally another file of it) or on every declared source whose file exists. */
    async ingest(args: { source?: string; file?: string; onProgress?: (p: IngestProgress) => void }): Promise<{ reports: IngestReport[]; missing: string[] }> {
      if (args.file && !args.source) throw new AppError('invalid_request', '--file needs --source (which parser reads it)', { field: 'source' });
      const chosen = args.source ? [sourceById(args.source)] : INFRA_SOURCES;
      if (chosen[0] === undefined) throw new AppError('not_found', `unknown source ${args.source}; declared: ${INFRA_SOURCES.map((s) => s.id).join(', ')}`, { field: 'source' });
      // an ingest updates the shipped layer: one source ingested into an empty store leaves the others as built
      await ensureLoaded();
      const { hold, claim } = await claimIngestLock(deps.repo, deps.clock, args.source ?? 'all sources');
      if (!claim.acquired)
        throw new AppError(
          'ingest_in_progress',
          `another resource_infra ingest holds the ingest lock (${claim.holder ?? 'unknown'}, since ${iso(claim.acquiredAt)}, lease until ${iso(claim.leaseUntil)}); retry when it has finished`,
        );
      if (claim.tookOverFrom) await deps.repo.abandonRunningRuns(hold.now(), `abandoned: its ingest (${claim.tookOverFrom}) stopped renewing the ingest lock, which a later ingest took over`);
      const lock = {
        hold,
        async renew() {
          if (!(await deps.repo.renewIngestLock(hold.name, hold.owner, hold.now(), hold.leaseMs)))
            throw new IngestLockLost('the ingest lock was taken over by another ingest (this one stopped renewing it)');
        },
      };
      try {
        const reports: IngestReport[] = [];
        const missing: string[] = [];
        for (const source of chosen as typeof INFRA_SOURCES) {
          const path = args.file ? resolve(args.file) : join(dataDir, source.file);
          if (!existsSync(path)) {
            if (args.source) throw new AppError('not_found', `${path} does not exist`, { field: 'file' });
            missing.push(path);
            continue;
          }
          reports.push(
            await ingestSource(
              { repo: deps.repo, land, ports: deps.ports, now: () => deps.clock.now(), lock },
              source,
              { path, shipped: !args.file },
              args.onProgress ? (p) => args.onProgress!({ source: source.id, ...p }) : undefined,
            ),
          );
        }
        return { reports, missing };
      } catch (e) {
        if (e instanceof IngestLockLost) throw new AppError('ingest_in_progress', `${e.message}; this run was recorded as failed and wrote nothing`);
        throw e;
      } finally {
        await deps.repo.releaseIngestLock(hold.name, hold.owner);
      }
    },

    async layerGeojson(options: QueryOptions, pointOnly: boolean) {
      const p = await page(options);
      return {
        type: 'FeatureCollection' as const,
        features: p.items.map((h) => objectFeature(h.object, flagsOf(h.object.id), h.distance_km, pointOnly)),
        total: p.total,
        next_cursor: p.next_cursor,
        data_version: p.version,
        attribution: views.attributionFor(p.items.map((h) => h.object)),
      };
    },

    /**
     * Every object matching `filter` as one RFC 7946 FeatureCollection, as text in chunks of
     * STREAM_CHUNK_FEATURES features (docs/decisions/057): the head (total, data_version, attribution)
     * first, then the features serialised chunk by chunk from the index's snapshot, so the document is
     * never built whole in memory. The snapshot is the layer as it was at the call.
     */
    async layerGeojsonStream(filter: LayerFilter, pointOnly: boolean): Promise<{ total: number; chunks: Iterable<string> }> {
      const current = await currentLayer();
      const hits = current.query(filter);
      const head = { type: 'FeatureCollection', total: hits.length, next_cursor: null, data_version: current.version, attribution: views.attributionFor(hits.map((h) => h.object)) };
      const feature = (h: (typeof hits)[number]) => JSON.stringify(objectFeature(h.object, flagsOf(h.object.id), h.distance_km, pointOnly));
      return { total: hits.length, chunks: featureCollectionChunks(head, hits, feature, STREAM_CHUNK_FEATURES) };
    },

    async objects(options: QueryOptions) {
      const p = await page(options);
      return {
        items: p.items.map((h) => objectSummary(h.object, flagsOf(h.object.id), h.distance_km)),
        total: p.total,
        next_cursor: p.next_cursor,
        data_version: p.version,
        attribution: views.attributionFor(p.items.map((h) => h.object)),
      };
    },

    async overview(filter: LayerFilter) {
      const current = await currentLayer();
      const hits = current.query(filter).map((h) => h.object);
      return { ...views.overviewView(hits, flagsOf), data_version: current.version };
    },

    async object(id: string) {
      const current = await currentLayer();
      const o = current.byId.get(id);
      if (!o) throw new AppError('not_found', `no resource_infra object ${id}`, { field: 'id' });
      const findings = await deps.repo.findings({ objectId: id });
      const derived = current.objects.filter((x) => x.body.derived_from === id).map((x) => x.id);
      return objectDetail(o, flagsOf(id), findings, derived);
    },

    facts,
    views,

    /** The stored layer as a layer file (what `npm run build:infra` writes after a full ingest). */
    async layerFile(): Promise<InfraLayerFile> {
      const runs = await deps.repo.runs();
      const newest = INFRA_SOURCES.map((s) => runs.filter((r) => r.source_id === s.id && r.state === 'succeeded').at(-1)?.id).filter((id): id is number => id !== undefined);
      const [objects, findings, failures] = await Promise.all([deps.repo.objects(), deps.repo.findings(), deps.repo.failuresOf(newest)]);
      return layerFileOf({ runs, objects, findings, failures });
    },

    async sourceHealthDetail(sourceId: string, runs: number) {
      if (!sourceById(sourceId)) throw new AppError('not_found', `unknown source ${sourceId}`, { field: 'source' });
      return views.sourceHealthDetailView(await facts(), sourceId, runs);
    },

    async findings(args: { kind?: string; source?: string; limit: number; cursor?: string }) {
      await ensureLoaded();
      const all = (await deps.repo.findings({ kind: args.kind, sourceId: args.source })).filter((f) => args.kind || f.kind !== 'duplicate');
      let offset = 0;
      const key =
        Buffer.from(`${args.kind ?? ''}|${args.source ?? ''}`)
          .toString('base64url')
          .slice(-16) || 'all';
      if (args.cursor) {
        const m = deps.cursors.read(args.cursor, CURSOR_SHAPE, 'cursor');
        if (m[3] !== key) throw new AppError('cursor_invalid', 'this cursor belongs to another query', { field: 'cursor' });
        offset = Number(m[2]);
      }
      const items = all.slice(offset, offset + args.limit);
      return { total: all.length, items: items.map(views.findingView), next_cursor: offset + args.limit < all.length ? deps.cursors.seal(`ri:0:${offset + args.limit}:${key}`) : null };
    },

    async ingestRuns(args: { source?: string; limit: number; cursor?: string }) {
      await ensureLoaded();
      const before = args.cursor ? Number(deps.cursors.read(args.cursor, /^runs:(\d{1,12})$/, 'cursor')[1]) : undefined;
      const rows = await deps.repo.runPage({ sourceId: args.source, beforeId: before, limit: args.limit + 1 });
      const items = rows.slice(0, args.limit);
      return { items: items.map(views.runSummary), next_cursor: rows.length > args.limit ? deps.cursors.seal(`runs:${items.at(-1)!.id}`) : null };
    },

    async ingestFailures(args: { source?: string; run_id?: number; reason?: string; limit: number; cursor?: string }) {
      await ensureLoaded();
      const after = args.cursor ? Number(deps.cursors.read(args.cursor, /^fail:(\d{1,12})$/, 'cursor')[1]) : undefined;
      let runIds: number[] | undefined;
      if (args.run_id !== undefined) runIds = [args.run_id];
      else {
        const runs = await deps.repo.runs();
        runIds = INFRA_SOURCES.filter((s) => !args.source || s.id === args.source)
          .map((s) => runs.filter((r) => r.source_id === s.id).at(-1)?.id)
          .filter((id): id is number => id !== undefined);
      }
      const rows = await deps.repo.failurePage({ sourceId: args.source, runIds, reason: args.reason, afterId: after, limit: args.limit + 1 });
      const items = rows.slice(0, args.limit);
      return {
        items: items.map((r) => ({ id: r.id, run_id: r.run_id, source: r.source_id, row_ref: r.row_ref, reason: r.reason, detail: r.detail })),
        next_cursor: rows.length > args.limit ? deps.cursors.seal(`fail:${items.at(-1)!.id}`) : null,
      };
    },

    async opsSnapshot() {
      return opsSnapshotView(await facts(), dataDir);
    },

    async sourceBlockers() {
      return sourceBlockersView(await facts(), dataDir);
    },

    async internalOnlyRoadmap() {
      return internalOnlyRoadmapView(await facts(), dataDir);
    },
  };
}

export type InfraService = ReturnType<typeof createInfraService>;
