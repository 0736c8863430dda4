import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { isDeepStrictEqual } from 'node:util';
import { buildSeaGraph, type NetworkLine, type SeaGraph } from './graph.js';
import { landIndex } from '../geo/land.js';
import { createRoutingEngine, RoutingError, type LatLon, type RoutingEngine } from './engine.js';
import { placeKey, type KnownJoins } from './joins.js';
import { snapToEdge, type Snap } from './snap.js';

/**
 * The sea network as it ships with Bosun: `resources/routing/marnet-50km.json.gz`, the Eurostat marnet
 * lines (coordinates and `pass`) written by `npm run build:routing` from the GeoJSON in ../shared/data/geo
 * (decision 032). EUPL-1.2: the licence text ships beside it.
 */
export interface SeaNetworkFile {
  format: 'bosun-sea-network/1';
  source: string;
  resolution_km: number;
  attribution: string[];
  /** [pass or null, lon0, lat0, lon1, lat1, …] per marnet LineString. */
  lines: (string | number | null)[][];
  /** The candidate joins of the port table's places, found at build with this network (decision 148). */
  place_joins?: ShippedPlaceJoins[];
}

/**
 * A join as shipped: [edge, overLandKm or null] when it is the edge's nearest point to the place as the snapping grid
 * finds it (`snapToEdge` gives every number back); otherwise (a join over water, snapped from the end of its path)
 * [edge, overLandKm or null, t, snappedLat, snappedLon, connectorNm, the water path's corners lon0, lat0, lon1, lat1, … or null].
 */
type ShippedJoin = [number, number | null] | [number, number | null, number, number, number, number, number[] | null];
/** A place's candidate joins as shipped: [lat, lon, joins]. */
export type ShippedPlaceJoins = [number, number, ShippedJoin[]];

function shippedJoin(graph: SeaGraph, j: Snap): ShippedJoin {
  const overLandKm = j.overLandKm ?? null;
  const { overLandKm: _, ...asSnapped } = j;
  if (isDeepStrictEqual(asSnapped, snapToEdge(graph, j.lat, j.lon, j.edge))) return [j.edge, overLandKm];
  return [j.edge, overLandKm, j.t, j.snappedLat, j.snappedLon, j.connectorNm, j.waterPath?.flat() ?? null];
}

function joinFromShipped(graph: SeaGraph, point: LatLon, shipped: ShippedJoin): Snap {
  const [edge, overLandKm] = shipped;
  let join: Snap;
  if (shipped.length === 2) join = snapToEdge(graph, point.lat, point.lon, edge);
  else {
    const [, , t, snappedLat, snappedLon, connectorNm, corners] = shipped;
    join = { lat: point.lat, lon: point.lon, edge, t, snappedLat, snappedLon, connectorNm };
    if (corners !== null) {
      const waterPath: [number, number][] = [];
      for (let i = 0; i + 1 < corners.length; i += 2) waterPath.push([corners[i]!, corners[i + 1]!]);
      join.waterPath = waterPath;
    }
  }
  if (overLandKm !== null) join.overLandKm = overLandKm;
  return join;
}

/**
 * The candidate joins of each distinct place under no closure, as the engine finds them, in the file's form
 * (decision 148); places the engine refuses (off the network) are left out, and are refused at run time as before.
 */
export function shippedJoinsOfPlaces(engine: RoutingEngine, places: readonly LatLon[]): ShippedPlaceJoins[] {
  const seen = new Set<string>();
  const rows: ShippedPlaceJoins[] = [];
  for (const { lat, lon } of places) {
    const key = placeKey({ lat, lon });
    if (seen.has(key)) continue;
    seen.add(key);
    try {
      rows.push([lat, lon, engine.joins({ lat, lon }, 0).map((j) => shippedJoin(engine.graph, j))]);
    } catch (error) {
      if (!(error instanceof RoutingError)) throw error;
    }
  }
  return rows;
}

/** The lookup of shipped joins by place, on the graph built from the file's lines; each answer is new objects, as a search's would be. */
export function knownJoinsFrom(rows: readonly ShippedPlaceJoins[], graph: SeaGraph): KnownJoins {
  const byPlace = new Map<string, ShippedJoin[]>();
  for (const [lat, lon, joins] of rows) byPlace.set(placeKey({ lat, lon }), joins);
  return (point) => byPlace.get(placeKey(point))?.map((j) => joinFromShipped(graph, point, j));
}

