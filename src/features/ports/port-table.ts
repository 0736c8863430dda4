import { distanceM } from '../../geo/distance.js';
import type { AnchoragePoint, LocodePlace, WpiPort } from './port-sources.js';

/**
 * The port table: World Port Index ports joined to UN/LOCODE, plus the UN/LOCODE ports the index
 * lacks, with Global Fishing Watch anchorage points assigned to their nearest port
 * (docs/decisions/018-port-table.md).
 */
export interface PortRecord {
  /** World Port Index number; for a UN/LOCODE-only port, LOCODE_PORT_ID_BASE + its LOCODE read in base 36. */
  port_id: number;
  name: string;
  alternate_names: string[];
  /** ISO 3166-1 alpha-2, or null where no source says. */
  country: string | null;
  locode: string | null;
  lat: number;
  lon: number;
  harbor_size: WpiPort['harborSize'];
  harbor_type: string | null;
  sources: Array<'wpi' | 'unlocode'>;
  /** `coordinate_conflict`: WPI and UN/LOCODE positions more than the conflict distance apart (WPI kept). */
  flags: string[];
  /** Where UN/LOCODE puts the port when it conflicts with the index, and how far apart they are. */
  conflict?: { unlocode_lat: number; unlocode_lon: number; distance_km: number };
  /** Anchorage points ([lat, lon], 5 decimals) nearest to this port within the assignment radius. */
  anchorages: Array<[number, number]>;
  /**
   * UN/LOCODEs of places that are not ports (a city listed with its airport function, as CNSHA) served by
   * this port: the largest port of the same country within LOCODE_ALIAS_RADIUS_KM (decision 084).
   */
  locode_aliases?: string[];
  /**
   * Operator corrections laid over this record (name, lat, lon; docs/feedback.md), with their
   * provenance: present only in the served (corrected) view of the table, never in the sources.
   */
  corrections?: PortCorrection[];
}

/** One applied correction of a port as records carry it (the field's served value and where it came from). */
export interface PortCorrection {
  field: string;
  value: string | number;
  ticket_id: string;
  provenance: string;
  applied_at: string;
}

export interface PortTableReport {
  wpi_ports: number;
  unlocode_only_ports: number;
  unlocode_ports_without_coordinates: number;
  coordinate_conflicts: Array<{ port_id: number; locode: string; name: string; distance_km: number }>;
  /** LOCODEs the index gives to more than one of its ports (each keeps it). */
  shared_locodes: string[];
  /** WPI countries resolved to ISO codes, and those left without one. */
  countries_unresolved: string[];
  anchorages_assigned: number;
  anchorages_unassigned: number;
}

export interface PortTableOptions {
  /** WPI and UN/LOCODE positions further apart than this are a conflict (flagged, not merged). */
  conflictKm: number;
  /** An anchorage point belongs to the nearest port within this distance… */
  anchorageRadiusKm: number;
  /** …or to the nearest port named like its label within this one. */
  labelRadiusKm: number;
}

export const DEFAULT_PORT_TABLE_OPTIONS: PortTableOptions = { conflictKm: 20, anchorageRadiusKm: 20, labelRadiusKm: 100 };

/** Port ids at and above this are derived from a UN/LOCODE; below it they are World Port Index numbers. */
export const LOCODE_PORT_ID_BASE = 100_000_000;

/** `NLRTM` → a stable integer id: 100,000,000 + the five characters as a base-36 number (fits an int32). */
export function locodePortId(locode: string): number {
  return LOCODE_PORT_ID_BASE + Number.parseInt(locode.toLowerCase(), 36);
}

const round5 = (n: number) => Math.round(n * 1e5) / 1e5;

/** A grid of 1° cells for "nearest within r km" look-ups (r well under a degree of latitude). */
class PortGrid {
  private readonly cells = new Map<string, PortRecord[]>();
  add(port: PortRecord): void {
    const key = `${Math.floor(port.lat)}:${Math.floor(port.lon)}`;
    const cell = this.cells.get(key);
    if (cell) cell.push(port);
    else this.cells.set(key, [port]);
  }
  nearest(lat: number, lon: number, radiusM: number): PortRecord | null {
    const la = Math.floor(lat);
    const lo = Math.floor(lon);
    let best: PortRecord | null = null;
    let bestM = radiusM;
    for (let dLat = -1; dLat <= 1; dLat++) {
      for (let dLon = -1; dLon <= 1; dLon++) {
        const wrapped = ((lo + dLon + 180 + 360) % 360) - 180;
        for (const port of this.cells.get(`${la + dLat}:${wrapped}`) ?? []) {
          const d = distanceM(lat, lon, port.lat, port.lon);
          if (d <= bestM) {
            best = port;
            bestM = d;
          }
        }
      }
    }
    return best;
  }
}

