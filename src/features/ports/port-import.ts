import { AppError } from '../../platform/errors.js';
import { isRejected, portFileKind, unLocodeReader, worldPortIndexReader, type LocodePlace, type Rejected, type RowReader, type WpiPort } from './port-sources.js';
import { locodePortId, rebuildPortTable, type PortRecord } from './port-table.js';

/**
 * `bosun import ports`: a World Port Index or UN/LOCODE file read line by line and laid over the
 * table's sources; the table is rebuilt once and each row is counted by what it did to the ports
 * (docs/decisions/026). Pure: the caller reads the file and records the rows.
 */
export type PortImportKind = 'wpi' | 'unlocode';

export interface PortSourceRow {
  kind: PortImportKind;
  /** The World Port Index number or the LOCODE. */
  key: string;
  line: number;
  row: WpiPort | LocodePlace;
}

export interface TableSources {
  wpi: WpiPort[];
  places: LocodePlace[];
}

export interface PortChange {
  line: number;
  port_id: number;
  change: 'added' | 'updated' | 'retired';
  name: string;
  /** The sources now disagree by more than the conflict distance. */
  coordinate_conflict: boolean;
}

export interface PortImportReport {
  kind: PortImportKind;
  /** Data rows read (blank lines not counted). */
  rows: number;
  added: number;
  updated: number;
  unchanged: number;
  rejected: Rejected[];
  /** UN/LOCODE listings that are not ports, or ports without a position, and not joined to an index port: the table holds no such port. */
  skipped: { not_a_port: number; no_coordinates: number };
  changes: PortChange[];
}

export interface PortImportPlan {
  report: PortImportReport;
  /** Source rows differing from the table's: what to record. */
  rows: PortSourceRow[];
  sources: TableSources;
  ports: PortRecord[];
}

const round5 = (n: number | null) => (n === null ? null : Math.round(n * 1e5) / 1e5);

/** What the table reads of a row: positions to 5 decimals (as records keep them), names as given. */
function canonical(row: WpiPort | LocodePlace, kind: PortImportKind): string {
  if (kind === 'wpi') {
    const w = row as WpiPort;
    return JSON.stringify([w.wpiNumber, w.name, w.alternateNames, w.locode, w.countryName, round5(w.lat), round5(w.lon), w.harborSize, w.harborType]);
  }
  const p = row as LocodePlace;
  const alternate = p.nameAscii.toLowerCase() === p.name.toLowerCase() ? null : p.nameAscii;
  return JSON.stringify([p.locode, p.name, alternate, p.isPort, round5(p.lat), round5(p.lon)]);
}

/** Reads the header (which says the file's kind), then the data rows, choosing one row per key as the table's build does. */
export async function readPortRows(
  lines: AsyncIterable<string>,
  current: TableSources,
  onProgress?: (rows: number) => void,
): Promise<{ kind: PortImportKind; rows: number; accepted: PortSourceRow[]; rejected: Rejected[]; skipped: PortImportReport['skipped'] }> {
  const iterator = lines[Symbol.asyncIterator]();
  const first = await iterator.next();
  const header = first.done ? '' : first.value;
  const kind = portFileKind(header);
  if (kind === null)
    throw new AppError(
      'invalid_request',
      'not a World Port Index (UpdatedPub150.csv: "World Port Index Number", "Main Port Name", …) or UN/LOCODE (country,location,name,nameWoDiacritics,…,function,…) header',
    );
  const rejected: Rejected[] = [];
  const skipped = { not_a_port: 0, no_coordinates: 0 };
  const chosen = new Map<string, PortSourceRow>();
  const joined = new Set(current.wpi.map((w) => w.locode).filter((l) => l !== null));
  const read: RowReader<WpiPort | LocodePlace> = kind === 'wpi' ? worldPortIndexReader(header) : unLocodeReader();
  let lineNo = 1;
  let rows = 0;
  for await (const line of { [Symbol.asyncIterator]: () => iterator }) {
    lineNo++;
    const row = read(line, lineNo);
    if (row === null) continue;
    rows++;
    if (onProgress && rows % 10_000 === 0) onProgress(rows);
    if (isRejected(row)) {
      rejected.push(row);
      continue;
    }
    if (kind === 'wpi') {
      const key = String((row as WpiPort).wpiNumber);
      const earlier = chosen.get(key);
      if (earlier) rejected.push({ line: lineNo, reason: `World Port Index Number ${key} already on line ${earlier.line} (the first is used)` });
      else chosen.set(key, { kind, key, line: lineNo, row });
      continue;
    }
    const place = row as LocodePlace;
    const earlier = chosen.get(place.locode);
    if (joined.has(place.locode)) {
      // an index port's listing: the last one, as the table's join uses
      if (earlier) rejected.push({ line: earlier.line, reason: `LOCODE ${place.locode} listed again on line ${lineNo} (the last listing is used)` });
      chosen.set(place.locode, { kind, key: place.locode, line: lineNo, row });
    } else if (!place.isPort) skipped.not_a_port++;
    else if (place.lat === null) skipped.no_coordinates++;
    else if (earlier) rejected.push({ line: lineNo, reason: `LOCODE ${place.locode} already on line ${earlier.line} (the first listing is used)` });
    else chosen.set(place.locode, { kind, key: place.locode, line: lineNo, row });
  }
  onProgress?.(rows);
  rejected.sort((a, b) => a.line - b.line);
  return { kind, rows, accepted: [...chosen.values()], rejected, skipped };
}

