import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import type { LandIndex } from '../../geo/land.js';
import { classifyGeometry, classifyPoint, landfalls, mostAdvanced, nearestPortFinder, normaliseStatus, representativePoint, round6, type NearestPort, type PortPoint } from './classify.js';
import type { InfraObjectRow, InfraRepo, LockHold, NewFailure, NewFinding } from './infra-repo.js';
import { openSource, type InfraGeometry, type InfraUnit, type RowFailure } from './parsers.js';
import { INFRA_CATEGORIES, type InfraSource } from './sources.js';
import { duplicatePairs } from './quality.js';

/** Rows with the same rejected coordinates at least this often carry a placeholder, not a typo. */
export const PLACEHOLDER_MIN_ROWS = 3;
/** A point written with at most this many decimals is approximate (about 10 km). */
export const LOW_PRECISION_DECIMALS = 1;
/**
 * A gas pipeline's capacity above this (bcm/y) is not one pipeline's (docs/decisions/092): the largest
 * transmission systems GEM lists carry under 200 bcm/y (NGTL 174, Transco 161), Nord Stream 1 carried 55.
 */
export const PIPELINE_CAPACITY_MAX_BCM = 250;
/** A landfall point (the land-side vertex of a coast crossing) farther inland than this is flagged. */
export const LANDFALL_INLAND_KM = 5;

export interface IngestReport {
  run_id: number;
  source: string;
  file: string;
  shipped_file: boolean;
  rows_read: number;
  created: number;
  updated: number;
  unchanged: number;
  removed: number;
  failed: number;
  skipped: Record<string, number>;
  findings: Record<string, number>;
  objects_after: number;
  duration_ms: number;
}

export interface StoredBody {
  geometry: InfraGeometry;
  bbox: [number, number, number, number];
  subcategory: string | null;
  status_raw: string[];
  capacity: number | null;
  capacity_unit: string | null;
  setting: 'offshore' | 'coastal' | 'onshore';
  coast_km: number | null;
  nearest_port: NearestPort | null;
  location_accuracy: 'exact' | 'approximate' | null;
  start_year: number | null;
  url: string | null;
  fsru: boolean | null;
  units: Array<{ id: string; name: string | null; status: string; capacity: number | null; row_ref: string }>;
  properties: Record<string, string | number | boolean | null>;
  derived_from: string | null;
}

export interface PipelineDeps {
  repo: InfraRepo;
  land: () => LandIndex;
  ports: () => readonly PortPoint[];
  now: () => number;
  /** The ingest lock the run holds (docs/decisions/057): renewed while the run reads and classifies, checked when it commits. */
  lock?: { hold: LockHold; renew(): Promise<void> };
}

/** Rows (or objects) between two renewals of the ingest lock's lease. */
const RENEW_EVERY = 500;

const sha256File = (path: string) =>
  new Promise<string>((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(path)
      .on('data', (chunk) => hash.update(chunk))
      .on('end', () => resolve(hash.digest('hex')))
      .on('error', reject);
  });

async function isGzip(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(2), 0, 2, 0);
    return bytesRead === 2 && buffer[0] === 0x1f && buffer[1] === 0x8b;
  } finally {
    await handle.close();
  }
}

const OFFSHORE = new Set(INFRA_CATEGORIES.filter((c) => c.offshore).map((c) => c.id));
const boundingBox = (g: InfraGeometry): [number, number, number, number] => {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  const visit = (c: unknown): void => {
    if (typeof (c as number[])[0] === 'number') {
      const [x, y] = c as [number, number];
      minX = Math.min(minX, x);
      minY = Math.min(minY, y);
      maxX = Math.max(maxX, x);
      maxY = Math.max(maxY, y);
    } else for (const part of c as unknown[]) visit(part);
  };
  visit(g.coordinates);
  return [minX, minY, maxX, maxY];
};

/**
 * One ingest run of one source file: rows stream through the parser, units are grouped into
 * objects, classified (land/sea, nearest port) and checked, then compared with the stored objects
 * by content hash so a rerun of the same file changes nothing. Everything the run saw is recorded.
 */
