import type { Db } from '../../store/db.js';
import type { VesselServiceGrantsTable } from '../../store/schema.js';

export type VesselServiceGrantRow = VesselServiceGrantsTable;

/** Operator grants of the vessel services (bosun services grant|revoke|list). */
export function createVesselServicesRepo(db: Db) {
  return {
    async insert(row: VesselServiceGrantRow): Promise<void> {
      await db.insertInto('vessel_service_grants').values(row).execute();
    },
    /** The agent's grants neither revoked nor expired at `now`. */
    active(agentId: string, now: number): Promise<VesselServiceGrantRow[]> {
      return db.selectFrom('vessel_service_grants').selectAll().where('agent_id', '=', agentId).where('revoked_at', 'is', null).where('expires_at', '>', now).orderBy('expires_at', 'desc').execute();
    },
    list(filter: { agentId?: string; limit: number }): Promise<VesselServiceGrantRow[]> {
      let q = db.selectFrom('vessel_service_grants').selectAll().orderBy('granted_at', 'desc').orderBy('grant_id', 'desc').limit(filter.limit);
      if (filter.agentId) q = q.where('agent_id', '=', filter.agentId);
      return q.execute();
    },
    /** Revokes the agent's active grants of one vessel (all of them when vesselRef is null); how many. */
    async revoke(agentId: string, match: { vslId: string | null; imo: number | null; mmsi: number | null } | null, now: number): Promise<number> {
      let q = db.updateTable('vessel_service_grants').set({ revoked_at: now }).where('agent_id', '=', agentId).where('revoked_at', 'is', null).where('expires_at', '>', now);
      if (match) {
        q = q.where((eb) =>
          eb.or([
            ...(match.vslId !== null ? [eb('vsl_id', '=', match.vslId)] : []),
            ...(match.imo !== null ? [eb('imo', '=', match.imo)] : []),
            ...(match.mmsi !== null ? [eb('mmsi', '=', match.mmsi)] : []),
          ]),
        );
      }
      const res = await q.executeTakeFirst();
      return Number(res.numUpdatedRows);
    },
  };
}
export type VesselServicesRepo = ReturnType<typeof createVesselServicesRepo>;
