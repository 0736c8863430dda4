// The folder-level shape of src/ (issue 25): the import graph between folders, its loops and the
// edges that point back up once the folders are layered so that each stands above what it imports.
//   node scripts/architecture.mjs            print the figures and the largest loops
//   node scripts/architecture.mjs --check    also exit 1 when a loop spans more than one area, or when more
//                                            than --max-back-edges (default 60) edges point back up
// A folder is a directory under src/; an area is a top folder of src/, a feature folder, or for the areas with
// sub-features (features/harbor, features/exchange, features/routes) the area folder. Imports are read
// from the source text (static, dynamic and type-only, as dependency-cruiser counts them).
import { readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { numberOption, typeScriptFiles } from './source-files.mjs';

const AREAS_WITH_SUB_FEATURES = ['features/harbor', 'features/exchange', 'features/routes'];
const args = process.argv.slice(2);
const check = args.includes('--check');
const maxBackEdges = numberOption(args, '--max-back-edges', 60);
const byDirectory = args.includes('--directories');

const directoryOf = (file) => posix.dirname(file).replace(/^src\/?/, '') || '.';
const folderOf = (file) => (byDirectory ? directoryOf(file) : areaOf(directoryOf(file)));
function areaOf(folder) {
  const area = AREAS_WITH_SUB_FEATURES.find((a) => folder === a || folder.startsWith(a + '/'));
  if (area) return area;
  const parts = folder.split('/');
  return parts[0] === 'features' && parts.length > 1 ? `features/${parts[1]}` : parts[0];
}

const files = typeScriptFiles('src');
const edges = new Map(); // "from\u0000to" -> number of file imports
const importPattern = /(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g;
for (const file of files) {
  for (const match of readFileSync(file, 'utf8').matchAll(importPattern)) {
    const target = posix.normalize(posix.join(posix.dirname(file), match[1])).replace(/\.js$/, '.ts');
    if (!target.startsWith('src/')) continue;
    const from = folderOf(file);
    const to = folderOf(target);
    if (from === to) continue;
    const key = `${from}\u0000${to}`;
    edges.set(key, (edges.get(key) ?? 0) + 1);
  }
}
const folders = [...new Set(files.map(folderOf))].sort();
const out = new Map(folders.map((f) => [f, new Set()]));
for (const key of edges.keys()) {
  const [from, to] = key.split('\u0000');
  out.get(from).add(to);
}

// Tarjan's strongly connected components: the folder-level loops.
function components() {
  let index = 0;
  const stack = [];
  const state = new Map();
  const result = [];
  const visit = (v) => {
    state.set(v, { index, low: index, onStack: true });
    index++;
    stack.push(v);
    for (const w of out.get(v)) {
      if (!state.has(w)) {
        visit(w);
        state.get(v).low = Math.min(state.get(v).low, state.get(w).low);
      } else if (state.get(w).onStack) state.get(v).low = Math.min(state.get(v).low, state.get(w).index);
    }
    if (state.get(v).low === state.get(v).index) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        state.get(w).onStack = false;
        component.push(w);
      } while (w !== v);
      result.push(component.sort());
    }
  };
  for (const v of folders) if (!state.has(v)) visit(v);
  return result;
}

// Layering by the greedy heuristic of Eades, Lin and Smyth (so the count is an upper bound of the fewest possible): folders that import nothing left go to the bottom,
// folders nothing left imports go to the top, otherwise the folder with the most imports in minus out goes up.
function layering() {
  const remaining = new Set(folders);
  const inEdges = new Map(folders.map((f) => [f, new Set()]));
  for (const [f, targets] of out) for (const t of targets) inEdges.get(t).add(f);
  const outside = (set) => [...set].filter((x) => remaining.has(x)).length;
  const bottom = [];
  const top = [];
  while (remaining.size) {
    let moved = true;
    while (moved) {
      moved = false;
      for (const f of [...remaining]) {
        if (outside(out.get(f)) === 0) {
          bottom.push(f);
          remaining.delete(f);
          moved = true;
        } else if (outside(inEdges.get(f)) === 0) {
          top.unshift(f);
          remaining.delete(f);
          moved = true;
        }
      }
    }
    if (!remaining.size) break;
    const next = [...remaining].sort((a, b) => outside(inEdges.get(b)) - outside(out.get(b)) - (outside(inEdges.get(a)) - outside(out.get(a))) || a.localeCompare(b))[0];
    top.unshift(next);
    remaining.delete(next);
  }
  return [...bottom, ...top]; // index 0 = ground floor
}

const order = layering();
const floor = new Map(order.map((f, i) => [f, i]));
const backEdges = [...edges.keys()].map((k) => k.split('\u0000')).filter(([from, to]) => floor.get(from) < floor.get(to));
const loops = components().filter((c) => c.length > 1);
const crossArea = loops.filter((c) => new Set(c.map(areaOf)).size > 1);

console.log(`folders ${folders.length}, folder import edges ${edges.size}, edges pointing back up ${backEdges.length}`);
console.log(`folder loops ${loops.length}; largest ${Math.max(0, ...loops.map((c) => c.length))} folders; loops spanning more than one area ${crossArea.length}`);
for (const loop of crossArea.slice(0, 5)) console.log(`  loop of ${loop.length}: ${loop.join(', ')}`);
if (args.includes('--back-edges')) for (const [from, to] of backEdges) console.log(`  back up: ${from} -> ${to} (${edges.get(`${from}\u0000${to}`)} imports)`);
if (check && (crossArea.length > 0 || backEdges.length > maxBackEdges)) process.exit(1);
