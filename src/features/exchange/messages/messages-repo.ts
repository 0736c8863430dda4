import { sql, type ExpressionBuilder } from 'kysely';
import type { Db } from '../../../store/db.js';
import type { Executor, Trx } from '../../../store/transaction.js';
import type { Database, ExchangeChannelsTable, ExchangeDigestsTable, ExchangeMessagesTable, ExchangeStreamNoticesTable, ExchangeSummariesTable } from '../../../store/schema.js';

export type ChannelRow = ExchangeChannelsTable;
export type MessageRow = ExchangeMessagesTable;
export type DigestRow = ExchangeDigestsTable;
export type SummaryRow = ExchangeSummariesTable;
export type NoticeRow = ExchangeStreamNoticesTable;

/** Which messages a listing or stream reads for one viewer (the privacy rule lives in matchesView, shared with the stream). */
export interface MessageView {
  viewerId: string;
  /** Channel messages, optionally only these channels. */
  channels: { only: readonly string[] | null } | null;
  /** The viewer's direct messages, optionally only the conversation with `peer`. */
  direct: { peer: string | null } | null;
}

// PostgreSQL answers bigint as text; every number leaves the repository as a number.
const messageRow = (r: MessageRow): MessageRow => ({
  ...r,
  seq: Number(r.seq),
  created_at: Number(r.created_at),
  hidden: Number(r.hidden),
  hidden_at: r.hidden_at === null ? null : Number(r.hidden_at),
});
const channelRow = (r: ChannelRow): ChannelRow => ({ ...r, built_in: Number(r.built_in), created_at: Number(r.created_at), hidden: Number(r.hidden) });
const digestRow = (r: DigestRow): DigestRow => ({
  ...r,
  day_start: Number(r.day_start),
  message_count: Number(r.message_count),
  author_count: Number(r.author_count),
  first_message_at: Number(r.first_message_at),
  last_message_at: Number(r.last_message_at),
  built_at: Number(r.built_at),
});

/** Direct messages, and messages of channels the operator has not hidden (hiding a channel hides its messages). */
const notInHiddenChannel = (eb: ExpressionBuilder<Database, 'exchange_messages'>) =>
  eb.or([eb('channel', 'is', null), eb('channel', 'not in', eb.selectFrom('exchange_channels').select('name').where('hidden', '=', 1))]);

