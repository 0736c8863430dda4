import { iso } from '../../platform/clock.js';
import { callingAgent } from '../../http/route.js';
import { HARBOR_CONTRACT } from '../kit/harbor-contract.js';
import { defineRoute, type CallContext, type RouteDefinition } from '../kit/route.js';
import { LATEST_PROTOCOL_VERSION, MCP_PATH, resourceCount } from './mcp-endpoint.js';
import { PLAYBOOKS, playbookPromptText, withArguments } from './playbooks.js';
import { OPERATION_META_KEY } from './tools.js';
import type { ToolCaller } from './webmcp-service.js';
import { AuditData, AuditQuery, BootstrapData, DispatchBody, DispatchData, HealthData, HealthQuery, PlaybooksData, StatusData, ToolsData, ToolsQuery } from './schemas.js';
import { ALL_SELECTION, parseSelection, seesOperatorTools, toolsIn, visibleToolsets } from './toolsets.js';

const bootstrap = defineRoute({
  operationId: 'getWebmcpBootstrap',
  description:
    'Everything an agent needs to connect over MCP: the Streamable HTTP endpoint (stateless; send Authorization on every POST), the authentication scheme, the OpenAPI document, the quickstart, the harbor contract version, the tool list, the playbooks, plain-HTTP dispatch and the stdio bridge command for desktop clients. All URLs are absolute and real.',
  response: BootstrapData,
  examples: [{ summary: 'How to connect' }],
  async handler(_input, call) {
    const base = call.baseUrl;
    return {
      data: {
        mcp: {
          url: `${base}${MCP_PATH}`,
          transport: 'streamable-http' as const,
          protocol_version: LATEST_PROTOCOL_VERSION,
          session_mode: 'stateless' as const,
          tool_count: call.services.webmcp.tools().length,
        },
        auth: {
          scheme: 'bearer' as const,
          header: 'Authorization' as const,
          format: 'Bearer <api key> (agent key bsk_…, or the operator token bop_…)',
          without_key: 'public (P) tools work without a key and answer as the anonymous preview tier',
          register_url: `${base}/v1/agents/register`,
        },
        openapi_url: `${base}/openapi.json`,
        quickstart_url: `${base}/v1/agents/quickstart`,
        contract: { kind: HARBOR_CONTRACT.kind, version: HARBOR_CONTRACT.version, url: `${base}/v1/agent-harbor/contract` },
        tools_url: `${base}/v1/webmcp/tools`,
        playbooks_url: `${base}/v1/webmcp/playbooks`,
        dispatch_url: `${base}/v1/webmcp/dispatch`,
        stdio: {
          command: `bosun mcp --base-url ${base} --api-key-env BOSUN_API_KEY`,
          note: 'runs the same tools over stdio for desktop MCP clients, forwarding each call to this service over HTTP with the key read from the named environment variable',
        },
        service_version: call.services.meta.version,
      },
    };
  },
});

const status = defineRoute({
  operationId: 'getWebmcpStatus',
  description:
    'State of the MCP endpoint: whether it is serving, its transport and protocol version, how many tools, resources and prompts it publishes, sessions (stateless: none outlives its request; counts of initialize and other requests this process answered), and tool calls (this process since start, and all processes over the last 24 hours from the dispatch record).',
  response: StatusData,
  examples: [{ summary: 'MCP server state' }],
  async handler(_input, call) {
    const webmcp = call.services.webmcp;
    const counters = webmcp.counters();
    return {
      data: {
        server: {
          state: webmcp.isAttached() ? ('serving' as const) : ('not_started' as const),
          endpoint: `${call.baseUrl}${MCP_PATH}`,
          transport: 'streamable-http' as const,
          protocol_version: LATEST_PROTOCOL_VERSION,
          session_mode: 'stateless' as const,
          started_at: iso(counters.startedAt),
        },
        tools: webmcp.tools().length,
        resources: resourceCount(),
        prompts: PLAYBOOKS.length,
        sessions: { mode: 'stateless' as const, active: 0, initialized_since_start: counters.initializeRequests, requests_since_start: counters.mcpRequests },
        calls: { since_start: counters.calls, last_24h: await webmcp.recentCalls() },
      },
    };
  },
});

const tools = defineRoute({
  operationId: 'getWebmcpTools',
  description:
    "The MCP tools you may see, grouped in toolsets: one tool per implemented operation of public discovery (name = operationId; description with an example; inputSchema = the operation's path and query parameters by name with their OpenAPI schemas, the JSON body as \"body\"; annotations; _meta['bosun/operation'] = method, path, access class, scopes, cost hint, toolset). toolsets=default answers exactly the operation tools /mcp lists to a client that names no toolset (tools/list adds the three meta-tools list_available_toolsets, get_toolset_tools, enable_toolset); operator tools appear only for the operator and agents holding ops:read. Planned operations never appear; implemented ones without a tool are listed in excluded with the reason.",
  query: ToolsQuery,
  response: ToolsData,
  examples: [{ summary: 'Every tool you may see' }, { summary: 'The default toolsets, as tools/list answers without a choice', query: { toolsets: 'default' } }],
  async handler({ query }, call) {
    const all = call.services.webmcp.tools();
    const operator = seesOperatorTools(call.caller);
    const list = toolsIn(all, parseSelection(query.toolsets ?? ALL_SELECTION, operator, 'query.toolsets'), operator);
    const toolsets = visibleToolsets(operator).map((t) => ({ name: t.name, title: t.title, description: t.description, default: t.default, tool_count: toolsIn(all, [t.name], operator).length }));
    return { data: { tools: list, count: list.length, excluded: call.services.webmcp.excluded(), toolsets } };
  },
});

