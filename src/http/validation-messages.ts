import type { CatalogEntry } from '../catalog/types.js';
import type { RouteDefinition } from './route.js';

interface SchemaError {
  keyword: string;
  instancePath?: string;
  schemaPath?: string;
  params?: Record<string, unknown>;
}

const show = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/**
 * The allowed values of a failed enum, const or union of literals, from the validator's errors: the
 * message then says "must be one of a, b, c" instead of "must be equal to constant". Null when the
 * first failure is of another kind (or a union has branches that are not literals).
 */
export function allowedValues(errors: readonly SchemaError[] | undefined): unknown[] | null {
  const first = errors?.[0];
  if (!first) return null;
  if (first.keyword === 'enum' && Array.isArray(first.params?.allowedValues)) return first.params.allowedValues as unknown[];
  if (first.keyword !== 'const') return null;
  const union = errors.find((e) => e.keyword === 'anyOf' && e.instancePath === first.instancePath && first.schemaPath?.startsWith(`${e.schemaPath}/`));
  if (!union) return [first.params?.allowedValue];
  const branches = errors.filter((e) => e !== union && e.schemaPath?.startsWith(`${union.schemaPath}/`));
  const values: unknown[] = [];
  for (const branch of branches) {
    if (branch.keyword === 'const') values.push(branch.params?.allowedValue);
    else if (branch.keyword === 'enum' && Array.isArray(branch.params?.allowedValues)) values.push(...(branch.params.allowedValues as unknown[]));
    else return null;
  }
  return [...new Set(values)];
}

export function allowedValuesText(values: readonly unknown[]): string {
  return values.length === 1 ? `must be ${show(values[0])}` : `must be one of ${values.map(show).join(', ')}`;
}

const LOCATIONS = ['params', 'query', 'body'] as const;
const QUALIFIED = /^(params|query|body|header|headers)(\.|$)/;

function propertyNames(schema: unknown, into: Set<string> = new Set()): Set<string> {
  if (!schema || typeof schema !== 'object') return into;
  const s = schema as { properties?: Record<string, unknown>; anyOf?: unknown[]; oneOf?: unknown[]; allOf?: unknown[] };
  for (const name of Object.keys(s.properties ?? {})) into.add(name);
  for (const branch of [...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])]) propertyNames(branch, into);
  return into;
}

/**
 * Error field paths are uniform: `params.x`, `query.x`, `body.x`. A field a service names bare
 * (`group_id`, `state`) is qualified by the request part of the operation that declares it.
 */
export function fieldQualifier(_entry: CatalogEntry, route: RouteDefinition): (field: string) => string {
  const names = { params: propertyNames(route.params), query: propertyNames(route.query), body: propertyNames(route.body) };
  return (field) => {
    if (QUALIFIED.test(field)) return field;
    const head = field.split(/[.[]/)[0]!;
    const location = LOCATIONS.find((l) => names[l].has(head));
    return location ? `${location}.${field}` : field;
  };
}
