import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

export interface LeaseHolder {
  owner: string;
  leaseUntil: number;
  acquiredAt: number | null;
}

/**
 * Named leases in the store, shared by every process on it (docs/decisions/100). Times are the callers'
 * clocks (epoch ms): processes on one store need clocks within a small fraction of the lease length.
 * Each statement is one row update, atomic on both stores: of two processes claiming a lapsed lease at
 * once, PostgreSQL re-checks the second update's condition after the first commits, so one wins.
 */
export function createLeaseRepo(db: Kysely<Database>) {
  return {
    /**
     * Takes or renews `name` for `owner` until `now + leaseMs`, unless another owner holds it and its
     * lease has not lapsed (`lease_until` ≥ now). True when `owner` holds it afterwards.
     */
    async claim(name: string, owner: string, now: number, leaseMs: number): Promise<boolean> {
      await db
        .insertInto('process_leases')
        .values({ name, owner: null, lease_until: 0, acquired_at: null, updated_at: now })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
      const result = await db
        .updateTable('process_leases')
        .set((eb) => ({
          owner,
          lease_until: now + leaseMs,
          acquired_at: eb.case().when('owner', '=', owner).then(eb.ref('acquired_at')).else(now).end(),
          updated_at: now,
        }))
        .where('name', '=', name)
        .where((eb) => eb.or([eb('owner', 'is', null), eb('owner', '=', owner), eb('lease_until', '<', now)]))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** Gives `name` up if `owner` holds it (a clean stop: the next process need not wait for it to lapse). */
    async release(name: string, owner: string, now: number): Promise<void> {
      await db.updateTable('process_leases').set({ owner: null, lease_until: 0, acquired_at: null, updated_at: now }).where('name', '=', name).where('owner', '=', owner).execute();
    },

    /** Who holds `name` at `now`, or null when nobody does (never taken, released or lapsed). */
    async holder(name: string, now: number): Promise<LeaseHolder | null> {
      const row = await db.selectFrom('process_leases').select(['owner', 'lease_until', 'acquired_at']).where('name', '=', name).executeTakeFirst();
      if (!row || row.owner === null || Number(row.lease_until) < now) return null;
      return { owner: row.owner, leaseUntil: Number(row.lease_until), acquiredAt: row.acquired_at === null ? null : Number(row.acquired_at) };
    },
  };
}
export type LeaseRepo = ReturnType<typeof createLeaseRepo>;
