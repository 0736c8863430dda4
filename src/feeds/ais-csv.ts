import type { Clock } from '../platform/clock.js';
import type { AisSink, PositionReport } from '../fleet/types.js';
import { LineSplitter } from './line-splitter.js';

/** Why a CSV row was not imported. */
export const CSV_ROW_ERRORS = ['wrong_column_count', 'bad_mmsi', 'bad_time', 'bad_position', 'overlong_line'] as const;
export type CsvRowError = (typeof CSV_ROW_ERRORS)[number];

export interface AisCsvSummary {
  source: string;
  rows: number;
  /** Positions newly stored: rows handed to the store minus duplicates and store refusals. */
  positions: number;
  /** Positions the store already held (same vessel and time), dropped rather than stored again. */
  duplicates: number;
  /** Positions the store refused (see the fleet's rejected counts). */
  storeRejected: number;
  statics: number;
  vessels: number;
  rejected: Record<CsvRowError, number>;
  /** Columns of the header that were recognised, in file order. */
  columns: string[];
  firstObservedAt: number | null;
  lastObservedAt: number | null;
}

export interface AisCsvOptions {
  sink: AisSink;
  clock: Clock;
  /** `csv:<basename>` of the file. */
  source: string;
  /** Stop after this many data rows. */
  limit?: number;
  flushEveryRows?: number;
  /** Called after every flush with the rows read so far and the bytes consumed. */
  onProgress?: (rowsRead: number, bytesRead: number) => void;
}

export class AisCsvError extends Error {}

const REQUIRED = ['MMSI', 'BaseDateTime', 'LAT', 'LON'] as const;
const KNOWN = [...REQUIRED, 'SOG', 'COG', 'Heading', 'VesselName', 'IMO', 'CallSign', 'VesselType', 'Status', 'Length', 'Width', 'Draft', 'Cargo', 'TransceiverClass'] as const;
type Column = (typeof KNOWN)[number];

/** `csv:` plus the file name without directories and `.csv`/`.gz` extensions. */
export function csvSourceName(path: string): string {
  const base = path
    .slice(path.lastIndexOf('/') + 1)
    .replace(/\.gz$/i, '')
    .replace(/\.csv$/i, '');
  return `csv:${base}`;
}

/** Splits one CSV record; quotes are honoured only when present (MarineCadastre files rarely quote). */
export function splitCsvLine(line: string): string[] {
  if (line.indexOf('"') < 0) return line.split(',');
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      fields.push(field);
      field = '';
    } else field += ch;
  }
  fields.push(field);
  return fields;
}

const number = (text: string | undefined): number | null => {
  if (text === undefined) return null;
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : null;
};

const inRange = (value: number | null, min: number, max: number): number | null => (value !== null && value >= min && value <= max ? value : null);

const text = (value: string | undefined): string | null => {
  if (value === undefined) return null;
  const cleaned = value.replace(/@+$/, '').trim();
  return cleaned === '' ? null : cleaned;
};

/** `IMO9245756` or `9245756` → 9245756; anything else → null. */
export function parseImo(value: string | undefined): number | null {
  const match = /^(?:IMO)?\s*(\d{7})$/i.exec((value ?? '').trim());
  return match ? Number(match[1]) : null;
}

/** Midnight (UTC epoch ms) of each `YYYY-MM-DD` met, null when not a date: a file spans a few days. */
const dayStarts = new Map<string, number | null>();
const MAX_DAYS_CACHED = 1000;

