import type { TObject, TSchema } from '@sinclair/typebox';
import type { CatalogView, ImplementedOperation } from '../../catalog/catalog.js';
import type { OperationContract } from '../../catalog/types.js';
import type { AccessClass, HttpMethod } from '../../catalog/types.js';
import { AppError } from '../../platform/errors.js';
import { toolsetOf } from './toolset-membership.js';

/** The operation behind a tool, published in the tool's `_meta` so a remote client (bosun mcp) can call it over plain HTTP. */
export interface ToolOperation {
  operation_id: string;
  method: HttpMethod;
  path: string;
  access: AccessClass;
  scopes: string[];
  /** x-cost-units-hint of OpenAPI. */
  cost_units_hint: number;
  /** Charges nothing even on success (meta and discovery). */
  free: boolean;
  stability: string;
  path_parameters: string[];
  query_parameters: string[];
  /** The JSON body is the `body` argument. */
  has_body: boolean;
  /** The toolset the tool belongs to (toolsets.ts). */
  toolset: string;
}

export const OPERATION_META_KEY = 'bosun/operation';

/** One MCP tool, exactly as tools/list and GET /v1/webmcp/tools publish it. */
export interface BosunTool {
  name: string;
  title: string;
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, unknown>; required?: string[]; additionalProperties: false };
  annotations: { title: string; readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
  _meta: { [OPERATION_META_KEY]: ToolOperation };
}

export interface ExcludedOperation {
  operation_id: string;
  reason: string;
}

export interface ToolSet {
  tools: BosunTool[];
  byName: ReadonlyMap<string, BosunTool>;
  /** Implemented operations of public discovery that have no tool, each with the documented reason (docs/decisions/046). */
  excluded: ExcludedOperation[];
  /** The path of each excluded streaming operation, by operationId (their refusal names the absolute URL). */
  streamPaths: ReadonlyMap<string, string>;
}

/** The name of the argument that carries an operation's JSON body. */
export const BODY_ARGUMENT = 'body';

/** Sections whose answers come from the outside world (AIS feeds, port tables, sea conditions) rather than from this service's own records. */
const OPEN_WORLD_SECTIONS: ReadonlySet<string> = new Set(['vessels', 'ports', 'sts', 'events', 'metrics', 'layers', 'routes']);

/** Why an implemented, discoverable operation has no tool; null when it has one. */
function exclusionReason({ entry, route }: ImplementedOperation): string | null {
  if (entry.operationId === 'postWebmcpDispatch') return 'dispatch calls a tool by name; over MCP that is tools/call itself, so a tool for it would only nest calls';
  if (entry.bare === 'html') return 'a page for human readers; the same data is served by the JSON operations';
  if (route.streamMediaType) return streamExclusion(entry.path);
  return null;
}

/**
 * Why a streaming operation has no tool (docs/decisions/072): a tool call answers once, a stream stays
 * open, so a call would never answer and would hold one of the agent's stream slots. The real URL is
 * named so the caller can open it with a stream client.
 */
export function streamExclusion(path: string, baseUrl = ''): string {
  return `a stream that stays open while a tool call answers once, so it is not a tool: open GET ${baseUrl}${path} directly with a server-sent events client (curl -N, EventSource) and your Authorization header`;
}

const plain = (schema: TSchema): Record<string, unknown> => JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;

function describe({ entry, route }: ImplementedOperation): string {
  const access =
    entry.access === 'P'
      ? 'Access P: works without a key.'
      : entry.access === 'K'
        ? `Access K: needs an agent API key${entry.scopes.length ? ` holding ${entry.scopes.join(', ')}` : ''}.`
        : 'Access U: the operator token or an agent key holding ops:read.';
  const cost = entry.free ? 'Free.' : `Cost hint ${entry.cost} units.`;
  const body = route.body ? ` The JSON request body is the "${BODY_ARGUMENT}" argument.` : '';
  const example = exampleArguments(route);
  return `${entry.summary}. ${route.description}${body} ${access} ${cost}${example ? ` Example arguments: ${example}` : ''}`;
}

/**
 * The operation's first documented example that has arguments, as tool arguments (path and query
 * parameters by name, the body as `body`); `{}` when every documented example takes the defaults.
 */
function exampleArguments(route: OperationContract): string | null {
  // examples that work on a fresh install first, then those needing a prerequisite (their ids are placeholders)
  const usable = [...route.examples.filter((e) => !e.expectError && !e.requires), ...route.examples.filter((e) => e.expectError || e.requires)];
  const args = usable.map((e) => ({ ...e.params, ...e.query, ...(e.body !== undefined ? { [BODY_ARGUMENT]: e.body } : {}) }));
  const text = JSON.stringify(args.find((a) => Object.keys(a).length > 0) ?? args[0] ?? {});
  const required = Object.keys(route.params?.properties ?? {}).length + (route.query?.required?.length ?? 0) + (route.body ? 1 : 0);
  if (text === '{}') return (route.params || route.query) && required === 0 ? '{} (every argument is optional)' : null;
  return text.length <= 600 ? text : null;
}

