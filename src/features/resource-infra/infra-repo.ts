import type { Db } from '../../store/db.js';
import type { InfraFailuresTable, InfraFindingsTable, InfraObjectsTable, InfraRunsTable } from '../../store/schema.js';
import type { Trx } from '../../store/transaction.js';

export type InfraRunRow = Omit<InfraRunsTable, 'id'> & { id: number };
export type InfraObjectRow = InfraObjectsTable;
export type InfraFailureRow = Omit<InfraFailuresTable, 'id'> & { id: number };
export type InfraFindingRow = Omit<InfraFindingsTable, 'id'> & { id: number };
export type NewFinding = Omit<InfraFindingsTable, 'id'>;
export type NewFailure = Omit<InfraFailuresTable, 'id'>;

const BATCH = 400;

/** One source of a built layer file as the store loads it (layer-file.ts); `file` is what its run records. */
export interface LayerSourceRows {
  source_id: string;
  file: string;
  file_sha256: string | null;
  run: Pick<InfraRunRow, 'rows_read' | 'created' | 'updated' | 'unchanged' | 'removed' | 'failed' | 'skipped'>;
  objects: Array<Omit<InfraObjectRow, 'first_run_id' | 'last_run_id' | 'created_at' | 'updated_at'>>;
  findings: Array<Omit<InfraFindingRow, 'id' | 'run_id'>>;
  failures: Array<Pick<InfraFailureRow, 'row_ref' | 'reason' | 'detail'>>;
}

/** Thrown by commitRun when the run's ingest no longer holds the ingest lock (another took it over). */
export class IngestLockLost extends Error {}

/** The ingest lock a run holds while it writes (docs/decisions/057). */
export interface LockHold {
  name: string;
  owner: string;
  leaseMs: number;
  now: () => number;
}

export type LockClaim = { acquired: true; tookOverFrom: string | null } | { acquired: false; holder: string | null; acquiredAt: number; leaseUntil: number };
const runFromRow = (r: Record<string, unknown>): InfraRunRow => ({
  ...(r as unknown as InfraRunRow),
  id: Number(r.id),
  started_at: Number(r.started_at),
  finished_at: r.finished_at === null ? null : Number(r.finished_at),
});
const objectFromRow = (r: InfraObjectRow): InfraObjectRow => ({
  ...r,
  first_run_id: Number(r.first_run_id),
  last_run_id: Number(r.last_run_id),
  created_at: Number(r.created_at),
  updated_at: Number(r.updated_at),
});

