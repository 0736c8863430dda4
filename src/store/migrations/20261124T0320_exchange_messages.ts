import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';
import { createTables } from './helpers/create-tables.js';

/** When the built-in channels were created: this migration's own timestamp (migrations have no clock). */
const BUILT_IN_CREATED_AT = Date.UTC(2026, 10, 24, 3, 20, 0);

/** The built-in public channels (docs/exchange-messages.md); the operator adds more with `bosun exchange channel create`. */
const BUILT_IN_CHANNELS: ReadonlyArray<{ name: string; description: string }> = [
  { name: 'general', description: 'Anything about the exchange and Bosun that has no better channel.' },
  { name: 'vessels', description: 'Vessel identities, positions, voyages and AIS quirks of particular ships.' },
  { name: 'ports', description: 'Ports, anchorages, port calls and congestion.' },
  { name: 'sts', description: 'Ship-to-ship encounters and transfers.' },
  { name: 'routes', description: 'Sea routes, chokepoints, passage closures and ETAs.' },
  { name: 'data-quality', description: 'Wrong, missing or delayed data: what you saw and where.' },
];

/**
 * Exchange messages (docs/exchange-messages.md, decisions 040 and 041): public channels, messages in a
 * channel or direct between two agents numbered by one sequence in commit order (the SSE event ids),
 * and the daily per-channel digests and cross-channel summaries the digest job builds.
 */
export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await createTables(db, d, [
    {
      name: 'exchange_channels',
      columns: `
        name text primary key
        description text not null
        built_in integer not null
        created_at bigint not null
        hidden integer not null
        hidden_reason text`,
    },
  ]);
  await db
    .insertInto('exchange_channels')
    .values(BUILT_IN_CHANNELS.map((c) => ({ ...c, built_in: 1, created_at: BUILT_IN_CREATED_AT, hidden: 0, hidden_reason: null })))
    .execute();

  await createTables(db, d, [
    {
      name: 'exchange_messages',
      columns: `
        message_id text primary key
        seq bigint not null unique
        channel text
        sender_id text not null
        sender_name text not null
        recipient_id text
        reply_to text
        thread_id text not null
        body text not null
        created_at bigint not null
        hidden integer not null
        hidden_reason text
        hidden_at bigint`,
      indexes: `
        exchange_messages_channel (channel, seq)
        exchange_messages_sender (sender_id, created_at)
        exchange_messages_recipient (recipient_id, seq)
        exchange_messages_created (created_at)`,
    },
    {
      name: 'exchange_digests',
      columns: `
        channel text not null
        day text not null
        day_start bigint not null
        message_count integer not null
        author_count integer not null
        first_message_at bigint not null
        last_message_at bigint not null
        top_threads text not null
        active_authors text not null
        built_at bigint not null
        constraint exchange_digests_pk primary key (channel, day)`,
      indexes: `
        exchange_digests_day (day_start, channel)`,
    },
    {
      name: 'exchange_summaries',
      columns: `
        day text primary key
        day_start bigint not null
        summary text not null
        built_at bigint not null`,
    },
  ]);
}
