import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { buildSeaGraph, type NetworkLine } from './graph.js';
import { landIndex } from '../geo/land.js';
import { createRoutingEngine, type RoutingEngine } from './engine.js';

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

export function encodeSeaNetwork(lines: readonly NetworkLine[], resolutionKm: number, source: string): Buffer {
  const file: SeaNetworkFile = {
    format: 'bosun-sea-network/1',
    source,
    resolution_km: resolutionKm,
    attribution: SEA_NETWORK_ATTRIBUTION,
    lines: lines.map((l) => [l.pass, ...l.coordinates.flat()]),
  };
  return gzipSync(JSON.stringify(file), { level: 9 });
}

export function decodeSeaNetwork(bytes: Buffer): { lines: NetworkLine[]; file: Omit<SeaNetworkFile, 'lines'> } {
  const file = JSON.parse(gunzipSync(bytes).toString('utf8')) as SeaNetworkFile;
  if (file.format !== 'bosun-sea-network/1' || !Array.isArray(file.lines)) throw new Error('not a Bosun sea network file');
  const lines = file.lines.map(([pass, ...flat]) => {
    const coordinates: [number, number][] = [];
    for (let i = 0; i + 1 < flat.length; i += 2) coordinates.push([flat[i] as number, flat[i + 1] as number]);
    return { pass: typeof pass === 'string' ? pass : null, coordinates };
  });
  return { lines, file: { format: file.format, source: file.source, resolution_km: file.resolution_km, attribution: file.attribution } };
}

export interface LoadedSeaNetwork {
  engine: RoutingEngine;
  resolutionKm: number;
  attribution: string[];
  /** Wall time to read, decode and index the network, and the bytes the engine's typed arrays hold. */
  loadMs: number;
  bytes: number;
}

/** Builds an engine from network lines (the shipped file or a marnet GeoJSON). */
export function engineFromLines(lines: readonly NetworkLine[]): RoutingEngine {
  return createRoutingEngine(buildSeaGraph(lines), { land: landIndex });
}

export function loadSeaNetworkFile(path: string = SHIPPED_SEA_NETWORK()): LoadedSeaNetwork {
  const started = performance.now();
  const { lines, file } = decodeSeaNetwork(readFileSync(path));
  const engine = engineFromLines(lines);
  return { engine, resolutionKm: file.resolution_km, attribution: file.attribution, loadMs: performance.now() - started, bytes: engine.bytes };
}

let shipped: LoadedSeaNetwork | null = null;

/** The shipped network, loaded on first use and kept for the process. */
export function shippedSeaNetwork(): LoadedSeaNetwork {
  shipped ??= loadSeaNetworkFile();
  return shipped;
}
