import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';

/**
 * Every tool call made through POST /v1/webmcp/dispatch or the MCP endpoint (docs/mcp.md): who called
 * which tool, when, the outcome and the arguments with sensitive values redacted. Read by
 * /v1/webmcp/dispatch/health and /dispatch/audit; rows older than the retention are deleted.
 */
export async function up(db: Kysely<any>, _d: DialectHelpers): Promise<void> {
  await db.schema
    .createTable('webmcp_dispatches')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('ts', 'bigint', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('tool', 'text', (c) => c.notNull())
    .addColumn('caller_kind', 'text', (c) => c.notNull())
    .addColumn('agent_id', 'text')
    .addColumn('request_id', 'text', (c) => c.notNull())
    .addColumn('inner_request_id', 'text')
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('error_code', 'text')
    .addColumn('latency_ms', 'double precision', (c) => c.notNull())
    .addColumn('cost_units', 'double precision', (c) => c.notNull())
    .addColumn('arguments', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webmcp_dispatches_ts').on('webmcp_dispatches').columns(['ts', 'id']).execute();
}
