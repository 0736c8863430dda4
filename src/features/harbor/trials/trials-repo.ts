import type { Db } from '../../../store/db.js';
import type { Executor } from '../../../store/transaction.js';
import type { HarborSnapshotTrialsTable } from '../../../store/schema.js';

export type TrialRow = HarborSnapshotTrialsTable;

const toNumberOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));
const normalize = (row: TrialRow): TrialRow => ({
  ...row,
  imo: toNumberOrNull(row.imo),
  mmsi: toNumberOrNull(row.mmsi),
  granted_at: Number(row.granted_at),
  expires_at: Number(row.expires_at),
  revoked_at: toNumberOrNull(row.revoked_at),
});

export function createTrialsRepo(db: Db) {
  return {
    async upsert(row: TrialRow): Promise<void> {
      await db
        .insertInto('harbor_snapshot_trials')
        .values(row)
        .onConflict((oc) =>
          oc.column('agent_id').doUpdateSet({ vessel_ref: row.vessel_ref, imo: row.imo, mmsi: row.mmsi, vsl_id: row.vsl_id, granted_at: row.granted_at, expires_at: row.expires_at, revoked_at: null }),
        )
        .execute();
    },
    async find(agentId: string): Promise<TrialRow | undefined> {
      const row = await db.selectFrom('harbor_snapshot_trials').selectAll().where('agent_id', '=', agentId).executeTakeFirst();
      return row && normalize(row);
    },
    async list(limit: number): Promise<TrialRow[]> {
      return (await db.selectFrom('harbor_snapshot_trials').selectAll().orderBy('granted_at', 'desc').limit(limit).execute()).map(normalize);
    },
    async revoke(agentId: string, at: number): Promise<boolean> {
      const result = await db.updateTable('harbor_snapshot_trials').set({ revoked_at: at }).where('agent_id', '=', agentId).where('revoked_at', 'is', null).executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async recordFailure(agentId: string, code: string, at: number, trx: Executor = db): Promise<void> {
      await trx.insertInto('harbor_trial_failures').values({ agent_id: agentId, code, at }).execute();
    },
    async failuresSince(agentId: string, since: number, trx: Executor = db): Promise<{ count: number; oldest: number | null }> {
      const row = await trx
        .selectFrom('harbor_trial_failures')
        .select((eb) => [eb.fn.countAll<number | string>().as('count'), eb.fn.min<number | string | null>('at').as('oldest')])
        .where('agent_id', '=', agentId)
        .where('at', '>', since)
        .executeTakeFirstOrThrow();
      return { count: Number(row.count), oldest: row.oldest === null ? null : Number(row.oldest) };
    },
    async deleteFailuresBefore(cutoff: number): Promise<number> {
      const result = await db.deleteFrom('harbor_trial_failures').where('at', '<=', cutoff).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
export type TrialsRepo = ReturnType<typeof createTrialsRepo>;
