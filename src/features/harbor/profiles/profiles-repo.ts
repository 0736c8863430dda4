import type { Db } from '../../../store/db.js';
import type { DialectHelpers } from '../../../store/dialect.js';
import type { Executor } from '../../../store/transaction.js';
import type { HarborProfilesTable } from '../../../store/schema.js';
import type { ListPosition } from '../../../http/cursor-codec.js';
import { olderThan } from '../cursor.js';

export type ProfileRow = HarborProfilesTable;

export function createProfilesRepo(db: Db, dialect: DialectHelpers) {
  function publicProfiles() {
    return db.selectFrom('harbor_profiles').selectAll().where('is_public', '=', 1).orderBy('created_at', 'desc').orderBy('agent_id', 'desc');
  }

  return {
    async findByAgent(agentId: string, trx: Executor = db): Promise<ProfileRow | undefined> {
      return trx.selectFrom('harbor_profiles').selectAll().where('agent_id', '=', agentId).executeTakeFirst();
    },
    async upsert(row: ProfileRow, trx: Executor = db): Promise<void> {
      const { agent_id: _agentId, created_at: _createdAt, ...changes } = row;
      await trx
        .insertInto('harbor_profiles')
        .values(row)
        .onConflict((oc) => oc.column('agent_id').doUpdateSet(changes))
        .execute();
    },
    async findPublic(agentId: string): Promise<ProfileRow | undefined> {
      return publicProfiles().where('agent_id', '=', agentId).executeTakeFirst();
    },
    /** Public profiles, newest first, after `after` when given. */
    async listPublic(limit: number, after?: ListPosition): Promise<ProfileRow[]> {
      let q = publicProfiles().limit(limit);
      if (after) {
        q = q.where(olderThan('agent_id', after));
      }
      return q.execute();
    },
    /**
     * Public profiles declaring the capability tag (exact tag, stored in a JSON array of strings) and/or
     * mentioning text in summary, offers or needs, case-insensitively.
     */
    async searchPublic(filter: { tag?: string; text?: string; limit: number }): Promise<ProfileRow[]> {
      let q = publicProfiles().limit(filter.limit);
      if (filter.tag !== undefined) q = q.where(dialect.containsInsensitive('capabilities', JSON.stringify(filter.tag)));
      const text = filter.text;
      if (text !== undefined) {
        q = q.where((eb) => eb.or([dialect.containsInsensitive('summary', text), dialect.containsInsensitive('offers', text), dialect.containsInsensitive('needs', text)]));
      }
      return q.execute();
    },
  };
}
export type ProfilesRepo = ReturnType<typeof createProfilesRepo>;
