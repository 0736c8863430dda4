import type { Readable, Writable } from 'node:stream';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ErrorCode as McpErrorCode, GetPromptRequestSchema, ListPromptsRequestSchema, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { AppError } from '../../http/errors.js';
import { toolRequest, toolResult, type BosunTool } from './tools.js';

interface RemotePlaybook {
  id: string;
  title: string;
  description: string;
  prompt: string;
}

export interface BridgeOptions {
  baseUrl: string;
  /** The agent key (or operator token) sent with every call; none: public tools only. */
  apiKey?: string;
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
  const { playbooks } = (await fetchEnvelope(`${base}/v1/webmcp/playbooks`, options.apiKey)) as { playbooks: RemotePlaybook[] };
  const byName = new Map(tools.map((t) => [t.name, t]));

  const server = new Server({ name: 'bosun', title: `Bosun at ${base}`, version: options.version }, { capabilities: { tools: { listChanged: false }, prompts: { listChanged: false } } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: tools as never[] }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = byName.get(request.params.name);
    if (!tool) throw new McpError(McpErrorCode.InvalidParams, `no tool named ${request.params.name}`);
    let call;
    try {
      call = toolRequest(tool, request.params.arguments ?? {});
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      return { content: [{ type: 'text' as const, text: JSON.stringify({ status: 'error', errors: [err.toDetail()] }) }], isError: true };
    }
    const headers: Record<string, string> = { accept: 'application/json' };
    if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
    if (call.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${base}${call.url}`, { method: call.method, headers, ...(call.body !== undefined ? { body: JSON.stringify(call.body) } : {}) });
    return toolResult(res.status, res.headers.get('content-type') ?? undefined, await res.text());
  });
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: playbooks.map((p) => ({ name: p.id, title: p.title, description: p.description, arguments: [] })) }));
  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    const playbook = playbooks.find((p) => p.id === request.params.name);
    if (!playbook) throw new McpError(McpErrorCode.InvalidParams, `no prompt ${request.params.name}`);
    return { description: playbook.description, messages: [{ role: 'user' as const, content: { type: 'text' as const, text: playbook.prompt } }] };
  });

  const transport = new StdioServerTransport(options.stdin, options.stdout);
  transport.onerror = (err) => options.log(`bosun mcp: ${err.message}`);
  const closed = new Promise<void>((resolve) => {
    options.stdin.once('end', resolve);
    options.stdin.once('close', resolve);
  });
  await server.connect(transport);
  options.log(`bosun mcp: ${tools.length} tools of ${base} on stdio${options.apiKey ? '' : ' (no key: public tools only)'}`);
  await closed;
  await server.close();
}
