// One query vocabulary for every operation (issue 29, docs/decisions/119-one-query-vocabulary.md):
// a window length is `range` (24H, 7D, 30D, 90D) and the end of a window is `to`, wherever an operation
// counts its window in its own unit (days, hours, weeks, window_hours, window) or ends it at `until`.
// The operation's own names keep working; the shared names are converted to them before validation,
// so a handler sees one spelling.
import { Type, type TObject, type TSchema } from '@sinclair/typebox';
import { AppError } from '../platform/errors.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** A range as the interface writes it: a count and a unit, `24H`, `7D`, `30D`. */
export const RANGE_PATTERN = '^[0-9]{1,3}[HhDd]$';

/** Milliseconds of a range text (`24H`, `7D`), or null when it is not one. */
export function rangeMs(text: string): number | null {
  const match = /^([0-9]{1,3})([HhDd])$/.exec(text);
  return match ? Number(match[1]) * (match[2]!.toUpperCase() === 'H' ? HOUR_MS : DAY_MS) : null;
}

/** The window-length parameters operations name in their own unit, and that unit in milliseconds. */
// finest first: an operation that takes both hours and days takes range as hours
const WINDOW_UNITS: Readonly<Record<string, number>> = { hours: HOUR_MS, window_hours: HOUR_MS, days: DAY_MS, weeks: 7 * DAY_MS };

const unitName = (unitMs: number) => (unitMs === HOUR_MS ? 'hours' : unitMs === DAY_MS ? 'days' : 'weeks');
/** `n` of a unit written as a range: hours as H, days and weeks as D. */
const asRange = (n: number, unitMs: number) => (unitMs === HOUR_MS ? `${n}H` : `${(n * unitMs) / DAY_MS}D`);

/** How one operation's query takes the shared names: which of its parameters `range` and `to` stand for. */
export interface QueryAliases {
  range?: { param: string; unitMs: number; minimum: number; maximum: number } | { param: string; values: readonly string[] };
  to?: { param: string };
  /** Per parameter, values of the shared vocabulary this operation does not list, and its own value each stands for. */
  values?: Record<string, Record<string, string>>;
}

/**
 * A shared list of values for a parameter several operations take with lists of their own (ship_type):
 * for each value, the values it may stand for, in order of preference. An operation that lists a value
 * takes it as it is; otherwise the first of its own values the shared one stands for.
 */
export type ValueVocabulary = Readonly<Record<string, Readonly<Record<string, readonly string[]>>>>;

interface Bounds {
  minimum?: number;
  maximum?: number;
}

const literalValues = (schema: TSchema): string[] | null => {
  const members = (schema as { anyOf?: Array<{ const?: unknown }> }).anyOf;
  if (!members?.every((m) => typeof m.const === 'string')) return null;
  return members.map((m) => m.const as string);
};

/** The aliases an operation's query schema calls for (none when it already has `range`/`to` of its own). */
export function queryAliasesOf(query: TObject | undefined, vocabulary: ValueVocabulary = {}): QueryAliases {
  const props = (query?.properties ?? {}) as Record<string, TSchema>;
  const aliases: QueryAliases = {};
  for (const [param, table] of Object.entries(vocabulary)) {
    const own = props[param] ? literalValues(props[param]) : null;
    if (!own) continue;
    const mapped: Record<string, string> = {};
    for (const [value, standsFor] of Object.entries(table)) {
      const target = own.includes(value) ? undefined : standsFor.find((v) => own.includes(v));
      if (target !== undefined) mapped[value] = target;
    }
    if (Object.keys(mapped).length > 0) (aliases.values ??= {})[param] = mapped;
  }
  if (!('range' in props)) {
    const param = Object.keys(WINDOW_UNITS).find((name) => name in props);
    if (param) {
      const bounds = props[param] as Bounds;
      aliases.range = { param, unitMs: WINDOW_UNITS[param]!, minimum: bounds.minimum ?? 1, maximum: bounds.maximum ?? 999 };
    } else if (props.window) {
      const values = literalValues(props.window);
      if (values?.every((v) => rangeMs(v) !== null)) aliases.range = { param: 'window', values };
    }
  }
  if (!('to' in props) && 'until' in props) aliases.to = { param: 'until' };
  return aliases;
}

