import { randomBytes } from 'node:crypto';
import type { CatalogView } from '../../catalog/catalog.js';
import type { Caller } from '../../access/principals.js';
import { DAY, HOUR, iso, type Clock } from '../../platform/clock.js';
import type { CursorCodec } from '../../http/cursor-codec.js';
import { AppError, ERROR_CODES, type ErrorCode } from '../../platform/errors.js';
import { INNER_BASE_HEADER, innerBaseHeaderValue } from '../../http/inner-base.js';
import { redactArguments } from './redact.js';
import { inToolTerms } from './tool-errors.js';
import { BODY_ARGUMENT, buildToolSet, OPERATION_META_KEY, streamExclusion, toolRequest, toolResult, type BosunTool, type ToolRequest, type ToolSet } from './tools.js';
import type { DispatchRecord, DispatchSample, WebmcpRepo } from './webmcp-repo.js';
import { percentile as nearestRank, round } from '../../platform/stats.js';

export const DISPATCH_RETENTION_DAYS = 30 as const;
/** The health view reads at most this many of the newest dispatches of its window. */
export const DISPATCH_HEALTH_CAP = 100_000;

export type DispatchChannel = 'dispatch' | 'mcp';

/** One HTTP request run in process through the whole route pipeline (Fastify's inject). */
export type InjectRequest = (request: {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
  remoteAddress: string;
  /** Aborted when the outer caller is gone: the in-process request (a stream above all) ends with it. */
  signal?: AbortSignal;
}) => Promise<{ statusCode: number; headers: Record<string, string | string[] | number | undefined>; body: string }>;

/** Who makes a tool call and from where: the outer request's credential is the inner call's credential. */
export interface ToolCaller {
  caller: Caller;
  /** The Authorization header as received (forwarded unchanged). */
  authorization?: string;
  /** Self-declared identity labels of the preview operations, forwarded unchanged. */
  agentName?: string;
  agentVendor?: string;
  ip: string;
  requestId: string;
  channel: DispatchChannel;
  /** The outer request's base URL: the inner request's links name it (docs/decisions/086). */
  baseUrl?: string;
  /** Aborted when the outer request's client is gone. */
  signal?: AbortSignal;
}

export interface ToolCallOutcome {
  tool: BosunTool;
  status: number;
  contentType: string | undefined;
  text: string;
  /** The parsed JSON answer (the envelope, or a bare JSON document), null for other content. */
  json: unknown;
  innerRequestId: string | null;
}

const percentile = (sorted: number[], p: number) => nearestRank(sorted, p, 2);

function rates(samples: DispatchSample[]) {
  const latencies = samples.map((s) => s.latency_ms).sort((a, b) => a - b);
  const server = samples.filter((s) => s.status >= 500).length;
  const client = samples.filter((s) => s.status >= 400 && s.status < 500).length;
  const n = samples.length;
  return {
    calls: n,
    success_rate: n ? round((n - server - client) / n) : null,
    client_error_rate: n ? round(client / n) : null,
    server_error_rate: n ? round(server / n) : null,
    latency_ms: { p50: percentile(latencies, 50), p95: percentile(latencies, 95), max: latencies.at(-1) ?? null },
  };
}

const headerText = (v: string | string[] | number | undefined) => (v === undefined ? undefined : Array.isArray(v) ? v.join(', ') : String(v));

function errorCodeOf(json: unknown): ErrorCode | null {
  const code = (json as { errors?: Array<{ code?: unknown }> } | null)?.errors?.[0]?.code;
  return typeof code === 'string' && code in ERROR_CODES ? (code as ErrorCode) : null;
}

/**
 * The webmcp layer: the tool set generated from the catalog, tool calls run through the HTTP route
 * pipeline (docs/decisions/046), the dispatch record they leave, and the views over it.
 */
