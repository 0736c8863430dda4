import type { Bus } from '../../bus/index.js';
import { iso, type Clock } from '../../clock.js';
import { matchesView, messageView, MESSAGE_LIMITS } from './message-rules.js';
import type { MessageRow, MessagesRepo, MessageView } from './messages-repo.js';

/** The writing end of one event stream (the http layer's StreamChannel, or a test's fake). */
export interface EventSink {
  write(chunk: string): void;
  bufferedBytes(): number;
  drained(): Promise<void>;
  end(): void;
  readonly ended: boolean;
}

export type ClosingReason = 'slow_reader' | 'shutdown' | 'replay_complete';

export interface StreamOptions {
  view: MessageView;
  /** Events after this sequence number are sent (the Last-Event-ID); null: only messages from now on. */
  after: number | null;
  /** false: end after the stored events (a catch-up read); true: stay open for new ones. */
  follow: boolean;
  heartbeatMs: number;
  /** Called once the subscription ended, for whatever reason. */
  onClosed(): void;
}

/** The retry delay (ms) a client should wait before reconnecting, sent at the start of every stream. */
export const RETRY_MS = 3000;
const REPLAY_PAGE = 200;
const HUB_PAGE = 500;
/** Recent messages the hub keeps, so a stream that finished its replay while the hub read newer ones misses none. */
const RING_SIZE = 1024;
/** The bus is best effort: the hub also reads the store this often while streams are open. */
const SAFETY_POLL_MS = 5000;
/** During the replay the stream waits for its client to read; below this many buffered bytes it writes on. */
const REPLAY_HIGH_WATER = 64 * 1024;
/** A client that reads nothing of its replay for this long is a slow reader. */
const REPLAY_STALL_MS = 30_000;

interface Subscriber {
  view: MessageView;
  /** The highest sequence number this stream has passed (sent, or not visible to it). */
  position: number;
  live: boolean;
  sink: EventSink;
  close(reason: ClosingReason | null): void;
}