/** The tool's input: path and query parameters by name (the OpenAPI parameter schemas), the JSON body as `body`. */
function inputSchema({ entry, route }: ImplementedOperation): BosunTool['inputSchema'] {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  const add = (schema: TObject | undefined, location: 'path' | 'query') => {
    if (!schema) return;
    const requiredHere = new Set(schema.required ?? []);
    for (const [name, prop] of Object.entries(schema.properties)) {
      if (name in properties || name === BODY_ARGUMENT) throw new Error(`${entry.operationId}: parameter ${name} collides with another tool argument`);
      properties[name] = plain(prop);
      if (location === 'path' || requiredHere.has(name)) required.push(name);
    }
  };
  add(route.params, 'path');
  add(route.query, 'query');
  if (route.body) {
    properties[BODY_ARGUMENT] = plain(route.body);
    required.push(BODY_ARGUMENT);
  }
  return { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false };
}

function toTool(operation: ImplementedOperation): BosunTool {
  const { entry, route } = operation;
  const readOnly = entry.method === 'GET';
  return {
    name: entry.operationId,
    title: entry.summary,
    description: describe(operation),
    inputSchema: inputSchema(operation),
    annotations: {
      title: entry.summary,
      readOnlyHint: readOnly,
      destructiveHint: entry.method === 'DELETE',
      idempotentHint: entry.method !== 'POST',
      openWorldHint: OPEN_WORLD_SECTIONS.has(entry.section),
    },
    _meta: {
      [OPERATION_META_KEY]: {
        operation_id: entry.operationId,
        method: entry.method,
        path: entry.path,
        access: entry.access,
        scopes: [...entry.scopes],
        cost_units_hint: entry.cost,
        free: entry.free === true,
        stability: entry.stability,
        path_parameters: Object.keys(route.params?.properties ?? {}),
        query_parameters: Object.keys(route.query?.properties ?? {}),
        has_body: route.body !== undefined,
        toolset: toolsetOf(entry),
      },
    },
  };
}

/** One tool per implemented operation of public discovery (planned and closed operations never appear), generated from the catalog. */
export function buildToolSet(catalog: CatalogView): ToolSet {
  const tools: BosunTool[] = [];
  const excluded: ExcludedOperation[] = [];
  const streamPaths = new Map<string, string>();
  for (const operation of catalog.discoverable) {
    const reason = exclusionReason(operation);
    if (reason) excluded.push({ operation_id: operation.entry.operationId, reason });
    else tools.push(toTool(operation));
    if (operation.route.streamMediaType) streamPaths.set(operation.entry.operationId, operation.entry.path);
  }
  return { tools, byName: new Map(tools.map((t) => [t.name, t])), excluded, streamPaths };
}

export interface ToolRequest {
  method: HttpMethod;
  /** Path and query string. */
  url: string;
  body?: unknown;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The HTTP request a tool call stands for: path parameters into the path, the `body` argument as the
 * JSON body, every other argument into the query string. Unknown arguments go to the query string, so
 * the operation itself refuses them by name (the same validation as over HTTP).
 */
export function toolRequest(tool: BosunTool, args: unknown): ToolRequest {
  if (args !== undefined && args !== null && !isPlainObject(args)) throw new AppError('invalid_request', 'arguments must be a JSON object', { field: 'arguments' });
  const given = (args ?? {}) as Record<string, unknown>;
  const operation = tool._meta[OPERATION_META_KEY];
  let path = operation.path;
  for (const name of operation.path_parameters) {
    const value = given[name];
    if (typeof value !== 'string' && typeof value !== 'number')
      throw new AppError('invalid_request', `arguments.${name} is required (a path parameter of ${operation.operation_id})`, { field: `arguments.${name}` });
    path = path.replace(`{${name}}`, encodeURIComponent(String(value)));
  }
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(given)) {
    if (operation.path_parameters.includes(name) || (name === BODY_ARGUMENT && operation.has_body) || value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) query.append(name, typeof item === 'object' && item !== null ? JSON.stringify(item) : String(item));
  }
  const search = query.toString();
  return { method: operation.method, url: search ? `${path}?${search}` : path, ...(operation.has_body ? { body: given[BODY_ARGUMENT] } : {}) };
}

/** An operation's answer as an MCP tool result: the envelope as text and as structured content; isError for an error envelope. */
export function toolResult(status: number, contentType: string | undefined, text: string) {
  let structured: Record<string, unknown> | undefined;
  if (contentType?.includes('json')) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (isPlainObject(parsed)) structured = parsed;
    } catch {
      structured = undefined;
    }
  }
  return {
    content: [{ type: 'text' as const, text }],
    ...(structured ? { structuredContent: structured } : {}),
    isError: status >= 400,
  };
}