const playbooks = defineRoute({
  operationId: 'getWebmcpPlaybooks',
  description:
    'Documented multi-step recipes, each step a tool with its arguments and the credential to send; a value written {"$from":{"step":N,"pointer":"/data/…"}} is taken from step N\'s answer (JSON Pointer into its envelope). Each playbook is also an MCP prompt of the same name (prompt holds its text).',
  response: PlaybooksData,
  examples: [{ summary: 'The playbooks' }],
  async handler() {
    return {
      data: {
        playbooks: PLAYBOOKS.map((p) => {
          const filled = withArguments(p);
          return {
            id: p.id,
            title: p.title,
            description: p.description,
            arguments: (p.arguments ?? []).map((a) => ({ name: a.name, description: a.description, default: a.default })),
            prompt: playbookPromptText(filled),
            steps: filled.steps.map((s) => ({ ...s })),
          };
        }),
        reference_syntax: '{"$from":{"step":N,"pointer":"/data/..."}}: the value at that JSON Pointer (RFC 6901) in the envelope step N answered (steps count from 1).',
      },
    };
  },
});

function toolCaller(call: CallContext): ToolCaller {
  const header = (name: string) => {
    const v = call.headers[name];
    return typeof v === 'string' ? v : undefined;
  };
  const authorization = header('authorization');
  const gone = new AbortController();
  call.onClose(() => gone.abort());
  return {
    caller: call.caller,
    ...(authorization !== undefined ? { authorization } : {}),
    ip: call.ip,
    requestId: call.requestId,
    channel: 'dispatch',
    baseUrl: call.baseUrl,
    signal: gone.signal,
  };
}

const dispatch = defineRoute({
  operationId: 'postWebmcpDispatch',
  description:
    "Calls one MCP tool by name over plain HTTP, with your own key: the call runs through the same pipeline as the operation's own URL (access class, scopes, limits, cost), and data.result is the operation's own envelope (ok or error; its status in http_status). Both the dispatch and the inner call count against your limits and cost their own units. Arguments are the tool's inputSchema (path and query parameters by name, the JSON body as \"body\"). Recorded for /v1/webmcp/dispatch/health and the operator's audit (arguments redacted).",
  body: DispatchBody,
  response: DispatchData,
  errors: ['tool_not_found'],
  examples: [
    { summary: 'Ping through dispatch', body: { tool: 'getPing', arguments: {} } },
    { summary: 'Search ports', body: { tool: 'getPortsSearch', arguments: { locode: 'NLRTM' } } },
  ],
  async handler({ body }, call) {
    callingAgent(call);
    const outcome = await call.services.webmcp.call(body.tool, body.arguments ?? {}, toolCaller(call));
    const operation = outcome.tool._meta[OPERATION_META_KEY];
    return {
      data: {
        tool: outcome.tool.name,
        operation: { method: operation.method, path: operation.path },
        http_status: outcome.status,
        inner_request_id: outcome.innerRequestId,
        result: outcome.json ?? outcome.text,
      },
    };
  },
});

const health = defineRoute({
  operationId: 'getWebmcpDispatchHealth',
  description:
    'Success and error rates and latency of recorded tool calls (POST /v1/webmcp/dispatch and MCP tools/call) over the last `hours` (default 24, at most 720): overall, by channel, by tool, and the error codes answered. Aggregates only: no caller or argument appears.',
  query: HealthQuery,
  response: HealthData,
  examples: [{ summary: 'Last 24 hours' }, { summary: 'Last week', query: { hours: 168 } }],
  async handler({ query }, call) {
    return { data: await call.services.webmcp.health(query.hours ?? 24) };
  },
});

const audit = defineRoute({
  operationId: 'getWebmcpDispatchAudit',
  description:
    'Who dispatched what, when, and the outcome (operator only): every recorded tool call, newest first, with the caller, both request ids, status, error code, latency, cost, and the arguments with credentials and secrets redacted, long text cut and write bodies reduced to their field names. Filters agent_id, tool, channel; signed cursor; records are kept 30 days.',
  query: AuditQuery,
  response: AuditData,
  errors: ['cursor_invalid'],
  examples: [{ summary: 'Newest dispatches', query: { limit: 20 } }],
  async handler({ query }, call) {
    return {
      data: await call.services.webmcp.audit({
        limit: query.limit ?? 50,
        ...(query.agent_id !== undefined ? { agentId: query.agent_id } : {}),
        ...(query.tool !== undefined ? { tool: query.tool } : {}),
        ...(query.channel !== undefined ? { channel: query.channel } : {}),
        ...(query.cursor !== undefined ? { cursor: query.cursor } : {}),
      }),
    };
  },
});

export const webmcpRoutes: RouteDefinition[] = [bootstrap, status, tools, playbooks, dispatch, health, audit];