/** Two ASCII digits at `at`, or -1. */
function twoDigits(text: string, at: number): number {
  const a = text.charCodeAt(at) - 48;
  const b = text.charCodeAt(at + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}

/**
 * `2020-01-01T00:00:00` (UTC, as MarineCadastre writes it), with `T` or a space, optional `Z`. Rows
 * of exactly that shape (every row of a MarineCadastre file) take a path without a regular expression
 * or a Date per row: the day's start is parsed once per day, the time of day read digit by digit.
 */
export function parseBaseDateTime(value: string | undefined): number | null {
  if (value !== undefined && value.length === 19) {
    const separator = value.charCodeAt(10);
    const h = twoDigits(value, 11);
    const mi = twoDigits(value, 14);
    const s = twoDigits(value, 17);
    if ((separator === 84 || separator === 32) && value.charCodeAt(13) === 58 && value.charCodeAt(16) === 58 && h >= 0 && h <= 23 && mi >= 0 && mi <= 59 && s >= 0 && s <= 59) {
      const day = value.slice(0, 10);
      let start = dayStarts.get(day);
      if (start === undefined) {
        if (dayStarts.size >= MAX_DAYS_CACHED) dayStarts.clear();
        start = parseBaseDateTimeSlowly(day + 'T00:00:00');
        dayStarts.set(day, start);
      }
      return start === null ? null : start + h * 3_600_000 + mi * 60_000 + s * 1000;
    }
  }
  return parseBaseDateTimeSlowly(value);
}

function parseBaseDateTimeSlowly(value: string | undefined): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(\.\d+)?Z?$/.exec((value ?? '').trim());
  if (!match) return null;
  const [, y, mo, d, h, mi, s, frac] = match;
  const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), frac ? Math.round(Number(frac) * 1000) : 0);
  const check = new Date(ms);
  if (check.getUTCMonth() !== Number(mo) - 1 || check.getUTCDate() !== Number(d) || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return null;
  return ms;
}

interface RowReader {
  index: Partial<Record<Column, number>>;
  /** Field position per column; a missing column points past the row and reads as undefined. */
  at: Record<Column, number>;
  identityColumns: number[];
  width: number;
}

const IDENTITY: readonly Column[] = ['IMO', 'VesselName', 'CallSign', 'VesselType', 'Length', 'Width', 'Draft'];

function readHeader(line: string): RowReader {
  const names = splitCsvLine(line.replace(/^\uFEFF/, '')).map((n) => n.trim().toLowerCase());
  const index: Partial<Record<Column, number>> = {};
  for (const column of KNOWN) {
    const at = names.indexOf(column.toLowerCase());
    if (at >= 0) index[column] = at;
  }
  const missing = REQUIRED.filter((c) => index[c] === undefined);
  if (missing.length > 0) throw new AisCsvError(`not a MarineCadastre AIS CSV: the header lacks ${missing.join(', ')} (got: ${line.slice(0, 200)})`);
  const at = {} as Record<Column, number>;
  for (const column of KNOWN) at[column] = index[column] ?? names.length;
  const identityColumns = IDENTITY.filter((c) => index[c] !== undefined).map((c) => index[c]!);
  return { index, at, identityColumns, width: names.length };
}

/**
 * Imports MarineCadastre/NOAA AIS CSV from a byte stream: one PositionReport per row and one
 * StaticReport per vessel whenever its identity columns change. Bad rows are counted, never fatal.
 */
