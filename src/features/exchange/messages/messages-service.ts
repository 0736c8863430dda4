import type { Trx } from '../../../store/transaction.js';
import { newId } from '../../../access/credentials.js';
import type { Bus } from '../../../bus/index.js';
import { DAY, iso, isoOrNull, MINUTE, parseIso, type Clock } from '../../../platform/clock.js';
import type { CursorCodec } from '../../../http/cursor-codec.js';
import { AppError } from '../../../platform/errors.js';
import { agentLock, type TransactionRunner } from '../../../store/transaction.js';
import { parseJson } from '../../../store/dialect.js';
import type { AgentsService } from '../../agents/agents-service.js';
import type { AuditService } from '../../audit/audit-service.js';
import type { ExchangeMember } from '../gate/exchange-gate.js';
import { buildDay, type DaySummary } from './digests.js';
import { checkBody, checkChannelName, checkSendingLimits, dayOf, dayStart, messageView, trendingScore, TRENDING_WINDOW_MS, viewOf, type MessageOut } from './message-rules.js';
import type { DigestRow, MessageRow, MessagesRepo, NoticeRow } from './messages-repo.js';

/** The bus topic a committed message is announced on: payload { seq }, a wake-up for the stream hubs of every process. */
export const MESSAGES_TOPIC = 'exchange.messages';
/** Taken by every message insert: sequence numbers then follow commit order (the stream relies on it, decision 041). */
const SEQUENCE_LOCK = 'exchange:messages:seq';
const MESSAGE_CURSOR = /^xm:(\d{1,16})$/;
const DIGEST_CURSOR = /^xd:(\d{1,16}):([a-z0-9-]{1,32})$/;
/** Days the digest job builds per run at most (a long-idle store catches up over several runs). */
const DIGEST_DAYS_PER_RUN = 60;

export interface MessageQuery {
  kind?: 'all' | 'channel' | 'direct';
  channel?: string;
  with?: string;
  thread?: string;
  since?: string;
  after?: number;
  limit: number;
  cursor?: string;
}

/**
 * Exchange messages: channels, channel and direct messages with their limits, listings, trending
 * channels, and the daily digests and summaries (docs/exchange-messages.md).
 */
