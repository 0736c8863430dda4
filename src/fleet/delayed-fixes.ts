import type { Bus } from '../bus/bus.js';
import { MINUTE } from '../platform/clock.js';
import type { PositionRow } from './fleet-repo.js';
import { POSITIONS_TOPIC, type PositionsEvent } from './types.js';

/** The two store reads an answer is made of. */
export interface DelayedFixReads {
  newestUsableAtOrBefore(vslId: string, cutoff: number): Promise<PositionRow | undefined>;
  oldestUsableAfter(vslId: string, after: number): Promise<number | null>;
}

/**
 * What the store answered for one vessel: `row`, the newest usable position at or before the cutoff
 * it was asked with (`fixAt` its time, -Infinity without one), and `nextAt`, the time of the oldest
 * usable position after that cutoff (Infinity without one). No usable position lies between the two,
 * so the store answers `row` for every cutoff c with fixAt ≤ c < nextAt.
 */
interface Entry {
  row: PositionRow | undefined;
  fixAt: number;
  nextAt: number;
  askedAt: number;
}

/** Vessels remembered; the least recently read is dropped first. */
export const DELAYED_FIX_ENTRIES = 20_000;
/**
 * An entry is read again once asked with a cutoff this far from the one it was read with: the bus is
 * best effort (a lost Redis message, a writer on another process without a shared bus), so an entry
 * that missed a position is corrected within this much cutoff time.
 */
export const DELAYED_FIX_REREAD = MINUTE;

/**
 * The newest usable position of a vessel at or before a cutoff (the delayed position of the preview
 * and of callers without vessels:live), answered from memory while the answer cannot have changed:
 * stored positions reach it on the bus (POSITIONS_TOPIC, this process's and others'), and one that
 * falls between an entry's fix and its next position ends the entry (docs/decisions/027).
 */
export function createDelayedFixes(reads: DelayedFixReads, bus: Bus, maxEntries = DELAYED_FIX_ENTRIES) {
  const entries = new Map<string, Entry>();
  /** Positions published while a vessel's store reads were under way: applied to what they return. */
  const inFlight = new Map<string, Set<number[]>>();
  let unsubscribe: (() => void) | null = null;

  // Only positions that shorten an entry, or reach a read under way, are wanted: the others (live
  // positions of a vessel whose next position is already known) cost no copy of the message.
  const relevant = (vslId: string, observedAt: number): boolean => {
    if (inFlight.has(vslId)) return true;
    const entry = entries.get(vslId);
    return entry !== undefined && observedAt > entry.fixAt && observedAt < entry.nextAt;
  };
  const wanted = (payload: unknown): boolean => {
    const positions = (payload as PositionsEvent | null)?.positions;
    return Array.isArray(positions) && positions.some((p) => p.usable && relevant(p.vslId, p.observedAt));
  };
  const onPositions = (payload: unknown) => {
    for (const p of (payload as PositionsEvent).positions) {
      if (!p.usable) continue;
      for (const published of inFlight.get(p.vslId) ?? []) published.push(p.observedAt);
      const entry = entries.get(p.vslId);
      if (entry && p.observedAt > entry.fixAt && p.observedAt < entry.nextAt) entry.nextAt = p.observedAt;
    }
  };

  async function read(vslId: string, cutoff: number): Promise<Entry> {
    const published: number[] = [];
    let reading = inFlight.get(vslId);
    if (!reading) inFlight.set(vslId, (reading = new Set()));
    reading.add(published);
    try {
      const [row, nextAt] = await Promise.all([reads.newestUsableAtOrBefore(vslId, cutoff), reads.oldestUsableAfter(vslId, cutoff)]);
      const entry: Entry = { row, fixAt: row ? Number(row.observed_at) : -Infinity, nextAt: nextAt ?? Infinity, askedAt: cutoff };
      // a position stored after the reads began may be missing from them: the earliest such ends the entry
      for (const at of published) if (at > entry.fixAt && at < entry.nextAt) entry.nextAt = at;
      return entry;
    } finally {
      reading.delete(published);
      if (reading.size === 0) inFlight.delete(vslId);
    }
  }

  return {
    /** Follows stored positions on the bus; until then every call reads the store. */
    start(): Promise<void> {
      unsubscribe ??= bus.subscribe(POSITIONS_TOPIC, onPositions, wanted);
      return bus.ready();
    },
    stop(): void {
      unsubscribe?.();
      unsubscribe = null;
      entries.clear();
    },

    /** Exactly what `newestUsableAtOrBefore(vslId, cutoff)` answers. */
    async atOrBefore(vslId: string, cutoff: number): Promise<PositionRow | undefined> {
      const known = entries.get(vslId);
      if (known && known.fixAt <= cutoff && cutoff < known.nextAt && Math.abs(cutoff - known.askedAt) < DELAYED_FIX_REREAD) {
        // most recently read last, so the oldest-read entry is the first to go
        entries.delete(vslId);
        entries.set(vslId, known);
        return known.row;
      }
      const entry = await read(vslId, cutoff);
      if (unsubscribe) {
        entries.delete(vslId);
        entries.set(vslId, entry);
        if (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
      }
      return entry.row;
    },

    size: () => entries.size,
  };
}

export type DelayedFixes = ReturnType<typeof createDelayedFixes>;