export async function ingestSource(
  deps: PipelineDeps,
  source: InfraSource,
  file: { path: string; shipped: boolean },
  onProgress?: (p: { rows: number; bytes: number; size: number; phase: 'reading' | 'classifying' | 'writing' }) => void,
): Promise<IngestReport> {
  const started = deps.now();
  const size = (await stat(file.path)).size;
  const sha = await sha256File(file.path);
  const runId = await deps.repo.startRun({ source_id: source.id, file: file.path, shipped_file: file.shipped ? 1 : 0, file_sha256: sha, started_at: started });
  let rowsRead = 0;
  try {
    const opened = await openSource(source, file.path, size, (source.format === 'csv' || source.format === 'csv.gz') && (await isGzip(file.path)));
    const groups = new Map<string, InfraUnit[]>();
    const failures: RowFailure[] = [];
    for await (const row of opened.rows) {
      rowsRead++;
      if ('failure' in row) failures.push(row.failure);
      else {
        const group = groups.get(row.unit.objectKey);
        if (group) group.push(row.unit);
        else groups.set(row.unit.objectKey, [row.unit]);
      }
      if (rowsRead % RENEW_EVERY === 0) {
        onProgress?.({ rows: rowsRead, bytes: opened.progress.read(), size, phase: 'reading' });
        await deps.lock?.renew();
      }
    }
    await deps.lock?.renew();
    onProgress?.({ rows: rowsRead, bytes: size, size, phase: 'classifying' });

    const land = deps.land();
    const nearestPort = nearestPortFinder(deps.ports());
    const now = deps.now();
    const findings: NewFinding[] = [];
    const skipped: Record<string, number> = {};
    const finding = (kind: string, objectId: string | null, rowRef: string | null, at: [number, number] | null, detail: object) =>
      findings.push({ source_id: source.id, run_id: runId, object_id: objectId, row_ref: rowRef, kind, lon: at ? at[0] : null, lat: at ? at[1] : null, detail: JSON.stringify(detail) });

    const placeholderCounts = new Map<string, number>();
    for (const f of failures) if (f.lon !== undefined) placeholderCounts.set(`${f.lon},${f.lat}`, (placeholderCounts.get(`${f.lon},${f.lat}`) ?? 0) + 1);
    for (const f of failures) {
      if (f.reason === 'swapped_coordinates' || f.reason === 'out_of_range') {
        const shared = placeholderCounts.get(`${f.lon},${f.lat}`) ?? 0;
        const kind = shared >= PLACEHOLDER_MIN_ROWS ? 'placeholder_coordinates' : f.reason;
        finding(kind, null, f.rowRef, null, { reason: f.detail, written_lat: f.lat, written_lon: f.lon, rows_with_same_pair: shared });
      } else if (f.reason === 'missing_location') finding('missing_location', null, f.rowRef, null, { reason: f.detail });
    }

    const build = (id: string, key: string, units: InfraUnit[], geometry: InfraGeometry, derivedFrom: string | null, category = units[0]!.category, subcategory = units[0]!.subcategory) => {
      const first = units[0]!;
      const [lon, lat] = representativePoint(geometry);
      const cls = geometry.type === 'Point' ? classifyPoint(land, lon, lat) : classifyGeometry(land, geometry);
      const capacities = units.map((u) => u.capacity).filter((c): c is number => c !== null);
      const status = mostAdvanced(units.map((u) => normaliseStatus(u.statusRaw)));
      const body: StoredBody = {
        geometry,
        bbox: boundingBox(geometry),
        subcategory,
        status_raw: [...new Set(units.map((u) => u.statusRaw))],
        capacity: capacities.length ? Math.round(capacities.reduce((a, b) => a + b, 0) * 1000) / 1000 : null,
        capacity_unit: capacities.length ? first.capacityUnit : null,
        setting: cls.setting,
        coast_km: cls.coast_km,
        nearest_port: nearestPort(lon, lat),
        location_accuracy: units.some((u) => u.locationAccuracy === 'approximate') ? 'approximate' : first.locationAccuracy,
        start_year:
          units
            .map((u) => u.startYear)
            .filter((y): y is number => y !== null)
            .sort()[0] ?? null,
        url: first.url,
        fsru: 'fsru' in first.extra ? units.some((u) => u.extra.fsru === true) : null,
        units: derivedFrom ? [] : units.map((u) => ({ id: u.unitId, name: u.unitName, status: normaliseStatus(u.statusRaw), capacity: u.capacity, row_ref: u.rowRef })),
        properties: Object.fromEntries(Object.entries(first.extra).filter(([k]) => k !== 'fsru')),
        derived_from: derivedFrom,
      };
      const json = JSON.stringify(body);
      const row: InfraObjectRow = {
        id,
        source_id: source.id,
        source_key: key,
        category,
        subcategory,
        name: first.name,
        status,
        country: first.country,
        region: first.region,
        lon: round6(lon),
        lat: round6(lat),
        geometry_type: geometry.type,
        body: json,
        content_hash: createHash('sha256').update(`${category}|${first.name}|${status}|${first.country}|${first.region}|${json}`).digest('base64url').slice(0, 22),
        first_run_id: runId,
        last_run_id: runId,
        created_at: now,
        updated_at: now,
      };
      return { row, cls, body };
    };

    // Each object is compared with the stored one as soon as it is built: an unchanged object is only
    // counted, so a rerun holds no rows; only new and changed rows wait for the commit.
    const stored = await deps.repo.hashes(source.id);
    const seen = new Set<string>();
    const upserts: InfraObjectRow[] = [];
    let created = 0;
    let updated = 0;
    let unchanged = 0;
    const keep = (row: InfraObjectRow) => {
      if (seen.has(row.id)) {
        finding('duplicate_id', row.id, null, [row.lon, row.lat], { note: 'a second object with this id in the same file; the first is kept' });
        return;
      }
      seen.add(row.id);
      const before = stored.get(row.id);
      if (!before) {
        created++;
        upserts.push(row);
      } else if (before.hash !== row.content_hash) {
        updated++;
        upserts.push({ ...row, created_at: before.created_at, first_run_id: before.first_run_id });
      } else unchanged++;
    };

    // segments of one pipeline project (url), for capacities repeated on every segment
    const projects = new Map<string, Array<{ id: string; capacity: number | null; rowRef: string; at: [number, number] }>>();
    let classified = 0;
    for (const [key, units] of groups) {
      // the units of an object are dropped once it is built (its row holds them as JSON)
      groups.delete(key);
      if (++classified % RENEW_EVERY === 0) await deps.lock?.renew();
      const first = units[0]!;
      const idPart = first.objectIdFrom === 'lowest_unit' ? units.map((u) => u.unitId).sort()[0]! : key;
      const id = `${source.id}:${idPart}`;
      const { row, cls, body } = build(id, key, units, first.geometry, null);
      if (source.parser === 'gem_oil_gas_extraction' && cls.setting !== 'offshore') {
        skipped.onshore = (skipped.onshore ?? 0) + 1;
        continue;
      }
      if ((source.parser === 'gem_gogpt' || source.parser === 'gem_gnpt' || source.parser === 'gem_gcpt') && cls.setting === 'onshore') {
        skipped.inland = (skipped.inland ?? 0) + 1;
        continue;
      }
      keep(row);
      const at: [number, number] = [row.lon, row.lat];
      const lowest = units.reduce<number | null>((m, u) => (u.decimals === null ? m : m === null ? u.decimals : Math.min(m, u.decimals)), null);
      if (lowest !== null && lowest <= LOW_PRECISION_DECIMALS) finding('low_precision', id, first.rowRef, at, { decimals: lowest });
      if (OFFSHORE.has(row.category) && cls.on_land) finding('offshore_on_land', id, first.rowRef, at, { coast_km: cls.coast_km });
      const places = new Set(units.map((u) => JSON.stringify(u.geometry.type === 'Point' ? u.geometry.coordinates : null)));
      if (places.size > 1) finding('unit_coordinates_differ', id, first.rowRef, at, { units: units.length, distinct_points: places.size });
      if (first.category === 'gas_pipeline') {
        if (body.capacity !== null && body.capacity > PIPELINE_CAPACITY_MAX_BCM)
          finding('capacity_implausible', id, first.rowRef, at, { capacity: body.capacity, unit: 'bcm/y', max: PIPELINE_CAPACITY_MAX_BCM, note: 'left out of capacity totals' });
        if (first.url) {
          const project = projects.get(first.url) ?? [];
          project.push({ id, capacity: body.capacity, rowRef: first.rowRef, at });
          projects.set(first.url, project);
        }
        landfalls(land, first.geometry).forEach((point, i) => {
          const landfall = build(`${id}:landfall:${i + 1}`, `${key}:landfall:${i + 1}`, units, { type: 'Point', coordinates: point }, id, 'pipeline_landfall', null);
          keep(landfall.row);
          const km = landfall.cls.coast_km;
          if (km === null || km > LANDFALL_INLAND_KM)
            finding('landfall_inland', landfall.row.id, first.rowRef, point, {
              coast_km: km,
              max_km: LANDFALL_INLAND_KM,
              note: km === null ? 'more than 50 km from the coast' : "the line's vertices are sparse here: the coast lies on the segment between this vertex and the sea-side one",
            });
        });
      }
    }

    for (const segments of projects.values()) {
      const capacities = new Set(segments.map((x) => x.capacity));
      if (segments.length < 2 || capacities.size !== 1 || segments[0]!.capacity === null) continue;
      for (const x of segments)
        finding('capacity_repeated', x.id, x.rowRef, x.at, {
          capacity: x.capacity,
          segments: segments.length,
          other_ids: segments.filter((y) => y.id !== x.id).map((y) => y.id),
          note: "the project's capacity is written on each of its segments: a total over segments counts it once per segment",
        });
    }

    onProgress?.({ rows: rowsRead, bytes: size, size, phase: 'writing' });
    const removeIds = [...stored.keys()].filter((id) => !seen.has(id));
    const finishedAt = deps.now();
    const run = {
      finished_at: finishedAt,
      rows_read: rowsRead,
      created,
      updated,
      unchanged,
      removed: removeIds.length,
      failed: failures.length,
      skipped: JSON.stringify(skipped),
    };
    const failureRows: NewFailure[] = failures.map((f) => ({ run_id: runId, source_id: source.id, row_ref: f.rowRef, reason: f.reason, detail: f.detail }));
    const objectsAfter = await deps.repo.commitRun({ runId, sourceId: source.id, upserts, removeIds, findings, failures: failureRows, run, lock: deps.lock?.hold });
    await refreshDuplicates(deps, runId);
    const findingCounts: Record<string, number> = {};
    for (const f of findings) findingCounts[f.kind] = (findingCounts[f.kind] ?? 0) + 1;
    return { run_id: runId, source: source.id, file: file.path, shipped_file: file.shipped, ...run, skipped, findings: findingCounts, objects_after: objectsAfter, duration_ms: finishedAt - started };
  } catch (e) {
    await deps.repo.failRun(runId, deps.now(), (e as Error).message, rowsRead);
    throw e;
  }
}

/** Duplicate findings over every stored object (they cross sources), attributed to the run that made them current. */
async function refreshDuplicates(deps: PipelineDeps, runId: number): Promise<void> {
  const objects = await deps.repo.objectPoints();
  const pairs = duplicatePairs(objects.filter((o) => o.category !== 'gas_pipeline' && o.category !== 'pipeline_landfall'));
  await deps.repo.replaceDuplicates(
    pairs.map((p) => ({
      source_id: p.a.source_id,
      run_id: runId,
      object_id: p.a.id,
      row_ref: null,
      kind: 'duplicate',
      lon: p.a.lon,
      lat: p.a.lat,
      detail: JSON.stringify({ other_id: p.b.id, other_source: p.b.source_id, distance_m: p.distance_m, rule: p.rule }),
    })),
  );
}
