import { splitCsvLine } from '../../feeds/ais-csv.js';

/**
 * Readers of the public port sources (docs/decisions/018-port-table.md): NGA World Port Index
 * (Pub 150), UN/LOCODE as combined by geoapify/un-locode, and Global Fishing Watch anchorage points.
 * Each reader takes the file's text and returns typed rows plus the rows it rejected, with why.
 */

export interface Rejected {
  line: number;
  reason: string;
}

export interface WpiPort {
  wpiNumber: number;
  name: string;
  alternateNames: string[];
  /** `NLRTM`, or null where the index gives none. */
  locode: string | null;
  countryName: string;
  lat: number;
  lon: number;
  harborSize: 'large' | 'medium' | 'small' | 'very_small' | null;
  harborType: string | null;
}

export interface LocodePlace {
  locode: string;
  country: string;
  name: string;
  nameAscii: string;
  /** The function classifier has a 1 in first place: a port. */
  isPort: boolean;
  lat: number | null;
  lon: number | null;
  /** Coordinates filled in by geoapify's geocoder, not by UNECE. */
  geocoded: boolean;
}

export interface AnchoragePoint {
  lat: number;
  lon: number;
  label: string;
  iso3: string;
}

export interface Parsed<T> {
  rows: T[];
  rejected: Rejected[];
}

const LOCODE = /^[A-Z]{2}[A-Z2-9]{3}$/;
/** UN/LOCODE function classifier: eight places, a digit or `-` each (`1-3-----`). */
const FUNCTION = /^[0-9B-]{8}$/;

function lines(text: string): string[] {
  return text.replace(/^\uFEFF/, '').split(/\r?\n/);
}

function coordinate(text: string | undefined, limit: number): number | null {
  const trimmed = text?.trim() ?? '';
  if (trimmed === '') return null;
  const value = Number(trimmed);
  return Number.isFinite(value) && Math.abs(value) <= limit ? value : null;
}

const HARBOR_SIZES: Record<string, WpiPort['harborSize']> = { Large: 'large', Medium: 'medium', Small: 'small', 'Very Small': 'very_small' };

/** Which source a file is, from its header line: the World Port Index or geoapify's UN/LOCODE, else null. */
export function portFileKind(headerLine: string): 'wpi' | 'unlocode' | null {
  const header = splitCsvLine(headerLine.replace(/^\uFEFF/, '')).map((h) => h.trim());
  if (header.includes('World Port Index Number') && header.includes('Main Port Name')) return 'wpi';
  if (['country', 'location', 'name', 'nameWoDiacritics'].every((h, i) => header[i] === h) && header.includes('function')) return 'unlocode';
  return null;
}

export type RowReader<T> = (line: string, lineNo: number) => T | Rejected | null;

/** UpdatedPub150.csv: one row per port; `UN/LOCODE` written `NL RTM`; decimal Latitude/Longitude. Null for a blank line. */
export function worldPortIndexReader(headerLine: string): RowReader<WpiPort> {
  const header = splitCsvLine(headerLine.replace(/^\uFEFF/, ''));
  const column = (name: string) => {
    const index = header.indexOf(name);
    if (index < 0) throw new Error(`World Port Index file has no "${name}" column`);
    return index;
  };
  const at = {
    number: column('World Port Index Number'),
    name: column('Main Port Name'),
    alternate: column('Alternate Port Name'),
    locode: column('UN/LOCODE'),
    country: column('Country Code'),
    lat: column('Latitude'),
    lon: column('Longitude'),
    size: column('Harbor Size'),
    type: column('Harbor Type'),
  };
  return (line, lineNo) => {
    if (line.trim() === '') return null;
    const f = splitCsvLine(line);
    const wpiNumber = Number(f[at.number]?.trim());
    const name = f[at.name]?.trim() ?? '';
    const lat = coordinate(f[at.lat], 90);
    const lon = coordinate(f[at.lon], 180);
    if (!Number.isInteger(wpiNumber) || wpiNumber <= 0) return { line: lineNo, reason: 'World Port Index Number is not a positive integer' };
    if (name === '') return { line: lineNo, reason: 'no port name' };
    if (lat === null || lon === null) return { line: lineNo, reason: 'latitude/longitude missing or out of range' };
    const locode = (f[at.locode] ?? '').replace(/\s+/g, '').toUpperCase();
    return {
      wpiNumber,
      name,
      alternateNames: (f[at.alternate] ?? '')
        .split(';')
        .map((n) => n.trim())
        .filter((n) => n !== ''),
      locode: LOCODE.test(locode) ? locode : null,
      countryName: f[at.country]?.trim() ?? '',
      lat,
      lon,
      harborSize: HARBOR_SIZES[f[at.size]?.trim() ?? ''] ?? null,
      harborType: f[at.type]?.trim() || null,
    };
  };
}

