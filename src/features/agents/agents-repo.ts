import type { Transaction } from 'kysely';
import type { Db, Store } from '../../store/db.js';
import type { AgentScopesTable, AgentsTable, Database } from '../../store/schema.js';

export type AgentRow = AgentsTable;
export type ScopeRow = AgentScopesTable;
type Executor = Db | Transaction<Database>;

export function createAgentsRepo(db: Db, readNow?: Store['readNow']) {
  // Every keyed request runs these two; building a Kysely query costs as much as running it, so they are built once.
  const agentByKeyHash = db.selectFrom('agents').selectAll().where('key_hash', '=', '').compile();
  const scopeGrantsOfAgent = db.selectFrom('agent_scopes').select(['scope', 'expires_at', 'granted_by']).where('agent_id', '=', '').compile();
  const currentAccessVersion = db.selectFrom('access_version').select('version').where('id', '=', 1).compile();
  return {
    transaction<T>(fn: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
      return db.transaction().execute(fn);
    },
    async insert(agent: AgentRow, scopes: ScopeRow[], trx: Executor = db): Promise<void> {
      await trx.insertInto('agents').values(agent).execute();
      if (scopes.length) await trx.insertInto('agent_scopes').values(scopes).execute();
    },
    async findByKeyHash(keyHash: string): Promise<AgentRow | undefined> {
      const { rows } = await db.executeQuery<AgentRow>({ ...agentByKeyHash, parameters: [keyHash] });
      return rows[0];
    },
    /** The counter every change to agents or agent_scopes bumps (by trigger, in the changing transaction). */
    async accessVersion(): Promise<number> {
      const { rows } = await db.executeQuery<{ version: number }>(currentAccessVersion);
      return Number(rows[0]!.version);
    },
    /** The same counter read at once (SQLite outside a transaction); undefined when only `accessVersion` can read it. */
    accessVersionNow(): number | undefined {
      const rows = readNow?.<{ version: number }>(currentAccessVersion);
      return rows ? Number(rows[0]!.version) : undefined;
    },
    /** Scope names with their expiry and grantor, unordered. */
    async scopeGrantsOf(agentId: string): Promise<Array<Pick<ScopeRow, 'scope' | 'expires_at' | 'granted_by'>>> {
      const { rows } = await db.executeQuery<Pick<ScopeRow, 'scope' | 'expires_at' | 'granted_by'>>({ ...scopeGrantsOfAgent, parameters: [agentId] });
      return rows;
    },
    async findById(agentId: string, trx: Executor = db): Promise<AgentRow | undefined> {
      return trx.selectFrom('agents').selectAll().where('agent_id', '=', agentId).executeTakeFirst();
    },
    async scopesOf(agentId: string, trx: Executor = db): Promise<ScopeRow[]> {
      return trx.selectFrom('agent_scopes').selectAll().where('agent_id', '=', agentId).orderBy('scope').execute();
    },
    async upsertScope(row: ScopeRow, trx: Executor = db): Promise<void> {
      await trx
        .insertInto('agent_scopes')
        .values(row)
        .onConflict((oc) => oc.columns(['agent_id', 'scope']).doUpdateSet({ granted_by: row.granted_by, granted_at: row.granted_at, expires_at: row.expires_at }))
        .execute();
    },
    async deleteScope(agentId: string, scope: string, trx: Executor = db): Promise<number> {
      const r = await trx.deleteFrom('agent_scopes').where('agent_id', '=', agentId).where('scope', '=', scope).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
    /** Removes every grant one grantor made (e.g. the automatic sandbox grants); returns how many. */
    async deleteScopesGrantedBy(agentId: string, grantedBy: string, trx: Executor = db): Promise<number> {
      const r = await trx.deleteFrom('agent_scopes').where('agent_id', '=', agentId).where('granted_by', '=', grantedBy).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
    async update(agentId: string, patch: Partial<AgentRow>, trx: Executor = db): Promise<void> {
      await trx.updateTable('agents').set(patch).where('agent_id', '=', agentId).execute();
    },
    async list(filter: { limit: number; state?: string }): Promise<AgentRow[]> {
      let q = db.selectFrom('agents').selectAll().orderBy('created_at', 'desc').limit(filter.limit);
      if (filter.state) q = q.where('state', '=', filter.state);
      return q.execute();
    },
    async count(): Promise<number> {
      const r = await db
        .selectFrom('agents')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
  };
}
export type AgentsRepo = ReturnType<typeof createAgentsRepo>;
