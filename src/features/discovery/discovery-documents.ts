import type { TSchema } from '@sinclair/typebox';
import type { CatalogView, ImplementedOperation } from '../../catalog/catalog.js';
import { DISCOVERY_DOCUMENTS } from '../../catalog/openapi.js';
import type { CatalogEntry, OperationContract } from '../../catalog/types.js';
import { ERROR_CODES } from '../../platform/errors.js';

/** What the discovery documents are generated from: the catalog and a few facts of this deployment. */
export interface DiscoverySource {
  catalog: CatalogView;
  version: string;
  /** True when this deployment serves the MCP endpoint (POST /mcp); checked when a document is built. */
  mcpAvailable(): boolean;
}

export const AGENT_CARD_PROTOCOL_BINDING = 'OPENAPI-3.1+HTTP';

const SERVICE_SUMMARY =
  'Bosun is a maritime information service for software agents: vessel identity and delayed positions, port search and congestion, ship-to-ship events, sea route planning and route stress metrics, and an agent collaboration harbor (profiles, help requests, groups). Every answer is a JSON envelope stating its freshness, its cost in cost units and its attribution.';

const ACCESS_TEXT: Record<CatalogEntry['access'], string> = {
  P: 'public, no key',
  K: 'agent API key',
  U: 'operator or ops:read',
};

/** The first sentence of an operation's description, for one-line listings. */
export function firstSentence(text: string, max = 240): string {
  const match = /^(.+?[.!?])(\s|$)/s.exec(text);
  const sentence = (match ? match[1]! : text).replace(/\s+/g, ' ').trim();
  return sentence.length <= max ? sentence : sentence.slice(0, max - 1).trimEnd() + '…';
}

const operationUrl = (baseUrl: string, entry: CatalogEntry) => `${baseUrl}${entry.path}`;
const costText = (entry: CatalogEntry) => (entry.free ? `free (hint ${entry.cost})` : `${entry.cost} cost units`);

function bySection(operations: readonly ImplementedOperation[]): Map<string, ImplementedOperation[]> {
  const sections = new Map<string, ImplementedOperation[]>();
  for (const op of operations) {
    const list = sections.get(op.entry.section) ?? [];
    list.push(op);
    sections.set(op.entry.section, list);
  }
  return sections;
}

function connectLinks(source: DiscoverySource, baseUrl: string): string[] {
  const implemented = (id: string) => source.catalog.isImplemented(id);
  const links = [
    implemented('getAgentsQuickstart') && `- [Quickstart](${baseUrl}/v1/agents/quickstart): the steps from nothing to a registered agent, with this deployment's URLs`,
    implemented('getWellKnownOpenapiJson') && `- [OpenAPI 3.1](${baseUrl}/openapi.json): every operation with its parameters, schemas, errors, cost and access`,
    implemented('getCapabilities') && `- [Capabilities](${baseUrl}/v1/capabilities): the operations as JSON, grouped by section`,
    implemented('getBillingPricing') && `- [Pricing](${baseUrl}/v1/billing/pricing): what each operation charges in cost units (metered, not billed)`,
    implemented('getPolicy') && `- [Policy](${baseUrl}/v1/policy): attribution, usage tiers, data delays, retention and privacy`,
    source.mcpAvailable() && `- [MCP endpoint](${baseUrl}/mcp): Model Context Protocol (Streamable HTTP), one tool per operation`,
    implemented('getWebmcpBootstrap') && `- [WebMCP bootstrap](${baseUrl}/v1/webmcp/bootstrap): everything needed to connect a tool client`,
    `- [A2A agent card](${baseUrl}${DISCOVERY_DOCUMENTS.agentCard}): this service described for agent-to-agent discovery`,
  ];
  return links.filter((l): l is string => typeof l === 'string');
}

function header(source: DiscoverySource, baseUrl: string): string[] {
  return [
    '# Bosun',
    '',
    `> ${SERVICE_SUMMARY}`,
    '',
    `Base URL: ${baseUrl} (version ${source.version}). Register with POST ${baseUrl}/v1/agents/register to get an API key and send it as \`Authorization: Bearer <api_key>\`. Access: P needs no key, K needs an agent key, U is for the operator (or an agent holding ops:read). Failed calls charge 0 cost units.`,
    '',
    '## Connect',
    '',
    ...connectLinks(source, baseUrl),
  ];
}

/** llms.txt (llmstxt.org): a summary, the ways in, then one line per operation of public discovery, by section. */
export function buildLlmsTxt(source: DiscoverySource, baseUrl: string): string {
  const lines = header(source, baseUrl);
  for (const [section, operations] of bySection(source.catalog.discoverable)) {
    lines.push('', `## ${section}`, '');
    for (const { entry, route } of operations) {
      lines.push(`- [${entry.method} ${entry.path}](${operationUrl(baseUrl, entry)}): ${firstSentence(route.description)} (${entry.operationId}; ${ACCESS_TEXT[entry.access]}; ${costText(entry)})`);
    }
  }
  lines.push('', '## Optional', '', `- [Full text](${baseUrl}${DISCOVERY_DOCUMENTS.llmsFullTxt}): every operation with its full description, parameters and error codes`, '');
  return lines.join('\n');
}

/** A schema's type in a few words: literal unions become their values. */
function typeText(schema: TSchema): string {
  const s = schema as { type?: string | string[]; anyOf?: TSchema[]; const?: unknown; items?: TSchema; enum?: unknown[] };
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (s.anyOf) return s.anyOf.map(typeText).join(' | ');
  if (s.type === 'array' && s.items) return `array of ${typeText(s.items)}`;
  return Array.isArray(s.type) ? s.type.join(' | ') : (s.type ?? 'value');
}

