/**
 * The functions a CPU profile (`.cpuprofile`, as `--profile DIR` of the fleet benchmarks writes them) spends its
 * samples in: by self time and by total time (a sample counts once for each function on its stack).
 * Usage: node dist/bench/kit/profile-top.js FILE.cpuprofile [--top 25]
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { parseArgs } from 'node:util';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const { values, positionals } = parseArgs({ allowPositionals: true, options: { top: { type: 'string', default: '25' } } });
const top = Number(values.top);

for (const file of positionals) {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const nameOf = (n: ProfileNode) => {
    const url = n.callFrame.url.startsWith('file://') ? relative(process.cwd(), n.callFrame.url.slice(7)) : n.callFrame.url;
    return `${n.callFrame.functionName || '(anonymous)'} ${url}:${n.callFrame.lineNumber + 1}`;
  };
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  let all = 0;
  const stackOf = (id: number) => {
    const stack: ProfileNode[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) stack.push(byId.get(at)!);
    return stack;
  };
  profile.samples.forEach((id, i) => {
    const stack = stackOf(id);
    if (stack.some((n) => n.callFrame.url === 'node:inspector')) return;
    const us = profile.timeDeltas[i] ?? 0;
    all += us;
    const leaf = nameOf(stack[0]!);
    self.set(leaf, (self.get(leaf) ?? 0) + us);
    const seen = new Set<string>();
    for (const node of stack) {
      const name = nameOf(node);
      if (seen.has(name)) continue;
      seen.add(name);
      total.set(name, (total.get(name) ?? 0) + us);
    }
  });
  const rows = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => `  ${((us / all) * 100).toFixed(1).padStart(5)} %  ${(us / 1000).toFixed(1).padStart(8)} ms  ${name}`)
      .join('\n');
  console.log(`${file}: ${(all / 1000).toFixed(1)} ms sampled\nself:\n${rows(self)}\ntotal:\n${rows(total)}`);
}