export const SEA_NETWORK_ATTRIBUTION = [
  'Maritime network: Eurostat marnet (github.com/eurostat/searoute, marnet_plus 50 km), © European Union, EUPL-1.2; passages bosporus, hormuz, good_hope and cape_horn marked by Bosun.',
];

function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

export const SHIPPED_SEA_NETWORK = () => join(projectRoot(), 'resources', 'routing', 'marnet-50km.json.gz');

interface GeoJsonLines {
  features: { properties: { pass?: string | null } | null; geometry: { type: string; coordinates: [number, number][] } | null }[];
}

/** The LineStrings of a marnet GeoJSON file (its `pass` property kept). */
export function parseMarnetGeoJson(text: string): NetworkLine[] {
  const json = JSON.parse(text) as GeoJsonLines;
  const lines: NetworkLine[] = [];
  for (const f of json.features) {
    if (f.geometry?.type !== 'LineString') continue;
    lines.push({ pass: f.properties?.pass ?? null, coordinates: f.geometry.coordinates.map(([lon, lat]) => [lon, lat] as const) });
  }
  return lines;
}

export function encodeSeaNetwork(lines: readonly NetworkLine[], resolutionKm: number, source: string, placeJoins: ShippedPlaceJoins[] = []): Buffer {
  const file: SeaNetworkFile = {
    format: 'bosun-sea-network/1',
    source,
    resolution_km: resolutionKm,
    attribution: SEA_NETWORK_ATTRIBUTION,
    lines: lines.map((l) => [l.pass, ...l.coordinates.flat()]),
  };
  if (placeJoins.length > 0) file.place_joins = placeJoins;
  return gzipSync(JSON.stringify(file), { level: 9 });
}

export function decodeSeaNetwork(bytes: Buffer): { lines: NetworkLine[]; placeJoins: ShippedPlaceJoins[] | undefined; file: Omit<SeaNetworkFile, 'lines' | 'place_joins'> } {
  const file = JSON.parse(gunzipSync(bytes).toString('utf8')) as SeaNetworkFile;
  if (file.format !== 'bosun-sea-network/1' || !Array.isArray(file.lines)) throw new Error('not a Bosun sea network file');
  const lines = file.lines.map(([pass, ...flat]) => {
    const coordinates: [number, number][] = [];
    for (let i = 0; i + 1 < flat.length; i += 2) coordinates.push([flat[i] as number, flat[i + 1] as number]);
    return { pass: typeof pass === 'string' ? pass : null, coordinates };
  });
  return { lines, placeJoins: file.place_joins, file: { format: file.format, source: file.source, resolution_km: file.resolution_km, attribution: file.attribution } };
}

export interface LoadedSeaNetwork {
  engine: RoutingEngine;
  resolutionKm: number;
  attribution: string[];
  /** Wall time to read, decode and index the network, and the bytes the engine's typed arrays hold. */
  loadMs: number;
  bytes: number;
}

/** Builds an engine from network lines (the shipped file or a marnet GeoJSON), with the joins shipped beside them if any. */
export function engineFromLines(lines: readonly NetworkLine[], placeJoins?: readonly ShippedPlaceJoins[]): RoutingEngine {
  const graph = buildSeaGraph(lines);
  return createRoutingEngine(graph, { land: landIndex, knownJoins: placeJoins === undefined ? undefined : knownJoinsFrom(placeJoins, graph) });
}

export function loadSeaNetworkFile(path: string = SHIPPED_SEA_NETWORK()): LoadedSeaNetwork {
  const started = performance.now();
  const { lines, placeJoins, file } = decodeSeaNetwork(readFileSync(path));
  const engine = engineFromLines(lines, placeJoins);
  return { engine, resolutionKm: file.resolution_km, attribution: file.attribution, loadMs: performance.now() - started, bytes: engine.bytes };
}

let shipped: LoadedSeaNetwork | null = null;

/** The shipped network, loaded on first use and kept for the process. */
export function shippedSeaNetwork(): LoadedSeaNetwork {
  shipped ??= loadSeaNetworkFile();
  return shipped;
}
