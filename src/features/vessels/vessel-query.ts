import type { BBox } from '../../fleet/geo.js';
import { AppError } from '../../platform/errors.js';
import { WATCHLIST_MAX_IDS } from './limits.js';
import { parseIso } from '../../platform/clock.js';

/** Query-string values of the vessel endpoints, parsed or answered with invalid_request on their field. */

/** `minLon,minLat,maxLon,maxLat` in degrees. */
export function parseBBox(text: string | undefined, field: string): BBox | undefined {
  if (text === undefined) return undefined;
  const parts = text.split(',').map((p) => p.trim());
  const numbers = parts.map(Number);
  if (parts.length !== 4 || parts.some((p) => p === '') || numbers.some((n) => !Number.isFinite(n))) {
    throw new AppError('invalid_request', 'bbox must be minLon,minLat,maxLon,maxLat in degrees', { field });
  }
  const [minLon, minLat, maxLon, maxLat] = numbers as [number, number, number, number];
  if (Math.abs(minLon) > 180 || Math.abs(maxLon) > 180 || Math.abs(minLat) > 90 || Math.abs(maxLat) > 90 || minLat > maxLat) {
    throw new AppError('invalid_request', 'bbox out of range: longitudes -180..180, latitudes -90..90, minLat <= maxLat', { field });
  }
  return { minLon, minLat, maxLon, maxLat };
}

/** ISO 8601, or epoch seconds (up to 11 digits) or milliseconds (12-13 digits). */
export function parseTime(text: string, field: string): number {
  const value = text.trim();
  let ms: number;
  if (/^\d{1,11}$/.test(value)) ms = Number(value) * 1000;
  else if (/^\d{12,13}$/.test(value)) ms = Number(value);
  else ms = /^\d{4}-\d{2}-\d{2}/.test(value) ? parseIso(value) : Number.NaN;
  if (!Number.isFinite(ms)) throw new AppError('invalid_request', `${field.split('.').pop()} must be ISO 8601 or epoch seconds/milliseconds`, { field });
  return ms;
}

/** A comma-separated id list of 1 to WATCHLIST_MAX_IDS entries. */
export function splitIds(text: string, field: string): string[] {
  const ids = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (ids.length === 0) throw new AppError('invalid_request', 'give at least one id', { field });
  if (ids.length > WATCHLIST_MAX_IDS) throw new AppError('invalid_request', `at most ${WATCHLIST_MAX_IDS} ids (got ${ids.length})`, { field });
  return ids;
}