const describeRange = (alias: NonNullable<QueryAliases['range']>) =>
  'values' in alias
    ? `The window as a range: ${alias.values.map((v) => v.toUpperCase()).join(' or ')} (the same as ${alias.param}; give one of them).`
    : `The window as a range back from its end, like 24H, 7D or 30D (the same as ${alias.param} in ${unitName(alias.unitMs)}; give one of them).`;

/** The query schema with the shared names and values added beside the operation's own, documented as such. */
export function withQueryAliases<Q extends TObject>(query: Q, vocabulary: ValueVocabulary = {}): Q {
  const aliases = queryAliasesOf(query, vocabulary);
  if (!aliases.range && !aliases.to && !aliases.values) return query;
  const { properties, ...options } = query;
  const added: Record<string, TSchema> = {};
  for (const [param, mapped] of Object.entries(aliases.values ?? {})) {
    const schema = properties[param] as TSchema & { anyOf: TSchema[]; description?: string };
    // string keys only: TypeBox marks a schema's kind and optionality with symbol keys, set again below
    const { anyOf, description, ...rest } = Object.fromEntries(Object.entries(schema)) as typeof schema;
    const also = Object.entries(mapped).map(([value, own]) => `${value} (as ${own})`);
    const union = Type.Union([...anyOf, ...Object.keys(mapped).map((v) => Type.Literal(v))], {
      ...rest,
      description: `${description ? `${description} ` : ''}Also accepted, from the values other operations list: ${also.join(', ')}.`,
    });
    added[param] = (query.required ?? []).includes(param) ? union : Type.Optional(union);
  }
  if (aliases.range) added.range = Type.Optional(Type.String({ pattern: RANGE_PATTERN, description: describeRange(aliases.range) }));
  if (aliases.to) added.to = Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: `End of the window (the same as ${aliases.to.param}; give one of them).` }));
  return Type.Object({ ...properties, ...added }, options) as unknown as Q;
}

/**
 * Rewrites a query's shared names into the operation's own before validation. A range that is not a
 * whole number of the operation's unit, or outside its bounds, answers invalid_range naming `range`.
 */
export function applyQueryAliases(query: Record<string, unknown>, aliases: QueryAliases): void {
  for (const [param, mapped] of Object.entries(aliases.values ?? {})) {
    const given = query[param];
    if (typeof given === 'string' && Object.hasOwn(mapped, given)) query[param] = mapped[given];
  }
  if (aliases.range && query.range !== undefined) {
    const { param } = aliases.range;
    if (query[param] !== undefined) throw new AppError('invalid_request', `give range or ${param}, not both`, { field: 'query.range' });
    const text = query.range;
    if (typeof text !== 'string') throw new AppError('invalid_request', 'range must be given once, like 7D', { field: 'query.range' });
    const ms = rangeMs(text);
    if ('values' in aliases.range) {
      const value = aliases.range.values.find((v) => rangeMs(v) === ms);
      if (value === undefined) throw new AppError('invalid_range', `range must be ${aliases.range.values.map((v) => v.toUpperCase()).join(' or ')} here`, { field: 'query.range' });
      query[param] = value;
    } else {
      const { unitMs, minimum, maximum } = aliases.range;
      const count = ms === null ? NaN : ms / unitMs;
      if (!Number.isInteger(count) || count < minimum || count > maximum) {
        throw new AppError(
          'invalid_range',
          `range must be written like 24H or 7D and run from ${asRange(minimum, unitMs)} to ${asRange(maximum, unitMs)} in whole ${unitName(unitMs)} here (it is the same as ${param})`,
          {
            field: 'query.range',
          },
        );
      }
      query[param] = String(count);
    }
    delete query.range;
  }
  if (aliases.to && query.to !== undefined) {
    const { param } = aliases.to;
    if (query[param] !== undefined) throw new AppError('invalid_request', `give to or ${param}, not both`, { field: 'query.to' });
    query[param] = query.to;
    delete query.to;
  }
}
