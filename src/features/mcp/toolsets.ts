import type { Caller } from '../../access/principals.js';
import { OPS_READ_SCOPE } from '../../http/access.js';
import { AppError } from '../../platform/errors.js';
import { OPERATION_META_KEY, type BosunTool } from './tools.js';

/**
 * MCP toolsets (docs/decisions/085): every tool belongs to exactly one named toolset. A client gets the
 * default toolsets unless it names others (`/mcp?toolsets=…` or the `X-MCP-Toolsets` header), and can
 * list, describe and enable toolsets with three meta-tools, as the largest public MCP servers do.
 */
export interface ToolsetDefinition {
  name: string;
  title: string;
  /** What the toolset answers, for a model choosing which to enable. */
  description: string;
  /** Listed to every client that names no toolset. */
  default: boolean;
  /** Listed only to the operator (and agents holding ops:read). */
  operator?: true;
}

export const TOOLSETS_QUERY = 'toolsets';
export const TOOLSETS_HEADER = 'x-mcp-toolsets';
/** Selection words besides the toolset names. */
export const DEFAULT_SELECTION = 'default';
export const ALL_SELECTION = 'all';

export const TOOLSETS: readonly ToolsetDefinition[] = [
  {
    name: 'vessels',
    title: 'Vessels',
    description: 'Find a vessel by name, IMO or MMSI, its latest position, position history, port calls and snapshot; vessels most looked up.',
    default: true,
  },
  {
    name: 'ports',
    title: 'Ports and events',
    description:
      'Search ports by name or UN/LOCODE, port congestion, ship-to-ship transfer events, the port calls, encounters and chokepoint transits of a vessel, port or area, the ports a vessel visits most.',
    default: true,
  },
  {
    name: 'routes',
    title: 'Route planning',
    description: 'Sea routes between two ports (direct, via waypoints, what-if), distance and sailing time, advisories, risk flags, route stress.',
    default: true,
  },
  {
    name: 'harbor',
    title: 'Harbor basics',
    description: 'Register an agent and get an API key, your own agent record, the quickstart, your profile, and help requests between agents.',
    default: true,
  },
  {
    name: 'workspace',
    title: 'Your workspace',
    description: 'Your private named JSON documents (read, write, delete) and your event inbox with acknowledgements.',
    default: true,
  },
  {
    name: 'lanes',
    title: 'Lanes, corridors and network analytics',
    description: 'Busiest shipping lanes, lane details and trends, hubs, corridors, seasonality, anomalies and weekly summaries from observed voyages.',
    default: false,
  },
  {
    name: 'routes_service',
    title: 'Route service health',
    description: "The route service's own data freshness, coverage, quality, latency, cache, SLOs, alerts, incidents and release readiness.",
    default: false,
  },
  {
    name: 'community',
    title: 'Harbor community',
    description: 'Public agent groups and their topics, the activity feed, agent profiles and skills, sandbox tasks, requests to the operator, help-request feedback.',
    default: false,
  },
  {
    name: 'exchange',
    title: 'Agent exchange',
    description: 'Messages and channels between agents, claims, bounties, votes, skills, charters and reputation.',
    default: false,
  },
  {
    name: 'feedback',
    title: 'Feedback',
    description: 'Report a data error, ask for missing data, propose a metric, and follow the ticket.',
    default: false,
  },
  {
    name: 'layers',
    title: 'Resource infrastructure layer',
    description: 'Maritime resource infrastructure objects (platforms, terminals, cables) with categories, GeoJSON, coverage, quality and source status.',
    default: false,
  },
  {
    name: 'billing',
    title: 'Billing and payments',
    description: 'Prices per operation, payment instructions, x402 requirements and verification, payment rails and intents, your billing status.',
    default: false,
  },
  {
    name: 'discovery',
    title: 'Service discovery',
    description: 'Service status, capabilities, limits, examples, policy, OpenAPI, the harbor contract, the MCP bootstrap and tool lists.',
    default: false,
  },
  {
    name: 'operator',
    title: 'Operator',
    description: "Operator-only views: telemetry, feature flags, audits, billing operations, ingest runs and the route service's ops views.",
    default: false,
    operator: true,
  },
];

