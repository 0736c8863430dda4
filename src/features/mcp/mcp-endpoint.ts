import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  ErrorCode as McpErrorCode,
  GetPromptRequestSchema,
  LATEST_PROTOCOL_VERSION,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Caller } from '../../access/principals.js';
import { OPERATOR_TOKEN_PREFIX } from '../../access/credentials.js';
import type { Config } from '../../platform/config.js';
import { bearerCredential } from '../../http/access.js';
import { baseUrlOf, limitRefusal } from '../../http/app.js';
import { rateLimitPolicyHeader } from '../../http/ratelimit-headers.js';
import type { Clock } from '../../platform/clock.js';
import type { Limiter } from '../../limits/limiter.js';
import { LIMIT_POLICIES } from '../../limits/policies.js';
import { AppError } from '../../platform/errors.js';
import type { Services } from '../../platform/services.js';
import { PLAYBOOKS, playbookPromptText, withArguments, type Playbook } from './playbooks.js';
import {
  answerMetaTool,
  callerKey,
  createEnabledToolsets,
  META_TOOLS,
  metaTools,
  parseSelection,
  seesOperatorTools,
  toolsIn,
  TOOLSETS_HEADER,
  TOOLSETS_QUERY,
  type EnabledToolsets,
} from './toolsets.js';
import { rpcEdgeError } from './rpc-edges.js';
import type { ToolCaller } from './webmcp-service.js';

export const MCP_PATH = '/mcp';
export { LATEST_PROTOCOL_VERSION };

/** Bosun's own directory: the nearest above this module holding package.json (from dist/ or from sources). */
function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

/** Guides published as MCP resources (read from docs/ when the deployment ships it). */
const DOC_RESOURCES = [
  { file: 'mcp.md', name: 'docs-mcp', title: 'Bosun over MCP: connecting, tools, dispatch, playbooks' },
  { file: 'harbor.md', name: 'docs-harbor', title: 'The agent harbor: registration, sandbox, scopes and collaboration' },
] as const;

interface ResourceDefinition {
  uri: string;
  name: string;
  title: string;
  mimeType: string;
  read(who: ToolCaller): Promise<string>;
}

/** The service documents published as MCP resources, by path: served bare (OpenAPI) or as the envelope's data. */
export const DOCUMENT_RESOURCES = [
  { path: '/openapi.json', operationId: 'getWellKnownOpenapiJson', name: 'openapi', title: 'OpenAPI 3.1.0 document of every implemented operation', bare: true },
  { path: '/v1/agent-harbor/contract', operationId: 'getAgentHarborContract', name: 'harbor-contract', title: 'The harbor contract (scopes, limits, states, error codes)', bare: false },
  { path: '/v1/agents/quickstart', operationId: 'getAgentsQuickstart', name: 'quickstart', title: 'Onboarding steps with real URLs', bare: false },
] as const;

/** A document resource's text from the answer of its operation: the bare document, or the envelope's data as indented JSON. */
export function documentText(bare: boolean, text: string, json: unknown): string {
  if (bare) return text;
  const data = (json as { data?: unknown } | null)?.data;
  return JSON.stringify(data ?? json, null, 2);
}

/** The docs guides published as resources, when this installation ships docs/. */
export function docResources() {
  const docsDir = join(projectRoot(), 'docs');
  return DOC_RESOURCES.filter((doc) => existsSync(join(docsDir, doc.file))).map((doc) => ({
    uri: `bosun://docs/${doc.file}`,
    name: doc.name,
    title: doc.title,
    mimeType: 'text/markdown',
    read: async () => readFileSync(join(docsDir, doc.file), 'utf8'),
  }));
}

/** The resources: the OpenAPI document, the harbor contract and the quickstart (read through the operations that serve them) and the docs guides. */
function resources(services: Services, baseUrl: string): ResourceDefinition[] {
  return [
    ...DOCUMENT_RESOURCES.map((doc) => ({
      uri: `${baseUrl}${doc.path}`,
      name: doc.name,
      title: doc.title,
      mimeType: 'application/json',
      read: async (who: ToolCaller) => {
        const outcome = await services.webmcp.read(doc.operationId, who, doc.path);
        return documentText(doc.bare, outcome.text, outcome.json);
      },
    })),
    ...docResources(),
  ];
}

export function resourceCount(): number {
  return DOCUMENT_RESOURCES.length + docResources().length;
}

/** The toolsets of one MCP request: those chosen by the client (query or header) and those it enabled earlier. */
interface RequestToolsets {
  active: string[];
  /** Whose enable_toolset choices these are (toolsets.callerKey). */
  key: string;
  enabled: EnabledToolsets;
}

