import type { TSchema } from '@sinclair/typebox';
import type { FastifyError } from 'fastify';
import type { OperationContract } from '../catalog/types.js';
import type { ErrorDetail } from '../platform/errors.js';

/** At most this many details in one refusal (a body with many missing fields names them all up to here). */
export const MAX_VALIDATION_DETAILS = 20;

type SchemaError = NonNullable<FastifyError['validation']>[number];

/** Where an operation's documentation for agents is: its own examples, filtered (GET /v1/capabilities/examples). */
export function operationDocsUrl(baseUrl: string, operationId: string): string {
  return `${baseUrl}/v1/capabilities/examples?operation_id=${operationId}`;
}

const asSchema = (v: unknown) => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : null);

/** The property names an object schema allows at a JSON Pointer path of the instance (through arrays and unions). */
export function allowedNames(schema: TSchema | undefined, path: readonly string[]): string[] {
  let level: Array<Record<string, unknown>> = [asSchema(schema)].filter((s): s is Record<string, unknown> => s !== null);
  const expand = (list: Array<Record<string, unknown>>) =>
    list.flatMap((s) => [
      s,
      ...(['anyOf', 'oneOf', 'allOf'] as const).flatMap((k) => (Array.isArray(s[k]) ? (s[k] as unknown[]).map(asSchema).filter((x): x is Record<string, unknown> => x !== null) : [])),
    ]);
  for (const segment of path) {
    level = expand(level).flatMap((s) => {
      const properties = asSchema(s.properties);
      if (properties && segment in properties) return [asSchema(properties[segment])].filter((x): x is Record<string, unknown> => x !== null);
      const items = asSchema(s.items);
      return /^\d+$/.test(segment) && items ? [items] : [];
    });
  }
  return [...new Set(expand(level).flatMap((s) => Object.keys(asSchema(s.properties) ?? {})))];
}

const contextOf = (err: FastifyError) => (err.validationContext === 'querystring' ? 'query' : (err.validationContext ?? 'body'));
const pathOf = (e: SchemaError) => (e.instancePath ?? '').split('/').filter(Boolean);

/**
 * A validation refusal that says what to do (issue 29): an unknown parameter or field names the allowed
 * ones and links the operation's examples; a body missing several required fields names every one.
 * `first` is the detail the pipeline built from the first schema error.
 */
export function teachingDetails(first: ErrorDetail, err: FastifyError, operation: { operationId: string; route: OperationContract } | undefined, baseUrl: string): ErrorDetail[] {
  if (!operation) return [first];
  const docs = operationDocsUrl(baseUrl, operation.operationId);
  const errors = err.validation ?? [];
  const context = contextOf(err);
  const schema = context === 'query' ? operation.route.query : context === 'params' ? operation.route.params : operation.route.body;
  const head = errors[0];
  let message = first.message;
  if (head && typeof head.params?.additionalProperty === 'string') {
    const names = allowedNames(schema, pathOf(head));
    const where = context === 'query' ? 'query parameters' : 'fields here';
    message = `${message}; its ${where} are ${names.length ? names.join(', ') : 'none'} (examples: ${docs})`;
  }
  const details: ErrorDetail[] = [{ ...first, message, docs }];
  const seen = new Set([first.field]);
  for (const e of errors.slice(1)) {
    const missing = e.params?.missingProperty;
    if (e.keyword !== 'required' || typeof missing !== 'string') continue;
    const field = [context, ...pathOf(e), missing].join('.');
    if (seen.has(field)) continue;
    seen.add(field);
    details.push({ code: 'invalid_request', message: `${field} is required`, field, retryable: false, docs });
    if (details.length >= MAX_VALIDATION_DETAILS) break;
  }
  return details;
}