export function createMessagesService(deps: {
  repo: MessagesRepo;
  bus: Bus;
  clock: Clock;
  cursors: CursorCodec;
  agents: AgentsService;
  audit: AuditService;
  transaction: TransactionRunner;
  isBanned(agentId: string): Promise<boolean>;
  /** Writes an event into an agent's workspace inbox in the caller's transaction (docs/workspace.md). */
  notify?: (agentId: string, kind: string, payload: Record<string, unknown>, trx: Trx) => Promise<void>;
}) {
  const { repo, bus, clock, cursors, agents, audit, transaction } = deps;

  async function visibleChannel(name: string, field: string) {
    const channel = await repo.findChannel(checkChannelName(name, field));
    if (!channel || channel.hidden) throw new AppError('exchange_channel_not_found', `no channel ${name}; GET /v1/exchange/channels lists them`, { field });
    return channel;
  }

  /** The parent of a reply: a visible message of the same conversation (the channel, or the two parties). */
  async function parentOf(member: ExchangeMember, replyTo: string | undefined, where: { channel: string } | { peer: string }): Promise<MessageRow | null> {
    if (replyTo === undefined) return null;
    const parent = await repo.findMessage(replyTo);
    const sameConversation =
      parent &&
      !parent.hidden &&
      ('channel' in where ? parent.channel === where.channel : parent.channel === null && [parent.sender_id, parent.recipient_id].sort().join() === [member.agentId, where.peer].sort().join());
    if (!parent || !sameConversation) throw new AppError('exchange_message_not_found', `no message ${replyTo} in this conversation to reply to`, { field: 'reply_to' });
    return parent;
  }

  async function insert(member: ExchangeMember, senderName: string, fields: { channel: string | null; recipient: string | null; parent: MessageRow | null; body: string }): Promise<MessageOut> {
    const row = await transaction([agentLock(member.agentId), SEQUENCE_LOCK], async (trx) => {
      const now = clock.now();
      checkSendingLimits({ minute: await repo.sentSince(member.agentId, now - MINUTE + 1, trx), day: await repo.sentSince(member.agentId, now - DAY + 1, trx) }, now);
      const messageId = newId('msg_');
      const row: MessageRow = {
        message_id: messageId,
        seq: (await repo.maxSeq(trx)) + 1,
        channel: fields.channel,
        sender_id: member.agentId,
        sender_name: senderName,
        recipient_id: fields.recipient,
        reply_to: fields.parent?.message_id ?? null,
        thread_id: fields.parent?.thread_id ?? messageId,
        body: fields.body,
        created_at: now,
        hidden: 0,
        hidden_reason: null,
        hidden_at: null,
      };
      await repo.insertMessage(row, trx);
      // the recipient of a direct message, and the author of the message replied to, hear of it in their workspace
      const told = new Set<string>();
      if (fields.recipient !== null) {
        told.add(fields.recipient);
        await deps.notify?.(fields.recipient, 'exchange.direct_message', { message_id: messageId, from: member.agentId, from_name: senderName }, trx);
      }
      const parentAuthor = fields.parent?.sender_id;
      if (parentAuthor !== undefined && parentAuthor !== member.agentId && !told.has(parentAuthor)) {
        await deps.notify?.(parentAuthor, 'exchange.reply', { message_id: messageId, reply_to: fields.parent!.message_id, channel: fields.channel, from: member.agentId, from_name: senderName }, trx);
      }
      return row;
    });
    // after the commit: a stream woken by this reads the message from the store
    await bus.publish(MESSAGES_TOPIC, { seq: row.seq }).catch(() => {});
    return messageView(row);
  }

  /**
   * Records a stream notice in the messages' sequence and wakes the stream hubs (decision 055), so
   * open streams learn of moderation from any process, in order, and resuming clients replay it.
   */
  async function notice(fields: Omit<NoticeRow, 'seq' | 'created_at'>, change: (trx: Trx) => Promise<boolean>): Promise<boolean> {
    const seq = await transaction(SEQUENCE_LOCK, async (trx) => {
      if (!(await change(trx))) return null;
      const seq = (await repo.maxSeq(trx)) + 1;
      await repo.insertNotice({ ...fields, seq, created_at: clock.now() }, trx);
      return seq;
    });
    if (seq !== null) await bus.publish(MESSAGES_TOPIC, { seq }).catch(() => {});
    return seq !== null;
  }

  /** Hides or restores a message or channel; a change of visibility is announced to open streams (a restored channel is not: its readers reconnect). */
  async function hideRecord(kind: 'message' | 'channel', id: string, hidden: { reason: string } | null): Promise<boolean> {
    if (kind === 'message') {
      const message = await repo.findMessage(id);
      if (!message) return false;
      let found = false;
      const scope = { target_id: id, channel: message.channel, sender_id: message.sender_id, recipient_id: message.recipient_id };
      await notice({ kind: hidden ? 'message_hidden' : 'message_restored', ...scope }, async (trx) => {
        const before = await repo.findMessage(id, trx);
        found = await repo.setMessageHidden(id, hidden && { reason: hidden.reason, at: clock.now() }, trx);
        return found && before !== undefined && before.hidden !== (hidden ? 1 : 0);
      });
      return found;
    }
    let found = false;
    await notice({ kind: 'channel_hidden', target_id: id, channel: id, sender_id: null, recipient_id: null }, async (trx) => {
      const before = await repo.findChannel(id, trx);
      found = await repo.setChannelHidden(id, hidden !== null, hidden?.reason ?? null, trx);
      return found && hidden !== null && before !== undefined && before.hidden === 0;
    });
    return found;
  }

  return {
    /** Posts in a channel (a new thread, or a reply in one of its threads). */
    async post(member: ExchangeMember, senderName: string, input: { channel: string; body: string; reply_to?: string }): Promise<MessageOut> {
      const body = checkBody(input.body);
      const channel = await visibleChannel(input.channel, 'channel');
      const parent = await parentOf(member, input.reply_to, { channel: channel.name });
      return insert(member, senderName, { channel: channel.name, recipient: null, parent, body });
    },

    /** A direct message to one agent: seen by the two of them (and the operator) only. */
    async send(member: ExchangeMember, senderName: string, input: { to: string; body: string; reply_to?: string }): Promise<MessageOut> {
      const body = checkBody(input.body);
      if (input.to === member.agentId) throw new AppError('exchange_self_message_forbidden', 'a direct message goes to another agent', { field: 'to' });
      const recipient = await agents.standing(input.to);
      if (!recipient || recipient.state === 'revoked' || (await deps.isBanned(input.to))) {
        throw new AppError('exchange_recipient_unavailable', `agent ${input.to} cannot receive direct messages (unknown, revoked or banned from the exchange)`, { field: 'to' });
      }
      const parent = await parentOf(member, input.reply_to, { peer: input.to });
      return insert(member, senderName, { channel: null, recipient: input.to, parent, body });
    },

    /** Messages the member may see, newest first, cursor paged; `after` (a seq) and `since` (ISO time) keep only newer ones. */
    async list(member: ExchangeMember, q: MessageQuery): Promise<{ items: MessageOut[]; next_cursor: string | null }> {
      const view = viewOf(member.agentId, q);
      if (view.channels?.only) for (const name of view.channels.only) await visibleChannel(name, 'channel');
      let since: number | undefined;
      if (q.since !== undefined) {
        since = parseIso(q.since);
        if (Number.isNaN(since)) throw new AppError('invalid_request', 'since must be an ISO 8601 time', { field: 'since' });
      }
      const beforeSeq = q.cursor === undefined ? undefined : Number(cursors.read(q.cursor, MESSAGE_CURSOR, 'query.cursor')[1]);
      const rows = await repo.listMessages(view, { afterSeq: q.after, beforeSeq, since, threadId: q.thread, limit: q.limit + 1, order: 'desc' });
      const items = rows.slice(0, q.limit);
      const last = items[items.length - 1];
      return { items: items.map(messageView), next_cursor: rows.length > q.limit && last ? cursors.seal(`xm:${last.seq}`) : null };
    },

    /** The public forum's view (site /agents-forum, read-only): channel messages only (never direct ones), no hidden message or channel, newest first. */
    async publicChannelMessages(q: { limit: number; cursor?: string }): Promise<{ items: MessageOut[]; next_cursor: string | null }> {
      const beforeSeq = q.cursor === undefined ? undefined : Number(cursors.read(q.cursor, MESSAGE_CURSOR, 'query.cursor')[1]);
      const rows = await repo.listMessages({ viewerId: '', channels: { only: null }, direct: null }, { beforeSeq, limit: q.limit + 1, order: 'desc' });
      const items = rows.slice(0, q.limit);
      const last = items[items.length - 1];
      return { items: items.map(messageView), next_cursor: rows.length > q.limit && last ? cursors.seal(`xm:${last.seq}`) : null };
    },

    async channels() {
      const rows = await repo.listChannels();
      return rows.map((c) => ({
        name: c.name,
        description: c.description,
        built_in: c.built_in === 1,
        created_at: iso(c.created_at),
        message_count: c.message_count,
        last_activity_at: isoOrNull(c.last_message_at),
      }));
    },

    /** Channels ranked by their decayed activity of the last 24 hours (decision 040). */
    async trending(limit: number) {
      const now = clock.now();
      const [channels, recent] = await Promise.all([repo.listChannels(), repo.channelMessagesBetween(now - TRENDING_WINDOW_MS, now + 1)]);
      const visible = new Set(channels.map((c) => c.name));
      const activity = new Map<string, { times: number[]; authors: Set<string> }>();
      for (const m of recent) {
        if (!visible.has(m.channel!)) continue;
        const a = activity.get(m.channel!) ?? { times: [], authors: new Set<string>() };
        a.times.push(m.created_at);
        a.authors.add(m.sender_id);
        activity.set(m.channel!, a);
      }
      return [...activity]
        .map(([name, a]) => ({ name, score: trendingScore(a.times, a.authors.size, now), messages_24h: a.times.length, authors_24h: a.authors.size, last_activity_at: iso(Math.max(...a.times)) }))
        .sort((x, y) => y.score - x.score || y.messages_24h - x.messages_24h || x.name.localeCompare(y.name))
        .slice(0, limit);
    },

    /**
     * The digest job: builds (or rebuilds) each UTC day's per-channel digests and the cross-channel
     * summary, from the last day it built (rebuilt: it may have been partial) up to today.
     */
    async buildDigests(): Promise<{ days: number; digests: number }> {
      const now = clock.now();
      const lastBuilt = await repo.latestDigestDayStart();
      const first = lastBuilt ?? (await repo.firstChannelMessageAt());
      if (first === null) return { days: 0, digests: 0 };
      let built = 0;
      let digests = 0;
      for (let start = dayStart(first); start <= now && built < DIGEST_DAYS_PER_RUN; start += DAY) {
        const end = start + DAY;
        const messages = await repo.channelMessagesBetween(start, Math.min(end, now + 1));
        const roots = await repo.bodiesOf([...new Set(messages.map((m) => m.thread_id))]);
        const day = buildDay({ name: dayOf(start), start, end }, messages, roots, now);
        await transaction(`exchange:digest:${day.summary.day}`, (trx) =>
          repo.replaceDay(day.summary.day, day.digests, { day: day.summary.day, day_start: start, summary: JSON.stringify(day.summary), built_at: now }, trx),
        );
        built++;
        digests += day.digests.length;
      }
      return { days: built, digests };
    },

    async digests(q: { channel?: string; from?: string; to?: string; limit: number; cursor?: string }) {
      const bound = (text: string | undefined, field: string) => {
        if (text === undefined) return undefined;
        const t = parseIso(text);
        if (Number.isNaN(t)) throw new AppError('invalid_request', `${field} must be an ISO 8601 date or time`, { field });
        return t;
      };
      const from = bound(q.from, 'from');
      const to = bound(q.to, 'to');
      if (from !== undefined && to !== undefined && to <= from) throw new AppError('invalid_range', 'to must be after from', { field: 'to' });
      if (q.channel !== undefined) checkChannelName(q.channel, 'channel');
      let before: { dayStart: number; channel: string } | undefined;
      if (q.cursor !== undefined) {
        const m = cursors.read(q.cursor, DIGEST_CURSOR, 'query.cursor');
        before = { dayStart: Number(m[1]), channel: m[2]! };
      }
      const visibleChannels = new Set((await repo.listChannels()).map((c) => c.name));
      const rows = await repo.listDigests({ channel: q.channel, from: from === undefined ? undefined : dayStart(from), to, before, limit: q.limit + 1 });
      const items = rows.slice(0, q.limit);
      const last = items[items.length - 1];
      return {
        items: items.filter((d) => visibleChannels.has(d.channel)).map(digestView),
        next_cursor: rows.length > q.limit && last ? cursors.seal(`xd:${last.day_start}:${last.channel}`) : null,
      };
    },

    async latestSummary(): Promise<(DaySummary & { built_at: string }) | null> {
      const row = await repo.latestSummary();
      if (!row) return null;
      return { ...parseJson<DaySummary>(row.summary, {} as DaySummary), built_at: iso(row.built_at) };
    },

    /** The operator adds a public channel (bosun exchange channel create). */
    async createChannel(name: string, description: string): Promise<{ created: boolean }> {
      checkChannelName(name, 'name');
      const created = await repo.insertChannel({ name, description, built_in: 0, created_at: clock.now(), hidden: 0, hidden_reason: null });
      if (created) await audit.record({ actor: { kind: 'cli' }, action: 'exchange.channel.create', target: name, details: { description } });
      return { created };
    },

    /** Tells open streams the agent was banned: its own streams close (exchange gate's ban listener). */
    async announceBan(agentId: string): Promise<void> {
      await notice({ kind: 'agent_banned', target_id: agentId, channel: null, sender_id: null, recipient_id: null }, async () => true);
    },

    /** Moderation handlers for the exchange gate's `bosun exchange hide|restore message|channel ID`. */
    moderation(kind: 'message' | 'channel') {
      return {
        hide: (id: string, reason: string) => hideRecord(kind, id, { reason }),
        restore: (id: string) => hideRecord(kind, id, null),
      };
    },
  };
}

function digestView(d: DigestRow) {
  return {
    channel: d.channel,
    day: d.day,
    complete: d.built_at >= d.day_start + DAY,
    message_count: d.message_count,
    author_count: d.author_count,
    first_message_at: iso(d.first_message_at),
    last_message_at: iso(d.last_message_at),
    top_threads: parseJson(d.top_threads, []),
    active_authors: parseJson(d.active_authors, []),
    built_at: iso(d.built_at),
  };
}

export type MessagesService = ReturnType<typeof createMessagesService>;
