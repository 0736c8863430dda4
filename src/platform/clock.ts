/** The one source of time. Logic takes a Clock; nothing else calls Date.now(). */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that only moves when told: replaying recorded data, or stepping through limits. */
export class ManualClock implements Clock {
  constructor(private current: number) {}
  now(): number {
    return this.current;
  }
  set(ms: number): void {
    this.current = ms;
  }
  advance(ms: number): void {
    this.current += ms;
  }
}

/** The one ISO 8601 form of an instant in answers, logs and CLI output: UTC with milliseconds. */
export const iso = (ms: number): string => new Date(ms).toISOString();
export const isoOrNull = (ms: number | null): string | null => (ms === null ? null : iso(ms));
/** Milliseconds of an ISO 8601 text (NaN when it is not one). */
export const parseIso = (text: string): number => Date.parse(text);
export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
