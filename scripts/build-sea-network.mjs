// Builds resources/routing/marnet-50km.json.gz (and its EUPL-1.2 licence text) from the Eurostat marnet
// GeoJSON in ../shared/data/geo (or the directory given). Run after `npm run build`. Decision 032.
// Usage: npm run build:routing [-- <geo dir>]
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { encodeSeaNetwork, parseMarnetGeoJson, SHIPPED_SEA_NETWORK } from '../dist/src/routing/network-file.js';

const geoDir = resolve(process.argv[2] ?? join(import.meta.dirname, '..', '..', 'shared', 'data', 'geo'));
const source = 'marnet_plus_50km.geojson';
const lines = parseMarnetGeoJson(readFileSync(join(geoDir, source), 'utf8'));
const out = SHIPPED_SEA_NETWORK();
mkdirSync(dirname(out), { recursive: true });
const bytes = encodeSeaNetwork(lines, 50, `eurostat/searoute @ 88a2e568, ${source}`);
writeFileSync(out, bytes);
copyFileSync(join(geoDir, 'LICENSE.EUPL'), join(dirname(out), 'LICENSE.EUPL'));
console.log(`${lines.length} lines; wrote ${out} (${(bytes.length / 1024).toFixed(0)} KiB) and LICENSE.EUPL`);
