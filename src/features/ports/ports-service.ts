import { createHash } from 'node:crypto';
import type { Clock } from '../../platform/clock.js';
import type { CursorCodec } from '../../http/cursor-codec.js';
import { AppError } from '../../platform/errors.js';
import { planPortImport, readPortRows, type PortImportReport, type TableSources } from './port-import.js';
import { createPortSearchIndex, type PortHit, type PortQuery, type PortSearchIndex } from './port-search.js';
import type { LocodePlace, WpiPort } from './port-sources.js';
import { readPortTableFile, type PortTableFile } from './port-table-file.js';
import { rebuildPortTable, sourcesOfTable, type PortRecord } from './port-table.js';
import type { PortImportRow, PortsRepo } from './ports-repo.js';
import { NEAR_RADIUS_DEFAULT_KM } from './schemas.js';
import { correctionList, OPERATOR_CORRECTED_FLAG, type Corrections } from '../kit/override-fields.js';

export interface PortsSearchOptions {
  q?: string;
  name?: string;
  locode?: string;
  country?: string;
  near?: string;
  radius_km?: number;
  limit: number;
  cursor?: string;
}

const PAGE_CURSOR = /^ps:(\d{1,7}):([0-9a-f]{16})$/;

function parseNear(text: string): { lat: number; lon: number } {
  const parts = text.split(',').map((p) => p.trim());
  const [lat, lon] = parts.map(Number) as [number, number];
  if (parts.length !== 2 || parts.some((p) => p === '') || !Number.isFinite(lat) || !Number.isFinite(lon) || Math.abs(lat) > 90 || Math.abs(lon) > 180) {
    throw new AppError('invalid_request', 'near must be lat,lon in decimal degrees (latitude -90..90, longitude -180..180)', { field: 'query.near' });
  }
  return { lat, lon };
}

/** A hit as served: the record is already the corrected one (operator corrections of name and coordinates, docs/feedback.md). */
function hitView(hit: PortHit) {
  const { port } = hit;
  return {
    port_id: port.port_id,
    name: port.name,
    alternate_names: port.alternate_names,
    country: port.country,
    locode: port.locode,
    lat: port.lat,
    lon: port.lon,
    harbor_size: port.harbor_size,
    harbor_type: port.harbor_type,
    sources: port.sources,
    anchorage_points: port.anchorages.length,
    flags: port.flags,
    conflict: port.conflict ?? null,
    match: { kind: hit.match, score: Math.round(hit.score * 1000) / 1000, matched_name: hit.matched_name },
    distance_km: hit.distance_km,
    ...(port.corrections?.length ? { corrections: port.corrections } : {}),
  };
}

/** The quality flags of an answer built from these ports: `operator_corrected` when any of them carries a correction. */
export function correctedPortFlags(ports: Iterable<PortRecord | null | undefined>): string[] {
  for (const port of ports) if (port?.corrections?.length) return [OPERATOR_CORRECTED_FLAG];
  return [];
}

/** A port with its corrections laid over it: a new record; the table's record is never modified. */
export function correctedPort(port: PortRecord, corrections: Corrections): PortRecord {
  const value = (field: 'name' | 'lat' | 'lon') => corrections.get(field)?.value;
  const name = value('name');
  const lat = value('lat');
  const lon = value('lon');
  const renamed = typeof name === 'string' && name !== port.name;
  return {
    ...port,
    name: typeof name === 'string' ? name : port.name,
    // the observed name stays searchable as an alternate name
    alternate_names: renamed && !port.alternate_names.includes(port.name) ? [port.name, ...port.alternate_names] : port.alternate_names,
    lat: typeof lat === 'number' ? lat : port.lat,
    lon: typeof lon === 'number' ? lon : port.lon,
    corrections: correctionList(corrections),
  };
}

interface TableState {
  /** The store's import version this table was built at. */
  version: number;
  ports: readonly PortRecord[];
  sources: TableSources;
  byId: Map<number, PortRecord>;
  index: PortSearchIndex | null;
}

/** The served view: the table with the operator's corrections laid over it, as of one override version. */
interface CorrectedState {
  base: TableState;
  overridesVersion: number;
  /** The port corrections it was built with (a change of other overrides, e.g. a vessel's, keeps the table). */
  signature: string;
  ports: readonly PortRecord[];
  byId: Map<number, PortRecord>;
  index: PortSearchIndex | null;
}

