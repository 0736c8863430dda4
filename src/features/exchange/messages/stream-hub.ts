import type { Bus } from '../../../bus/index.js';
import { iso, type Clock } from '../../../platform/clock.js';
import { matchesView, messageView, MESSAGE_LIMITS } from './message-rules.js';
import type { MessageRow, MessagesRepo, MessageView, NoticeRow } from './messages-repo.js';

/** The writing end of one event stream (the http layer's StreamChannel, or a test's fake). */
export interface EventSink {
  write(chunk: string): void;
  bufferedBytes(): number;
  drained(): Promise<void>;
  end(): void;
  readonly ended: boolean;
}

export type ClosingReason = 'slow_reader' | 'shutdown' | 'replay_complete' | 'banned';

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

/**
 * One entry of the sequence a stream follows: a message, or a moderation notice (decision 055).
 * `text` is the event sent to the streams whose view covers `scope`; `bans` closes the banned agent's streams.
 */
interface StreamItem {
  seq: number;
  text: string | null;
  scope: Pick<MessageRow, 'channel' | 'sender_id' | 'recipient_id' | 'hidden'>;
  bans: string | null;
}

interface Subscriber {
  view: MessageView;
  /** The highest sequence number this stream has passed (sent, or not visible to it). */
  position: number;
  /** The head of the sequence when the stream opened: bans up to it were lifted or are older than the stream (it passed the gate). */
  openedAt: number;
  live: boolean;
  sink: EventSink;
  close(reason: ClosingReason | null): void;
}

const eventText = (id: number, event: string, data: unknown) => `id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

const messageItem = (row: MessageRow): StreamItem => ({ seq: row.seq, text: eventText(row.seq, 'message', messageView(row)), scope: row, bans: null });

/** A notice as a stream item; a restored message is sent again in full (null when it is hidden again by now). */
function noticeItem(n: NoticeRow, restored: ReadonlyMap<string, MessageRow>): StreamItem {
  const scope = { channel: n.channel, sender_id: n.sender_id ?? '', recipient_id: n.recipient_id, hidden: 0 };
  switch (n.kind) {
    case 'message_hidden':
      return { seq: n.seq, text: eventText(n.seq, 'message_hidden', { message_id: n.target_id }), scope, bans: null };
    case 'message_restored': {
      const row = restored.get(n.target_id);
      return { seq: n.seq, text: row && !row.hidden ? eventText(n.seq, 'message_restored', messageView(row)) : null, scope, bans: null };
    }
    case 'channel_hidden':
      return { seq: n.seq, text: eventText(n.seq, 'channel_hidden', { channel: n.target_id }), scope, bans: null };
    case 'agent_banned':
      return { seq: n.seq, text: null, scope, bans: n.target_id };
  }
}

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
  /** The ring holds every visible message and every notice above ringBase up to lastSeq. */
  let ring: StreamItem[] = [];
  let ringBase = 0;
  let pumping = false;
  let again = false;

  /**
   * Messages (visible to `view`, or every visible one) and notices above `after`, merged in sequence
   * order up to `upto`: where one of the two pages is full, the sequence is known complete only up to its last.
   */
  async function readAfter(after: number, limit: number, view: MessageView | null): Promise<{ items: StreamItem[]; upto: number; more: boolean }> {
    const rows = view ? await repo.listMessages(view, { afterSeq: after, limit, order: 'asc' }) : await repo.messagesAfter(after, limit);
    const notices = await repo.noticesAfter(after, limit);
    let upto = Infinity;
    if (rows.length === limit) upto = rows.at(-1)!.seq;
    if (notices.length === limit) upto = Math.min(upto, notices.at(-1)!.seq);
    const restoredIds = notices.filter((n) => n.kind === 'message_restored').map((n) => n.target_id);
    const restored = new Map((await repo.findMessages(restoredIds)).map((r) => [r.message_id, r]));
    const items = [...rows.map(messageItem), ...notices.map((n) => noticeItem(n, restored))].filter((i) => i.seq <= upto).sort((a, b) => a.seq - b.seq);
    return { items, upto, more: upto !== Infinity };
  }

  /** Sends one item to one stream when its view covers it; a ban closes the banned agent's stream. */
  function deliver(sub: Subscriber, item: StreamItem, write: (text: string) => void) {
    if (item.bans !== null) {
      if (item.bans === sub.view.viewerId && item.seq > sub.openedAt) sub.close('banned');
      return;
    }
    if (item.text !== null && matchesView(sub.view, item.scope)) write(item.text);
  }

  function dispatch(items: readonly StreamItem[]) {
    for (const item of items) {
      ring.push(item);
      if (ring.length > RING_SIZE) ringBase = ring.shift()!.seq;
      lastSeq = item.seq;
      for (const sub of subscribers) {
        if (!sub.live || item.seq <= sub.position) continue;
        sub.position = item.seq;
        deliver(sub, item, (text) => send(sub, text));
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
          const { items, upto, more } = await readAfter(lastSeq, HUB_PAGE, null);
          dispatch(items);
          if (!more) break;
          lastSeq = Math.max(lastSeq, upto);
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
      const { items, upto, more } = await readAfter(sub.position, REPLAY_PAGE, sub.view);
      for (const item of items) {
        if (sub.sink.ended) return;
        sub.position = item.seq;
        deliver(sub, item, (text) => sub.sink.write(text));
        if (sub.sink.ended) return;
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
      if (!more) return;
      sub.position = Math.max(sub.position, upto);
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
        openedAt: Number.MAX_SAFE_INTEGER,
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
        sub.openedAt = Math.max(lastSeq, await repo.maxSeq());
        sub.position = options.after === null ? lastSeq : Math.min(options.after, sub.openedAt);
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
          for (const item of ring) {
            if (item.seq <= sub.position) continue;
            sub.position = item.seq;
            deliver(sub, item, (text) => sink.write(text));
            if (closed) return;
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
