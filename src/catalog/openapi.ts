import type { TObject, TSchema } from '@sinclair/typebox';
import { ERROR_CODES, type ErrorCode } from '../platform/errors.js';
import type { CatalogView } from './catalog.js';
import type { CatalogEntry, OperationContract } from './types.js';

const ENVELOPE_PROPERTIES = {
  status: { type: 'string', enum: ['ok', 'error'] },
  request_id: { type: 'string' },
  as_of: { type: 'string', format: 'date-time' },
  freshness_seconds: { type: 'integer', minimum: 0 },
  cost_units: { type: 'number', minimum: 0 },
  policy: {
    type: 'object',
    required: ['attribution_required', 'attribution_text', 'usage_tier'],
    properties: {
      attribution_required: { type: 'boolean' },
      attribution_text: { type: 'string' },
      usage_tier: { type: 'string', enum: ['anonymous', 'free'] },
    },
  },
  confidence: { type: ['number', 'null'], minimum: 0, maximum: 1 },
  quality_flags: { type: 'array', items: { type: 'string' } },
} as const;
const ENVELOPE_REQUIRED = ['status', 'request_id', 'as_of', 'freshness_seconds', 'cost_units', 'policy', 'confidence', 'quality_flags', 'data', 'errors'];

const ERROR_DETAIL = {
  type: 'object',
  required: ['code', 'message', 'retryable'],
  properties: {
    code: { type: 'string', enum: Object.keys(ERROR_CODES) },
    message: { type: 'string' },
    field: { type: 'string' },
    retryable: { type: 'boolean' },
    docs: { type: 'string' },
  },
};

/** Strips TypeBox's symbol keys and undefined values: plain JSON Schema 2020-12. */
const plain = (schema: TSchema | object): Record<string, unknown> => JSON.parse(JSON.stringify(schema));

export function successEnvelopeSchema(data: TSchema): Record<string, unknown> {
  return {
    type: 'object',
    required: ENVELOPE_REQUIRED,
    properties: { ...ENVELOPE_PROPERTIES, status: { const: 'ok' }, data: plain(data), errors: { type: 'array', maxItems: 0 } },
  };
}

const IDEMPOTENCY_KEY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Your key for this write (8-128 visible ASCII characters, kept 24 h). The same key with the same request replays the stored result (header Idempotent-Replayed: true); with a different request it answers 409 idempotency_key_reused.',
  schema: { type: 'string', pattern: '^[\\x21-\\x7e]{8,128}$' },
};

function parameters(schema: TObject | undefined, location: 'query' | 'path', route: OperationContract) {
  if (!schema) return [];
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties).map(([name, prop]) => {
    const p = plain(prop);
    const example = route.examples.find((e) => (location === 'query' ? e.query : e.params)?.[name] !== undefined);
    return {
      name,
      in: location,
      required: location === 'path' ? true : required.has(name),
      ...(typeof p.description === 'string' ? { description: p.description } : {}),
      schema: p,
      ...(example ? { example: (location === 'query' ? example.query : example.params)![name] } : {}),
    };
  });
}