/** Name compared across sources: no diacritics, case or punctuation. */
export function nameKey(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

function nearestOf(candidates: PortRecord[], lat: number, lon: number, radiusM: number): PortRecord | null {
  let best: PortRecord | null = null;
  let bestM = radiusM;
  for (const port of candidates) {
    const d = distanceM(lat, lon, port.lat, port.lon);
    if (d <= bestM) {
      best = port;
      bestM = d;
    }
  }
  return best;
}

/** A name with U+FFFD (a character lost upstream, as "Vr\uFFFDng\uFFFD") gives way to the first alternate name without one (decision 084). */
function cleanReplacementCharacters(ports: PortRecord[]): void {
  for (const port of ports) {
    if (!port.name.includes('\uFFFD')) continue;
    const clean = port.alternate_names.find((n) => !n.includes('\uFFFD'));
    if (clean === undefined) continue;
    port.name = clean;
    port.alternate_names = port.alternate_names.filter((n) => n !== clean && !n.includes('\uFFFD'));
  }
}

/** A place that is not a port resolves to a port of its country at most this far away (km). */
export const LOCODE_ALIAS_RADIUS_KM = 30;
const ALIAS_SIZE_RANK: Record<string, number> = { large: 4, medium: 3, small: 2, very_small: 1 };

/**
 * UN/LOCODEs without a port of their own (not listed as ports, as CNSHA for Shanghai) become aliases of
 * the port that serves them: the largest port (harbour size) of the same country within
 * LOCODE_ALIAS_RADIUS_KM of the place, the nearest among equals (decision 084).
 */
function assignLocodeAliases(ports: PortRecord[], places: readonly LocodePlace[]): LocodePlace[] {
  const assigned: LocodePlace[] = [];
  const taken = new Set(ports.flatMap((p) => (p.locode ? [p.locode] : [])));
  const byCountry = new Map<string, PortRecord[]>();
  for (const port of ports) if (port.country) byCountry.set(port.country, [...(byCountry.get(port.country) ?? []), port]);
  const seen = new Set<string>();
  const degLat = LOCODE_ALIAS_RADIUS_KM / 111;
  for (const place of places) {
    if (taken.has(place.locode) || seen.has(place.locode) || place.lat === null || place.lon === null) continue;
    seen.add(place.locode);
    // 5 decimals (about a metre), as the table keeps them: a rebuild from alias_places decides the same
    const lat = round5(place.lat);
    const lon = round5(place.lon);
    let best: PortRecord | null = null;
    let bestRank = -1;
    let bestKm = Infinity;
    for (const port of byCountry.get(place.country) ?? []) {
      if (Math.abs(port.lat - lat) > degLat) continue;
      const km = distanceM(lat, lon, port.lat, port.lon) / 1000;
      if (km > LOCODE_ALIAS_RADIUS_KM) continue;
      const rank = ALIAS_SIZE_RANK[port.harbor_size ?? ''] ?? 0;
      if (rank > bestRank || (rank === bestRank && km < bestKm)) {
        best = port;
        bestRank = rank;
        bestKm = km;
      }
    }
    if (best !== null) {
      (best.locode_aliases ??= []).push(place.locode);
      assigned.push(place);
    }
  }
  return assigned;
}

function uniqueNames(main: string, candidates: string[]): string[] {
  const seen = new Set([main.toLowerCase()]);
  const out: string[] = [];
  for (const name of candidates) {
    const key = name.toLowerCase();
    if (name === '' || seen.has(key)) continue;
    seen.add(key);
    out.push(name);
  }
  return out;
}

/** WPI names countries in words; learn each name's ISO code from the LOCODEs of its own ports. */
function countryCodesByName(wpi: WpiPort[]): Map<string, string> {
  const votes = new Map<string, Map<string, number>>();
  for (const port of wpi) {
    if (!port.locode) continue;
    const byCode = votes.get(port.countryName) ?? new Map<string, number>();
    const code = port.locode.slice(0, 2);
    byCode.set(code, (byCode.get(code) ?? 0) + 1);
    votes.set(port.countryName, byCode);
  }
  const out = new Map<string, string>();
  for (const [name, byCode] of votes) out.set(name, [...byCode].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]![0]);
  return out;
}

/**
 * The source rows a table was built from, beyond what its records say: the index rows and the UN/LOCODE
 * listings joined to them. Shipped with the table so that an import can rebuild it without the source
 * files; a UN/LOCODE-only port's listing is read back from its record (placeOfRecord).
 */