const same = (a: PortRecord | undefined, b: PortRecord | undefined) => JSON.stringify(a) === JSON.stringify(b);

/** Lays the accepted rows over the sources, rebuilds the table once and counts each row by what it changed. */
export function planPortImport(read: Awaited<ReturnType<typeof readPortRows>>, current: TableSources & { ports: readonly PortRecord[] }): PortImportPlan {
  const wpi = new Map(current.wpi.map((w) => [String(w.wpiNumber), w]));
  const places = new Map(current.places.map((p) => [p.locode, p]));
  const changed: Array<PortSourceRow & { before: WpiPort | LocodePlace | undefined }> = [];
  const report: PortImportReport = { kind: read.kind, rows: read.rows, added: 0, updated: 0, unchanged: 0, rejected: read.rejected, skipped: read.skipped, changes: [] };
  for (const row of read.accepted) {
    const target = (row.kind === 'wpi' ? wpi : places) as Map<string, WpiPort | LocodePlace>;
    const before = target.get(row.key);
    if (before !== undefined && canonical(before, row.kind) === canonical(row.row, row.kind)) {
      report.unchanged++;
      continue;
    }
    target.set(row.key, row.row);
    changed.push({ ...row, before });
  }
  if (changed.length === 0) return { report, rows: [], sources: { wpi: current.wpi, places: current.places }, ports: [...current.ports] };

  const sources = { wpi: [...wpi.values()], places: [...places.values()] };
  const ports = rebuildPortTable(sources, current.ports);
  const oldById = new Map(current.ports.map((p) => [p.port_id, p]));
  const newById = new Map(ports.map((p) => [p.port_id, p]));
  const wpiByLocode = new Map<string, number[]>();
  for (const w of [...current.wpi, ...sources.wpi]) if (w.locode) wpiByLocode.set(w.locode, [...(wpiByLocode.get(w.locode) ?? []), w.wpiNumber]);
  const counted = new Set<number>();
  for (const row of changed) {
    const locodes = row.kind === 'wpi' ? [(row.row as WpiPort).locode, (row.before as WpiPort | undefined)?.locode ?? null] : [row.key];
    const ids = new Set<number>(row.kind === 'wpi' ? [Number(row.key)] : []);
    for (const locode of locodes) {
      if (locode === null) continue;
      ids.add(locodePortId(locode));
      if (row.kind === 'unlocode') for (const id of wpiByLocode.get(locode) ?? []) ids.add(id);
    }
    let outcome: 'added' | 'updated' | 'unchanged' = 'unchanged';
    for (const id of [...ids].sort((a, b) => a - b)) {
      const before = oldById.get(id);
      const after = newById.get(id);
      if (same(before, after) || counted.has(id)) continue;
      counted.add(id);
      const change = before === undefined ? 'added' : after === undefined ? 'retired' : 'updated';
      if (change === 'added') outcome = 'added';
      else if (outcome === 'unchanged') outcome = 'updated';
      const port = (after ?? before)!;
      report.changes.push({ line: row.line, port_id: id, change, name: port.name, coordinate_conflict: after?.flags.includes('coordinate_conflict') ?? false });
    }
    report[outcome]++;
  }
  report.changes.sort((a, b) => a.line - b.line || a.port_id - b.port_id);
  return { report, rows: changed.map(({ before: _before, ...row }) => row), sources, ports };
}
