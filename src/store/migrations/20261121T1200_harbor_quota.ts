import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';

export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await d
    .addAutoId(db.schema.createTable('harbor_action_ledger'), 'id')
    .addColumn('agent_id', 'text', (c) => c.notNull().references('agents.agent_id').onDelete('cascade'))
    .addColumn('operation', 'text', (c) => c.notNull())
    .addColumn('is_create', 'integer', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('harbor_action_ledger_agent_at').on('harbor_action_ledger').columns(['agent_id', 'at']).execute();
}
