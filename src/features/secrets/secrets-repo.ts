import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.js';

export function createSecretsRepo(db: Kysely<Database>) {
  return {
    /**
     * The store's secret of this name, created with `candidate` when there is none yet. Safe between
     * processes: the first insert wins and every process reads the winner back.
     */
    async getOrCreate(name: string, candidate: string, now: number): Promise<string> {
      await db
        .insertInto('service_secrets')
        .values({ name, secret: candidate, created_at: now })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
      const row = await db.selectFrom('service_secrets').select('secret').where('name', '=', name).executeTakeFirstOrThrow();
      return row.secret;
    },
  };
}
export type SecretsRepo = ReturnType<typeof createSecretsRepo>;