/** The only place that touches the resource_infra tables. */
export function createInfraRepo(db: Db) {
  const on = (trx?: Trx) => trx ?? db;
  return {
    async startRun(run: Pick<InfraRunsTable, 'source_id' | 'file' | 'shipped_file' | 'file_sha256' | 'started_at'>): Promise<number> {
      const row = await db
        .insertInto('infra_runs')
        .values({ ...run, state: 'running', rows_read: 0, created: 0, updated: 0, unchanged: 0, removed: 0, failed: 0, skipped: '{}', objects_after: 0, finished_at: null, error: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      return Number(row.id);
    },
    async failRun(id: number, finishedAt: number, error: string, rowsRead: number): Promise<void> {
      await db.updateTable('infra_runs').set({ state: 'failed', finished_at: finishedAt, error, rows_read: rowsRead }).where('id', '=', id).execute();
    },
    /** Content hashes of a source's stored objects. */
    async hashes(sourceId: string): Promise<Map<string, { hash: string; created_at: number; first_run_id: number }>> {
      const rows = await db.selectFrom('infra_objects').select(['id', 'content_hash', 'created_at', 'first_run_id']).where('source_id', '=', sourceId).execute();
      return new Map(rows.map((r) => [r.id, { hash: r.content_hash, created_at: Number(r.created_at), first_run_id: Number(r.first_run_id) }]));
    },
    /** Writes a run's outcome in one transaction: objects upserted and removed, the source's findings replaced, failures recorded, the run finished. */
    async commitRun(args: {
      runId: number;
      sourceId: string;
      upserts: InfraObjectRow[];
      removeIds: string[];
      findings: NewFinding[];
      failures: NewFailure[];
      run: Pick<InfraRunsTable, 'finished_at' | 'rows_read' | 'created' | 'updated' | 'unchanged' | 'removed' | 'failed' | 'skipped'>;
      /** When given, the commit happens only while this hold is still the lock's (renewed in the same transaction). */
      lock?: LockHold;
    }): Promise<number> {
      return db.transaction().execute(async (trx) => {
        if (args.lock) {
          const now = args.lock.now();
          const renewed = await trx
            .updateTable('infra_ingest_lock')
            .set({ lease_until: now + args.lock.leaseMs })
            .where('name', '=', args.lock.name)
            .where('owner', '=', args.lock.owner)
            .executeTakeFirst();
          if (Number(renewed.numUpdatedRows) === 0) throw new IngestLockLost('the ingest lock was taken over by another ingest (this one stopped renewing it); nothing of this run was written');
        }
        for (let i = 0; i < args.upserts.length; i += BATCH) {
          await trx
            .insertInto('infra_objects')
            .values(args.upserts.slice(i, i + BATCH))
            .onConflict((oc) =>
              oc.column('id').doUpdateSet((eb) => ({
                source_key: eb.ref('excluded.source_key'),
                category: eb.ref('excluded.category'),
                subcategory: eb.ref('excluded.subcategory'),
                name: eb.ref('excluded.name'),
                status: eb.ref('excluded.status'),
                country: eb.ref('excluded.country'),
                region: eb.ref('excluded.region'),
                lon: eb.ref('excluded.lon'),
                lat: eb.ref('excluded.lat'),
                geometry_type: eb.ref('excluded.geometry_type'),
                body: eb.ref('excluded.body'),
                content_hash: eb.ref('excluded.content_hash'),
                last_run_id: eb.ref('excluded.last_run_id'),
                updated_at: eb.ref('excluded.updated_at'),
              })),
            )
            .execute();
        }
        for (let i = 0; i < args.removeIds.length; i += BATCH)
          await trx
            .deleteFrom('infra_objects')
            .where('id', 'in', args.removeIds.slice(i, i + BATCH))
            .execute();
        await trx.deleteFrom('infra_findings').where('source_id', '=', args.sourceId).where('kind', '!=', 'duplicate').execute();
        for (let i = 0; i < args.findings.length; i += BATCH)
          await trx
            .insertInto('infra_findings')
            .values(args.findings.slice(i, i + BATCH))
            .execute();
        for (let i = 0; i < args.failures.length; i += BATCH)
          await trx
            .insertInto('infra_failures')
            .values(args.failures.slice(i, i + BATCH))
            .execute();
        const count = await trx
          .selectFrom('infra_objects')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .executeTakeFirstOrThrow();
        const objectsAfter = Number(count.n);
        await trx
          .updateTable('infra_runs')
          .set({ ...args.run, state: 'succeeded', objects_after: objectsAfter })
          .where('id', '=', args.runId)
          .execute();
        return objectsAfter;
      });
    },
    /**
     * Loads a built layer file into an empty layer (docs/decisions/090), in one transaction under the
     * ingest lock `lock`: per source one succeeded run (its file: the built file and the source file it
     * came from), its objects, findings and failures. Nothing is written when the layer already has a
     * run (another process loaded it or an ingest ran first) or the lock is no longer held; returns
     * the runs written.
     */
    async loadLayerFile(sources: readonly LayerSourceRows[], lock: LockHold): Promise<number> {
      return db.transaction().execute(async (trx) => {
        const now = lock.now();
        const renewed = await trx
          .updateTable('infra_ingest_lock')
          .set({ lease_until: now + lock.leaseMs })
          .where('name', '=', lock.name)
          .where('owner', '=', lock.owner)
          .executeTakeFirst();
        if (Number(renewed.numUpdatedRows) === 0) return 0;
        const any = await trx.selectFrom('infra_runs').select('id').limit(1).executeTakeFirst();
        if (any) return 0;
        let objectsAfter = 0;
        for (const source of sources) {
          const run = await trx
            .insertInto('infra_runs')
            .values({
              ...source.run,
              source_id: source.source_id,
              file: source.file,
              shipped_file: 1,
              file_sha256: source.file_sha256,
              started_at: now,
              finished_at: now,
              state: 'succeeded',
              objects_after: (objectsAfter += source.objects.length),
              error: null,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          const runId = Number(run.id);
          const objects = source.objects.map((o) => ({ ...o, first_run_id: runId, last_run_id: runId, created_at: now, updated_at: now }));
          for (let i = 0; i < objects.length; i += BATCH)
            await trx
              .insertInto('infra_objects')
              .values(objects.slice(i, i + BATCH))
              .execute();
          const findings = source.findings.map((f) => ({ ...f, run_id: runId }));
          for (let i = 0; i < findings.length; i += BATCH)
            await trx
              .insertInto('infra_findings')
              .values(findings.slice(i, i + BATCH))
              .execute();
          const failures = source.failures.map((f) => ({ ...f, run_id: runId, source_id: source.source_id }));
          for (let i = 0; i < failures.length; i += BATCH)
            await trx
              .insertInto('infra_failures')
              .values(failures.slice(i, i + BATCH))
              .execute();
        }
        return sources.length;
      });
    },
    /** Whether any ingest run (of any state) was ever recorded. */
    async hasRuns(): Promise<boolean> {
      return (await db.selectFrom('infra_runs').select('id').limit(1).executeTakeFirst()) !== undefined;
    },
    /** Every failure of the given runs, in order. */
    async failuresOf(runIds: number[]): Promise<InfraFailureRow[]> {
      if (!runIds.length) return [];
      const rows = await db.selectFrom('infra_failures').selectAll().where('run_id', 'in', runIds).orderBy('id').execute();
      return rows.map((r) => ({ ...r, id: Number(r.id), run_id: Number(r.run_id) }));
    },
    /** Replaces every duplicate finding (they span sources). */
    async replaceDuplicates(findings: NewFinding[]): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('infra_findings').where('kind', '=', 'duplicate').execute();
        for (let i = 0; i < findings.length; i += BATCH)
          await trx
            .insertInto('infra_findings')
            .values(findings.slice(i, i + BATCH))
            .execute();
      });
    },
    /**
     * Takes the ingest lock `name` for `owner` unless another owner holds one whose lease has not
     * lapsed (the events runner's lease, docs/decisions/057). One conditional UPDATE decides, so two
     * processes cannot both take it (SQLite serialises writers; PostgreSQL re-checks the row it locks).
     */
    async claimIngestLock(args: { name: string; owner: string; holder: string; now: number; leaseMs: number }): Promise<LockClaim> {
      await db
        .insertInto('infra_ingest_lock')
        .values({ name: args.name, owner: null, lease_until: 0, acquired_at: 0, holder: null })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
      const before = await db.selectFrom('infra_ingest_lock').selectAll().where('name', '=', args.name).executeTakeFirstOrThrow();
      const result = await db
        .updateTable('infra_ingest_lock')
        .set({ owner: args.owner, lease_until: args.now + args.leaseMs, acquired_at: args.now, holder: args.holder })
        .where('name', '=', args.name)
        .where((eb) => eb.or([eb('owner', 'is', null), eb('owner', '=', args.owner), eb('lease_until', '<', args.now)]))
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) > 0) {
        const stale = before.owner !== null && before.owner !== args.owner && Number(before.lease_until) < args.now;
        return { acquired: true, tookOverFrom: stale ? (before.holder ?? before.owner) : null };
      }
      const held = await db.selectFrom('infra_ingest_lock').selectAll().where('name', '=', args.name).executeTakeFirstOrThrow();
      return { acquired: false, holder: held.holder, acquiredAt: Number(held.acquired_at), leaseUntil: Number(held.lease_until) };
    },
    /** Extends `owner`'s lease; false when it no longer holds the lock. */
    async renewIngestLock(name: string, owner: string, now: number, leaseMs: number): Promise<boolean> {
      const result = await db
        .updateTable('infra_ingest_lock')
        .set({ lease_until: now + leaseMs })
        .where('name', '=', name)
        .where('owner', '=', owner)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async releaseIngestLock(name: string, owner: string): Promise<void> {
      await db.updateTable('infra_ingest_lock').set({ owner: null, lease_until: 0 }).where('name', '=', name).where('owner', '=', owner).execute();
    },
    /** Marks the runs still 'running' as failed (their ingest stopped: its lock was taken over after its lease lapsed). */
    async abandonRunningRuns(finishedAt: number, error: string): Promise<number> {
      const result = await db.updateTable('infra_runs').set({ state: 'failed', finished_at: finishedAt, error }).where('state', '=', 'running').executeTakeFirst();
      return Number(result.numUpdatedRows);
    },
    /** Id of the newest finished run (the layer's data version), 0 before any. */
    async dataVersion(): Promise<number> {
      const row = await db
        .selectFrom('infra_runs')
        .select((eb) => eb.fn.max('id').as('id'))
        .where('state', '!=', 'running')
        .executeTakeFirst();
      return Number(row?.id ?? 0);
    },
    async objects(): Promise<InfraObjectRow[]> {
      return (await db.selectFrom('infra_objects').selectAll().orderBy('id').execute()).map(objectFromRow);
    },
    /** Id, name, category, source and point of every object (what duplicate detection needs, without bodies). */
    async objectPoints(): Promise<Array<Pick<InfraObjectRow, 'id' | 'source_id' | 'name' | 'category' | 'lon' | 'lat'>>> {
      return db.selectFrom('infra_objects').select(['id', 'source_id', 'name', 'category', 'lon', 'lat']).orderBy('id').execute();
    },
    async runs(trx?: Trx): Promise<InfraRunRow[]> {
      return (await on(trx).selectFrom('infra_runs').selectAll().orderBy('id').execute()).map(runFromRow);
    },
    async runPage(args: { sourceId?: string; beforeId?: number; limit: number }): Promise<InfraRunRow[]> {
      let q = db.selectFrom('infra_runs').selectAll().orderBy('id', 'desc').limit(args.limit);
      if (args.sourceId) q = q.where('source_id', '=', args.sourceId);
      if (args.beforeId !== undefined) q = q.where('id', '<', args.beforeId);
      return (await q.execute()).map(runFromRow);
    },
    async failurePage(args: { sourceId?: string; runIds?: number[]; reason?: string; afterId?: number; limit: number }): Promise<InfraFailureRow[]> {
      let q = db.selectFrom('infra_failures').selectAll().orderBy('id').limit(args.limit);
      if (args.sourceId) q = q.where('source_id', '=', args.sourceId);
      if (args.runIds) q = args.runIds.length ? q.where('run_id', 'in', args.runIds) : q.where('id', '<', 0);
      if (args.reason) q = q.where('reason', '=', args.reason);
      if (args.afterId !== undefined) q = q.where('id', '>', args.afterId);
      return (await q.execute()).map((r) => ({ ...r, id: Number(r.id), run_id: Number(r.run_id) }));
    },
    async failureCounts(runIds: number[]): Promise<Array<{ run_id: number; reason: string; n: number }>> {
      if (!runIds.length) return [];
      const rows = await db
        .selectFrom('infra_failures')
        .select(['run_id', 'reason', (eb) => eb.fn.countAll<number | string>().as('n')])
        .where('run_id', 'in', runIds)
        .groupBy(['run_id', 'reason'])
        .execute();
      return rows.map((r) => ({ run_id: Number(r.run_id), reason: r.reason, n: Number(r.n) }));
    },
    async findings(args: { kind?: string; sourceId?: string; objectId?: string } = {}): Promise<InfraFindingRow[]> {
      let q = db.selectFrom('infra_findings').selectAll().orderBy('id');
      if (args.kind) q = q.where('kind', '=', args.kind);
      if (args.sourceId) q = q.where('source_id', '=', args.sourceId);
      if (args.objectId) q = q.where('object_id', '=', args.objectId);
      return (await q.execute()).map((r) => ({ ...r, id: Number(r.id), run_id: Number(r.run_id) }));
    },
  };
}

export type InfraRepo = ReturnType<typeof createInfraRepo>;
