import {
  CallToolRequestSchema,
  ErrorCode as McpErrorCode,
  GetPromptRequestSchema,
  InitializeRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { findInvalidText } from '../../http/edge-input.js';

/**
 * The protocol edges of /mcp answered as JSON-RPC errors carrying the request's id (issue 24 item 5):
 * text the edge refuses (NUL, lone surrogates) and params that do not match the method's schema, which
 * the SDK would answer -32603 with a whole schema-validation dump.
 */

export interface RpcError {
  jsonrpc: '2.0';
  id: string | number | null;
  error: { code: number; message: string };
}

/** The schema each request method Bosun's MCP server handles is parsed with. */
const REQUEST_SCHEMAS: Record<string, { safeParse(value: unknown): { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } } }> = {
  initialize: InitializeRequestSchema,
  'tools/list': ListToolsRequestSchema,
  'tools/call': CallToolRequestSchema,
  'resources/list': ListResourcesRequestSchema,
  'resources/read': ReadResourceRequestSchema,
  'prompts/list': ListPromptsRequestSchema,
  'prompts/get': GetPromptRequestSchema,
};

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const rpcError = (id: RpcError['id'], code: number, message: string): RpcError => ({ jsonrpc: '2.0', id, error: { code, message } });

/** The JSON-RPC error a single message earns at the edge, or null when it goes on to the MCP server. */
export function rpcEdgeError(message: unknown): RpcError | null {
  if (!isRecord(message)) return null;
  const id = typeof message.id === 'string' || typeof message.id === 'number' ? message.id : null;
  const text = findInvalidText(message, 'body');
  if (text) {
    const field = text.field.replace(/^body\.?/, '') || 'the message';
    const inParams = field === 'params' || field.startsWith('params.');
    return rpcError(id, inParams ? McpErrorCode.InvalidParams : McpErrorCode.InvalidRequest, `${field} ${text.message}`);
  }
  const schema = typeof message.method === 'string' && id !== null ? REQUEST_SCHEMAS[message.method] : undefined;
  if (!schema) return null;
  const parsed = schema.safeParse(message);
  if (parsed.success) return null;
  const issue = parsed.error?.issues[0];
  const where = issue && issue.path.length > 0 ? issue.path.map(String).join('.') : 'params';
  return rpcError(id, McpErrorCode.InvalidParams, `invalid params for ${message.method}: ${where}: ${issue?.message ?? 'does not match the method'}`);
}
