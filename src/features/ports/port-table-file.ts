import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { PortRecord, PortTableReport, PortTableSources } from './port-table.js';

/**
 * The port table as it ships with Bosun: `resources/ports/port-table.json.gz`, built from the public
 * sources by `npm run build:ports` (docs/decisions/018). A user's fresh clone has the complete table
 * without the source files.
 */
export interface PortTableFile {
  format: 'bosun-port-table/1';
  built_from: string[];
  attribution: string[];
  report: PortTableReport;
  ports: PortRecord[];
  /** What `bosun import ports` rebuilds the table from (docs/decisions/026). */
  sources: PortTableSources;
}

export const PORT_TABLE_ATTRIBUTION = [
  'World Port Index (Pub 150), National Geospatial-Intelligence Agency — public domain.',
  'UN/LOCODE, United Nations Economic Commission for Europe, as compiled by geoapify/un-locode (MIT; data ODC-PDDL).',
  'Anchorages: Global Fishing Watch anchorages_pipeline (Apache-2.0).',
];

/** Bosun's own directory: the nearest above this module holding package.json (from dist/ or from sources). */
function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

export const SHIPPED_PORT_TABLE = () => join(projectRoot(), 'resources', 'ports', 'port-table.json.gz');

export function encodePortTable(file: PortTableFile): Buffer {
  return gzipSync(JSON.stringify(file), { level: 9 });
}

export function readPortTableFile(path: string = SHIPPED_PORT_TABLE()): PortTableFile {
  const file = JSON.parse(gunzipSync(readFileSync(path)).toString('utf8')) as PortTableFile;
  if (file.format !== 'bosun-port-table/1' || !Array.isArray(file.ports) || !Array.isArray(file.sources?.wpi)) throw new Error(`${path} is not a Bosun port table`);
  return file;
}
