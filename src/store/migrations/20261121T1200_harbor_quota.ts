import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';
import { createTables } from './helpers/create-tables.js';

export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await createTables(db, d, [
    {
      name: 'harbor_action_ledger',
      columns: `
        id autoincrement
        agent_id text not null references agents.agent_id on delete cascade
        operation text not null
        is_create integer not null
        at bigint not null`,
      indexes: `
        harbor_action_ledger_agent_at (agent_id, at)`,
    },
  ]);
}