export interface PortTableSources {
  wpi: WpiPort[];
  joined_places: LocodePlace[];
  /**
   * The UN/LOCODE listings that are no port but became aliases of one (assignLocodeAliases), in source
   * order, as [locode, lat, lon]: without them a rebuild (an import) would lose every alias.
   */
  alias_places?: Array<[string, number, number]>;
}

/** The UN/LOCODE listing a UN/LOCODE-only port was built from (its record holds all the table uses). */
export function placeOfRecord(port: PortRecord): LocodePlace {
  return { locode: port.locode!, country: port.country!, name: port.name, nameAscii: port.alternate_names[0] ?? port.name, isPort: true, lat: port.lat, lon: port.lon, geocoded: false };
}

/** A listing kept only as an alias (PortTableSources.alias_places): a place that is no port, with its coordinates. */
function aliasPlace([locode, lat, lon]: [string, number, number]): LocodePlace {
  return { locode, country: locode.slice(0, 2), name: locode, nameAscii: locode, isPort: false, lat, lon, geocoded: false };
}

/** The sources of a table: its shipped index rows and joined listings, its UN/LOCODE-only ports read back and the listings kept as aliases. */
export function sourcesOfTable(ports: readonly PortRecord[], sources: PortTableSources): { wpi: WpiPort[]; places: LocodePlace[] } {
  return {
    wpi: [...sources.wpi],
    places: [...sources.joined_places, ...ports.filter((p) => p.port_id >= LOCODE_PORT_ID_BASE).map(placeOfRecord), ...(sources.alias_places ?? []).map(aliasPlace)],
  };
}

/**
 * The table again from (possibly updated) sources, one listing per LOCODE; anchorage points are not
 * reassigned: each port keeps those it had under its id.
 */
export function rebuildPortTable(sources: { wpi: WpiPort[]; places: LocodePlace[] }, previous: readonly PortRecord[], options: PortTableOptions = DEFAULT_PORT_TABLE_OPTIONS): PortRecord[] {
  const anchorages = new Map(previous.map((p) => [p.port_id, p.anchorages]));
  const { ports } = buildPortTable({ wpi: sources.wpi, unlocode: sources.places, anchorages: [] }, options);
  for (const port of ports) port.anchorages = anchorages.get(port.port_id) ?? [];
  return ports;
}

