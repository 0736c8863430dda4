/**
 * A day of events paged at 1,000 a page (GET /v1/events, decisions 112 and 114) on 30 days of the demo
 * fleet: the time to read every page of one day, all five types, through the HTTP stack in process (no
 * socket), as an operator (sees everything up to now); each event is checked to come exactly once.
 * Usage: node dist/bench/events/events-page-main.js [--days 30] [--vessels 300] [--rounds 20]
 */
import { DAY, iso } from '../../src/platform/clock.js';
import { openDemoFromArguments } from './demo-store.js';

const { demo, rounds } = await openDemoFromArguments({ rounds: '20', timed: true });
const token = (await demo.bosun.ctx.services.operator.issueToken('bench')).token;

// the last full day before the store's end
const from = demo.to - 2 * DAY;
const to = demo.to - DAY;
const base = `/v1/events?from=${encodeURIComponent(iso(from))}&to=${encodeURIComponent(iso(to))}&limit=1000`;

async function readDay(): Promise<{ ms: number; pages: number[]; ids: string[]; types: Record<string, number> }> {
  const ids: string[] = [];
  const pages: number[] = [];
  const types: Record<string, number> = {};
  let cursor: string | null = null;
  const start = performance.now();
  do {
    const pageStart = performance.now();
    const res = await demo.api('GET', base + (cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''), token);
    if (res.status !== 200) throw new Error(`status ${res.status}: ${JSON.stringify(res.body)}`);
    pages.push(performance.now() - pageStart);
    for (const item of res.body.data.items as Array<{ event_id: string; type: string }>) {
      ids.push(item.event_id);
      types[item.type] = (types[item.type] ?? 0) + 1;
    }
    cursor = res.body.data.next_cursor;
  } while (cursor);
  return { ms: performance.now() - start, pages, ids, types };
}

const first = await readDay();
if (new Set(first.ids).size !== first.ids.length) throw new Error('an event came twice');
console.log(`day ${iso(from)} .. ${iso(to)}: ${first.ids.length} events in ${first.pages.length} pages, ${JSON.stringify(first.types)}`);
const totals: number[] = [];
const pageTimes: number[] = [];
for (let i = 0; i < rounds; i++) {
  const run = await readDay();
  if (run.ids.join() !== first.ids.join()) throw new Error('another read of the day listed other events');
  totals.push(run.ms);
  pageTimes.push(...run.pages);
}
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!;
console.log(`whole day (${rounds} reads): p50 ${pct(totals, 50).toFixed(1)} ms, p99 ${pct(totals, 99).toFixed(1)} ms`);
console.log(`per page (${pageTimes.length} pages): p50 ${pct(pageTimes, 50).toFixed(1)} ms, p99 ${pct(pageTimes, 99).toFixed(1)} ms`);
await demo.close();
