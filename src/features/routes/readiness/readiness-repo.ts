import { sql, type RawBuilder } from 'kysely';
import type { DialectName } from '../../../store/dialect.js';
import type { Db } from '../../../store/db.js';
import type { RouteReadinessSnapshotsTable } from '../../../store/schema.js';

export type SnapshotRow = Omit<RouteReadinessSnapshotsTable, 'id'>;

const num = (v: unknown): number => Number(v ?? 0);
const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/**
 * Aggregate reads of positions, vessels, the event store, request telemetry and the readiness
 * snapshots for the routes readiness views. Positions are only ever grouped or capped here: no
 * query returns a row per stored position without a limit.
 */
export function createReadinessRepo(db: Db, dialect: DialectName) {
  /** The grid row/column of `column` (lat + 90 or lon + 180, never negative) for a cell of `cellDeg` degrees. */
  const cellOf = (column: 'lat' | 'lon', cellDeg: number): RawBuilder<number> => {
    const offset = column === 'lat' ? 90 : 180;
    return dialect === 'sqlite'
      ? sql<number>`cast((${sql.ref(column)} + ${sql.lit(offset)}) / ${sql.lit(cellDeg)} as integer)`
      : sql<number>`cast(floor((${sql.ref(column)} + ${sql.lit(offset)}) / ${sql.lit(cellDeg)}) as integer)`;
  };

  return {
    /** Newest observation at or before `until` (any time before), its receipt time and the number of positions ever stored up to then. */
    async newestPosition(until: number): Promise<{ observed_at: number; received_at: number; source: string; simulated: boolean } | null> {
      const row = await db
        .selectFrom('positions')
        .select(['observed_at', 'received_at', 'source', 'simulated'])
        .where('observed_at', '<=', until)
        .orderBy('observed_at', 'desc')
        .orderBy('seq', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row ? { observed_at: num(row.observed_at), received_at: num(row.received_at), source: row.source, simulated: num(row.simulated) === 1 } : null;
    },

    /** Per source: positions observed in [since, until], the newest observation and receipt, simulated count. */
    async bySource(since: number, until: number) {
      const rows = await db
        .selectFrom('positions')
        .select((eb) => [
          'source',
          eb.fn.countAll<number>().as('positions'),
          eb.fn.max('observed_at').as('newest_observed'),
          eb.fn.max('received_at').as('newest_received'),
          eb.fn.sum<number>('simulated').as('simulated'),
        ])
        .where('observed_at', '>=', since)
        .where('observed_at', '<=', until)
        .groupBy('source')
        .execute();
      return rows.map((r) => ({ source: r.source, positions: num(r.positions), newest_observed: num(r.newest_observed), newest_received: num(r.newest_received), simulated: num(r.simulated) }));
    },

    /** Per grid cell of `cellDeg` degrees: usable positions (quality checks passed) observed in [since, until], the newest, how many simulated. */
    async byCell(since: number, until: number, cellDeg: number) {
      const rows = await db
        .selectFrom('positions')
        .select((eb) => [
          cellOf('lat', cellDeg).as('row'),
          cellOf('lon', cellDeg).as('col'),
          eb.fn.countAll<number>().as('positions'),
          eb.fn.max('observed_at').as('newest_observed'),
          eb.fn.sum<number>('simulated').as('simulated'),
        ])
        .where('observed_at', '>=', since)
        .where('observed_at', '<=', until)
        .where('usable', '=', 1)
        .groupBy(['row', 'col'])
        .execute();
      return rows.map((r) => ({ row: num(r.row), col: num(r.col), positions: num(r.positions), newest_observed: num(r.newest_observed), simulated: num(r.simulated) }));
    },

    /** Per day index ((observed_at − since) / day) and grid cell: usable positions observed in [since, until], how many simulated. */
    async byDayCell(since: number, until: number, dayMs: number, cellDeg: number) {
      const day = sql<number>`cast((${sql.ref('observed_at')} - ${sql.lit(since)}) / ${sql.lit(dayMs)} as integer)`;
      const rows = await db
        .selectFrom('positions')
        .select((eb) => [day.as('day'), cellOf('lat', cellDeg).as('row'), cellOf('lon', cellDeg).as('col'), eb.fn.countAll<number>().as('positions'), eb.fn.sum<number>('simulated').as('simulated')])
        .where('observed_at', '>=', since)
        .where('observed_at', '<=', until)
        .where('usable', '=', 1)
        .groupBy(['day', 'row', 'col'])
        .execute();
      return rows.map((r) => ({ day: Math.floor(num(r.day)), row: num(r.row), col: num(r.col), positions: num(r.positions), simulated: num(r.simulated) }));
    },

    /** The ingest lag (received − observed, ms) of the newest `cap` positions observed in [since, until], with their source and place. */
    async lagSample(since: number, until: number, cap: number) {
      const rows = await db
        .selectFrom('positions')
        .select(['source', 'lat', 'lon', 'observed_at', 'received_at'])
        .where('observed_at', '>=', since)
        .where('observed_at', '<=', until)
        .orderBy('observed_at', 'desc')
        .limit(cap)
        .execute();
      return rows.map((r) => ({ source: r.source, lat: Number(r.lat), lon: Number(r.lon), lag_ms: num(r.received_at) - num(r.observed_at) }));
    },

    /** Per bucket index ((observed_at − since) / bucketMs): the newest observation in it. */
    async newestPerBucket(since: number, until: number, bucketMs: number) {
      const bucket = sql<number>`cast((${sql.ref('observed_at')} - ${sql.lit(since)}) / ${sql.lit(bucketMs)} as integer)`;
      const rows = await db
        .selectFrom('positions')
        .select((eb) => [bucket.as('bucket'), eb.fn.max('observed_at').as('newest'), eb.fn.countAll<number>().as('positions')])
        .where('observed_at', '>=', since)
        .where('observed_at', '<=', until)
        .groupBy('bucket')
        .execute();
      return rows.map((r) => ({ bucket: Math.floor(num(r.bucket)), newest: num(r.newest), positions: num(r.positions) }));
    },

    /** Vessels seen in [since, until]: how many carry each identity field. */
    async vesselCompleteness(since: number, until: number) {
      const filled = (column: string) => sql<number>`sum(case when ${sql.ref(column)} is not null and ${sql.ref(column)} <> '' then 1 else 0 end)`;
      const present = (column: string) => sql<number>`sum(case when ${sql.ref(column)} is not null then 1 else 0 end)`;
      const row = await db
        .selectFrom('vessels')
        .select((eb) => [
          eb.fn.countAll<number>().as('vessels'),
          filled('name').as('name'),
          present('imo').as('imo'),
          present('ship_type').as('ship_type'),
          sql<number>`sum(case when length_m is not null and beam_m is not null then 1 else 0 end)`.as('dimensions'),
          filled('destination').as('destination'),
          eb.fn.sum<number>('simulated').as('simulated'),
        ])
        .where('last_seen_at', '>=', since)
        .where('last_seen_at', '<=', until)
        .executeTakeFirstOrThrow();
      return {
        vessels: num(row.vessels),
        name: num(row.name),
        imo: num(row.imo),
        ship_type: num(row.ship_type),
        dimensions: num(row.dimensions),
        destination: num(row.destination),
        simulated: num(row.simulated),
      };
    },

    /** Positions observed in [since, until]: how many carry SOG, COG and heading. */
    async positionCompleteness(since: number, until: number) {
      const row = await db
        .selectFrom('positions')
        .select((eb) => [
          eb.fn.countAll<number>().as('positions'),
          eb.fn.count<number>('sog').as('sog'),
          eb.fn.count<number>('cog').as('cog'),
          eb.fn.count<number>('heading').as('heading'),
          eb.fn.sum<number>('simulated').as('simulated'),
        ])
        .where('observed_at', '>=', since)
        .where('observed_at', '<=', until)
        .executeTakeFirstOrThrow();
      return { positions: num(row.positions), sog: num(row.sog), cog: num(row.cog), heading: num(row.heading), simulated: num(row.simulated) };
    },

    /** Port calls that began in [since, until] and chokepoint transits (of the given gates) that ended in (since, until], as the corridors count them. */
    async eventCounts(since: number, until: number, zones: readonly string[]): Promise<{ port_calls: number; transits: number }> {
      const calls = await db
        .selectFrom('port_calls')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('arrival', '>=', since)
        .where('arrival', '<=', until)
        .executeTakeFirstOrThrow();
      const transits = await db
        .selectFrom('transits')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        // by zone: the (zone, exited_at) index answers it
        .where('zone', 'in', [...zones])
        .where('exited_at', '>', since)
        .where('exited_at', '<=', until)
        .executeTakeFirstOrThrow();
      return { port_calls: num(calls.n), transits: num(transits.n) };
    },

    /** Request telemetry of the given operations from `since` on (newest first, at most `cap` records). */
    async telemetry(operationIds: readonly string[], since: number, cap: number) {
      if (operationIds.length === 0) return [];
      const rows = await db
        .selectFrom('request_telemetry')
        .select(['operation_id', 'ts', 'status', 'latency_ms'])
        .where('ts', '>=', since)
        .where('operation_id', 'in', [...operationIds])
        .orderBy('ts', 'desc')
        .limit(cap)
        .execute();
      return rows.map((r) => ({ operation_id: r.operation_id, ts: num(r.ts), status: num(r.status), latency_ms: Number(r.latency_ms) }));
    },

    async insertSnapshot(row: SnapshotRow): Promise<void> {
      await db.insertInto('route_readiness_snapshots').values(row).execute();
    },

    async latestSnapshotAt(): Promise<number | null> {
      const row = await db
        .selectFrom('route_readiness_snapshots')
        .select((eb) => eb.fn.max('at').as('at'))
        .executeTakeFirst();
      return numOrNull(row?.at);
    },

    /** Snapshots taken in [since, until], newest first, at most `limit`, and how many the window holds. */
    async snapshots(since: number, until: number, limit: number) {
      const rows = await db
        .selectFrom('route_readiness_snapshots')
        .select(['at', 'ready', 'passed', 'total', 'origin', 'checks'])
        .where('at', '>=', since)
        .where('at', '<=', until)
        .orderBy('at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      const counts = await db
        .selectFrom('route_readiness_snapshots')
        .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('ready').as('ready')])
        .where('at', '>=', since)
        .where('at', '<=', until)
        .executeTakeFirstOrThrow();
      return {
        rows: rows.map((r) => ({ at: num(r.at), ready: num(r.ready) === 1, passed: num(r.passed), total: num(r.total), origin: r.origin, checks: r.checks })),
        total: num(counts.n),
        ready: num(counts.ready),
      };
    },

    async deleteSnapshotsBefore(cutoff: number): Promise<number> {
      const r = await db.deleteFrom('route_readiness_snapshots').where('at', '<', cutoff).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
  };
}
export type ReadinessRepo = ReturnType<typeof createReadinessRepo>;