export async function importAisCsv(input: AsyncIterable<Buffer | string>, options: AisCsvOptions): Promise<AisCsvSummary> {
  const { sink, clock, source } = options;
  const flushEvery = options.flushEveryRows ?? 5000;
  const limit = options.limit ?? Infinity;
  const splitter = new LineSplitter(64 * 1024);
  const lastIdentity = new Map<number, string>();
  const summary: AisCsvSummary = {
    source,
    rows: 0,
    positions: 0,
    duplicates: 0,
    storeRejected: 0,
    statics: 0,
    vessels: 0,
    rejected: Object.fromEntries(CSV_ROW_ERRORS.map((r) => [r, 0])) as Record<CsvRowError, number>,
    columns: [],
    firstObservedAt: null,
    lastObservedAt: null,
  };
  const droppedBefore = sink.droppedPositions?.() ?? { duplicate: 0, rejected: 0 };
  let reader: RowReader | null = null;
  let bytes = 0;
  let sinceFlush = 0;

  const row = (raw: string): void => {
    // Lines are split as latin1; names may be UTF-8.
    const line = /[\x80-\xff]/.test(raw) ? Buffer.from(raw, 'latin1').toString('utf8') : raw;
    if (reader === null) {
      reader = readHeader(line);
      summary.columns = KNOWN.filter((c) => reader!.index[c] !== undefined).sort((a, b) => reader!.index[a]! - reader!.index[b]!);
      return;
    }
    summary.rows++;
    const fields = splitCsvLine(line);
    if (fields.length !== reader.width) return void summary.rejected.wrong_column_count++;
    const at = reader.at;
    const mmsi = number(fields[at.MMSI]);
    if (mmsi === null || !Number.isInteger(mmsi) || mmsi < 1 || mmsi > 999_999_999) return void summary.rejected.bad_mmsi++;
    const observedAt = parseBaseDateTime(fields[at.BaseDateTime]);
    if (observedAt === null) return void summary.rejected.bad_time++;
    const lat = inRange(number(fields[at.LAT]), -90, 90);
    const lon = inRange(number(fields[at.LON]), -180, 180);
    if (lat === null || lon === null) return void summary.rejected.bad_position++;

    const receivedAt = clock.now();
    // Identity is compared on the raw column text; it is parsed only when it changes.
    let key = '';
    for (const i of reader.identityColumns) key += fields[i]! + '|';
    const previous = lastIdentity.get(mmsi);
    if (previous !== key) {
      if (previous === undefined) summary.vessels++;
      lastIdentity.set(mmsi, key);
      const shipType = number(fields[at.VesselType]);
      sink.acceptStatic({
        observedAt,
        receivedAt,
        source,
        simulated: false,
        mmsi,
        imo: parseImo(fields[at.IMO]),
        name: text(fields[at.VesselName]),
        callsign: text(fields[at.CallSign]),
        shipType: shipType !== null && Number.isInteger(shipType) && shipType >= 1 && shipType <= 99 ? shipType : null,
        lengthM: inRange(number(fields[at.Length]), 0.1, 1000),
        beamM: inRange(number(fields[at.Width]), 0.1, 200),
        draughtM: inRange(number(fields[at.Draft]), 0.1, 30),
        destination: null,
        eta: null,
      });
      summary.statics++;
    }
    const heading = number(fields[at.Heading]);
    const status = number(fields[at.Status]);
    const position: PositionReport = {
      observedAt,
      receivedAt,
      source,
      simulated: false,
      mmsi,
      lat,
      lon,
      sog: inRange(number(fields[at.SOG]), 0, 102.2),
      cog: inRange(number(fields[at.COG]), 0, 359.9),
      heading: heading !== null && Number.isInteger(heading) ? inRange(heading, 0, 359) : null,
      navStatus: status !== null && Number.isInteger(status) ? inRange(status, 0, 15) : null,
      msgType: null,
    };
    sink.acceptPosition(position);
    summary.positions++;
    sinceFlush++;
    if (summary.firstObservedAt === null || observedAt < summary.firstObservedAt) summary.firstObservedAt = observedAt;
    if (summary.lastObservedAt === null || observedAt > summary.lastObservedAt) summary.lastObservedAt = observedAt;
  };

  let rowsSeen = 0;
  outer: for await (const chunk of input) {
    bytes += chunk.length;
    for (const line of splitter.push(chunk)) {
      if (reader !== null && rowsSeen >= limit) break outer;
      if (reader !== null) rowsSeen++;
      row(line);
    }
    if (sinceFlush >= flushEvery) {
      sinceFlush = 0;
      await sink.flush();
      options.onProgress?.(summary.rows, bytes);
    }
  }
  if (rowsSeen < limit) for (const line of splitter.end()) row(line);
  if (reader === null) throw new AisCsvError('empty file: no header row');
  summary.rejected.overlong_line = splitter.overlong;
  await sink.flush();
  options.onProgress?.(summary.rows, bytes);
  // Rows handed over are not rows stored: the store drops positions it already holds.
  const droppedAfter = sink.droppedPositions?.() ?? droppedBefore;
  summary.duplicates = droppedAfter.duplicate - droppedBefore.duplicate;
  summary.storeRejected = droppedAfter.rejected - droppedBefore.rejected;
  summary.positions -= summary.duplicates + summary.storeRejected;
  return summary;
}
