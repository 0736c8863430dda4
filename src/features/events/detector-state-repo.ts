import type { Db } from '../../store/db.js';
import type { EventDetectorStateTable } from '../../store/schema.js';

export type DetectorCheckpoint = EventDetectorStateTable;

/** The detector runner's checkpoint and lease (table event_detector_state, one row a detector), part of the event store. */
export function createDetectorStateRepo(db: Db) {
  return {
    /** The observation time a detector's checkpoint reached, without reading its state. */
    async checkpointDataTime(name: string): Promise<number | null> {
      const row = await db.selectFrom('event_detector_state').select('data_time').where('name', '=', name).executeTakeFirst();
      return row?.data_time ?? null;
    },

    async checkpoint(name: string): Promise<DetectorCheckpoint | undefined> {
      return db.selectFrom('event_detector_state').selectAll().where('name', '=', name).executeTakeFirst();
    },

    /**
     * Takes or renews the lease of `name` for `owner` unless another owner holds one that has not lapsed.
     * True when `owner` holds it afterwards.
     */
    async claimLease(name: string, owner: string, now: number, leaseMs: number): Promise<boolean> {
      await db
        .insertInto('event_detector_state')
        .values({ name, cursor_seq: 0, state: '{}', data_time: null, owner: null, lease_until: 0, updated_at: now })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
      const result = await db
        .updateTable('event_detector_state')
        .set({ owner, lease_until: now + leaseMs })
        .where('name', '=', name)
        .where((eb) => eb.or([eb('owner', 'is', null), eb('owner', '=', owner), eb('lease_until', '<', now)]))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    async releaseLease(name: string, owner: string): Promise<void> {
      await db.updateTable('event_detector_state').set({ owner: null, lease_until: 0 }).where('name', '=', name).where('owner', '=', owner).execute();
    },

    /** Saves the cursor and state while `owner` still holds the lease; false when it has lost it. */
    async saveCheckpoint(name: string, owner: string, checkpoint: { cursorSeq: number; state: string; dataTime: number | null }, now: number): Promise<boolean> {
      const result = await db
        .updateTable('event_detector_state')
        .set({ cursor_seq: checkpoint.cursorSeq, state: checkpoint.state, data_time: checkpoint.dataTime, updated_at: now })
        .where('name', '=', name)
        .where('owner', '=', owner)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
  };
}
