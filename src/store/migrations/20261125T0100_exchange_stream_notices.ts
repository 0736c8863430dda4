import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';
import { createTables } from './helpers/create-tables.js';

/**
 * Moderation notices of the exchange message stream (decision 055): a message hidden or restored, a
 * channel hidden, an agent banned. Each takes a number of the messages' one sequence, so a stream
 * sends it in order among the messages and a client resuming with Last-Event-ID misses none.
 * `channel`, `sender_id` and `recipient_id` are the hidden message's (or the hidden channel's), so
 * a notice goes only to the streams that could see what it is about.
 */
export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await createTables(db, d, [
    {
      name: 'exchange_stream_notices',
      columns: `
        seq bigint primary key
        kind text not null
        target_id text not null
        channel text
        sender_id text
        recipient_id text
        created_at bigint not null`,
    },
  ]);
}