function errorStatuses(entry: CatalogEntry, route: OperationContract): Map<number, ErrorCode[]> {
  const codes: ErrorCode[] = ['internal_error', 'rate_limited'];
  if (route.query || route.body || route.params) codes.push('invalid_request');
  if (route.body) codes.push('invalid_json', 'body_too_large', 'unsupported_media_type');
  if (entry.access !== 'P') codes.push('auth_required');
  codes.push('auth_invalid');
  if (entry.access === 'K' && entry.scopes.length) codes.push('scope_required');
  if (entry.access === 'K') codes.push('agent_key_required');
  if (entry.access === 'U') codes.push('operator_required');
  codes.push(...(route.errors ?? []));
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set(codes)) {
    const status = ERROR_CODES[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return byStatus;
}

function operationObject(entry: CatalogEntry, route: OperationContract) {
  const security = entry.access === 'P' ? [{}, { bearerAuth: [] }] : [{ bearerAuth: [] }];
  const responses: Record<string, unknown> = {};
  const success = String(route.successStatus ?? 200);
  responses[success] = route.document
    ? {
        description: `Success: the envelope with the document in data; the bare document at ${route.document.barePath}${route.document.bareMediaType ? ` or with Accept: ${route.document.bareMediaType}` : ''}.`,
        content: {
          'application/json': { schema: successEnvelopeSchema(route.response) },
          ...(route.document.bareMediaType ? { [route.document.bareMediaType]: { schema: plain(route.response) } } : {}),
        },
      }
    : entry.bare
      ? {
          description: 'The document itself (not wrapped in the envelope).',
          content: { [entry.bare === 'json' ? 'application/json' : entry.bare === 'html' ? 'text/html' : 'text/plain']: { schema: plain(route.response) } },
        }
      : route.streamMediaType
        ? { description: `A stream (${route.streamMediaType}); the schema is that of one event's data.`, content: { [route.streamMediaType]: { schema: plain(route.response) } } }
        : route.alsoStreams
          ? {
              description: `Success: the envelope with this operation's data; with ${route.alsoStreams.when} the same document streamed bare as ${route.alsoStreams.mediaType}.`,
              content: { 'application/json': { schema: successEnvelopeSchema(route.response) }, [route.alsoStreams.mediaType]: { schema: plain(route.response) } },
            }
          : { description: "Success: the envelope with this operation's data.", content: { 'application/json': { schema: successEnvelopeSchema(route.response) } } };
  if (route.notModified) responses['304'] = { description: 'Not Modified: If-None-Match names the current version (the ETag); no body.' };
  for (const [status, codes] of [...errorStatuses(entry, route)].sort((a, b) => a[0] - b[0])) {
    responses[String(status)] = {
      description: `Error envelope; codes: ${codes.join(', ')}`,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
    };
  }
  const bodyExamples = route.examples.filter((e) => e.body !== undefined);
  return {
    operationId: entry.operationId,
    summary: entry.summary,
    description: route.description,
    tags: [entry.section],
    parameters: [...parameters(route.params, 'path', route), ...parameters(route.query, 'query', route), ...(route.idempotencyKey ? [IDEMPOTENCY_KEY_PARAMETER] : [])],
    ...(route.body
      ? {
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: plain(route.body),
                ...(bodyExamples.length ? { examples: Object.fromEntries(bodyExamples.map((e, i) => [`example${i + 1}`, { summary: e.summary, value: e.body }])) } : {}),
              },
            },
          },
        }
      : {}),
    responses,
    security,
    'x-cost-units-hint': entry.cost,
    'x-stability': entry.stability,
    'x-access-class': entry.access,
    ...(entry.scopes.length ? { 'x-required-scopes': entry.scopes } : {}),
    ...(entry.access === 'U' ? { 'x-required-scopes': ['ops:read'] } : {}),
    ...(entry.extension ? { 'x-bosun-extension': true } : {}),
    'x-examples': route.examples,
  };
}

/**
 * OpenAPI 3.1.0 of every implemented operation of public discovery, generated from the catalog;
 * `audience: 'operator'` adds the closed operations (harbor 4.3), marked x-discovery: closed.
 */
/** The discovery documents generated from the catalog (docs/billing.md, decision 048), linked from the OpenAPI info. */
export const DISCOVERY_DOCUMENTS = { llmsTxt: '/llms.txt', llmsFullTxt: '/llms-full.txt', agentCard: '/.well-known/agent-card.json' } as const;

export function buildOpenApi(view: CatalogView, baseUrl: string, options: { audience?: 'public' | 'operator' } = {}) {
  const paths: Record<string, Record<string, unknown>> = {};
  const operations = options.audience === 'operator' ? view.implemented : view.discoverable;
  for (const { entry, route } of operations) {
    paths[entry.path] ??= {};
    paths[entry.path]![entry.method.toLowerCase()] = { ...operationObject(entry, route), ...(entry.discovery === 'closed' ? { 'x-discovery': 'closed' } : {}) };
  }
  return {
    openapi: '3.1.0' as const,
    info: {
      title: 'Bosun maritime information service',
      version: '1.0.0',
      description:
        'Maritime data and agent collaboration for software agents. Every response is an envelope (status, request_id, as_of, freshness_seconds, cost_units, policy, confidence, quality_flags, data, errors). Register with POST /v1/agents/register to get an API key; send it as a Bearer token.',
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
      'x-llms-txt': `${baseUrl}${DISCOVERY_DOCUMENTS.llmsTxt}`,
      'x-llms-full-txt': `${baseUrl}${DISCOVERY_DOCUMENTS.llmsFullTxt}`,
      'x-agent-card': `${baseUrl}${DISCOVERY_DOCUMENTS.agentCard}`,
    },
    externalDocs: { description: 'Every operation in plain text for language models (llms.txt)', url: `${baseUrl}${DISCOVERY_DOCUMENTS.llmsTxt}` },
    servers: [{ url: baseUrl }],
    tags: [...new Set(operations.map((o) => o.entry.section))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'Agent API key (bsk_…) or operator token (bop_…).' },
      },
      schemas: {
        ErrorDetail: ERROR_DETAIL,
        ErrorEnvelope: {
          type: 'object',
          required: ENVELOPE_REQUIRED,
          properties: {
            ...ENVELOPE_PROPERTIES,
            status: { const: 'error' },
            data: { type: 'object' },
            errors: { type: 'array', minItems: 1, items: { $ref: '#/components/schemas/ErrorDetail' } },
          },
        },
      },
    },
  };
}
