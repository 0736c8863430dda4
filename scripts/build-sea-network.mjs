// Builds resources/routing/marnet-50km.json.gz (and its EUPL-1.2 licence text) from the Eurostat marnet
// GeoJSON in ../shared/data/geo (or the directory given). Run after `npm run build`. Decision 032.
// The land check of decisions 052 and 136 runs on the way: every node and edge against Natural Earth 1:10m
// land outside the declared waterways (src/routing/waterways.ts); nodes on land move to the nearest water,
// edges with a run of land over 0.5 km (sampled every 100 m) follow a water path instead. Then every large
// and medium port of the port table whose straight joins all cross land gets a spur over water to the
// nearest network edge point it reaches (src/routing/port-spurs.ts). The report is printed (and written with --report FILE).
// Last, the candidate joins of every place of the port table are found with the network as written and shipped in it
// (decision 148), so that a route between ports never searches for its joins; --joins-only redoes only this step on
// the shipped file's lines (after a change of the port table or of how joins are found).
// Usage: npm run build:routing [-- <geo dir>] [--report FILE] [--joins-only]
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { landIndex } from '../dist/src/geo/land.js';
import { readPortTableFile } from '../dist/src/features/ports/port-table-file.js';
import { repairNetworkLines } from '../dist/src/routing/land-check.js';
import { addPortSpurs } from '../dist/src/routing/port-spurs.js';
import { decodeSeaNetwork, encodeSeaNetwork, engineFromLines, shippedJoinsOfPlaces, parseMarnetGeoJson, SHIPPED_SEA_NETWORK } from '../dist/src/routing/network-file.js';

const args = process.argv.slice(2);
const joinsOnly = args.includes('--joins-only');
if (joinsOnly) args.splice(args.indexOf('--joins-only'), 1);
const out = SHIPPED_SEA_NETWORK();

/** Writes the network file with the joins of every place of the port table, found by an engine on the lines as decoded from the file. */
function writeWithPortJoins(lines, source) {
  const started = performance.now();
  const { lines: decoded } = decodeSeaNetwork(encodeSeaNetwork(lines, 50, source));
  const placeJoins = shippedJoinsOfPlaces(engineFromLines(decoded), readPortTableFile().ports);
  const bytes = encodeSeaNetwork(lines, 50, source, placeJoins);
  const joins = placeJoins.flatMap(([, , j]) => j);
  const overWater = placeJoins.filter(([, , j]) => j.some((x) => x[6] != null)).length;
  const stated = joins.filter((j) => j.length > 2).length;
  console.log(
    `joins of the port table's places in ${((performance.now() - started) / 1000).toFixed(0)} s: ${placeJoins.length} places, ${joins.length} joins (${stated} with their numbers written, ${overWater} places joined over water)`,
  );
  mkdirSync(dirname(out), { recursive: true });
  const before = existsSync(out) ? readFileSync(out).length : null;
  writeFileSync(out, bytes);
  console.log(`${lines.length} lines; wrote ${out} (${(bytes.length / 1024).toFixed(0)} KiB${before === null ? '' : `, was ${(before / 1024).toFixed(0)} KiB`})`);
}

if (joinsOnly) {
  const shipped = readFileSync(out);
  const { lines, file } = decodeSeaNetwork(shipped);
  writeWithPortJoins(lines, file.source);
  process.exit(0);
}

const reportAt = args.indexOf('--report');
const reportFile = reportAt >= 0 ? args.splice(reportAt, 2)[1] : null;
const geoDir = resolve(args[0] ?? join(import.meta.dirname, '..', '..', 'shared', 'data', 'geo'));
const source = 'marnet_plus_50km.geojson';
const marnet = parseMarnetGeoJson(readFileSync(join(geoDir, source), 'utf8'));
const started = performance.now();
const land = landIndex();
const { lines: repaired, report } = repairNetworkLines(marnet, land);
const km = (x) => x.toFixed(1);
console.log(`land check (Natural Earth 1:10m, waterways excluded) in ${((performance.now() - started) / 1000).toFixed(0)} s:`);
console.log(`  ${report.nodesChecked} nodes: ${report.nodesMoved.length} on land moved to the nearest water, ${report.nodesUnmoved.length} left (no water within 25 km)`);
console.log(`  ${report.edgesChecked} edges: ${report.edgesRepaired.length} with a run of land over 0.5 km replaced by a water path, ${report.edgesUnresolved.length} left (no water path found)`);
const before = report.edgesRepaired.reduce((s, e) => s + e.lengthKm, 0);
const after = report.edgesRepaired.reduce((s, e) => s + e.newLengthKm, 0);
console.log(`  replaced edges: ${km(before)} km before, ${km(after)} km after (+${km(after - before)} km)`);
for (const n of report.nodesUnmoved) console.log(`  node left on land: ${n.at.join(',')} (${km(n.inlandKm)} km inland)`);
for (const e of report.edgesUnresolved)
  console.log(`  edge left: ${e.from.join(',')} → ${e.to.join(',')}${e.pass ? ` [${e.pass}]` : ''}, a run of ${km(e.landRunKm)} km of land at ${e.at?.map((x) => x.toFixed(3)).join(',')}`);
const spurStarted = performance.now();
const ports = readPortTableFile().ports.filter((p) => p.harbor_size === 'large' || p.harbor_size === 'medium');
const places = ports.map((p) => ({ name: `${p.locode ?? p.port_id} ${p.name}`, lat: p.lat, lon: p.lon }));
// a spur may become the nearest edge of another port behind a headland: passes until no port needs a new spur
let lines = repaired;
const spurs = [];
let unjoined = [];
for (let pass = 1; pass <= 3; pass++) {
  const added = addPortSpurs(lines, places, land);
  lines = added.lines;
  spurs.push(...added.report.spurs);
  unjoined = added.report.unjoined;
  if (added.report.spurs.length === 0) break;
}
const spurKm = spurs.reduce((s, x) => s + x.lengthKm, 0);
console.log(`port spurs (large and medium ports whose straight joins all cross > 0.5 km of land) in ${((performance.now() - spurStarted) / 1000).toFixed(0)} s:`);
console.log(`  ${places.length} ports: ${spurs.length} spurs added (${km(spurKm)} km), ${unjoined.length} left (no water path to the network)`);
for (const u of unjoined) console.log(`  port left: ${u.name} at ${u.at.join(',')}, its joins cross ${km(u.connectorLandKm)} km of land`);
if (reportFile) writeFileSync(reportFile, JSON.stringify({ ...report, spurs, unjoined }, null, 1));
writeWithPortJoins(lines, `eurostat/searoute @ 88a2e568, ${source}; land-checked (decisions 052, 136)`);
copyFileSync(join(geoDir, 'LICENSE.EUPL'), join(dirname(out), 'LICENSE.EUPL'));
console.log('copied LICENSE.EUPL');
