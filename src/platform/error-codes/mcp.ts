import type { ErrorDefinitions } from './definition.js';

/** The MCP surface and webmcp dispatch (docs/mcp.md). */
export const MCP_ERRORS = {
  tool_not_found: { status: 404, retryable: false, summary: 'No MCP tool with this name (GET /v1/webmcp/tools lists them).' },
} as const satisfies ErrorDefinitions;