const eventText = (id: number, event: string, data: unknown) => `id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/**
 * One per process: follows the messages table by sequence number, woken by the bus (every process
 * announces its messages) and a safety poll, and fans each new message out to the open streams
 * that may see it, serialised once (decision 041). A new stream replays from the store, then joins.
 */
export function createStreamHub(deps: { repo: MessagesRepo; bus: Bus; clock: Clock; topic: string; onError(err: unknown): void }) {
  const { repo, bus, clock, topic } = deps;
  const subscribers = new Set<Subscriber>();
  let started: Promise<void> | null = null;
  let unsubscribe: (() => void) | null = null;
  let poll: NodeJS.Timeout | null = null;
  /** Highest sequence number read by the hub; every visible message up to it was fanned out. */
  let lastSeq = 0;
  /** The ring holds every visible message above ringBase up to lastSeq. */
  let ring: Array<{ row: MessageRow; text: string }> = [];
  let ringBase = 0;
  let pumping = false;
  let again = false;

  function dispatch(rows: readonly MessageRow[]) {
    for (const row of rows) {
      const text = eventText(row.seq, 'message', messageView(row));
      ring.push({ row, text });
      if (ring.length > RING_SIZE) ringBase = ring.shift()!.row.seq;
      lastSeq = row.seq;
      for (const sub of subscribers) {
        if (!sub.live || row.seq <= sub.position) continue;
        sub.position = row.seq;
        if (matchesView(sub.view, row)) send(sub, text);
      }
    }
  }

  function send(sub: Subscriber, text: string) {
    sub.sink.write(text);
    if (sub.live && sub.sink.bufferedBytes() > MESSAGE_LIMITS.streamBufferMaxBytes) sub.close('slow_reader');
  }

  async function pump(): Promise<void> {
    if (!started) return;
    if (pumping) {
      again = true;
      return;
    }
    pumping = true;
    try {
      do {
        again = false;
        for (;;) {
          const rows = await repo.messagesAfter(lastSeq, HUB_PAGE);
          dispatch(rows);
          if (rows.length < HUB_PAGE) break;
        }
      } while (again);
    } catch (err) {
      deps.onError(err);
    } finally {
      pumping = false;
    }
  }

  function start(): Promise<void> {
    started ??= (async () => {
      unsubscribe = bus.subscribe(topic, () => void pump());
      await bus.ready();
      lastSeq = await repo.maxSeq();
      ringBase = lastSeq;
      ring = [];
      poll = setInterval(() => void pump(), SAFETY_POLL_MS);
      poll.unref();
    })();
    return started;
  }

  function stopIfIdle() {
    if (subscribers.size > 0 || !started) return;
    unsubscribe?.();
    unsubscribe = null;
    if (poll) clearInterval(poll);
    poll = null;
    started = null;
    ring = [];
  }

  /** Replays stored events after the subscriber's position, oldest first, letting the client read as it goes. */
  async function replay(sub: Subscriber): Promise<void> {
    for (;;) {
      const rows = await repo.listMessages(sub.view, { afterSeq: sub.position, limit: REPLAY_PAGE, order: 'asc' });
      for (const row of rows) {
        if (sub.sink.ended) return;
        sub.position = row.seq;
        sub.sink.write(eventText(row.seq, 'message', messageView(row)));
        if (sub.sink.bufferedBytes() > REPLAY_HIGH_WATER) {
          let stalled: NodeJS.Timeout | undefined;
          await Promise.race([sub.sink.drained(), new Promise<void>((resolve) => (stalled = setTimeout(resolve, REPLAY_STALL_MS)))]);
          clearTimeout(stalled);
          if (sub.sink.bufferedBytes() > REPLAY_HIGH_WATER) {
            sub.close('slow_reader');
            return;
          }
        }
      }
      if (rows.length < REPLAY_PAGE) return;
    }
  }

  return {
    /**
     * Opens a stream on `sink`: replays, then follows. Returns at once; its close ends the stream
     * (with a final closing event when a reason is given).
     */
    open(sink: EventSink, options: StreamOptions): { close(reason: ClosingReason | null): void; settled: Promise<void> } {
      let heartbeat: NodeJS.Timeout | null = null;
      let closed = false;
      const sub: Subscriber = {
        view: options.view,
        position: 0,
        live: false,
        sink,
        close(reason) {
          if (closed) return;
          closed = true;
          if (heartbeat) clearInterval(heartbeat);
          subscribers.delete(sub);
          stopIfIdle();
          if (reason && !sink.ended) sink.write(eventText(sub.position, 'closing', { reason, last_event_id: String(sub.position) }));
          sink.end();
          options.onClosed();
        },
      };
      sink.write(`retry: ${RETRY_MS}\n: bosun exchange messages\n\n`);
      const run = async () => {
        await start();
        if (closed) return;
        subscribers.add(sub);
        sub.position = options.after === null ? lastSeq : Math.min(options.after, Math.max(lastSeq, await repo.maxSeq()));
        heartbeat = setInterval(() => {
          if (sink.ended) return;
          sink.write(`: heartbeat ${iso(clock.now())}\n\n`);
          if (sink.bufferedBytes() > MESSAGE_LIMITS.streamBufferMaxBytes) sub.close('slow_reader');
        }, options.heartbeatMs);
        heartbeat.unref();
        for (;;) {
          await replay(sub);
          if (sink.ended || closed) return;
          if (!options.follow) return sub.close('replay_complete');
          // what the hub read meanwhile: from its ring when it covers the gap, else from the store again
          if (lastSeq > sub.position && sub.position < ringBase) continue;
          for (const { row, text } of ring) {
            if (row.seq <= sub.position) continue;
            sub.position = row.seq;
            if (matchesView(sub.view, row)) sink.write(text);
          }
          sub.position = Math.max(sub.position, lastSeq);
          sub.live = true;
          sink.write(eventText(sub.position, 'ready', { last_event_id: String(sub.position), live: true, heartbeat_seconds: options.heartbeatMs / 1000 }));
          return;
        }
      };
      const settled = run().catch((err) => {
        deps.onError(err);
        sub.close(null);
      });
      return { close: (reason) => sub.close(reason), settled };
    },

    /** Ends every open stream with a closing event (server shutdown). */
    closeAll(reason: ClosingReason): void {
      for (const sub of [...subscribers]) sub.close(reason);
    },

    openCount: () => subscribers.size,
    /** Reads the store now instead of waiting for the bus (tests, and the bench's baseline). */
    pump,
  };
}

export type StreamHub = ReturnType<typeof createStreamHub>;
