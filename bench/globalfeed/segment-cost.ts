/**
 * The write cost read against the size of what is written into (issue 31, docs/decisions/160): after every
 * `every` positions, one line on the segment just written — positions so far, the partitions' bytes, CPU seconds
 * per million positions of the ingesting process and of its PostgreSQL backends, and per million positions the
 * blocks the server read from outside shared_buffers (pg_statio: a read here is a miss of shared_buffers, served
 * by the OS cache or the disk) for the heap and each index of positions, and the bytes per position so far of each. Indexes are named by their parent on
 * `positions` (pg_partition_root), so day partitions and any sub-partitions add up under one name.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../src/store/schema.js';
import type { CpuCost } from './cpu-cost.js';

interface Reads {
  bytes: number;
  /** blocks read (misses of shared_buffers) per relation: 'heap' or the parent index's name */
  blocks: Map<string, number>;
  /** bytes per relation, named as blocks */
  sizes: Map<string, number>;
}

async function readsNow(db: Kysely<Database>): Promise<Reads> {
  const { rows } = await sql<{ name: string; blocks: string; bytes: string }>`
    select 'heap' as name, coalesce(sum(s.heap_blks_read), 0) as blocks, coalesce(sum(pg_relation_size(s.relid)), 0) as bytes
      from pg_statio_user_tables s
      where s.schemaname = current_schema() and pg_partition_root(s.relid) = 'positions'::regclass and s.relid <> 'positions'::regclass
    union all
    select r.relname as name, sum(s.idx_blks_read) as blocks, sum(pg_relation_size(s.indexrelid)) as bytes
      from pg_statio_user_indexes s
      join pg_class r on r.oid = pg_partition_root(s.indexrelid)
      join pg_index x on x.indexrelid = r.oid and x.indrelid = 'positions'::regclass
      where s.schemaname = current_schema() and s.indexrelid <> r.oid
      group by r.relname`.execute(db);
  const blocks = new Map<string, number>();
  const sizes = new Map<string, number>();
  let bytes = 0;
  for (const row of rows) {
    blocks.set(row.name, Number(row.blocks));
    sizes.set(row.name, Number(row.bytes));
    bytes += Number(row.bytes);
  }
  return { bytes, blocks, sizes };
}

/** Starts at the current counts; `report(positions)` prints the segment since the last report. */
export async function segmentReporter(db: Kysely<Database>, cpu: { sofar(): Promise<CpuCost> }, every: number) {
  let last = { positions: 0, cpu: await cpu.sofar(), reads: await readsNow(db), at: performance.now() };
  const reporter = {
    next: every,
    async report(positions: number): Promise<void> {
      const now = { positions, cpu: await cpu.sofar(), reads: await readsNow(db), at: performance.now() };
      const millions = (now.positions - last.positions) / 1e6;
      const perMillion = (a: number | null, b: number | null) => (a === null || b === null ? 'n/a' : ((a - b) / millions).toFixed(2));
      const misses = [...now.reads.blocks]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([name, blocks]) => `${name} ${Math.round((blocks - (last.reads.blocks.get(name) ?? 0)) / millions)}`)
        .join(', ');
      const sizes = [...now.reads.sizes]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([name, size]) => `${name} ${(size / positions).toFixed(1)}`)
        .join(', ');
      console.log(
        `segment to ${(positions / 1e6).toFixed(2)} M positions (heap + indexes ${(now.reads.bytes / 1e9).toFixed(2)} GB): ` +
          `${Math.round((now.positions - last.positions) / ((now.at - last.at) / 1000))} positions/s; CPU s/M process ${perMillion(now.cpu.processSeconds, last.cpu.processSeconds)}, ` +
          `backends ${perMillion(now.cpu.backendSeconds, last.cpu.backendSeconds)}; blocks read from outside shared_buffers per M: ${misses}; bytes per position so far: ${sizes}`,
      );
      last = now;
      reporter.next = positions + every;
    },
  };
  return reporter;
}
