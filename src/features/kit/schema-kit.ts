// The schema primitives every feature's schemas are built from: one definition each (issue 25).
// Feature schema files import these instead of declaring their own (eslint: no-restricted-syntax in schemas).
import { Type, type TSchema } from '@sinclair/typebox';

/** A value or null; the description, when given, documents the union. */
export const Nullable = <T extends TSchema>(schema: T, description?: string) => Type.Union([schema, Type.Null()], description ? { description } : {});

/**
 * The page-size (or row-count) query parameter: an optional integer 1..max that defaults to `fallback`.
 * `description` replaces the standard text where the parameter counts something other than a page.
 */
export const Limit = (max: number, fallback: number, description = `Page size, 1-${max} (default ${fallback}).`) =>
  Type.Optional(Type.Integer({ minimum: 1, maximum: max, default: fallback, description }));

/** The paging cursor query parameter: the `next_cursor` of the previous page, opaque and signed. */
export const Cursor = (maxLength = 200, description = 'next_cursor of the previous page.') => Type.Optional(Type.String({ minLength: 1, maxLength, description }));

/** The `next_cursor` field of a paged answer. */
export const NextCursor = Type.Union([Type.String(), Type.Null()], { description: 'Pass as cursor for the next page; null on the last page.' });

/** What a window of the route analytics covers (kit/time-window.ts coverageOf): spread into the window's object. */
export const CoverageFields = {
  coverage_start: Nullable(Type.String(), "Start of the window's oldest UTC day with stored data (ISO 8601); null when no day has data. Days before it are missing, not zero traffic."),
  days_with_data: Type.Integer({ minimum: 0, description: 'Days of the window from coverage_start on (the day the store began counts).' }),
};
