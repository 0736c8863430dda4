import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { migrateToLatest, openStore } from '../../src/store/db.js';
import { createFleetReads } from '../../src/fleet/fleet-reads.js';
import { dropTestSchema, testConfig, usingPostgres } from '../helpers/app.js';

/**
 * Bosun's PostgreSQL sessions plan without JIT and without parallel workers (docs/decisions/173): the
 * detector's read of a window of seqs on a day's partition that was never analysed was costed as millions
 * of rows, compiled and gathered from two workers, and cost 1.5–2.5 s a batch under load.
 */
const skip = usingPostgres() ? false : 'PostgreSQL only (set DATABASE_URL to a postgres:// URL)';

test('a Bosun session has JIT and parallel gather off and its own schema on the search path', { skip }, async () => {
  const config = testConfig();
  const store = await openStore(config.database);
  try {
    const { rows } = await sql<{
      jit: string;
      workers: string;
      path: string;
    }>`select current_setting('jit') as jit, current_setting('max_parallel_workers_per_gather') as workers, current_setting('search_path') as path`.execute(store.db);
    assert.equal(rows[0]!.jit, 'off');
    assert.equal(rows[0]!.workers, '0');
    assert.ok(rows[0]!.path.includes(store.schema!), `search_path ${rows[0]!.path} names ${store.schema}`);
  } finally {
    await store.close();
    await dropTestSchema(config);
  }
});

test(
  'the detector’s window read on a partition without statistics is one ordered scan, neither gathered nor compiled, even where the planner finds parallel work and JIT cheap',
  { skip },
  async () => {
    const config = testConfig();
    const store = await openStore(config.database);
    try {
      await migrateToLatest(store);
      const day = Date.UTC(2026, 10, 20);
      await sql`create table ${sql.id(`positions_test_${store.schema}`.slice(0, 60))} partition of positions for values from (${sql.lit(day)}) to (${sql.lit(day + 86_400_000)})`.execute(store.db);
      await sql`insert into positions (vsl_id, observed_at, received_at, lat, lon, sog, source, simulated, usable, quality_flags)
      select 'v' || (i % 500), ${sql.lit(day)} + i * 10, ${sql.lit(day)} + i * 10, 50, 4, 10, 'test', 1, 1, '[]' from generate_series(1, 100000) as i`.execute(store.db);
      const reads = createFleetReads(store.db);
      const head = await reads.headSeq();
      const compiled = store.db
        .selectFrom('positions')
        .select(['seq', 'vsl_id'])
        .where('seq', '>', head - 60_000)
        .where('seq', '<=', head - 55_000)
        .where('usable', '=', 1)
        .orderBy('seq', 'asc')
        .limit(5000)
        .compile();
      const plan = await store.db.connection().execute(async (connection) => {
        // what a missing ANALYZE does to the costs, made certain: parallel work and compilation look free
        await sql`set parallel_setup_cost = 0`.execute(connection);
        await sql`set parallel_tuple_cost = 0`.execute(connection);
        await sql`set min_parallel_table_scan_size = 0`.execute(connection);
        await sql`set min_parallel_index_scan_size = 0`.execute(connection);
        await sql`set jit_above_cost = 0`.execute(connection);
        const explained = await connection.executeQuery<{ 'QUERY PLAN': string }>({
          ...compiled,
          sql: `explain (analyze, format text) ${compiled.sql}`,
        });
        return explained.rows.map((row) => row['QUERY PLAN']).join('\n');
      });
      assert.doesNotMatch(plan, /Gather/, plan);
      assert.doesNotMatch(plan, /JIT/, plan);
      assert.match(plan, /rows=5000 /, plan);
      const batch = await reads.usableForDetectionAfter(head - 60_000, head - 55_000, 5000);
      assert.equal(batch.length, 5000);
      assert.equal(batch[0]!.seq, head - 60_000 + 1);
    } finally {
      await store.close();
      await dropTestSchema(config);
    }
  },
);