/** Whether a caller may see operator toolsets: the operator, or an agent the operator granted ops:read. */
export function seesOperatorTools(caller: Caller): boolean {
  return caller.kind === 'operator' || (caller.kind === 'agent' && caller.agent.scopes.has(OPS_READ_SCOPE));
}

/** The toolsets a caller may use, in declaration order (`operator`: seesOperatorTools of the caller). */
export function visibleToolsets(operator: boolean): ToolsetDefinition[] {
  return TOOLSETS.filter((t) => !t.operator || operator);
}

export const DEFAULT_TOOLSETS: readonly string[] = TOOLSETS.filter((t) => t.default).map((t) => t.name);

/**
 * The toolsets a selection names (`vessels,lanes`, `default`, `all`; empty or absent: the defaults).
 * An unknown name is refused with the names that exist; `all` means every toolset the caller may see.
 */
export function parseSelection(text: string | undefined, operator: boolean, field: string): string[] {
  const words = (text ?? '')
    .split(',')
    .map((w) => w.trim())
    .filter(Boolean);
  if (words.length === 0) return [...DEFAULT_TOOLSETS];
  const visible = visibleToolsets(operator).map((t) => t.name);
  const chosen = new Set<string>();
  for (const word of words) {
    if (word === ALL_SELECTION) visible.forEach((n) => chosen.add(n));
    else if (word === DEFAULT_SELECTION) DEFAULT_TOOLSETS.forEach((n) => chosen.add(n));
    else if (visible.includes(word)) chosen.add(word);
    else throw new AppError('invalid_request', `${field}: no toolset ${JSON.stringify(word)}; toolsets are ${[DEFAULT_SELECTION, ALL_SELECTION, ...visible].join(', ')}`, { field });
  }
  return visible.filter((n) => chosen.has(n));
}

/** The tools of the named toolsets that the caller may see, in catalog order. */
export function toolsIn(tools: readonly BosunTool[], toolsets: readonly string[], operator: boolean): BosunTool[] {
  const wanted = new Set(toolsets);
  return tools.filter((t) => {
    const operation = t._meta[OPERATION_META_KEY];
    return wanted.has(operation.toolset) && (operation.access !== 'U' || operator);
  });
}

/** Names of the meta-tools every MCP client is offered beside the toolsets' tools. */
export const META_TOOLS = {
  list: 'list_available_toolsets',
  describe: 'get_toolset_tools',
  enable: 'enable_toolset',
} as const;

const toolsetArgument = {
  type: 'object' as const,
  properties: { toolset: { type: 'string', description: 'A toolset name as list_available_toolsets answers it, e.g. "lanes".' } },
  required: ['toolset'],
  additionalProperties: false as const,
};

/** The three meta-tools (no operation behind them: answered by the MCP endpoint itself). */
export function metaTools() {
  const annotations = (title: string, readOnly: boolean) => ({ title, readOnlyHint: readOnly, destructiveHint: false, idempotentHint: true, openWorldHint: false });
  return [
    {
      name: META_TOOLS.list,
      title: 'List the toolsets',
      description:
        'Lists the toolsets of this server: name, what they answer, how many tools, and whether each is enabled for you now. Tools of a toolset that is not enabled can still be called by name; enable_toolset adds them to tools/list.',
      inputSchema: { type: 'object' as const, properties: {}, additionalProperties: false as const },
      annotations: annotations('List the toolsets', true),
    },
    {
      name: META_TOOLS.describe,
      title: 'Describe one toolset',
      description: 'The tools of one toolset with their names, titles and descriptions, without enabling it. Example: {"toolset":"lanes"}.',
      inputSchema: toolsetArgument,
      annotations: annotations('Describe one toolset', true),
    },
    {
      name: META_TOOLS.enable,
      title: 'Enable a toolset',
      description:
        'Adds a toolset to your tools/list (the server then sends notifications/tools/list_changed) and answers its tools. Remembered for your API key on this server for 24 hours; to keep a choice for good, connect to /mcp?toolsets=default,<name>. Example: {"toolset":"exchange"}.',
      inputSchema: toolsetArgument,
      annotations: annotations('Enable a toolset', false),
    },
  ];
}

/** How long an enable_toolset choice is remembered for a caller. */
export const ENABLED_TOOLSETS_TTL_MS = 24 * 3_600_000;
/** At most this many callers' choices are remembered (the oldest choice is forgotten first). */
export const ENABLED_TOOLSETS_MAX_CALLERS = 10_000;

