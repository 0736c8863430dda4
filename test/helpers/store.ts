import type { Config } from '../../src/platform/config.js';
import { migrateToLatest, openStore, type Store } from '../../src/store/db.js';
import { dropTestSchema, migratedTestConfig, testConfig } from './app.js';

/**
 * Runs `fn` on a migrated store of its own (in-memory SQLite, or a fresh PostgreSQL schema when DATABASE_URL is
 * set), migrated up to `upTo` when given, then closes it and drops the schema.
 */
export async function withMigratedStore<T>(fn: (store: Store, config: Config) => Promise<T>, options: { upTo?: string } = {}): Promise<T> {
  // a store migrated to the end can be a copy of the runner's template; one migrated up to a point cannot
  const config = options.upTo === undefined ? await migratedTestConfig() : testConfig();
  const store = await openStore(config.database);
  try {
    await migrateToLatest(store, options);
    return await fn(store, config);
  } finally {
    await store.close();
    await dropTestSchema(config);
  }
}
