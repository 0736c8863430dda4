import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';

/**
 * Moderation notices of the exchange message stream (decision 055): a message hidden or restored, a
 * channel hidden, an agent banned. Each takes a number of the messages' one sequence, so a stream
 * sends it in order among the messages and a client resuming with Last-Event-ID misses none.
 * `channel`, `sender_id` and `recipient_id` are the hidden message's (or the hidden channel's), so
 * a notice goes only to the streams that could see what it is about.
 */
export async function up(db: Kysely<any>, _d: DialectHelpers): Promise<void> {
  await db.schema
    .createTable('exchange_stream_notices')
    .addColumn('seq', 'bigint', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text', (c) => c.notNull())
    .addColumn('channel', 'text')
    .addColumn('sender_id', 'text')
    .addColumn('recipient_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}
