import { DAY } from '../../platform/clock.js';
import { AppError } from '../../platform/errors.js';
import { rangeMs } from '../../http/query-vocabulary.js';

export { RANGE_PATTERN } from '../../http/query-vocabulary.js';

/** Milliseconds of a range text, or an invalid_range error naming the field and what is accepted. */
export function parseRange(text: string, field: string, maxMs: number): number {
  const ms = rangeMs(text);
  if (ms === null || ms <= 0 || ms > maxMs) {
    throw new AppError('invalid_range', `${field} must be a count of hours or days like 24H, 7D or 30D, at most ${maxMs / DAY} days`, { field: `query.${field}` });
  }
  return ms;
}

/** An ISO 8601 time or epoch milliseconds in a query, as epoch ms. */
export function parseTime(text: string, field: string): number {
  const ms = /^[0-9]{1,15}$/.test(text) ? Number(text) : Date.parse(text);
  if (!Number.isFinite(ms)) throw new AppError('invalid_request', `${field} must be an ISO 8601 time (e.g. 2026-11-24T06:00:00Z) or epoch milliseconds`, { field: `query.${field}` });
  return ms;
}

/**
 * The window of an events query: `from`/`to`, or `range` back from `to` (default `defaultRange`),
 * with `to` no later than the caller's horizon (docs/decisions/029-event-visibility.md).
 */
export function resolveWindow(query: { range?: string; from?: string; to?: string }, options: { horizon: number; defaultRangeMs: number; maxRangeMs: number }): { from: number; to: number } {
  if (query.range !== undefined && query.from !== undefined) throw new AppError('invalid_request', 'give range or from/to, not both', { field: 'query.range' });
  const to = Math.min(query.to !== undefined ? parseTime(query.to, 'to') : options.horizon, options.horizon);
  const from = query.from !== undefined ? parseTime(query.from, 'from') : to - (query.range !== undefined ? parseRange(query.range, 'range', options.maxRangeMs) : options.defaultRangeMs);
  if (from > to) throw new AppError('invalid_range', 'from must be before to', { field: 'query.from' });
  if (to - from > options.maxRangeMs) throw new AppError('invalid_range', `the window may span at most ${options.maxRangeMs / DAY} days`, { field: 'query.from' });
  return { from, to };
}
