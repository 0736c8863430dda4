/**
 * The answers of the sea routing engine on seeded random pairs of ports, written to a JSON file or
 * compared with one written before (issue 28: making routes faster must not change any answer).
 * Each answer is the route's distance, connector length, passages, joins and every coordinate, or the
 * error code; numbers are compared exactly.
 * Usage: node dist/bench/routing/route-answers-main.js --write /tmp/answers.json   (before a change)
 *        node dist/bench/routing/route-answers-main.js --compare /tmp/answers.json (after it; exit 1 on a difference)
 *        [--pairs 600] [--seed 5]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import { readPortTableFile } from '../../src/features/ports/port-table-file.js';
import { RoutingError, type Route } from '../../src/routing/engine.js';
import { loadSeaNetworkFile } from '../../src/routing/network-file.js';

const { values } = parseArgs({ options: { write: { type: 'string' }, compare: { type: 'string' }, pairs: { type: 'string', default: '600' }, seed: { type: 'string', default: '5' } } });
if ((values.write === undefined) === (values.compare === undefined)) throw new Error('give --write <file> or --compare <file>');
const pairCount = Number(values.pairs);

const engine = loadSeaNetworkFile().engine;
const ports = readPortTableFile().ports;
let seed = Number(values.seed);
const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const large = ports.filter((x) => x.harbor_size === 'large' || x.harbor_size === 'medium');
/** Closures tried on some pairs: the usual default, Suez and Panama closed, every strait of the Malacca–Gibraltar line closed. */
const masks = [engine.passageMask([]), engine.passageMask(['suez', 'panama']), engine.passageMask(['malacca', 'gibraltar', 'dover', 'bosporus'])];

interface Answer {
  from: number;
  to: number;
  mask: number;
  route?: { distanceNm: number; connectorNm: number; passages: Route['passages']; joins: unknown[]; coordinates: Route['coordinates'] };
  error?: string;
}

const answers: Answer[] = [];
for (let i = 0; i < pairCount; i++) {
  // half the pairs among large and medium ports (the speed bench's pool), half among all ports (small ones lie inland more often)
  const pool = i % 2 === 0 ? large : ports;
  const a = pool[Math.floor(random() * pool.length)]!;
  const b = pool[Math.floor(random() * pool.length)]!;
  const mask = masks[i % 5 === 4 ? 1 + (((i / 5) % 2) | 0) : 0]!;
  const answer: Answer = { from: a.port_id, to: b.port_id, mask };
  try {
    const r = engine.route(
      [
        { lat: a.lat, lon: a.lon },
        { lat: b.lat, lon: b.lon },
      ],
      { excludedMask: mask },
    );
    answer.route = {
      distanceNm: r.distanceNm,
      connectorNm: r.connectorNm,
      passages: r.passages,
      joins: r.legs.flatMap((l) => [l.from, l.to]),
      coordinates: r.coordinates,
    };
  } catch (error) {
    if (!(error instanceof RoutingError)) throw error;
    answer.error = error.code;
  }
  answers.push(answer);
}

if (values.write !== undefined) {
  writeFileSync(values.write, JSON.stringify(answers));
  console.log(`${answers.length} answers (${answers.filter((a) => a.error !== undefined).length} errors) written to ${values.write}`);
} else {
  const before = JSON.parse(readFileSync(values.compare!, 'utf8')) as Answer[];
  // through JSON like the file, so that both sides hold the same representation (undefined fields dropped)
  const after = JSON.parse(JSON.stringify(answers)) as Answer[];
  let differ = 0;
  for (let i = 0; i < Math.max(before.length, after.length); i++) {
    if (isDeepStrictEqual(before[i], after[i])) continue;
    differ++;
    if (differ <= 5)
      console.log(
        `differs: pair ${i} ${after[i]?.from} – ${after[i]?.to} mask ${after[i]?.mask}: before ${before[i]?.route?.distanceNm ?? before[i]?.error}, after ${after[i]?.route?.distanceNm ?? after[i]?.error}`,
      );
  }
  console.log(`${after.length} answers compared with ${values.compare}: ${differ} differ`);
  if (differ > 0) process.exitCode = 1;
}
