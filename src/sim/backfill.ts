/** Fills the store with simulated history as fast as the store takes it. */
import { AisDecoder } from '../ais/index.js';
import { MINUTE, type Clock } from '../platform/clock.js';
import type { AisSink } from '../fleet/types.js';
import { DEMO_SOURCE, type DemoFleet } from './fleet.js';

export interface BackfillProgress {
  /** Simulated time covered so far and in total, ms. */
  doneMs: number;
  totalMs: number;
  messages: number;
}

export interface BackfillOptions {
  fleet: DemoFleet;
  /** Reports up to this time (from the fleet's cursor on). */
  toMs: number;
  sink: AisSink;
  clock: Clock;
  /** Source name the observations carry (default `demo-simulator`). */
  source?: string;
  /** Messages accepted between two `await sink.flush()`. */
  flushEvery?: number;
  progress?: (progress: BackfillProgress) => void;
}

export interface BackfillResult {
  fromMs: number;
  toMs: number;
  messages: number;
  lines: number;
  /** Sentences the decoder did not accept (always 0 unless the encoder is broken). */
  rejectedLines: number;
}

/** Simulated time produced between two looks at the flush counter and the progress callback. */
const CHUNK_MS = 10 * MINUTE;

/**
 * Runs the fleet from its cursor to `toMs`: every AIVDM line goes through an AisDecoder (exactly
 * as a live feed would) into `sink.acceptMessage`, labelled simulated, with the tag block time
 * as the observation time and the clock's now as the reception time.
 */
export async function backfill(options: BackfillOptions): Promise<BackfillResult> {
  const { fleet, toMs, sink, clock } = options;
  const source = options.source ?? DEMO_SOURCE;
  const flushEvery = options.flushEvery ?? 4000;
  const fromMs = fleet.cursor;
  let messages = 0;
  let lines = 0;
  let sinceFlush = 0;
  const decoder = new AisDecoder({ keepSentences: false }, (message) => {
    const observedAt = message.meta.receivedAtMs ?? fleet.cursor;
    sink.acceptMessage(message, { observedAt, receivedAt: clock.now(), source, simulated: true });
    messages++;
    sinceFlush++;
  });
  const onLine = (line: string): void => {
    lines++;
    decoder.feed(line);
  };
  const totalMs = Math.max(0, toMs - fromMs);
  for (let t = fromMs; t < toMs;) {
    t = Math.min(toMs, t + CHUNK_MS);
    fleet.advanceTo(t, onLine);
    if (sinceFlush >= flushEvery) {
      sinceFlush = 0;
      await sink.flush();
      // The embedded store writes synchronously: give the event loop a turn so a server started
      // beside the backfill keeps answering.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    options.progress?.({ doneMs: t - fromMs, totalMs, messages });
  }
  await sink.flush();
  const stats = decoder.stats();
  return { fromMs, toMs, messages, lines, rejectedLines: stats.lines - stats.sentences };
}