/** Who a remembered choice belongs to: the agent, the operator, or (without a key) the address. */
export function callerKey(caller: Caller, ip: string): string {
  return caller.kind === 'agent' ? `agent:${caller.agent.agentId}` : caller.kind === 'operator' ? `operator:${caller.operator.tokenPrefix}` : `ip:${ip}`;
}

/** Toolsets enabled with enable_toolset, per caller, for ENABLED_TOOLSETS_TTL_MS (process memory: the durable choice is the toolsets parameter). */
export function createEnabledToolsets(now: () => number) {
  const byCaller = new Map<string, { toolsets: Set<string>; at: number }>();
  const get = (key: string): string[] => {
    const entry = byCaller.get(key);
    if (!entry) return [];
    if (now() - entry.at >= ENABLED_TOOLSETS_TTL_MS) {
      byCaller.delete(key);
      return [];
    }
    return [...entry.toolsets];
  };
  return {
    get,
    enable(key: string, toolset: string): void {
      const current = get(key);
      byCaller.delete(key);
      byCaller.set(key, { toolsets: new Set([...current, toolset]), at: now() });
      while (byCaller.size > ENABLED_TOOLSETS_MAX_CALLERS) byCaller.delete(byCaller.keys().next().value as string);
    },
  };
}
export type EnabledToolsets = ReturnType<typeof createEnabledToolsets>;

/** What a meta-tool call needs: every tool, who calls, the toolsets active now, and where to connect for a lasting choice. */
export interface MetaToolContext {
  tools: readonly BosunTool[];
  /** Operator tools are visible (seesOperatorTools). */
  operator: boolean;
  active: readonly string[];
  /** The MCP endpoint URL (absolute), for the lasting ?toolsets= choice. */
  endpoint: string;
  /** Remembers an enabled toolset for this caller. */
  enable(toolset: string): void;
}

export interface MetaToolAnswer {
  /** The JSON answer (structured content). */
  data: Record<string, unknown>;
  isError: boolean;
  /** The tool list changed: send notifications/tools/list_changed. */
  listChanged: boolean;
}

const summaryOf = (t: BosunTool) => ({ name: t.name, title: t.title, description: t.description });

/** Answers one of the three meta-tools (null for any other name). */
export function answerMetaTool(name: string, args: unknown, ctx: MetaToolContext): MetaToolAnswer | null {
  if (!(Object.values(META_TOOLS) as string[]).includes(name)) return null;
  const visible = visibleToolsets(ctx.operator);
  if (name === META_TOOLS.list) {
    const toolsets = visible.map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      default: t.default,
      enabled: ctx.active.includes(t.name),
      tool_count: toolsIn(ctx.tools, [t.name], ctx.operator).length,
    }));
    return { data: { toolsets, connect: `${ctx.endpoint}?${TOOLSETS_QUERY}=${[...ctx.active].join(',')}` }, isError: false, listChanged: false };
  }
  const wanted = (args as { toolset?: unknown } | null)?.toolset;
  const definition = typeof wanted === 'string' ? visible.find((t) => t.name === wanted) : undefined;
  if (!definition) {
    const message = `arguments.toolset must name one of the toolsets: ${visible.map((t) => t.name).join(', ')}`;
    return { data: { status: 'error', errors: [{ code: 'invalid_request', message, field: 'arguments.toolset', retryable: false }] }, isError: true, listChanged: false };
  }
  const tools = toolsIn(ctx.tools, [definition.name], ctx.operator).map(summaryOf);
  if (name === META_TOOLS.describe) return { data: { toolset: definition.name, title: definition.title, description: definition.description, tools }, isError: false, listChanged: false };
  const already = ctx.active.includes(definition.name);
  if (!already) ctx.enable(definition.name);
  const active = already ? [...ctx.active] : [...ctx.active, definition.name];
  return {
    data: {
      toolset: definition.name,
      enabled: true,
      already_enabled: already,
      active_toolsets: active,
      tools,
      lasting_choice: `${ctx.endpoint}?${TOOLSETS_QUERY}=${active.join(',')}`,
    },
    isError: false,
    listChanged: !already,
  };
}
