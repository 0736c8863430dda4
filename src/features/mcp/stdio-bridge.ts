import type { Readable, Writable } from 'node:stream';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ErrorCode as McpErrorCode, ListResourcesRequestSchema, ListToolsRequestSchema, McpError, ReadResourceRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { AppError } from '../../platform/errors.js';
import { DOCUMENT_RESOURCES, docResources, documentText, servePlaybooksAsPrompts } from './mcp-endpoint.js';
import { toolRequest, toolResult, OPERATION_META_KEY, type BosunTool } from './tools.js';
import { answerMetaTool, metaTools, parseSelection, toolsIn } from './toolsets.js';

export interface BridgeOptions {
  baseUrl: string;
  /** The agent key (or operator token) sent with every call; none: public tools only. */
  apiKey?: string;
  /** The toolsets listed at start (toolsets.parseSelection; default: the default toolsets). */
  toolsets?: string;
  version: string;
  stdin: Readable;
  stdout: Writable;
  /** Where the bridge reports problems (stdout carries the protocol). */
  log(line: string): void;
}

async function fetchEnvelope(url: string, apiKey: string | undefined): Promise<any> {
  const res = await fetch(url, { headers: { accept: 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) } });
  const body = (await res.json()) as { status?: string; data?: unknown; errors?: Array<{ code: string; message: string }> };
  if (!res.ok || body.status !== 'ok') throw new Error(`${url} answered ${res.status} ${body.errors?.[0]?.code ?? ''} ${body.errors?.[0]?.message ?? ''}`.trim());
  return body.data;
}

/**
 * `bosun mcp`: the tools of a remote Bosun over stdio, for desktop MCP clients. The tool list comes from
 * the remote's GET /v1/webmcp/tools (the same list its /mcp serves) and each call goes to the
 * operation's own URL over HTTP, so the remote applies access, limits and cost exactly as for any call.
 * Resolves when the client closes standard input.
 */
export async function runStdioBridge(options: BridgeOptions): Promise<void> {
  const base = options.baseUrl.replace(/\/+$/, '');
  const { tools } = (await fetchEnvelope(`${base}/v1/webmcp/tools`, options.apiKey)) as { tools: BosunTool[] };
  const byName = new Map(tools.map((t) => [t.name, t]));
  // The remote lists operator tools only to a caller that may see them.
  const operator = tools.some((t) => t._meta[OPERATION_META_KEY].access === 'U');
  const active = parseSelection(options.toolsets, operator, '--toolsets');
  const headers = (extra: Record<string, string> = {}): Record<string, string> => ({ accept: 'application/json', ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}), ...extra });

  const server = new Server(
    { name: 'bosun', title: `Bosun at ${base}`, version: options.version },
    { capabilities: { tools: { listChanged: true }, prompts: { listChanged: false }, resources: { listChanged: false } } },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [...metaTools(), ...toolsIn(tools, active, operator)] as never[] }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const meta = answerMetaTool(request.params.name, request.params.arguments ?? {}, {
      tools,
      operator,
      active,
      endpoint: `${base}/mcp`,
      enable: (name) => void active.push(name),
    });
    if (meta) {
      if (meta.listChanged) await extra.sendNotification({ method: 'notifications/tools/list_changed' });
      return { content: [{ type: 'text' as const, text: JSON.stringify(meta.data) }], structuredContent: meta.data, isError: meta.isError };
    }
    const tool = byName.get(request.params.name);
    if (!tool) throw new McpError(McpErrorCode.InvalidParams, `no tool named ${request.params.name}`);
    let call;
    try {
      call = toolRequest(tool, request.params.arguments ?? {});
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      return { content: [{ type: 'text' as const, text: JSON.stringify({ status: 'error', errors: [err.toDetail()] }) }], isError: true };
    }
    const res = await fetch(`${base}${call.url}`, {
      method: call.method,
      headers: headers(call.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(call.body !== undefined ? { body: JSON.stringify(call.body) } : {}),
    });
    return toolResult(res.status, res.headers.get('content-type') ?? undefined, await res.text());
  });
  servePlaybooksAsPrompts(server);
  const documents = DOCUMENT_RESOURCES.map((doc) => ({ uri: `${base}${doc.path}`, name: doc.name, title: doc.title, mimeType: 'application/json', doc }));
  const guides = docResources();
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: [...documents, ...guides].map(({ uri, name, title, mimeType }) => ({ uri, name, title, mimeType })),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const document = documents.find((d) => d.uri === request.params.uri);
    if (document) {
      const res = await fetch(document.uri, { headers: headers() });
      const text = await res.text();
      if (!res.ok) throw new McpError(McpErrorCode.InternalError, `${document.uri} answered ${res.status}`);
      return { contents: [{ uri: document.uri, mimeType: document.mimeType, text: documentText(document.doc.bare, text, document.doc.bare ? null : JSON.parse(text)) }] };
    }
    const guide = guides.find((g) => g.uri === request.params.uri);
    if (!guide) throw new McpError(McpErrorCode.InvalidParams, `no resource ${request.params.uri}; resources/list names them`);
    return { contents: [{ uri: guide.uri, mimeType: guide.mimeType, text: await guide.read() }] };
  });

  const transport = new StdioServerTransport(options.stdin, options.stdout);
  transport.onerror = (err) => options.log(`bosun mcp: ${err.message}`);
  const closed = new Promise<void>((resolve) => {
    options.stdin.once('end', resolve);
    options.stdin.once('close', resolve);
  });
  await server.connect(transport);
  options.log(
    `bosun mcp: ${toolsIn(tools, active, operator).length} of ${tools.length} tools of ${base} on stdio (toolsets ${active.join(', ')})${options.apiKey ? '' : ' (no key: public tools only)'}`,
  );
  await closed;
  await server.close();
}
