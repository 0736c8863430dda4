import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { migrateToLatest, openStore } from '../../src/store/db.js';
import { MIGRATIONS } from '../../src/store/migrations/index.js';
import { dropTestSchema, testConfig, usingPostgres } from '../helpers/app.js';

/**
 * Processes starting at once on a fresh PostgreSQL database all migrate it: one applies every
 * migration, the others wait for it and apply none, and none fails (no retry hides a race).
 * Each store has its own pool, so each is a separate session, as separate processes would be.
 */
test('concurrent starts on a fresh PostgreSQL schema migrate it exactly once, without errors', { skip: !usingPostgres() && 'needs DATABASE_URL=postgres://…' }, async () => {
  const starters = 4;
  // Before the migration lock, about one fresh schema in three failed (pg_namespace_nspname_index); four make a regression show.
  for (let round = 0; round < 4; round++) {
    const config = testConfig();
    const stores = await Promise.all(Array.from({ length: starters }, () => openStore(config.database)));
    try {
      const outcomes = await Promise.allSettled(stores.map((store) => migrateToLatest(store)));
      const failures = outcomes.filter((o) => o.status === 'rejected').map((o) => String(o.reason));
      assert.deepEqual(failures, []);
      const applied = outcomes.map((o) => (o as PromiseFulfilledResult<string[]>).value.length).sort((a, b) => b - a);
      assert.deepEqual(applied, [Object.keys(MIGRATIONS).length, ...Array(starters - 1).fill(0)]);
      const recorded = await sql<{ n: string | number }>`select count(*) as n from kysely_migration`.execute(stores[0]!.db);
      assert.equal(Number(recorded.rows[0]!.n), Object.keys(MIGRATIONS).length);
    } finally {
      for (const store of stores) await store.close();
      await dropTestSchema(config);
    }
  }
});