export function createWebmcpService(deps: { repo: WebmcpRepo; clock: Clock; catalog: CatalogView; cursors: CursorCodec }) {
  const { repo, clock, cursors } = deps;
  let toolSet: ToolSet | null = null;
  let inject: InjectRequest | null = null;
  const startedAt = clock.now();
  const counters = { initializeRequests: 0, mcpRequests: 0, calls: { mcp: 0, dispatch: 0 } };

  const tools = () => (toolSet ??= buildToolSet(deps.catalog));

  function lookup(name: unknown, who: ToolCaller): BosunTool {
    const tool = typeof name === 'string' ? tools().byName.get(name) : undefined;
    if (tool) return tool;
    const streamPath = typeof name === 'string' ? tools().streamPaths.get(name) : undefined;
    if (streamPath !== undefined) throw new AppError('tool_not_found', `${name} has no tool: ${streamExclusion(streamPath, who.baseUrl)}`, { field: 'body.tool' });
    const excluded = tools().excluded.find((e) => e.operation_id === name);
    if (excluded) throw new AppError('tool_not_found', `${String(name)} has no tool: ${excluded.reason}`, { field: 'body.tool' });
    throw new AppError('tool_not_found', `no tool named ${JSON.stringify(name)}; GET /v1/webmcp/tools lists them`, { field: 'body.tool' });
  }

  async function record(
    tool: string,
    who: ToolCaller,
    args: unknown,
    write: boolean,
    outcome: { status: number; errorCode: string | null; latencyMs: number; costUnits: number; innerRequestId: string | null },
  ) {
    const row: DispatchRecord = {
      id: 'wd_' + randomBytes(10).toString('hex'),
      ts: clock.now(),
      channel: who.channel,
      tool,
      caller_kind: who.caller.kind,
      agent_id: who.caller.kind === 'agent' ? who.caller.agent.agentId : null,
      request_id: who.requestId,
      inner_request_id: outcome.innerRequestId,
      status: outcome.status,
      error_code: outcome.errorCode,
      latency_ms: Math.round(outcome.latencyMs * 100) / 100,
      cost_units: outcome.costUnits,
      arguments: JSON.stringify(redactArguments(args, { write, bodyArgument: BODY_ARGUMENT })),
    };
    await repo.insert(row);
  }

  /** Runs one request through the HTTP app with the caller's credential and identity labels. */
  async function run(request: ToolRequest, who: Omit<ToolCaller, 'channel' | 'requestId' | 'caller'>): Promise<Omit<ToolCallOutcome, 'tool'>> {
    if (!inject) throw new AppError('feature_unavailable', 'tool calls run through the HTTP app, which this process has not started');
    const headers: Record<string, string> = {};
    if (who.authorization !== undefined) headers.authorization = who.authorization;
    if (who.agentName !== undefined) headers['x-agent-name'] = who.agentName;
    if (who.agentVendor !== undefined) headers['x-agent-vendor'] = who.agentVendor;
    if (who.baseUrl !== undefined) headers[INNER_BASE_HEADER] = innerBaseHeaderValue(who.baseUrl);
    let payload: string | undefined;
    if (request.body !== undefined) {
      payload = JSON.stringify(request.body);
      headers['content-type'] = 'application/json';
    }
    const res = await inject({
      method: request.method,
      url: request.url,
      headers,
      ...(payload !== undefined ? { payload } : {}),
      remoteAddress: who.ip,
      ...(who.signal ? { signal: who.signal } : {}),
    });
    const contentType = headerText(res.headers['content-type']);
    let json: unknown = null;
    if (contentType?.includes('json')) {
      try {
        json = JSON.parse(res.body);
      } catch {
        json = null;
      }
    }
    return { status: res.statusCode, contentType, text: res.body, json, innerRequestId: headerText(res.headers['x-request-id']) ?? null };
  }

  return {
    tools: () => tools().tools,
    excluded: () => tools().excluded,
    /** Binds the HTTP app tool calls run through (createBosun); without it calls answer feature_unavailable. */
    attach(runner: InjectRequest): void {
      inject = runner;
    },
    isAttached: () => inject !== null,
    noteMcpRequest(initialize: boolean): void {
      counters.mcpRequests++;
      if (initialize) counters.initializeRequests++;
    },

    /** Calls one tool through the route pipeline with the caller's credential, records the dispatch, answers what the operation answered. */
    async call(name: unknown, args: unknown, who: ToolCaller): Promise<ToolCallOutcome> {
      const tool = lookup(name, who);
      const operation = tool._meta[OPERATION_META_KEY];
      const write = operation.method !== 'GET';
      const started = performance.now();
      let request;
      try {
        request = toolRequest(tool, args);
      } catch (err) {
        if (err instanceof AppError) await record(tool.name, who, args, write, { status: err.status, errorCode: err.code, latencyMs: performance.now() - started, costUnits: 0, innerRequestId: null });
        throw err;
      }
      counters.calls[who.channel]++;
      const res = inToolTerms(await run(request, who));
      const json = res.json;
      const cost = (json as { cost_units?: unknown } | null)?.cost_units;
      const innerRequestId = res.innerRequestId;
      await record(tool.name, who, args, write, {
        status: res.status,
        errorCode: res.status >= 400 ? errorCodeOf(json) : null,
        latencyMs: performance.now() - started,
        costUnits: typeof cost === 'number' ? cost : 0,
        innerRequestId,
      });
      return { tool, ...res };
    },

    toolResult: (outcome: ToolCallOutcome) => toolResult(outcome.status, outcome.contentType, outcome.text),

    /** Reads a GET operation's answer for an MCP resource (not a tool call: not recorded as a dispatch). */
    async read(operationId: string, who: ToolCaller, url?: string) {
      const entry = deps.catalog.byOperationId.get(operationId);
      if (!entry || entry.method !== 'GET' || !deps.catalog.isImplemented(operationId)) throw new Error(`${operationId} is not an implemented GET operation`);
      return run({ method: 'GET', url: url ?? entry.path }, who);
    },

    /** Process-local counters of the MCP endpoint (stateless: no session outlives its request). */
    counters: () => ({ startedAt, ...counters, calls: { ...counters.calls } }),

    /** Success and error rates and latency of recorded tool calls over the last `hours`. */
    async health(hours: number) {
      const since = clock.now() - hours * HOUR;
      const samples = await repo.window(since, DISPATCH_HEALTH_CAP);
      const byTool = new Map<string, DispatchSample[]>();
      for (const s of samples) byTool.set(s.tool, [...(byTool.get(s.tool) ?? []), s]);
      const codes = new Map<string, number>();
      for (const s of samples) if (s.error_code) codes.set(s.error_code, (codes.get(s.error_code) ?? 0) + 1);
      return {
        window: { hours, since: iso(since), until: iso(clock.now()), sample_size: samples.length, truncated: samples.length >= DISPATCH_HEALTH_CAP },
        overall: rates(samples),
        channels: {
          dispatch: rates(samples.filter((s) => s.channel === 'dispatch')),
          mcp: rates(samples.filter((s) => s.channel === 'mcp')),
        },
        tools: [...byTool].map(([tool, list]) => ({ tool, ...rates(list) })).sort((a, b) => b.calls - a.calls || a.tool.localeCompare(b.tool)),
        error_codes: [...codes].map(([code, count]) => ({ code, count })).sort((a, b) => b.count - a.count || a.code.localeCompare(b.code)),
      };
    },

    async audit(filter: { agentId?: string; tool?: string; channel?: DispatchChannel; cursor?: string; limit: number }) {
      const position = cursors.decodePosition(filter.cursor);
      const rows = await repo.list(
        { agentId: filter.agentId, tool: filter.tool, channel: filter.channel, before: position ? { ts: position.createdAt, id: position.id } : undefined },
        filter.limit + 1,
      );
      const { items, nextCursor } = cursors.page(rows, filter.limit, (r) => ({ createdAt: r.ts, id: r.id }));
      return {
        items: items.map((r) => ({
          dispatch_id: r.id,
          at: iso(r.ts),
          channel: r.channel,
          tool: r.tool,
          caller: { kind: r.caller_kind, agent_id: r.agent_id },
          request_id: r.request_id,
          inner_request_id: r.inner_request_id,
          http_status: r.status,
          outcome: r.status < 400 ? ('ok' as const) : ('error' as const),
          error_code: r.error_code,
          latency_ms: r.latency_ms,
          cost_units: r.cost_units,
          arguments: JSON.parse(r.arguments) as Record<string, unknown>,
        })),
        next_cursor: nextCursor,
        retention_days: DISPATCH_RETENTION_DAYS as typeof DISPATCH_RETENTION_DAYS,
      };
    },

    /** Calls recorded over the last 24 h, by channel (every process on the store). */
    async recentCalls() {
      const samples = await repo.window(clock.now() - DAY, DISPATCH_HEALTH_CAP);
      return {
        dispatch: samples.filter((s) => s.channel === 'dispatch').length,
        mcp: samples.filter((s) => s.channel === 'mcp').length,
        errors: samples.filter((s) => s.status >= 400).length,
      };
    },

    /** Retention job: dispatch records older than DISPATCH_RETENTION_DAYS are deleted. */
    async enforceRetention(): Promise<number> {
      return repo.deleteOlderThan(clock.now() - DISPATCH_RETENTION_DAYS * DAY);
    },
  };
}
export type WebmcpService = ReturnType<typeof createWebmcpService>;
