/**
 * Port search on the full shipped table: load and index time, then the latency of typical queries
 * (exact name, typo, LOCODE, country, near a point), each run many times; in-process, no HTTP.
 * Usage: node dist/bench/ports/search-main.js [--rounds 200]
 */
import { parseArgs } from 'node:util';
import { distanceM } from '../../src/geo/distance.js';
import { createPortSearchIndex } from '../../src/features/ports/port-search.js';
import { readPortTableFile } from '../../src/features/ports/port-table-file.js';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '200' } } });
const rounds = Number(values.rounds);
const t0 = performance.now();
const { ports } = readPortTableFile();
const t1 = performance.now();
const index = createPortSearchIndex(ports);
const t2 = performance.now();
console.log(`${ports.length} ports: file read and parsed ${(t1 - t0).toFixed(0)} ms, index built ${(t2 - t1).toFixed(0)} ms`);

const queries = {
  'exact name (rotterdam)': { q: 'rotterdam' },
  'typo (Rotterdm)': { q: 'Rotterdm' },
  'typo, long (Hambrug)': { q: 'Hambrug' },
  'alternate name (Tsingtao)': { q: 'Tsingtao' },
  'LOCODE (SGSIN)': { q: 'SGSIN' },
  'country (US, no text)': { country: 'US' },
  'near Galveston Bay, 50 km': { near: { lat: 29.5, lon: -94.9, radiusKm: 50 } },
};
console.log('| query | hits | p50 ms | p99 ms |');
console.log('|---|---|---|---|');
// The same filters as a walk over every port (how a search without text worked before the grid and
// the country index): the baseline for the two rows above them, measured in the same run.
const walks: Record<string, () => number> = {
  'country (US), walk over every port (baseline)': () => ports.filter((p) => p.country === 'US').length,
  'near Galveston Bay, 50 km, walk over every port (baseline)': () =>
    ports
      .map((p) => ({ p, km: distanceM(29.5, -94.9, p.lat, p.lon) / 1000 }))
      .filter((h) => h.km <= 50)
      .sort((a, b) => a.km - b.km).length,
};
const runs: Array<[string, () => number]> = [...Object.entries(queries).map(([label, query]): [string, () => number] => [label, () => index.search(query).length]), ...Object.entries(walks)];
for (const [label, run] of runs) {
  const times: number[] = [];
  let hits = 0;
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    hits = run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const pct = (p: number) => times[Math.min(times.length - 1, Math.floor((times.length * p) / 100))]!;
  console.log(`| ${label} | ${hits} | ${pct(50).toFixed(2)} | ${pct(99).toFixed(2)} |`);
}
