import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';
import { createTables } from './helpers/create-tables.js';

/**
 * The resource_infra layer (docs/resource-infra.md, docs/decisions/050): objects built from the
 * declared sources, the ingest runs that built them, their row-level failures and the quality
 * findings of every run.
 */
export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await createTables(db, d, [
    {
      name: 'infra_runs',
      columns: `
        id autoincrement
        source_id text not null
        file text not null
        shipped_file integer not null
        file_sha256 text
        started_at bigint not null
        finished_at bigint
        state text not null
        rows_read integer not null
        created integer not null
        updated integer not null
        unchanged integer not null
        removed integer not null
        failed integer not null
        skipped text not null
        objects_after integer not null
        error text`,
      indexes: `
        infra_runs_source (source_id, id)`,
    },
    {
      name: 'infra_objects',
      columns: `
        id text primary key
        source_id text not null
        source_key text not null
        category text not null
        subcategory text
        name text not null
        status text not null
        country text
        region text
        lon double precision not null
        lat double precision not null
        geometry_type text not null
        body text not null
        content_hash text not null
        first_run_id bigint not null
        last_run_id bigint not null
        created_at bigint not null
        updated_at bigint not null`,
      indexes: `
        infra_objects_source (source_id, id)`,
    },
    {
      name: 'infra_failures',
      columns: `
        id autoincrement
        run_id bigint not null
        source_id text not null
        row_ref text not null
        reason text not null
        detail text not null`,
      indexes: `
        infra_failures_run (run_id, id)`,
    },
    {
      name: 'infra_findings',
      columns: `
        id autoincrement
        source_id text not null
        run_id bigint not null
        object_id text
        row_ref text
        kind text not null
        lon double precision
        lat double precision
        detail text not null`,
      indexes: `
        infra_findings_source (source_id, kind)`,
    },
  ]);
}
