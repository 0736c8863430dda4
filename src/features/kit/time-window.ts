import { DAY, iso } from '../../platform/clock.js';
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

/** The part of a window the store holds data for: where it begins, and how many of its periods have data. */
export interface Coverage {
  /** Start of the oldest period with data; null when no period of the window has data. */
  start: number | null;
  periods: number;
}

/**
 * The one window rule of the route analytics (issue 28, docs/decisions/133-analytics-windows-and-coverage.md):
 * a window [since, until) is cut into periods of `periodMs` back from `until`; a period has data when it begins
 * no earlier than 00:00 UTC of the day the store's data begins (`dataFrom`): the day the store began counts.
 * Periods before are missing, never zero traffic.
 */
export function coverageOf(window: { since: number; until: number }, dataFrom: number | null, periodMs: number = DAY): Coverage {
  const periods = Math.ceil((window.until - window.since) / periodMs);
  if (dataFrom === null) return { start: null, periods: 0 };
  const covered = Math.max(0, Math.min(periods, Math.floor((window.until - Math.floor(dataFrom / DAY) * DAY) / periodMs)));
  return { start: covered === 0 ? null : Math.max(window.since, window.until - covered * periodMs), periods: covered };
}

/** How an answer states its window's coverage: `coverage_start` (ISO, or null) and `days_with_data`. */
export function coverageFields(window: { since: number; until: number }, dataFrom: number | null) {
  const days = coverageOf(window, dataFrom, DAY);
  return { coverage_start: days.start === null ? null : iso(days.start), days_with_data: days.periods };
}