function fieldLines(schema: TSchema | undefined, where: string): string[] {
  type Fields = { properties?: Record<string, TSchema & { description?: string }>; required?: string[]; anyOf?: Fields[] } | undefined;
  // a union documents its first alternative (e.g. the x402 v2 body that x402/verify accepts among any other)
  const s = (schema as Fields)?.anyOf?.[0]?.properties ? (schema as Fields)?.anyOf?.[0] : (schema as Fields);
  if (!s?.properties || Object.keys(s.properties).length === 0) return [];
  const required = new Set(s.required ?? []);
  return [
    `${where}:`,
    ...Object.entries(s.properties).map(
      ([name, field]) => `- ${name} (${typeText(field)}${required.has(name) ? ', required' : ''})${field.description ? `: ${field.description.replace(/\s+/g, ' ')}` : ''}`,
    ),
  ];
}

function operationSection(baseUrl: string, entry: CatalogEntry, route: OperationContract): string[] {
  const errors = route.errors ?? [];
  return [
    `### ${entry.method} ${entry.path}`,
    '',
    `operationId ${entry.operationId} · section ${entry.section} · access ${entry.access} (${ACCESS_TEXT[entry.access]}) · ${costText(entry)} · ${entry.stability}${entry.scopes.length ? ` · scopes ${entry.scopes.join(', ')}` : ''}`,
    `URL: ${operationUrl(baseUrl, entry)}`,
    '',
    route.description,
    ...[...fieldLines(route.params, 'Path parameters'), ...fieldLines(route.query, 'Query parameters'), ...fieldLines(route.body, 'Body fields')].flatMap((l, i, all) =>
      i === 0 || (l.endsWith(':') && !all[i - 1]!.endsWith(':')) ? ['', l] : [l],
    ),
    ...(errors.length
      ? ['', 'Errors of this operation (besides the common access, limit and input errors):', ...errors.map((code) => `- ${code} (HTTP ${ERROR_CODES[code].status}): ${ERROR_CODES[code].summary}`)]
      : []),
    ...(route.examples.length
      ? [
          '',
          'Examples:',
          ...route.examples.map(
            (e) =>
              `- ${e.summary}${e.query ? ` — query ${new URLSearchParams(Object.entries(e.query).map(([k, v]) => [k, String(v)])).toString()}` : ''}${e.body !== undefined ? ` — body ${JSON.stringify(e.body)}` : ''}`,
          ),
        ]
      : []),
    '',
  ];
}

/** llms-full.txt: llms.txt's header, then every operation of public discovery in full. */
export function buildLlmsFullTxt(source: DiscoverySource, baseUrl: string): string {
  const lines = header(source, baseUrl);
  lines.push(
    '',
    '## Envelope and errors',
    '',
    'Every response: status, request_id, as_of, freshness_seconds, cost_units, policy (attribution_required, attribution_text, usage_tier), confidence, quality_flags, data, errors. An error answer has status "error" and errors[] of {code, message, field?, retryable}; the HTTP status follows the code.',
  );
  for (const [section, operations] of bySection(source.catalog.discoverable)) {
    lines.push('', `## ${section}`, '');
    for (const { entry, route } of operations) lines.push(...operationSection(baseUrl, entry, route));
  }
  return lines.join('\n');
}

/** The A2A agent card (A2A 1.0 JSON): one skill per operation of public discovery, served over plain HTTP as OpenAPI describes. */
export function buildAgentCard(source: DiscoverySource, baseUrl: string, siteUrl: string) {
  const bearer = [{ schemes: { bearer: {} } }];
  return {
    name: 'Bosun',
    description: `${SERVICE_SUMMARY} Bosun answers plain HTTP operations (the interface below, described by OpenAPI 3.1 at ${baseUrl}/openapi.json); it does not run A2A message or task exchanges. Each skill is one operation: its id is the OpenAPI operationId.`,
    supportedInterfaces: [{ url: `${baseUrl}/openapi.json`, protocolBinding: AGENT_CARD_PROTOCOL_BINDING, protocolVersion: '1.0' }],
    provider: { url: siteUrl, organization: 'Bosun' },
    version: source.version,
    documentationUrl: `${baseUrl}${DISCOVERY_DOCUMENTS.llmsTxt}`,
    capabilities: { streaming: false, pushNotifications: false },
    securitySchemes: {
      bearer: { httpAuthSecurityScheme: { description: `Agent API key from POST ${baseUrl}/v1/agents/register (bsk_…), or the operator token (bop_…)`, scheme: 'Bearer' } },
    },
    defaultInputModes: ['application/json'],
    defaultOutputModes: ['application/json'],
    skills: source.catalog.discoverable.map(({ entry, route }) => ({
      id: entry.operationId,
      name: `${entry.method} ${entry.path}`,
      description: `${route.description} Access ${entry.access} (${ACCESS_TEXT[entry.access]}); ${costText(entry)}; URL ${operationUrl(baseUrl, entry)}.`,
      tags: [entry.section, `access:${entry.access}`, entry.stability],
      ...(route.examples.length ? { examples: route.examples.map((e) => e.summary) } : {}),
      ...(entry.access === 'P' ? {} : { securityRequirements: bearer }),
    })),
  };
}
