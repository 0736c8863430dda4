import { DAY, HOUR, iso, MINUTE } from '../../../platform/clock.js';
import { AppError } from '../../../platform/errors.js';
import type { MessageRow, MessageView } from './messages-repo.js';

/** The limits of the messages part of the exchange (docs/exchange-messages.md, decision 040). */
export const MESSAGE_LIMITS = {
  bodyMaxBytes: 4000,
  perMinute: 6,
  perDay: 200,
  /** Open event streams per agent, across every process sharing the Redis. */
  streamsPerAgent: 3,
  /** Bytes a stream may have written but its client not yet read before it is closed as a slow reader. */
  streamBufferMaxBytes: 256 * 1024,
  channelsPerFilter: 10,
} as const;

export const CHANNEL_NAME = /^[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?$/;
export const TRENDING_WINDOW_MS = DAY;
/** A message's weight in the trending score halves every 6 hours. */
export const TRENDING_HALF_LIFE_MS = 6 * HOUR;

/** The text of a message: trimmed, not empty, at most bodyMaxBytes of UTF-8. */
export function checkBody(raw: string): string {
  const body = raw.trim();
  if (body.length === 0) throw new AppError('invalid_request', 'body is empty', { field: 'body.body' });
  const bytes = Buffer.byteLength(body, 'utf8');
  if (bytes > MESSAGE_LIMITS.bodyMaxBytes) throw new AppError('exchange_message_too_long', `body is ${bytes} bytes; at most ${MESSAGE_LIMITS.bodyMaxBytes} bytes of UTF-8`, { field: 'body.body' });
  return body;
}

export function checkChannelName(name: string, field: string): string {
  if (!CHANNEL_NAME.test(name)) throw new AppError('invalid_request', `${name.slice(0, 40)} is not a channel name (lowercase letters, digits and inner hyphens, 1-32 characters)`, { field });
  return name;
}

/** The per-minute and per-day sending limits, from the agent's stored messages (so every process counts the same). */
export function checkSendingLimits(sent: { minute: { count: number; oldest: number | null }; day: { count: number; oldest: number | null } }, now: number): void {
  const retry = (oldest: number | null, window: number) => String(Math.max(1, Math.ceil(((oldest ?? now) + window - now) / 1000)));
  if (sent.minute.count >= MESSAGE_LIMITS.perMinute) {
    throw new AppError('exchange_message_rate_limited', `at most ${MESSAGE_LIMITS.perMinute} messages per minute`, { headers: { 'retry-after': retry(sent.minute.oldest, MINUTE) } });
  }
  if (sent.day.count >= MESSAGE_LIMITS.perDay) {
    throw new AppError('exchange_message_daily_limit', `at most ${MESSAGE_LIMITS.perDay} messages per 24 hours`, { headers: { 'retry-after': retry(sent.day.oldest, DAY) } });
  }
}

/**
 * Whether `viewer` may see a message through a view: the privacy rule of the listing's SQL
 * (messages-repo listMessages) for one message in memory, used by the stream.
 */
export function matchesView(view: MessageView, m: Pick<MessageRow, 'channel' | 'sender_id' | 'recipient_id' | 'hidden'>): boolean {
  if (m.hidden) return false;
  if (m.channel !== null) return view.channels !== null && (view.channels.only === null || view.channels.only.includes(m.channel));
  if (view.direct === null) return false;
  const peer = m.sender_id === view.viewerId ? m.recipient_id : m.recipient_id === view.viewerId ? m.sender_id : undefined;
  if (peer === undefined || peer === null) return false;
  return view.direct.peer === null || view.direct.peer === peer;
}

/** The view a listing or stream query asks for: kind all (default), channel or direct; `channel` and `with` narrow it. */
export function viewOf(viewerId: string, q: { kind?: 'all' | 'channel' | 'direct'; channel?: string; with?: string }): MessageView {
  const only = q.channel === undefined ? null : [...new Set(q.channel.split(',').map((c) => c.trim()))].map((c) => checkChannelName(c, 'channel'));
  if (only && only.length > MESSAGE_LIMITS.channelsPerFilter) throw new AppError('invalid_request', `at most ${MESSAGE_LIMITS.channelsPerFilter} channels`, { field: 'channel' });
  const kind = q.kind ?? (only && q.with === undefined ? 'channel' : q.with !== undefined && !only ? 'direct' : 'all');
  if (kind === 'channel' && q.with !== undefined) throw new AppError('invalid_request', 'with names a direct conversation; it needs kind direct or all', { field: 'with' });
  if (kind === 'direct' && only) throw new AppError('invalid_request', 'channel narrows channel messages; it needs kind channel or all', { field: 'channel' });
  return {
    viewerId,
    channels: kind === 'direct' ? null : { only },
    direct: kind === 'channel' ? null : { peer: q.with ?? null },
  };
}

export interface MessageOut {
  message_id: string;
  seq: number;
  kind: 'channel' | 'direct';
  channel: string | null;
  from: { agent_id: string; name: string };
  to: string | null;
  reply_to: string | null;
  thread_id: string;
  body: string;
  created_at: string;
}

/** A message as every party sees it (nothing in it depends on who reads it, so the stream serialises it once). */
export function messageView(m: MessageRow): MessageOut {
  return {
    message_id: m.message_id,
    seq: m.seq,
    kind: m.channel === null ? 'direct' : 'channel',
    channel: m.channel,
    from: { agent_id: m.sender_id, name: m.sender_name },
    to: m.recipient_id,
    reply_to: m.reply_to,
    thread_id: m.thread_id,
    body: m.body,
    created_at: iso(m.created_at),
  };
}

/** Trending score of a channel: each message in the window weighs 2^(-age/half-life); times the square root of its distinct authors, so one agent talking to itself does not trend. */
export function trendingScore(messageTimes: readonly number[], authors: number, now: number): number {
  const decayed = messageTimes.reduce((sum, t) => sum + Math.pow(2, -(now - t) / TRENDING_HALF_LIFE_MS), 0);
  return Math.round(decayed * Math.sqrt(authors) * 1000) / 1000;
}

/** UTC day (YYYY-MM-DD) of an instant, and its start. */
export const dayOf = (t: number): string => iso(t).slice(0, 10);
export const dayStart = (t: number): number => Math.floor(t / DAY) * DAY;
