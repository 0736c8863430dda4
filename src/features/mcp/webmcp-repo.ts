import type { Db } from '../../store/db.js';
import type { WebmcpDispatchesTable } from '../../store/schema.js';

export type DispatchRecord = WebmcpDispatchesTable;
export type DispatchSample = Pick<DispatchRecord, 'channel' | 'tool' | 'status' | 'error_code' | 'latency_ms'>;

export interface AuditFilter {
  agentId?: string;
  tool?: string;
  channel?: string;
  before?: { ts: number; id: string };
}

export function createWebmcpRepo(db: Db) {
  return {
    async insert(row: DispatchRecord): Promise<void> {
      await db.insertInto('webmcp_dispatches').values(row).execute();
    },
    /** The newest dispatches of a window, newest first, at most `cap`. */
    async window(since: number, cap: number): Promise<DispatchSample[]> {
      return db.selectFrom('webmcp_dispatches').select(['channel', 'tool', 'status', 'error_code', 'latency_ms']).where('ts', '>=', since).orderBy('ts', 'desc').limit(cap).execute();
    },
    /** Dispatches newest first (ts, then id), after the `before` position. */
    async list(filter: AuditFilter, limit: number): Promise<DispatchRecord[]> {
      let query = db.selectFrom('webmcp_dispatches').selectAll();
      if (filter.agentId !== undefined) query = query.where('agent_id', '=', filter.agentId);
      if (filter.tool !== undefined) query = query.where('tool', '=', filter.tool);
      if (filter.channel !== undefined) query = query.where('channel', '=', filter.channel);
      const before = filter.before;
      if (before) query = query.where((eb) => eb.or([eb('ts', '<', before.ts), eb.and([eb('ts', '=', before.ts), eb('id', '<', before.id)])]));
      return query.orderBy('ts', 'desc').orderBy('id', 'desc').limit(limit).execute();
    },
    async deleteOlderThan(cutoff: number): Promise<number> {
      const r = await db.deleteFrom('webmcp_dispatches').where('ts', '<', cutoff).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
  };
}
export type WebmcpRepo = ReturnType<typeof createWebmcpRepo>;