export const isRejected = (row: object): row is Rejected => 'reason' in row;

function parseAll<T extends object>(text: string, reader: (header: string) => RowReader<T>): Parsed<T> {
  const all = lines(text);
  const read = reader(all[0] ?? '');
  const rows: T[] = [];
  const rejected: Rejected[] = [];
  for (let i = 1; i < all.length; i++) {
    const row = read(all[i]!, i + 1);
    if (row === null) continue;
    if (isRejected(row)) rejected.push(row);
    else rows.push(row);
  }
  return { rows, rejected };
}

export function parseWorldPortIndex(text: string): Parsed<WpiPort> {
  return parseAll(text, worldPortIndexReader);
}

/**
 * unlocode-geoapify-combined.csv: country,location,name,nameWoDiacritics,subdivision,status,function,iata,lat,lon,geocoded.
 * About a thousand names containing commas are badly quoted upstream (they split into extra fields):
 * the seven trailing fields are read from the end and the fields between are the two names.
 */
export function unLocodeReader(): RowReader<LocodePlace> {
  return (line, lineNo) => {
    if (line.trim() === '') return null;
    const f = splitCsvLine(line);
    // Well-formed: …,name,nameWoDiacritics,subdivision,status,function,iata,lat,lon,geocoded. The badly
    // quoted rows lost status and iata: …,name (2 fields),nameWoDiacritics (2 fields),subdivision,function,lat,lon,geocoded.
    const functionAt = FUNCTION.test(f[f.length - 5] ?? '') ? f.length - 5 : FUNCTION.test(f[f.length - 4] ?? '') ? f.length - 4 : -1;
    if (f.length < 9 || functionAt < 0) return { line: lineNo, reason: 'no function classifier where one is expected' };
    const names = f.slice(2, functionAt - (functionAt === f.length - 5 ? 2 : 1)).map((n) => n.replace(/"/g, '').trim());
    const half = Math.ceil(names.length / 2);
    const written = names.slice(0, half).join(', ');
    const nameAscii = names.length > 1 ? names.slice(half).join(', ') : written;
    // a name with U+FFFD (a character lost upstream, "Vr\uFFFDng\uFFFD") gives way to its clean ASCII form, read
    // the same by the table's build and by an import (decision 084)
    const name = written.includes('\uFFFD') && nameAscii !== '' && !nameAscii.includes('\uFFFD') ? nameAscii : written;
    const tail = { function: f[functionAt]!, lat: f[f.length - 3], lon: f[f.length - 2], geocoded: f[f.length - 1] };
    const locode = `${f[0]!.trim()}${f[1]!.trim()}`.toUpperCase();
    if (!LOCODE.test(locode)) return { line: lineNo, reason: `"${locode}" is not a UN/LOCODE` };
    if (name === '') return { line: lineNo, reason: 'no name' };
    let lat = coordinate(tail.lat, 90);
    let lon = coordinate(tail.lon, 180);
    if (lat === null || lon === null || (lat === 0 && lon === 0)) lat = lon = null;
    return { locode, country: locode.slice(0, 2), name, nameAscii: nameAscii || name, isPort: tail.function.startsWith('1'), lat, lon, geocoded: tail.geocoded?.trim() === 'true' };
  };
}

export function parseUnLocode(text: string): Parsed<LocodePlace> {
  return parseAll(text, unLocodeReader);
}

/** anchorage_overrides.csv: s2id,latitude,longitude,label,sublabel,iso3. */
export function parseAnchorages(text: string): Parsed<AnchoragePoint> {
  const all = lines(text);
  const rows: AnchoragePoint[] = [];
  const rejected: Rejected[] = [];
  for (let i = 1; i < all.length; i++) {
    const line = all[i]!;
    if (line.trim() === '') continue;
    const f = splitCsvLine(line);
    const lat = coordinate(f[1], 90);
    const lon = coordinate(f[2], 180);
    if (lat === null || lon === null) rejected.push({ line: i + 1, reason: 'latitude/longitude missing or out of range' });
    else rows.push({ lat, lon, label: f[3]?.trim() ?? '', iso3: f[5]?.trim() ?? '' });
  }
  return { rows, rejected };
}
