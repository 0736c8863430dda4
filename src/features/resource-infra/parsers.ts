import { readFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import * as shapefile from 'shapefile';
import { rewindGeometry } from '../../geo/winding.js';
import { csvRecords, type ByteProgress } from './csv-records.js';
import type { InfraSource, ParserId } from './sources.js';

export type InfraGeometry =
  | { type: 'Point'; coordinates: [number, number] }
  | { type: 'LineString'; coordinates: Array<[number, number]> }
  | { type: 'MultiLineString'; coordinates: Array<Array<[number, number]>> }
  | { type: 'Polygon'; coordinates: Array<Array<[number, number]>> }
  | { type: 'MultiPolygon'; coordinates: Array<Array<Array<[number, number]>>> };

/** One source row as the pipeline sees it: a unit of the object `objectKey`. */
export interface InfraUnit {
  /** The source's id of the facility the unit belongs to (units with the same key make one object). */
  objectKey: string;
  /** The source's id of the row (or, where it has none, the key of the row). */
  unitId: string;
  rowRef: string;
  category: string;
  subcategory: string | null;
  name: string;
  unitName: string | null;
  statusRaw: string;
  country: string | null;
  region: string | null;
  capacity: number | null;
  capacityUnit: string | null;
  geometry: InfraGeometry;
  /** Decimals of the least precise coordinate of a point as written in the source. */
  decimals: number | null;
  locationAccuracy: 'exact' | 'approximate' | null;
  startYear: number | null;
  url: string | null;
  extra: Record<string, string | number | boolean | null>;
  /** How the object's id is made: from the object key (default) or from the lowest unit id of its units. */
  objectIdFrom?: 'lowest_unit';
}

export interface RowFailure {
  rowRef: string;
  reason: 'missing_location' | 'swapped_coordinates' | 'out_of_range' | 'invalid_geometry' | 'missing_name';
  detail: string;
  lon?: number;
  lat?: number;
}

export type ParsedRow = { unit: InfraUnit } | { failure: RowFailure };

export interface OpenedSource {
  rows: AsyncIterable<ParsedRow>;
  progress: ByteProgress;
  size: number;
}

const text = (value: string | undefined): string | null => {
  const t = (value ?? '').trim();
  return t === '' || t === '--' ? null : t;
};
const numberOrNull = (value: string | undefined): number | null => {
  const t = text(value);
  if (t === null) return null;
  const n = Number(t.replace(/,/g, ''));
  return Number.isFinite(n) ? n : null;
};
const yearOrNull = (value: string | number | undefined | null): number | null => {
  const n = typeof value === 'number' ? value : numberOrNull(value ?? undefined);
  return n !== null && n >= 1800 && n <= 2200 ? Math.trunc(n) : null;
};
const decimalsOf = (t: string) => {
  const dot = t.indexOf('.');
  return dot < 0 ? 0 : t.length - dot - 1;
};
const accuracy = (value: string | undefined): 'exact' | 'approximate' | null => {
  const t = (value ?? '').trim().toLowerCase();
  return t === 'exact' ? 'exact' : t === 'approximate' ? 'approximate' : null;
};

/** A point from text coordinates, or the failure that stops the row. */
export function pointFrom(latText: string | undefined, lonText: string | undefined, rowRef: string): { point: [number, number]; decimals: number } | RowFailure {
  const latT = (latText ?? '').trim();
  const lonT = (lonText ?? '').trim();
  const lat = Number(latT);
  const lon = Number(lonT);
  if (latT === '' || lonT === '' || latT === '-' || lonT === '-' || !Number.isFinite(lat) || !Number.isFinite(lon)) {
    return { rowRef, reason: 'missing_location', detail: `no coordinates (lat "${latT}", lon "${lonT}")` };
  }
  if (Math.abs(lat) > 90 && Math.abs(lat) <= 180 && Math.abs(lon) <= 90) {
    return { rowRef, reason: 'swapped_coordinates', detail: `latitude ${latT} is out of range and longitude ${lonT} would be a latitude: swapped, rejected`, lon, lat };
  }
  if (Math.abs(lat) > 90 || Math.abs(lon) > 180) return { rowRef, reason: 'out_of_range', detail: `coordinates out of range (lat ${latT}, lon ${lonT})`, lon, lat };
  return { point: [lon, lat], decimals: Math.min(decimalsOf(latT), decimalsOf(lonT)) };
}

const isFailure = (v: object): v is RowFailure => 'reason' in v;

/** WKT LINESTRING / MULTILINESTRING / POINT as GeoJSON, or null when it does not parse. */
export function geometryFromWkt(wkt: string): InfraGeometry | null {
  const m = /^\s*(POINT|LINESTRING|MULTILINESTRING)\s*\((.*)\)\s*$/is.exec(wkt);
  if (!m) return null;
  const pairs = (body: string): Array<[number, number]> | null => {
    const out: Array<[number, number]> = [];
    for (const pair of body.split(',')) {
      const [x, y] = pair.trim().split(/\s+/).map(Number);
      if (!Number.isFinite(x) || !Number.isFinite(y) || Math.abs(y!) > 90 || Math.abs(x!) > 180) return null;
      out.push([x!, y!]);
    }
    return out;
  };
  const kind = m[1]!.toUpperCase();
  if (kind === 'POINT') {
    const p = pairs(m[2]!);
    return p && p.length === 1 ? { type: 'Point', coordinates: p[0]! } : null;
  }
  if (kind === 'LINESTRING') {
    const p = pairs(m[2]!);
    return p && p.length >= 2 ? { type: 'LineString', coordinates: p } : null;
  }
  const lines: Array<Array<[number, number]>> = [];
  for (const part of m[2]!.split(/\)\s*,\s*\(/)) {
    const p = pairs(part.replace(/[()]/g, ''));
    if (!p || p.length < 2) return null;
    lines.push(p);
  }
  return lines.length ? { type: 'MultiLineString', coordinates: lines } : null;
}

const FLOATING = /\b(fsru|flng|floating)\b/i;
const slug = (url: string) => decodeURIComponent(url.replace(/^https?:\/\/[^/]+\/(wiki\/)?/, '')).replace(/[^A-Za-z0-9_.()-]+/g, '_');

type Row = { line: number; fields: Record<string, string> };

function lngGasRow({ line, fields: f }: Row): ParsedRow {
  const rowRef = `line ${line} (${f.id})`;
  const display = (f['tracker-display'] ?? '').trim();
  const base = { unitId: f.id!, rowRef, name: text(f.name) ?? f.id!, statusRaw: (f.status ?? '').trim(), country: text(f.areas), region: text(f.region), url: text(f.url), locationAccuracy: null };
  if (display === 'gas pipeline') {
    const geometry = geometryFromWkt(f.geometry ?? '');
    if (!geometry || geometry.type === 'Point') return { failure: { rowRef, reason: 'invalid_geometry', detail: 'the geometry column holds no valid LINESTRING/MULTILINESTRING' } };
    return {
      unit: {
        ...base,
        objectKey: f.id!,
        category: 'gas_pipeline',
        subcategory: null,
        unitName: null,
        capacity: numberOrNull(f.capacity),
        capacityUnit: numberOrNull(f.capacity) === null ? null : 'bcm/y',
        geometry,
        decimals: null,
        startYear: yearOrNull(f['start-year']),
        extra: { owner: text(f.owner), cross_border: (text(f.areas) ?? '').includes(';') || (text(f.areas) ?? '').includes(',') },
      },
    };
  }
  const direction = display === 'LNG import terminal' ? 'import' : display === 'LNG export terminal' ? 'export' : null;
  if (!direction) return { failure: { rowRef, reason: 'invalid_geometry', detail: `unknown tracker-display "${display}"` } };
  const point = pointFrom(f.Latitude, f.Longitude, rowRef);
  if (isFailure(point)) return { failure: point };
  const capacity = numberOrNull(f.capacity);
  return {
    unit: {
      ...base,
      objectKey: `${f.url ?? f.id}|${direction}`,
      objectIdFrom: 'lowest_unit',
      category: `lng_${direction}_terminal`,
      subcategory: null,
      unitName: text(f['unit-name']),
      capacity,
      capacityUnit: capacity === null ? null : 'MTPA',
      geometry: { type: 'Point', coordinates: point.point },
      decimals: point.decimals,
      startYear: yearOrNull(f['start-year']),
      extra: { owner: text(f.owner), fsru: FLOATING.test(`${f.name} ${f['unit-name']}`) },
    },
  };
}

function coalTerminalRow({ line, fields: f }: Row): ParsedRow {
  const rowRef = `line ${line} (${f['gem-unit/phase-id']})`;
  const point = pointFrom(f.lat, f.lng, rowRef);
  if (isFailure(point)) return { failure: point };
  const capacity = numberOrNull(f['capacity-(mt)']);
  return {
    unit: {
      objectKey: f['gem-terminal-id']!,
      unitId: f['gem-unit/phase-id']!,
      rowRef,
      category: 'bulk_terminal',
      subcategory: 'coal',
      name: text(f['coal-terminal-name']) ?? f['gem-terminal-id']!,
      unitName: text(f['coal-terminal-name-(detail-or-other)']),
      statusRaw: (f.status ?? '').trim(),
      country: text(f['country/area']),
      region: text(f.region),
      capacity,
      capacityUnit: capacity === null ? null : 'Mt/yr',
      geometry: { type: 'Point', coordinates: point.point },
      decimals: point.decimals,
      locationAccuracy: accuracy(f['location-accuracy']),
      startYear: yearOrNull(f['start-year']),
      url: text(f.url),
      extra: { parent_port_name: text(f['parent-port-name']), owner: text(f.owner) },
    },
  };
}

function extractionRow({ line, fields: f }: Row): ParsedRow {
  const rowRef = `line ${line} (${f['unit-id']})`;
  const point = pointFrom(f.lat, f.lng, rowRef);
  if (isFailure(point)) return { failure: point };
  return {
    unit: {
      objectKey: f['unit-id']!,
      unitId: f['unit-id']!,
      rowRef,
      category: 'offshore_oil_gas_field',
      subcategory: null,
      name: text(f['wiki-name']) ?? f['unit-id']!,
      unitName: null,
      statusRaw: (f.status ?? '').trim(),
      country: text(f['country/area']),
      region: text(f['gem-region']),
      capacity: numberOrNull(f['production---total-(oil,-gas-and-hydrocarbons)-(million-boe/y)']),
      capacityUnit: numberOrNull(f['production---total-(oil,-gas-and-hydrocarbons)-(million-boe/y)']) === null ? null : 'million boe/y',
      geometry: { type: 'Point', coordinates: point.point },
      decimals: point.decimals,
      locationAccuracy: accuracy(f['location-accuracy']),
      startYear: yearOrNull(f['production-start-year']),
      url: text(f.url),
      extra: { operator: text(f.operator), discovery_year: yearOrNull(f['discovery-year']) },
    },
  };
}

function plantRow(fuel: 'gas_oil' | 'nuclear') {
  return ({ line, fields: f }: Row): ParsedRow => {
    const url = text(f.url);
    const unitName = fuel === 'nuclear' ? text(f['unit-name']) : text(f.unit);
    const rowRef = `line ${line}`;
    if (!url) return { failure: { rowRef, reason: 'missing_name', detail: 'no plant url to key the unit on' } };
    const point = pointFrom(f.lat, f.lng, rowRef);
    if (isFailure(point)) return { failure: point };
    const capacity = numberOrNull(fuel === 'nuclear' ? f['capacity-(mw)'] : f.capacity);
    return {
      unit: {
        objectKey: slug(url),
        unitId: `${slug(url)}#${unitName ?? line}`,
        rowRef,
        category: 'coastal_power_plant',
        subcategory: fuel,
        name: (fuel === 'nuclear' ? text(f['project-name']) : text(f.project)) ?? slug(url),
        unitName,
        statusRaw: (f.status ?? '').trim(),
        country: text(f.country),
        region: text(f.region),
        capacity,
        capacityUnit: capacity === null ? null : 'MW',
        geometry: { type: 'Point', coordinates: point.point },
        decimals: point.decimals,
        locationAccuracy: accuracy(f['location-accuracy']),
        startYear: yearOrNull(f.start_year),
        url,
        extra: fuel === 'nuclear' ? { reactor_type: text(f['reactor-type']) } : { fuel_type: text(f.fuel_type), technology: text(f.technology) },
      },
    };
  };
}

const WIND_STATUS: Record<string, string> = { Production: 'operating', Construction: 'construction', Approved: 'permitted', Planned: 'proposed', 'Test site': 'operating', Dismantled: 'retired' };
export const windStatusRaw = (status: string) => WIND_STATUS[status] ?? status;

async function* windFeatures(shpPath: string, layer: 'polygons' | 'points'): AsyncGenerator<ParsedRow> {
  const dbfPath = shpPath.replace(/\.shp$/i, '.dbf');
  const [shp, dbf] = await Promise.all([readFile(shpPath), readFile(dbfPath)]);
  const source = await shapefile.open(shp, dbf, { encoding: 'utf-8' });
  const seen = new Map<string, number>();
  for (let record = 1; ; record++) {
    const next = await source.read();
    if (next.done) break;
    const p = (next.value.properties ?? {}) as Record<string, string | number | null>;
    const country = typeof p.COUNTRY === 'string' ? p.COUNTRY.trim() : null;
    const name = typeof p.NAME === 'string' ? p.NAME.trim() : null;
    const rowRef = `record ${record}${name ? ` (${name})` : ''}`;
    const read = next.value.geometry as InfraGeometry | null;
    if (!read || !['Point', 'Polygon', 'MultiPolygon'].includes(read.type)) {
      yield { failure: { rowRef, reason: 'invalid_geometry', detail: `no Point/Polygon geometry (${read?.type ?? 'null'})` } };
      continue;
    }
    // shapefiles turn exterior rings clockwise; RFC 7946 §3.1.6 wants them counter-clockwise, holes clockwise
    const geometry = rewindGeometry(read);
    const base = `${country ?? 'unknown'}:${name ?? `record ${record}`}`.replace(/[^\p{L}\p{N}_.:()-]+/gu, '_');
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    const key = n === 1 ? base : `${base}~${n}`;
    const positive = (v: unknown) => (typeof v === 'number' && v > 0 ? v : null);
    const decimals = geometry.type === 'Point' ? Math.min(...geometry.coordinates.map((c) => decimalsOf(String(c)))) : null;
    yield {
      unit: {
        objectKey: key,
        unitId: key,
        rowRef,
        category: 'offshore_wind_farm',
        subcategory: layer === 'polygons' ? 'footprint' : 'point',
        name: name ?? key,
        unitName: null,
        statusRaw: typeof p.STATUS === 'string' ? p.STATUS : '',
        country,
        region: 'Europe',
        capacity: positive(p.POWER_MW),
        capacityUnit: positive(p.POWER_MW) === null ? null : 'MW',
        geometry,
        decimals,
        locationAccuracy: null,
        startYear: yearOrNull(positive(p.START_YEAR)),
        url: null,
        extra: {
          turbines: positive(p.N_TURBINES),
          installation: typeof p.TYPE_INST === 'string' ? p.TYPE_INST : null,
          coast_distance_m: typeof p.COAST_DIST === 'number' ? Math.round(p.COAST_DIST) : null,
          area_sqkm: typeof p.AREA_SQKM === 'number' ? Math.round(p.AREA_SQKM * 1000) / 1000 : null,
          test_site: p.STATUS === 'Test site',
        },
      },
    };
  }
}

/** A cell's value as text: rich text, hyperlinks and formula results flattened. */
function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') {
    const v = value as { text?: unknown; result?: unknown; richText?: Array<{ text: string }> };
    if (Array.isArray(v.richText)) return v.richText.map((r) => r.text).join('');
    if (v.result !== undefined) return cellText(v.result);
    if (v.text !== undefined) return cellText(v.text);
    if (value instanceof Date) return value.toISOString();
    return '';
  }
  return String(value as string | number | boolean);
}

