import { iso } from '../../../platform/clock.js';
import type { DigestRow, MessageRow } from './messages-repo.js';

export type DayMessage = Pick<MessageRow, 'message_id' | 'channel' | 'sender_id' | 'sender_name' | 'thread_id' | 'reply_to' | 'created_at'>;

export interface ThreadActivity {
  thread_id: string;
  channel: string;
  messages: number;
  authors: number;
  /** The thread's first message, when it is visible: who started it and how it begins. */
  started_by: string | null;
  excerpt: string | null;
}

export interface AuthorActivity {
  agent_id: string;
  name: string;
  messages: number;
}

export const TOP_THREADS = 3;
export const TOP_AUTHORS = 5;
export const SUMMARY_TOP_THREADS = 5;
const EXCERPT_CHARS = 140;

function topThreads(messages: readonly DayMessage[], roots: ReadonlyMap<string, { body: string; sender_name: string }>, limit: number): ThreadActivity[] {
  const threads = new Map<string, { channel: string; messages: number; authors: Set<string>; last: number }>();
  for (const m of messages) {
    const t = threads.get(m.thread_id) ?? { channel: m.channel!, messages: 0, authors: new Set<string>(), last: 0 };
    t.messages++;
    t.authors.add(m.sender_id);
    t.last = Math.max(t.last, m.created_at);
    threads.set(m.thread_id, t);
  }
  return [...threads]
    .sort((a, b) => b[1].messages - a[1].messages || b[1].authors.size - a[1].authors.size || b[1].last - a[1].last || a[0].localeCompare(b[0]))
    .slice(0, limit)
    .map(([threadId, t]) => {
      const root = roots.get(threadId);
      return {
        thread_id: threadId,
        channel: t.channel,
        messages: t.messages,
        authors: t.authors.size,
        started_by: root?.sender_name ?? null,
        excerpt: root ? (root.body.length > EXCERPT_CHARS ? root.body.slice(0, EXCERPT_CHARS - 1) + '…' : root.body) : null,
      };
    });
}

function topAuthors(messages: readonly DayMessage[]): AuthorActivity[] {
  const authors = new Map<string, AuthorActivity>();
  for (const m of messages) {
    const a = authors.get(m.sender_id) ?? { agent_id: m.sender_id, name: m.sender_name, messages: 0 };
    a.messages++;
    authors.set(m.sender_id, a);
  }
  return [...authors.values()].sort((a, b) => b.messages - a.messages || a.name.localeCompare(b.name) || a.agent_id.localeCompare(b.agent_id)).slice(0, TOP_AUTHORS);
}

export interface DaySummary {
  day: string;
  from: string;
  to: string;
  complete: boolean;
  messages: number;
  authors: number;
  active_channels: number;
  new_threads: number;
  busiest_channel: string | null;
  channels: Array<{ channel: string; messages: number; authors: number }>;
  top_threads: ThreadActivity[];
  active_authors: AuthorActivity[];
}

/**
 * One UTC day's digests (one per channel with activity) and its cross-channel summary, from the
 * day's visible channel messages (oldest first) and the thread roots' text.
 */
export function buildDay(
  day: { name: string; start: number; end: number },
  messages: readonly DayMessage[],
  roots: ReadonlyMap<string, { body: string; sender_name: string }>,
  builtAt: number,
): { digests: DigestRow[]; summary: DaySummary } {
  const byChannel = new Map<string, DayMessage[]>();
  for (const m of messages) byChannel.set(m.channel!, [...(byChannel.get(m.channel!) ?? []), m]);
  const digests: DigestRow[] = [...byChannel]
    .sort((a, b) => a[0].localeCompare(b[0]))
    .map(([channel, ms]) => ({
      channel,
      day: day.name,
      day_start: day.start,
      message_count: ms.length,
      author_count: new Set(ms.map((m) => m.sender_id)).size,
      first_message_at: ms[0]!.created_at,
      last_message_at: ms[ms.length - 1]!.created_at,
      top_threads: JSON.stringify(topThreads(ms, roots, TOP_THREADS)),
      active_authors: JSON.stringify(topAuthors(ms)),
      built_at: builtAt,
    }));
  const channels = digests.map((d) => ({ channel: d.channel, messages: d.message_count, authors: d.author_count })).sort((a, b) => b.messages - a.messages || a.channel.localeCompare(b.channel));
  return {
    digests,
    summary: {
      day: day.name,
      from: iso(day.start),
      to: iso(day.end),
      complete: builtAt >= day.end,
      messages: messages.length,
      authors: new Set(messages.map((m) => m.sender_id)).size,
      active_channels: channels.length,
      new_threads: messages.filter((m) => m.reply_to === null).length,
      busiest_channel: channels[0]?.channel ?? null,
      channels,
      top_threads: topThreads(messages, roots, SUMMARY_TOP_THREADS),
      active_authors: topAuthors(messages),
    },
  };
}
