import { DAY, HOUR } from '../platform/clock.js';

/**
 * Chokepoint transits summed per gate, direction, UTC day and hour of exit (docs/decisions/155). The cell of
 * hour h of a day holds the sums of the transits that left the gate from the start of that day to the end of
 * hour h: hour 23 is the day's total, and the transits of a day up to any hour are one cell. A day's cells
 * exist from the hour of its first transit on; an hour before it has none (nothing had left yet).
 */
export const HOURS_PER_DAY = 24;
export const LAST_HOUR = HOURS_PER_DAY - 1;

/** The UTC day (its start, ms) and hour of the day (0–23) of a time. */
export function cellOf(t: number): { day: number; hour: number } {
  const day = Math.floor(t / DAY) * DAY;
  return { day, hour: Math.floor((t - day) / HOUR) };
}

/** A mean speed as the cells sum it: in tenths of a knot, the precision the detector writes. */
export const speedTenthsOf = (speedKn: number) => Math.round(speedKn * 10);