/** GCPT workbook, sheet Units (header on row 1), read row by row with exceljs's streaming reader. */
async function* coalPlantRows(path: string, progress: { rows: number }): AsyncGenerator<ParsedRow> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookReader(path, { sharedStrings: 'cache', worksheets: 'emit', hyperlinks: 'ignore', styles: 'ignore', entries: 'emit' });
  for await (const sheet of workbook) {
    if ((sheet as unknown as { name: string }).name !== 'Units') {
      // exceljs deletes a sheet's temporary file as soon as the next sheet is asked for: a sheet left unread
      // keeps a stream that may open the deleted file and fail outside any caller (an uncaught ENOENT)
      for await (const row of sheet) void row;
      continue;
    }
    let header: string[] | null = null;
    for await (const row of sheet) {
      const values = (row.values as unknown[]).slice(1).map(cellText);
      if (!header) {
        header = values.map((v) => v.trim());
        continue;
      }
      progress.rows++;
      const fields: Record<string, string> = {};
      header.forEach((name, i) => (fields[name] = values[i] ?? ''));
      yield coalPlantRow({ line: row.number, fields });
    }
  }
}

function coalPlantRow({ line, fields: f }: Row): ParsedRow {
  const unitId = text(f['GEM unit/phase ID']) ?? `row ${line}`;
  const rowRef = `row ${line} (${unitId})`;
  const location = text(f['GEM location ID']);
  if (!location) return { failure: { rowRef, reason: 'missing_name', detail: 'no GEM location ID to key the unit on' } };
  const point = pointFrom(f.Latitude, f.Longitude, rowRef);
  if (isFailure(point)) return { failure: point };
  const capacity = numberOrNull(f['Capacity (MW)']);
  return {
    unit: {
      objectKey: location,
      unitId,
      rowRef,
      category: 'coastal_power_plant',
      subcategory: 'coal',
      name: text(f['Plant name']) ?? location,
      unitName: text(f['Unit name']),
      statusRaw: (f.Status ?? '').trim(),
      country: text(f['Country/Area']),
      region: text(f.Region),
      capacity,
      capacityUnit: capacity === null ? null : 'MW',
      geometry: { type: 'Point', coordinates: point.point },
      decimals: point.decimals,
      locationAccuracy: accuracy(f['Location accuracy']),
      startYear: yearOrNull(f['Start year']),
      url: text(f['Wiki URL']),
      extra: { coal_type: text(f['Coal type']), coal_source: text(f['Coal source']), combustion: text(f['Combustion technology']) },
    },
  };
}

