import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ImplementedOperation } from '../catalog/catalog.js';
import { AppError, type ErrorCode } from '../platform/errors.js';

/**
 * Input rules applied at the edge, before any operation's own schema, identically on every store
 * (docs/decisions/012-faults-and-hostile-input.md): PostgreSQL refuses NUL bytes in text and
 * integers outside int4, SQLite accepts both, so Bosun refuses them itself with a 400 naming the field.
 */

/** int4, the narrowest integer column type input integers are stored in. */
export const INT_MAX = 2 ** 31 - 1;
export const INT_MIN = -(2 ** 31);

/** Every C0 control character and DEL: never valid in a query string or a path segment. */
const CONTROL_ANY = /[\u0000-\u001f\u007f]/;
/** In JSON body text, TAB, LF and CR are ordinary text; every other C0 control character and DEL is not. */
const CONTROL_BODY = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

type Part = 'query' | 'params' | 'body';
const PARTS = ['params', 'query', 'body'] as const;

function problem(text: string, part: Part): string | null {
  if ((part === 'body' ? CONTROL_BODY : CONTROL_ANY).test(text)) {
    const code = text.codePointAt(text.search(part === 'body' ? CONTROL_BODY : CONTROL_ANY))!;
    return `contains the control character U+${code.toString(16).toUpperCase().padStart(4, '0')}, which is not accepted`;
  }
  if (LONE_SURROGATE.test(text)) return 'contains a lone UTF-16 surrogate (not valid Unicode text)';
  return null;
}

/** Anything that might be refused: any C0 control character, DEL or surrogate (a cheap first pass; most input has none). */
const SUSPECT = /[\u0000-\u001f\u007f\ud800-\udfff]/;

/**
 * How deeply request input may nest (objects and arrays): far beyond any operation's schema, far below
 * anything that could exhaust a stack. Deeper input is refused with 400 invalid_request (issue 24).
 */
export const MAX_INPUT_DEPTH = 64;

const tooDeep = (part: Part) => ({ field: part, message: `nests objects and arrays deeper than ${MAX_INPUT_DEPTH} levels, which is not accepted` });

/**
 * Whether JSON text nests deeper than MAX_INPUT_DEPTH, by counting brackets outside strings: one linear
 * pass over the text before it is parsed, so no parser ever sees (or recurses into) a deeper document.
 */
export function jsonNestsTooDeep(text: string): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_INPUT_DEPTH) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

interface Pending {
  value: unknown;
  /** Field path to this value, built only when a suspect string was found (null: not tracked). */
  path: string[] | null;
  depth: number;
}

/**
 * The first offending string in a parsed value (object keys included), with its field path, or a
 * refusal of input nested deeper than MAX_INPUT_DEPTH. Iterative (an explicit stack, depth first in
 * document order): no input can exhaust the call stack. A first pass without paths finds most input clean.
 */
export function findInvalidText(value: unknown, part: Part): { field: string; message: string } | null {
  const suspect = scan(value, part, false);
  return suspect === 'clean' ? null : suspect === 'suspect' ? (scan(value, part, true) as { field: string; message: string } | null) : suspect;
}

function scan(root: unknown, part: Part, withPaths: boolean): 'clean' | 'suspect' | { field: string; message: string } | null {
  const stack: Pending[] = [{ value: root, path: withPaths ? [] : null, depth: 0 }];
  const fieldOf = (path: string[] | null) => [part, ...(path ?? [])].join('.');
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop()!;
    if (typeof value === 'string') {
      if (!withPaths) {
        if (SUSPECT.test(value)) return 'suspect';
        continue;
      }
      const why = problem(value, part);
      if (why) return { field: fieldOf(path), message: why };
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_INPUT_DEPTH) return tooDeep(part);
    const children: Pending[] = [];
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) children.push({ value: value[i], path: path && [...path, String(i)], depth: depth + 1 });
    } else {
      for (const key in value) {
        if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
        if (!withPaths) {
          if (SUSPECT.test(key)) return 'suspect';
        } else {
          const keyProblem = problem(key, part);
          if (keyProblem) return { field: fieldOf(path), message: `has a property name that ${keyProblem}` };
        }
        children.push({ value: (value as Record<string, unknown>)[key], path: path && [...path, key], depth: depth + 1 });
      }
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return withPaths ? null : 'clean';
}

/**
 * Harbor operations answer bad body input with their own code (harbor-interface part 7): an
 * operation declaring one of these gets the edge's body refusals in that code, same field and message.
 */
const BODY_INPUT_CODES: readonly ErrorCode[] = ['help_request_input_invalid', 'help_response_invalid', 'help_report_invalid', 'profile_input_invalid'];

/** The types a schema admits, its anyOf / oneOf alternatives included. */
function typesOf(schema: unknown): string[] {
  if (schema === null || typeof schema !== 'object') return [];
  const s = schema as { type?: unknown; anyOf?: unknown[]; oneOf?: unknown[] };
  const own = Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === 'string' ? [s.type] : [];
  return [...own, ...[...(s.anyOf ?? []), ...(s.oneOf ?? [])].flatMap(typesOf)];
}

