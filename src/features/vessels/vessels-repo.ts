import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.js';

export interface LookupRecord {
  vsl_id: string;
  agent_id: string;
  operation_id: string;
  at: number;
}

export interface PreviewLabelRecord {
  at: number;
  operation_id: string;
  agent_name: string | null;
  agent_vendor: string | null;
  ip: string | null;
}

export function createVesselsRepo(db: Kysely<Database>) {
  return {
    async recordLookups(rows: LookupRecord[]): Promise<void> {
      if (rows.length > 0) await db.insertInto('vessel_lookups').values(rows).execute();
    },

    /** Vessels by distinct agents, then reads, since `since`. */
    async popular(since: number, limit: number): Promise<Array<{ vsl_id: string; lookups: number; agents: number }>> {
      const rows = await db
        .selectFrom('vessel_lookups')
        .select((eb) => ['vsl_id', eb.fn.countAll<number>().as('lookups'), eb.fn.count<number>('agent_id').distinct().as('agents')])
        .where('at', '>=', since)
        .groupBy('vsl_id')
        .orderBy('agents', 'desc')
        .orderBy('lookups', 'desc')
        .orderBy('vsl_id', 'asc')
        .limit(limit)
        .execute();
      return rows.map((r) => ({ vsl_id: r.vsl_id, lookups: Number(r.lookups), agents: Number(r.agents) }));
    },

    async recordPreviewLabels(rows: PreviewLabelRecord[]): Promise<void> {
      if (rows.length > 0) await db.insertInto('preview_agent_labels').values(rows).execute();
    },

    async deleteLookupsBefore(cutoff: number): Promise<number> {
      const result = await db.deleteFrom('vessel_lookups').where('at', '<', cutoff).executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async deletePreviewLabelsBefore(cutoff: number): Promise<number> {
      const result = await db.deleteFrom('preview_agent_labels').where('at', '<', cutoff).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type VesselsRepo = ReturnType<typeof createVesselsRepo>;