const CSV_PARSERS: Partial<Record<ParserId, (row: Row) => ParsedRow>> = {
  gem_lng_gas: lngGasRow,
  gem_coal_terminals: coalTerminalRow,
  gem_oil_gas_extraction: extractionRow,
  gem_gogpt: plantRow('gas_oil'),
  gem_gnpt: plantRow('nuclear'),
};

/** Opens a source file with its parser: rows stream one at a time (shapefiles are read whole: under 2 MB). */
export async function openSource(source: InfraSource, path: string, size: number, gzip: boolean): Promise<OpenedSource> {
  const parse = CSV_PARSERS[source.parser];
  if (parse) {
    const { records, progress } = csvRecords(path, gzip);
    async function* rows() {
      for await (const record of records) yield parse!(record);
    }
    return { rows: rows(), progress, size };
  }
  if (source.parser === 'gem_gcpt') {
    const progress = { rows: 0 };
    return { rows: coalPlantRows(path, progress), progress: { read: () => Math.min(size, Math.round((progress.rows / 14004) * size)) }, size };
  }
  let done = 0;
  const layer = source.parser === 'emodnet_windfarms_polygons' ? 'polygons' : 'points';
  async function* rows() {
    yield* windFeatures(path, layer);
    done = size;
  }
  return { rows: rows(), progress: { read: () => done }, size };
}