/** Query and path parameters typed integer (and not string), by part: their text must be decimal digits. */
function integerParameters({ route }: ImplementedOperation): Array<{ part: 'query' | 'params'; name: string }> {
  const out: Array<{ part: 'query' | 'params'; name: string }> = [];
  for (const part of ['params', 'query'] as const) {
    const properties = (route[part] as { properties?: Record<string, unknown> } | undefined)?.properties ?? {};
    for (const [name, schema] of Object.entries(properties)) {
      const types = typesOf(schema);
      const items = typesOf((schema as { items?: unknown }).items);
      if ((types.includes('integer') || (types.includes('array') && items.includes('integer'))) && !types.includes('string')) out.push({ part, name });
    }
  }
  return out;
}

/** An integer as text in a query string or a path: optional minus and decimal digits, nothing else. */
const DECIMAL_INTEGER = /^-?[0-9]+$/;

/**
 * The text of an integer parameter that is not a decimal integer. AJV's coercion (coerceTypes) takes
 * whatever Number() takes: "0x10" (16), "1e2", " 16", "0b1"; the edge refuses them first, for every
 * operation at once (issue 24 item 7).
 */
function nonDecimalInteger(req: FastifyRequest, integers: ReadonlyArray<{ part: 'query' | 'params'; name: string }>): AppError | null {
  for (const { part, name } of integers) {
    const value = (req[part] as Record<string, unknown> | undefined)?.[name];
    for (const text of Array.isArray(value) ? value : [value]) {
      if (typeof text === 'string' && !DECIMAL_INTEGER.test(text)) {
        const field = `${part}.${name}`;
        return new AppError('invalid_request', `${field} must be a decimal integer (digits, optionally after a minus sign), got ${JSON.stringify(text.slice(0, 40))}`, { field });
      }
    }
  }
  return null;
}

/** preValidation hook: refuses control characters and lone surrogates in query, path and body, and integer parameters that are not decimal. */
export function rejectInvalidText(operations: readonly ImplementedOperation[]) {
  const bodyCodes = new Map<string, ErrorCode>();
  const integers = new Map<string, Array<{ part: 'query' | 'params'; name: string }>>();
  for (const operation of operations) {
    const { entry, route } = operation;
    const code = BODY_INPUT_CODES.find((c) => route.errors?.includes(c));
    if (code) bodyCodes.set(entry.operationId, code);
    const named = integerParameters(operation);
    if (named.length > 0) integers.set(entry.operationId, named);
  }
  // callback-style hook (no promise per request); most requests carry no suspect character at all
  return (req: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void): void => {
    // a route answering its own protocol's errors (the JSON-RPC of /mcp) checks its body itself
    const ownBody = (req.routeOptions.config as { ownBodyTextRules?: boolean } | undefined)?.ownBodyTextRules === true;
    for (const part of PARTS) {
      if (part === 'body' && ownBody) continue;
      const found = findInvalidText(req[part], part);
      if (!found) continue;
      const operationId = (req as { bosun?: { entry: { operationId: string } | null } }).bosun?.entry?.operationId;
      const code = (part === 'body' && operationId && bodyCodes.get(operationId)) || 'invalid_request';
      done(new AppError(code, `${found.field} ${found.message}`, { field: found.field }));
      return;
    }
    const operationId = (req as { bosun?: { entry: { operationId: string } | null } }).bosun?.entry?.operationId;
    const named = operationId ? integers.get(operationId) : undefined;
    const notDecimal = named ? nonDecimalInteger(req, named) : null;
    done(notDecimal ?? undefined);
  };
}

/**
 * Gives every integer without an explicit bound the int4 range and every number without one the
 * finite range (so "1e400" coerced to Infinity is refused), on a copy of a request schema, before
 * it is compiled. Explicit bounds in a schema always win.
 */
export function boundNumbers<S>(schema: S): S {
  if (Array.isArray(schema)) return schema.map((s) => boundNumbers(s)) as S;
  if (schema === null || typeof schema !== 'object') return schema;
  const source = schema as Record<string | symbol, unknown>;
  const out: Record<string | symbol, unknown> = {};
  for (const key of Reflect.ownKeys(source)) {
    const value = source[key];
    out[key] = typeof key === 'string' && key !== 'default' && key !== 'examples' && key !== 'const' && key !== 'enum' ? boundNumbers(value) : value;
  }
  const types = Array.isArray(out.type) ? (out.type as string[]) : [out.type];
  const integer = types.includes('integer');
  const number = types.includes('number');
  if (integer || number) {
    if (out.maximum === undefined && out.exclusiveMaximum === undefined) out.maximum = integer && !number ? INT_MAX : Number.MAX_VALUE;
    if (out.minimum === undefined && out.exclusiveMinimum === undefined) out.minimum = integer && !number ? INT_MIN : -Number.MAX_VALUE;
  }
  return out as S;
}