/** Exchange channels, messages, digests and summaries. */
export function createMessagesRepo(db: Db) {
  return {
    async listChannels(): Promise<Array<ChannelRow & { message_count: number; last_message_at: number | null }>> {
      const channels = await db.selectFrom('exchange_channels').selectAll().where('hidden', '=', 0).orderBy('name').execute();
      const activity = await db
        .selectFrom('exchange_messages')
        .select(['channel', (eb) => eb.fn.countAll<string>().as('n'), (eb) => eb.fn.max('created_at').as('last')])
        .where('channel', 'is not', null)
        .where('hidden', '=', 0)
        .groupBy('channel')
        .execute();
      const byChannel = new Map(activity.map((a) => [a.channel!, { n: Number(a.n), last: a.last === null ? null : Number(a.last) }]));
      return channels.map((c) => ({ ...channelRow(c), message_count: byChannel.get(c.name)?.n ?? 0, last_message_at: byChannel.get(c.name)?.last ?? null }));
    },

    async findChannel(name: string, executor: Executor = db): Promise<ChannelRow | undefined> {
      const row = await executor.selectFrom('exchange_channels').selectAll().where('name', '=', name).executeTakeFirst();
      return row && channelRow(row);
    },

    /** False when a channel of this name exists. */
    async insertChannel(row: ChannelRow): Promise<boolean> {
      const result = await db
        .insertInto('exchange_channels')
        .values(row)
        .onConflict((oc) => oc.column('name').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },

    async setChannelHidden(name: string, hidden: boolean, reason: string | null, executor: Executor = db): Promise<boolean> {
      const result = await executor
        .updateTable('exchange_channels')
        .set({ hidden: hidden ? 1 : 0, hidden_reason: reason })
        .where('name', '=', name)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** The last number of the sequence messages and stream notices share (decision 055). */
    async maxSeq(executor: Executor = db): Promise<number> {
      const message = await executor
        .selectFrom('exchange_messages')
        .select((eb) => eb.fn.max('seq').as('seq'))
        .executeTakeFirst();
      const notice = await executor
        .selectFrom('exchange_stream_notices')
        .select((eb) => eb.fn.max('seq').as('seq'))
        .executeTakeFirst();
      return Math.max(Number(message?.seq ?? 0), Number(notice?.seq ?? 0));
    },

    async insertNotice(row: NoticeRow, trx: Trx): Promise<void> {
      await trx.insertInto('exchange_stream_notices').values(row).execute();
    },

    /** Every stream notice above `afterSeq`, oldest first (few: moderation is rare). */
    async noticesAfter(afterSeq: number, limit: number): Promise<NoticeRow[]> {
      const rows = await db.selectFrom('exchange_stream_notices').selectAll().where('seq', '>', afterSeq).orderBy('seq', 'asc').limit(limit).execute();
      return rows.map((r) => ({ ...r, seq: Number(r.seq), created_at: Number(r.created_at) }));
    },

    /** Messages by id, hidden or not (the stream's restored notices carry the message again). */
    async findMessages(messageIds: readonly string[]): Promise<MessageRow[]> {
      if (messageIds.length === 0) return [];
      const rows = await db
        .selectFrom('exchange_messages')
        .selectAll()
        .where('message_id', 'in', [...messageIds])
        .execute();
      return rows.map(messageRow);
    },

    async insertMessage(row: MessageRow, trx: Trx): Promise<void> {
      await trx.insertInto('exchange_messages').values(row).execute();
    },

    async findMessage(messageId: string, executor: Executor = db): Promise<MessageRow | undefined> {
      const row = await executor.selectFrom('exchange_messages').selectAll().where('message_id', '=', messageId).executeTakeFirst();
      return row && messageRow(row);
    },

    /** How many messages the agent sent at or after `since`, and when the oldest of them was sent. */
    async sentSince(senderId: string, since: number, trx: Trx): Promise<{ count: number; oldest: number | null }> {
      const row = await trx
        .selectFrom('exchange_messages')
        .select([(eb) => eb.fn.countAll<string>().as('n'), (eb) => eb.fn.min('created_at').as('oldest')])
        .where('sender_id', '=', senderId)
        .where('created_at', '>=', since)
        .executeTakeFirst();
      return { count: Number(row?.n ?? 0), oldest: row?.oldest === null || row?.oldest === undefined ? null : Number(row.oldest) };
    },

    /**
     * Visible messages of a view: newest first below `beforeSeq` (pages of a listing), or oldest first
     * above `afterSeq` (catching up, the stream's replay). Hidden messages are never read.
     */
    async listMessages(view: MessageView, q: { afterSeq?: number; beforeSeq?: number; since?: number; threadId?: string; limit: number; order: 'asc' | 'desc' }): Promise<MessageRow[]> {
      let query = db.selectFrom('exchange_messages').selectAll().where('hidden', '=', 0).where(notInHiddenChannel);
      query = query.where((eb) => {
        const parts = [];
        if (view.channels) {
          parts.push(view.channels.only ? eb.and([eb('channel', 'is not', null), eb('channel', 'in', [...view.channels.only])]) : eb('channel', 'is not', null));
        }
        if (view.direct) {
          const peer = view.direct.peer;
          parts.push(
            peer === null
              ? eb.and([eb('channel', 'is', null), eb.or([eb('sender_id', '=', view.viewerId), eb('recipient_id', '=', view.viewerId)])])
              : eb.and([
                  eb('channel', 'is', null),
                  eb.or([eb.and([eb('sender_id', '=', view.viewerId), eb('recipient_id', '=', peer)]), eb.and([eb('sender_id', '=', peer), eb('recipient_id', '=', view.viewerId)])]),
                ]),
          );
        }
        return parts.length ? eb.or(parts) : sql<boolean>`1 = 0`;
      });
      if (q.afterSeq !== undefined) query = query.where('seq', '>', q.afterSeq);
      if (q.beforeSeq !== undefined) query = query.where('seq', '<', q.beforeSeq);
      if (q.since !== undefined) query = query.where('created_at', '>=', q.since);
      if (q.threadId !== undefined) query = query.where('thread_id', '=', q.threadId);
      const rows = await query.orderBy('seq', q.order).limit(q.limit).execute();
      return rows.map(messageRow);
    },

    /** Every visible message above `afterSeq`, oldest first: what the stream hub fans out. */
    async messagesAfter(afterSeq: number, limit: number): Promise<MessageRow[]> {
      const rows = await db.selectFrom('exchange_messages').selectAll().where('seq', '>', afterSeq).where('hidden', '=', 0).where(notInHiddenChannel).orderBy('seq', 'asc').limit(limit).execute();
      return rows.map(messageRow);
    },

    async setMessageHidden(messageId: string, hidden: { reason: string; at: number } | null, executor: Executor = db): Promise<boolean> {
      const result = await executor
        .updateTable('exchange_messages')
        .set(hidden ? { hidden: 1, hidden_reason: hidden.reason, hidden_at: hidden.at } : { hidden: 0, hidden_reason: null, hidden_at: null })
        .where('message_id', '=', messageId)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** Visible channel messages in [from, to), oldest first: the raw material of trending and digests. */
    async channelMessagesBetween(from: number, to: number): Promise<Array<Pick<MessageRow, 'message_id' | 'channel' | 'sender_id' | 'sender_name' | 'thread_id' | 'reply_to' | 'created_at'>>> {
      const rows = await db
        .selectFrom('exchange_messages')
        .select(['message_id', 'channel', 'sender_id', 'sender_name', 'thread_id', 'reply_to', 'created_at'])
        .where('channel', 'is not', null)
        .where('hidden', '=', 0)
        .where('created_at', '>=', from)
        .where('created_at', '<', to)
        .orderBy('seq', 'asc')
        .execute();
      return rows.map((r) => ({ ...r, created_at: Number(r.created_at) }));
    },

    async bodiesOf(messageIds: readonly string[]): Promise<Map<string, { body: string; sender_name: string; created_at: number }>> {
      if (messageIds.length === 0) return new Map();
      const rows = await db
        .selectFrom('exchange_messages')
        .select(['message_id', 'body', 'sender_name', 'created_at'])
        .where('message_id', 'in', [...messageIds])
        .where('hidden', '=', 0)
        .execute();
      return new Map(rows.map((r) => [r.message_id, { body: r.body, sender_name: r.sender_name, created_at: Number(r.created_at) }]));
    },

    /** The first message time of the store, where the digest job starts when it has built nothing yet. */
    async firstChannelMessageAt(): Promise<number | null> {
      const row = await db
        .selectFrom('exchange_messages')
        .select((eb) => eb.fn.min('created_at').as('first'))
        .where('channel', 'is not', null)
        .executeTakeFirst();
      return row?.first === null || row?.first === undefined ? null : Number(row.first);
    },

    async latestDigestDayStart(): Promise<number | null> {
      const row = await db
        .selectFrom('exchange_summaries')
        .select((eb) => eb.fn.max('day_start').as('last'))
        .executeTakeFirst();
      return row?.last === null || row?.last === undefined ? null : Number(row.last);
    },

    /** Replaces one day's digests and summary (a rebuilt day reflects moderation since). */
    async replaceDay(day: string, digests: DigestRow[], summary: SummaryRow, trx: Trx): Promise<void> {
      await trx.deleteFrom('exchange_digests').where('day', '=', day).execute();
      if (digests.length) await trx.insertInto('exchange_digests').values(digests).execute();
      await trx.deleteFrom('exchange_summaries').where('day', '=', day).execute();
      await trx.insertInto('exchange_summaries').values(summary).execute();
    },

    /** Digests newest day first, then by channel; `before` is the (day_start, channel) of the last row of the previous page. */
    async listDigests(q: { channel?: string; from?: number; to?: number; before?: { dayStart: number; channel: string }; limit: number }): Promise<DigestRow[]> {
      let query = db.selectFrom('exchange_digests').selectAll();
      if (q.channel !== undefined) query = query.where('channel', '=', q.channel);
      if (q.from !== undefined) query = query.where('day_start', '>=', q.from);
      if (q.to !== undefined) query = query.where('day_start', '<', q.to);
      const before = q.before;
      if (before) query = query.where((eb) => eb.or([eb('day_start', '<', before.dayStart), eb.and([eb('day_start', '=', before.dayStart), eb('channel', '>', before.channel)])]));
      const rows = await query.orderBy('day_start', 'desc').orderBy('channel', 'asc').limit(q.limit).execute();
      return rows.map(digestRow);
    },

    async latestSummary(): Promise<SummaryRow | undefined> {
      const row = await db.selectFrom('exchange_summaries').selectAll().orderBy('day_start', 'desc').limit(1).executeTakeFirst();
      return row && { ...row, day_start: Number(row.day_start), built_at: Number(row.built_at) };
    },
  };
}

export type MessagesRepo = ReturnType<typeof createMessagesRepo>;
