import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';

/**
 * The resource_infra layer (docs/resource-infra.md, docs/decisions/050): objects built from the
 * declared sources, the ingest runs that built them, their row-level failures and the quality
 * findings of every run.
 */
export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await d
    .addAutoId(db.schema.createTable('infra_runs'), 'id')
    .addColumn('source_id', 'text', (c) => c.notNull())
    .addColumn('file', 'text', (c) => c.notNull())
    .addColumn('shipped_file', 'integer', (c) => c.notNull())
    .addColumn('file_sha256', 'text')
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('rows_read', 'integer', (c) => c.notNull())
    .addColumn('created', 'integer', (c) => c.notNull())
    .addColumn('updated', 'integer', (c) => c.notNull())
    .addColumn('unchanged', 'integer', (c) => c.notNull())
    .addColumn('removed', 'integer', (c) => c.notNull())
    .addColumn('failed', 'integer', (c) => c.notNull())
    .addColumn('skipped', 'text', (c) => c.notNull())
    .addColumn('objects_after', 'integer', (c) => c.notNull())
    .addColumn('error', 'text')
    .execute();
  await db.schema.createIndex('infra_runs_source').on('infra_runs').columns(['source_id', 'id']).execute();

  await db.schema
    .createTable('infra_objects')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('source_id', 'text', (c) => c.notNull())
    .addColumn('source_key', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('subcategory', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('country', 'text')
    .addColumn('region', 'text')
    .addColumn('lon', 'double precision', (c) => c.notNull())
    .addColumn('lat', 'double precision', (c) => c.notNull())
    .addColumn('geometry_type', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('content_hash', 'text', (c) => c.notNull())
    .addColumn('first_run_id', 'bigint', (c) => c.notNull())
    .addColumn('last_run_id', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('infra_objects_source').on('infra_objects').columns(['source_id', 'id']).execute();

  await d
    .addAutoId(db.schema.createTable('infra_failures'), 'id')
    .addColumn('run_id', 'bigint', (c) => c.notNull())
    .addColumn('source_id', 'text', (c) => c.notNull())
    .addColumn('row_ref', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('detail', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('infra_failures_run').on('infra_failures').columns(['run_id', 'id']).execute();

  await d
    .addAutoId(db.schema.createTable('infra_findings'), 'id')
    .addColumn('source_id', 'text', (c) => c.notNull())
    .addColumn('run_id', 'bigint', (c) => c.notNull())
    .addColumn('object_id', 'text')
    .addColumn('row_ref', 'text')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('lon', 'double precision')
    .addColumn('lat', 'double precision')
    .addColumn('detail', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('infra_findings_source').on('infra_findings').columns(['source_id', 'kind']).execute();
}