/** One MCP server for one HTTP request (stateless mode: nothing is shared between requests but the services). */
function requestServer(services: Services, config: Config, baseUrl: string, who: ToolCaller, toolsets: RequestToolsets): Server {
  const server = new Server(
    { name: 'bosun', title: 'Bosun maritime information service', version: config.version },
    {
      capabilities: { tools: { listChanged: true }, resources: { listChanged: false }, prompts: { listChanged: false } },
      instructions: `Bosun: vessels, ports, routes and agent collaboration. Every tool answers the Bosun envelope (status, data, errors, cost_units). Public (P) tools work without a key; send "Authorization: Bearer <api key>" for the others (register with postAgentsRegister). tools/list holds the toolsets ${toolsets.active.join(', ')}; list_available_toolsets names the others and enable_toolset adds one (any tool can also be called by name). The prompts are multi-step playbooks.`,
    },
  );
  const docs = resources(services, baseUrl);
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [...metaTools(), ...toolsIn(services.webmcp.tools(), toolsets.active, seesOperatorTools(who.caller))] as never[],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const meta = answerMetaTool(request.params.name, request.params.arguments ?? {}, {
      tools: services.webmcp.tools(),
      operator: seesOperatorTools(who.caller),
      active: toolsets.active,
      endpoint: `${baseUrl}${MCP_PATH}`,
      enable: (name) => toolsets.enabled.enable(toolsets.key, name),
    });
    if (meta) {
      if (meta.listChanged) await extra.sendNotification({ method: 'notifications/tools/list_changed' });
      return { content: [{ type: 'text' as const, text: JSON.stringify(meta.data) }], structuredContent: meta.data, isError: meta.isError };
    }
    try {
      const outcome = await services.webmcp.call(request.params.name, request.params.arguments ?? {}, who);
      return services.webmcp.toolResult(outcome);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      if (err.code === 'tool_not_found') throw new McpError(McpErrorCode.InvalidParams, err.message);
      const text = JSON.stringify({ status: 'error', errors: [err.toDetail()] });
      return { content: [{ type: 'text' as const, text }], isError: true };
    }
  });
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: docs.map(({ uri, name, title, mimeType }) => ({ uri, name, title, mimeType })),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const resource = docs.find((r) => r.uri === request.params.uri);
    if (!resource) throw new McpError(McpErrorCode.InvalidParams, `no resource ${request.params.uri}; resources/list names them`);
    return { contents: [{ uri: resource.uri, mimeType: resource.mimeType, text: await resource.read(who) }] };
  });
  servePlaybooksAsPrompts(server);
  return server;
}

/** prompts/list and prompts/get: the playbooks, on the HTTP endpoint and the stdio bridge alike. */
export function servePlaybooksAsPrompts(server: Server): void {
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: PLAYBOOKS.map(promptOf) }));
  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    const playbook = PLAYBOOKS.find((p) => p.id === request.params.name);
    if (!playbook) throw new McpError(McpErrorCode.InvalidParams, `no prompt ${request.params.name}; prompts/list names them`);
    return { description: playbook.description, messages: [{ role: 'user' as const, content: { type: 'text' as const, text: promptText(playbook, request.params.arguments) } }] };
  });
}

/** A playbook as an MCP prompt (prompts/list), its arguments optional (each has a default the demo fleet answers). */
export function promptOf(playbook: Playbook) {
  return {
    name: playbook.id,
    title: playbook.title,
    description: playbook.description,
    arguments: (playbook.arguments ?? []).map((a) => ({ name: a.name, description: a.description, required: false })),
  };
}

/** The prompt text with the given arguments; a bad or unknown argument is a JSON-RPC invalid-params error naming the argument. */
export function promptText(playbook: Playbook, args: Record<string, string> | undefined): string {
  try {
    return playbookPromptText(withArguments(playbook, args ?? {}));
  } catch (err) {
    throw new McpError(McpErrorCode.InvalidParams, (err as Error).message);
  }
}

/** The caller a credential names, resolved only to label the dispatch record: the tool call itself authenticates again in the route pipeline. */
async function labelCaller(services: Services, authorization: string | undefined): Promise<Caller> {
  const credential = bearerCredential(authorization);
  if (!credential) return { kind: 'anonymous' };
  if (credential.startsWith(OPERATOR_TOKEN_PREFIX)) {
    const operator = await services.operator.authenticate(credential);
    return operator ? { kind: 'operator', operator } : { kind: 'anonymous' };
  }
  const agent = await services.agents.authenticate(credential);
  return agent ? { kind: 'agent', agent } : { kind: 'anonymous' };
}

