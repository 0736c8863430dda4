import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';
import { createTables } from './helpers/create-tables.js';

/**
 * Every tool call made through POST /v1/webmcp/dispatch or the MCP endpoint (docs/mcp.md): who called
 * which tool, when, the outcome and the arguments with sensitive values redacted. Read by
 * /v1/webmcp/dispatch/health and /dispatch/audit; rows older than the retention are deleted.
 */
export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await createTables(db, d, [
    {
      name: 'webmcp_dispatches',
      columns: `
        id text primary key
        ts bigint not null
        channel text not null
        tool text not null
        caller_kind text not null
        agent_id text
        request_id text not null
        inner_request_id text
        status integer not null
        error_code text
        latency_ms double precision not null
        cost_units double precision not null
        arguments text not null`,
      indexes: `
        webmcp_dispatches_ts (ts, id)`,
    },
  ]);
}