export function buildPortTable(
  sources: { wpi: WpiPort[]; unlocode: LocodePlace[]; anchorages: AnchoragePoint[] },
  options: PortTableOptions = DEFAULT_PORT_TABLE_OPTIONS,
): { ports: PortRecord[]; report: PortTableReport; sources: PortTableSources } {
  const places = new Map<string, LocodePlace>();
  for (const place of sources.unlocode) places.set(place.locode, place);
  const countryOf = countryCodesByName(sources.wpi);
  const locodeUses = new Map<string, number>();
  for (const port of sources.wpi) if (port.locode) locodeUses.set(port.locode, (locodeUses.get(port.locode) ?? 0) + 1);

  const ports: PortRecord[] = [];
  const conflicts: PortTableReport['coordinate_conflicts'] = [];
  const unresolved = new Set<string>();
  const seenIds = new Set<number>();
  const usedWpi: WpiPort[] = [];
  for (const wpi of sources.wpi) {
    if (seenIds.has(wpi.wpiNumber)) continue;
    seenIds.add(wpi.wpiNumber);
    usedWpi.push(wpi);
    const place = wpi.locode ? places.get(wpi.locode) : undefined;
    const country = wpi.locode?.slice(0, 2) ?? countryOf.get(wpi.countryName) ?? null;
    if (country === null) unresolved.add(wpi.countryName);
    const record: PortRecord = {
      port_id: wpi.wpiNumber,
      name: wpi.name,
      alternate_names: uniqueNames(wpi.name, [...wpi.alternateNames, ...(place ? [place.name, place.nameAscii] : [])]),
      country,
      locode: wpi.locode,
      lat: round5(wpi.lat),
      lon: round5(wpi.lon),
      harbor_size: wpi.harborSize,
      harbor_type: wpi.harborType,
      sources: place ? ['wpi', 'unlocode'] : ['wpi'],
      flags: [],
      anchorages: [],
    };
    if (place && place.lat !== null && place.lon !== null) {
      const km = distanceM(wpi.lat, wpi.lon, place.lat, place.lon) / 1000;
      if (km > options.conflictKm) {
        record.flags.push('coordinate_conflict');
        record.conflict = { unlocode_lat: round5(place.lat), unlocode_lon: round5(place.lon), distance_km: Math.round(km * 10) / 10 };
        conflicts.push({ port_id: record.port_id, locode: place.locode, name: record.name, distance_km: record.conflict.distance_km });
      }
    }
    ports.push(record);
  }

  let withoutCoordinates = 0;
  let locodeOnly = 0;
  const added = new Set<string>();
  for (const place of sources.unlocode) {
    // a LOCODE listed twice upstream becomes one port (the first listing with coordinates)
    if (!place.isPort || locodeUses.has(place.locode) || added.has(place.locode)) continue;
    if (place.lat === null || place.lon === null) {
      withoutCoordinates++;
      continue;
    }
    locodeOnly++;
    added.add(place.locode);
    ports.push({
      port_id: locodePortId(place.locode),
      name: place.name,
      alternate_names: uniqueNames(place.name, [place.nameAscii]),
      country: place.country,
      locode: place.locode,
      lat: round5(place.lat),
      lon: round5(place.lon),
      harbor_size: null,
      harbor_type: null,
      sources: ['unlocode'],
      flags: [],
      anchorages: [],
    });
  }

  // An anchorage labelled with a port's name belongs to the nearest port of that name within the
  // label radius; an unlabelled one (or one whose label matches no port near it) to the nearest port.
  const grid = new PortGrid();
  const byName = new Map<string, PortRecord[]>();
  for (const port of ports) {
    grid.add(port);
    const key = nameKey(port.name);
    byName.set(key, [...(byName.get(key) ?? []), port]);
  }
  let assigned = 0;
  for (const point of sources.anchorages) {
    const port = nearestOf(byName.get(nameKey(point.label)) ?? [], point.lat, point.lon, options.labelRadiusKm * 1000) ?? grid.nearest(point.lat, point.lon, options.anchorageRadiusKm * 1000);
    if (!port) continue;
    port.anchorages.push([round5(point.lat), round5(point.lon)]);
    assigned++;
  }

  cleanReplacementCharacters(ports);
  // sorted first: among ports at the same distance the alias goes to the lower id, in a rebuild too
  ports.sort((a, b) => a.port_id - b.port_id);
  const aliasPlaces = assignLocodeAliases(ports, sources.unlocode);
  return {
    ports,
    sources: {
      wpi: usedWpi,
      joined_places: [...locodeUses.keys()]
        .map((code) => places.get(code))
        .filter((p) => p !== undefined)
        .sort((a, b) => a.locode.localeCompare(b.locode)),
      alias_places: aliasPlaces.map((p) => [p.locode, round5(p.lat!), round5(p.lon!)]),
    },
    report: {
      wpi_ports: seenIds.size,
      unlocode_only_ports: locodeOnly,
      unlocode_ports_without_coordinates: withoutCoordinates,
      coordinate_conflicts: conflicts.sort((a, b) => b.distance_km - a.distance_km),
      shared_locodes: [...locodeUses]
        .filter(([, n]) => n > 1)
        .map(([code]) => code)
        .sort(),
      countries_unresolved: [...unresolved].sort(),
      anchorages_assigned: assigned,
      anchorages_unassigned: sources.anchorages.length - assigned,
    },
  };
}

/** A name and its parts: "Shanghai (Yangshan)" → shanghaiyangshan, shanghai, yangshan; "Ningbo-Zhoushan" → …, ningbo, zhoushan. */
function nameVariants(name: string): Set<string> {
  const parts = [name, name.replace(/\(.*?\)/g, ''), ...[...name.matchAll(/\((.*?)\)/g)].map((m) => m[1]!)];
  for (const part of [...parts]) parts.push(...part.split(/[-/]/));
  return new Set(parts.map(nameKey).filter((k) => k !== ''));
}

/**
 * The table's port for a place known by LOCODE, name and position (the simulator's ports): the port
 * with that LOCODE within `radiusKm`, else the nearest one named so (a main or alternate name equal
 * to the name or one of its parts) within twice that, else the nearest World Port Index port within `radiusKm`.
 */
export function matchPort(ports: readonly PortRecord[], place: { locode?: string; name: string; lat: number; lon: number }, radiusKm = 50): PortRecord | null {
  const radiusM = radiusKm * 1000;
  const near = ports.filter((p) => Math.abs(p.lat - place.lat) < 2 && distanceM(place.lat, place.lon, p.lat, p.lon) <= 2 * radiusM);
  const closest = (candidates: PortRecord[], within: number) => nearestOf(candidates, place.lat, place.lon, within);
  const variants = nameVariants(place.name);
  const named = (p: PortRecord) => [p.name, ...p.alternate_names].some((n) => variants.has(nameKey(n)));
  return (
    (place.locode
      ? closest(
          near.filter((p) => p.locode === place.locode),
          radiusM,
        )
      : null) ??
    closest(near.filter(named), 2 * radiusM) ??
    closest(
      near.filter((p) => p.sources.includes('wpi')),
      radiusM,
    )
  );
}
