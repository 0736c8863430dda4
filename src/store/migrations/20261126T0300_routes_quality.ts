import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';

/**
 * Request telemetry records the answer's cache use and fallback (docs/decisions/066): `cache` (hit, miss,
 * miss_evict; null for operations without a cache), `fallback` (the documented fallback's name, null when
 * none) and `cache_age_seconds` (age of an answer served from a cache). The routes quality views read one
 * window of the routes operations, so records are indexed by operation and time.
 */
export async function up(db: Kysely<any>, _d: DialectHelpers): Promise<void> {
  await db.schema.alterTable('request_telemetry').addColumn('cache', 'text').execute();
  await db.schema.alterTable('request_telemetry').addColumn('fallback', 'text').execute();
  await db.schema.alterTable('request_telemetry').addColumn('cache_age_seconds', 'double precision').execute();
  await db.schema.createIndex('request_telemetry_operation_ts').on('request_telemetry').columns(['operation_id', 'ts']).execute();
}
