import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';

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
export async function up(db: Kysely<any>, _d: DialectHelpers): Promise<void> {
  await db.schema
    .createTable('exchange_channels')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('built_in', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('hidden', 'integer', (c) => c.notNull())
    .addColumn('hidden_reason', 'text')
    .execute();
  await db
    .insertInto('exchange_channels')
    .values(BUILT_IN_CHANNELS.map((c) => ({ ...c, built_in: 1, created_at: BUILT_IN_CREATED_AT, hidden: 0, hidden_reason: null })))
    .execute();

  await db.schema
    .createTable('exchange_messages')
    .addColumn('message_id', 'text', (c) => c.primaryKey())
    .addColumn('seq', 'bigint', (c) => c.notNull().unique())
    .addColumn('channel', 'text')
    .addColumn('sender_id', 'text', (c) => c.notNull())
    .addColumn('sender_name', 'text', (c) => c.notNull())
    .addColumn('recipient_id', 'text')
    .addColumn('reply_to', 'text')
    .addColumn('thread_id', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('hidden', 'integer', (c) => c.notNull())
    .addColumn('hidden_reason', 'text')
    .addColumn('hidden_at', 'bigint')
    .execute();
  await db.schema.createIndex('exchange_messages_channel').on('exchange_messages').columns(['channel', 'seq']).execute();
  await db.schema.createIndex('exchange_messages_sender').on('exchange_messages').columns(['sender_id', 'created_at']).execute();
  await db.schema.createIndex('exchange_messages_recipient').on('exchange_messages').columns(['recipient_id', 'seq']).execute();
  await db.schema.createIndex('exchange_messages_created').on('exchange_messages').column('created_at').execute();

  await db.schema
    .createTable('exchange_digests')
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('day_start', 'bigint', (c) => c.notNull())
    .addColumn('message_count', 'integer', (c) => c.notNull())
    .addColumn('author_count', 'integer', (c) => c.notNull())
    .addColumn('first_message_at', 'bigint', (c) => c.notNull())
    .addColumn('last_message_at', 'bigint', (c) => c.notNull())
    .addColumn('top_threads', 'text', (c) => c.notNull())
    .addColumn('active_authors', 'text', (c) => c.notNull())
    .addColumn('built_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('exchange_digests_pk', ['channel', 'day'])
    .execute();
  await db.schema.createIndex('exchange_digests_day').on('exchange_digests').columns(['day_start', 'channel']).execute();

  await db.schema
    .createTable('exchange_summaries')
    .addColumn('day', 'text', (c) => c.primaryKey())
    .addColumn('day_start', 'bigint', (c) => c.notNull())
    .addColumn('summary', 'text', (c) => c.notNull())
    .addColumn('built_at', 'bigint', (c) => c.notNull())
    .execute();
}