/** The shipped sources with the imported rows laid over them (one row per kind and key). */
function withImports(file: PortTableFile, rows: PortImportRow[]): { ports: readonly PortRecord[]; sources: TableSources } {
  const base = sourcesOfTable(file.ports, file.sources);
  if (rows.length === 0) return { ports: file.ports, sources: base };
  const wpi = new Map(base.wpi.map((w) => [String(w.wpiNumber), w]));
  const places = new Map(base.places.map((p) => [p.locode, p]));
  for (const row of rows) {
    if (row.kind === 'wpi') wpi.set(row.key, JSON.parse(row.row) as WpiPort);
    else places.set(row.key, JSON.parse(row.row) as LocodePlace);
  }
  const sources = { wpi: [...wpi.values()], places: [...places.values()] };
  return { ports: rebuildPortTable(sources, file.ports), sources };
}

/**
 * The port table (the shipped file with `bosun import ports` rows laid over it) and its search
 * (docs/decisions/018, 026). The shipped file is read on first use, not at start, so one-shot commands
 * never pay for it; a search first checks the store's import version and rebuilds the table when
 * another process imported since.
 */
export function createPortsService(deps: {
  cursors: CursorCodec;
  repo: PortsRepo;
  clock: Clock;
  load?: () => PortTableFile;
  /**
   * The operator's corrections of ports (name, lat, lon; docs/feedback.md): their version (changes
   * with every apply and revert) and the corrected ports by port_id. Every reader of table()/byId()
   * gets them laid over the table's values.
   */
  corrections?: { version(): number; corrected(): Iterable<[string, Corrections]> };
}) {
  const noCorrections = { version: () => 0, corrected: () => [] };
  const corrections = deps.corrections ?? noCorrections;
  let file: PortTableFile | null = null;
  let state: TableState | null = null;
  let refreshing: Promise<void> | null = null;
  const shipped = () => (file ??= (deps.load ?? readPortTableFile)());
  const adopt = (version: number, table: { ports: readonly PortRecord[]; sources: TableSources }) => {
    state = { version, ...table, byId: new Map(table.ports.map((p) => [p.port_id, p])), index: null };
  };
  /** The table as last read: the shipped one until a refresh found imported rows. */
  const current = (): TableState => {
    if (!state) adopt(0, withImports(shipped(), []));
    return state!;
  };
  let served: CorrectedState | null = null;
  /** Counts changes of the served table (an import or a correction applied or reverted): caches keyed on it rebuild. */
  let servedVersion = 0;
  /** The table as served: rebuilt when the table or the corrections changed; the same array otherwise. */
  const view = (): CorrectedState => {
    const base = current();
    const overridesVersion = corrections.version();
    if (served && served.base === base && served.overridesVersion === overridesVersion) return served;
    const replaced = new Map<number, PortRecord>();
    const used: Array<[number, unknown[]]> = [];
    for (const [id, fields] of corrections.corrected()) {
      const port = base.byId.get(Number(id));
      if (!port || fields.size === 0) continue;
      const record = correctedPort(port, fields);
      replaced.set(port.port_id, record);
      used.push([port.port_id, record.corrections!.map((c) => [c.field, c.value, c.ticket_id])]);
    }
    const signature = JSON.stringify(used.sort((a, b) => a[0] - b[0]));
    if (served && served.base === base && served.signature === signature) {
      served = { ...served, overridesVersion };
      return served;
    }
    servedVersion++;
    const ports = replaced.size === 0 ? base.ports : base.ports.map((p) => replaced.get(p.port_id) ?? p);
    served = { base, overridesVersion, signature, ports, byId: replaced.size === 0 ? base.byId : new Map(ports.map((p) => [p.port_id, p])), index: null };
    return served;
  };
  const index = () => {
    const table = view();
    return (table.index ??= createPortSearchIndex(table.ports));
  };
  const attribution = () => shipped().attribution;

  async function reload(): Promise<void> {
    const version = await deps.repo.version();
    if (state && version === state.version) return;
    if (!state && version === 0) {
      current();
      return;
    }
    const snapshot = await deps.repo.snapshot();
    if (state && snapshot.version === state.version) return;
    adopt(snapshot.version, withImports(shipped(), snapshot.rows));
  }

  /** Brings the table up to the store's import version (one point read when nothing changed). */
  function refresh(): Promise<void> {
    refreshing ??= reload().finally(() => {
      refreshing = null;
    });
    return refreshing;
  }

  return {
    refresh,
    /** For the minute job: keeps a loaded table current for table()/byId() users; loads nothing. */
    async refreshIfLoaded(): Promise<void> {
      if (state) await refresh();
    },
    /**
     * The served table: shipped and imported ports (as of the last refresh) with the operator's
     * corrections laid over them (a corrected record carries `corrections`); ordered by port_id. The
     * same array until the table or the corrections change: readers may cache on its identity or on
     * version().
     */
    table(): readonly PortRecord[] {
      return view().ports;
    },
    /** One port of the served table (corrected), or undefined. */
    byId(portId: number): PortRecord | undefined {
      return view().byId.get(portId);
    },
    /** The version of the served table: changes when an import or a correction (applied or reverted) changes it. */
    version(): number {
      view();
      return servedVersion;
    },
    /** One port as the sources have it, without corrections (for the record of what was observed). */
    observed(portId: number): PortRecord | undefined {
      return current().byId.get(portId);
    },

    /**
     * Imports a World Port Index or UN/LOCODE file given as lines (header first), recording the rows
     * that differ from the table's sources; importing the same file again records nothing.
     */
    async import(lines: AsyncIterable<string>, options: { sourceFile: string; onProgress?: (rows: number) => void }): Promise<PortImportReport & { version: number; recorded: number }> {
      await refresh();
      const table = current();
      const read = await readPortRows(lines, table.sources, options.onProgress);
      const plan = planPortImport(read, { ...table.sources, ports: table.ports });
      if (plan.rows.length === 0) return { ...plan.report, version: table.version, recorded: 0 };
      const now = deps.clock.now();
      const version = await deps.repo.record(plan.rows.map((r) => ({ kind: r.kind, key: r.key, row: JSON.stringify(r.row), source_file: options.sourceFile, line: r.line, imported_at: now })));
      // a refresh begun before the rows were recorded may have read the old version: wait, then read again
      await refreshing;
      await refresh();
      return { ...plan.report, version, recorded: plan.rows.length };
    },

    async search(options: PortsSearchOptions) {
      const text = options.q ?? options.name;
      if (text === undefined && options.locode === undefined && options.country === undefined && options.near === undefined) {
        throw new AppError('invalid_request', 'give q (or name), locode, country or near', { field: 'query.q' });
      }
      if (options.radius_km !== undefined && options.near === undefined) throw new AppError('invalid_request', 'radius_km needs near', { field: 'query.radius_km' });
      const query: PortQuery = {
        ...(text !== undefined ? { q: text } : {}),
        ...(options.locode !== undefined ? { locode: options.locode } : {}),
        ...(options.country !== undefined ? { country: options.country } : {}),
        ...(options.near !== undefined ? { near: { ...parseNear(options.near), radiusKm: options.radius_km ?? NEAR_RADIUS_DEFAULT_KM } } : {}),
      };
      // a cursor belongs to one query: its hash travels in the signed cursor
      const queryHash = createHash('sha256').update(JSON.stringify(query)).digest('hex').slice(0, 16);
      let offset = 0;
      if (options.cursor !== undefined) {
        const [, at, hash] = deps.cursors.read(options.cursor, PAGE_CURSOR, 'query.cursor');
        if (hash !== queryHash) throw new AppError('cursor_invalid', 'this cursor belongs to another query; start again without cursor', { field: 'query.cursor' });
        offset = Number(at);
      }
      await refresh();
      const hits = index().search(query);
      const page = hits.slice(offset, offset + options.limit);
      const next = offset + page.length < hits.length ? deps.cursors.seal(`ps:${offset + page.length}:${queryHash}`) : null;
      const items = page.map(hitView);
      const corrected = items.some((item) => 'corrections' in item);
      return { data: { items, total: hits.length, next_cursor: next, attribution: attribution() }, freshnessSeconds: 0, qualityFlags: corrected ? [OPERATOR_CORRECTED_FLAG] : [] };
    },
  };
}

export type PortsService = ReturnType<typeof createPortsService>;
