// Builds resources/ports/port-table.json.gz from the public sources in ../shared/data (or the
// directory given): World Port Index, UN/LOCODE, GFW anchorages. Run after `npm run build`.
// Usage: npm run build:ports [-- <data dir>]
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseAnchorages, parseUnLocode, parseWorldPortIndex } from '../dist/src/features/ports/port-sources.js';
import { buildPortTable } from '../dist/src/features/ports/port-table.js';
import { encodePortTable, PORT_TABLE_ATTRIBUTION, SHIPPED_PORT_TABLE } from '../dist/src/features/ports/port-table-file.js';

const dataDir = resolve(process.argv[2] ?? join(import.meta.dirname, '..', '..', 'shared', 'data'));
const files = { wpi: 'ports/UpdatedPub150.csv', unlocode: 'ports/unlocode-geoapify-combined.csv', anchorages: 'anchorages/anchorage_overrides.csv' };
const read = (relative) => readFileSync(join(dataDir, relative), 'utf8');
const wpi = parseWorldPortIndex(read(files.wpi));
const unlocode = parseUnLocode(read(files.unlocode));
const anchorages = parseAnchorages(read(files.anchorages));
const { ports, report, sources } = buildPortTable({ wpi: wpi.rows, unlocode: unlocode.rows, anchorages: anchorages.rows });
const out = SHIPPED_PORT_TABLE();
mkdirSync(dirname(out), { recursive: true });
const bytes = encodePortTable({ format: 'bosun-port-table/1', built_from: Object.values(files), attribution: PORT_TABLE_ATTRIBUTION, report, ports, sources });
writeFileSync(out, bytes);
console.log(
  `${ports.length} ports (${report.wpi_ports} World Port Index, ${report.unlocode_only_ports} UN/LOCODE only), ${report.coordinate_conflicts.length} coordinate conflicts flagged, ${report.anchorages_assigned} anchorage points assigned`,
);
console.log(`rejected rows: World Port Index ${wpi.rejected.length}, UN/LOCODE ${unlocode.rejected.length}, anchorages ${anchorages.rejected.length}`);
console.log(`wrote ${out} (${(bytes.length / 1024).toFixed(0)} KiB)`);