const header = (req: FastifyRequest, name: string) => {
  const v = req.headers[name];
  return typeof v === 'string' ? v : undefined;
};

const messagesOf = (body: unknown) => (Array.isArray(body) ? body : [body]) as Array<{ method?: unknown; params?: { name?: unknown } } | null>;
const isInitialize = (body: unknown) => messagesOf(body).some((m) => m?.method === 'initialize');
/** An enable_toolset call answers on an event stream, so notifications/tools/list_changed reaches the client before the result. */
const enablesToolset = (body: unknown) => messagesOf(body).some((m) => m?.method === 'tools/call' && m.params?.name === META_TOOLS.enable);

/**
 * Mounts the Streamable HTTP MCP endpoint (stateless, JSON answers) on the Bosun HTTP app: every POST
 * gets its own server and transport, and every tools/call runs through the route pipeline with the
 * POST's own Authorization (docs/decisions/046).
 */
export function mountMcpEndpoint(app: FastifyInstance, deps: { config: Config; services: Services; limiter: Limiter; clock: Clock }): void {
  const { config, services, limiter, clock } = deps;
  const enabled = createEnabledToolsets(() => clock.now());
  const policy = LIMIT_POLICIES.mcp_messages;
  const policyHeader = rateLimitPolicyHeader([policy]);
  app.route({
    method: 'POST',
    url: MCP_PATH,
    config: { ownBodyTextRules: true },
    handler: async (req, reply) => {
      const authorization = header(req, 'authorization');
      const caller = await labelCaller(services, authorization);
      // The message itself is recorded and limited as the MCP transport; each tool call it carries runs the route pipeline as its own request.
      req.bosun.caller = caller;
      req.bosun.transport = 'mcp';
      const decision = await limiter.check(policy, caller.kind === 'agent' ? caller.agent.agentId : `ip:${req.ip}`, clock.now());
      if (!decision.allowed) throw limitRefusal(policy, decision, policyHeader);
      // refused text and invalid params: a JSON-RPC error with the request's id, not an envelope nor a schema dump
      const edge = Array.isArray(req.body) ? req.body.map(rpcEdgeError).find((e) => e !== null) : rpcEdgeError(req.body);
      if (edge) {
        req.bosun.errorCode = 'invalid_request';
        return reply.code(400).type('application/json; charset=utf-8').send(edge);
      }
      // the client gone, every in-process call this message started is given up with it
      const gone = new AbortController();
      const who: ToolCaller = {
        caller,
        ...(authorization !== undefined ? { authorization } : {}),
        ...(header(req, 'x-agent-name') !== undefined ? { agentName: header(req, 'x-agent-name') } : {}),
        ...(header(req, 'x-agent-vendor') !== undefined ? { agentVendor: header(req, 'x-agent-vendor') } : {}),
        ip: req.ip,
        requestId: req.id,
        channel: 'mcp',
        baseUrl: baseUrlOf({ config }, req),
        signal: gone.signal,
      };
      const operator = seesOperatorTools(caller);
      const chosen = (req.query as Record<string, unknown> | undefined)?.[TOOLSETS_QUERY];
      const selection = typeof chosen === 'string' ? parseSelection(chosen, operator, `query.${TOOLSETS_QUERY}`) : parseSelection(header(req, TOOLSETS_HEADER), operator, `header.${TOOLSETS_HEADER}`);
      const key = callerKey(caller, req.ip);
      const active = [...new Set([...selection, ...enabled.get(key)])];
      services.webmcp.noteMcpRequest(isInitialize(req.body));
      const server = requestServer(services, config, who.baseUrl ?? baseUrlOf({ config }, req), who, { active, key, enabled });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: !enablesToolset(req.body) });
      reply.raw.on('close', () => {
        gone.abort();
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      reply.raw.setHeader('x-request-id', req.id);
      reply.hijack();
      await transport.handleRequest(req.raw, reply.raw, req.body);
    },
  });
  const notAllowed = (reply: FastifyReply) =>
    reply
      .code(405)
      .header('allow', 'POST')
      .send({ jsonrpc: '2.0', error: { code: -32000, message: 'this MCP endpoint is stateless: send every message as a POST (no server-initiated stream, no session to delete)' }, id: null });
  app.route({
    method: ['GET', 'DELETE'],
    url: MCP_PATH,
    // answered before any body is read: a DELETE with a JSON content type and no body is still a 405
    onRequest: (_req, reply) => {
      notAllowed(reply);
    },
    handler: async (_req, reply) => notAllowed(reply),
  });
}
