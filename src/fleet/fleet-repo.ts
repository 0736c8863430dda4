import { CompiledQuery, sql, type Kysely, type OnConflictBuilder, type Selectable } from 'kysely';
import type { BulkColumnType, DialectHelpers } from '../store/dialect.js';
import { createPositionPartitions, type PositionPartitions } from '../store/position-partitions.js';
import type { Database, PositionsTable, VesselIdentityHistoryTable, VesselsTable } from '../store/schema.js';
import type { Trx } from '../store/transaction.js';

export type VesselRow = Selectable<VesselsTable>;
export type PositionRow = Selectable<PositionsTable>;
export type PositionInsert = Omit<PositionRow, 'seq'>;
/** A position as the fleet service buffers it: the insert plus the MMSI its vsl_id may be re-resolved from. */
export type PositionWrite = PositionInsert & { mmsi: number };

export type HistoryInsert = Omit<VesselIdentityHistoryTable, 'id'>;

export interface BatchResult {
  /** The stored vsl_id of every upserted MMSI (another process may have created it first). */
  vslIds: Map<number, string>;
  /**
   * Positions actually inserted (duplicates of an existing (vsl_id, observed_at) are not), each with
   * `index`, its place in the batch's positions, in no particular order.
   */
  inserted: Array<{ index: number; seq: number; vsl_id: string; observed_at: number }>;
}

/**
 * Every transaction that inserts positions holds this lock from its start to its commit, so position
 * sequence numbers are handed out in commit order and a reader that sees seq N also sees every
 * committed seq below it (docs/decisions/017-ingest-write-path-and-sequence-visibility.md).
 */
export const POSITION_SEQUENCE_LOCK = 'positions:seq';

const VESSEL_CHUNK = 400;
/** The temporary table positions are copied into on PostgreSQL (one per connection, emptied at commit). */
const POSITION_STAGING = 'bosun_positions_in';
const HISTORY_CHUNK = 1000;
/** SQLSTATE of a unique index violation (a position already stored). */
const UNIQUE_VIOLATION = '23505';
/** SQLSTATE of "no partition of relation positions found for row" (a day's partition dropped by another process). */
const NO_PARTITION = '23514';
/** Batches sent through the staging table after a direct COPY met a stored row, unless one finds none. */
const STAGING_AFTER_CONFLICT = 8;
const LOAD_CHUNK = 500;

const IDENTITY_COLUMNS = ['imo', 'name', 'callsign', 'ship_type', 'flag', 'length_m', 'beam_m', 'draught_m', 'destination', 'eta', 'simulated', 'sources', 'identity_observed_at'] as const;
const LATEST_COLUMNS = [
  'pos_observed_at',
  'pos_received_at',
  'pos_lat',
  'pos_lon',
  'pos_sog',
  'pos_cog',
  'pos_heading',
  'pos_nav_status',
  'pos_msg_type',
  'pos_source',
  'pos_simulated',
  'pos_quality_flags',
] as const;

const POSITION_COLUMNS = [
  'vsl_id',
  'observed_at',
  'received_at',
  'lat',
  'lon',
  'sog',
  'cog',
  'heading',
  'nav_status',
  'msg_type',
  'source',
  'simulated',
  'usable',
  'quality_flags',
] as const satisfies ReadonlyArray<keyof PositionInsert>;
const VSL_ID_AT = POSITION_COLUMNS.indexOf('vsl_id');
const OBSERVED_AT_AT = POSITION_COLUMNS.indexOf('observed_at');
/** A position's values in POSITION_COLUMNS order (checked below), its vsl_id the stored one of its MMSI. */
function positionValues(p: PositionWrite, canonical: (mmsi: number, vslId: string) => string): unknown[] {
  return [canonical(p.mmsi, p.vsl_id), p.observed_at, p.received_at, p.lat, p.lon, p.sog, p.cog, p.heading, p.nav_status, p.msg_type, p.source, p.simulated, p.usable, p.quality_flags];
}
{
  const probe = { ...Object.fromEntries(POSITION_COLUMNS.map((column) => [column, column])), mmsi: 0 } as unknown as PositionWrite;
  if (positionValues(probe, (_mmsi, vslId) => vslId).some((value, i) => value !== POSITION_COLUMNS[i])) throw new Error('positionValues does not follow POSITION_COLUMNS');
}
const POSITION_COLUMN_TYPES: Record<(typeof POSITION_COLUMNS)[number], BulkColumnType> = {
  vsl_id: 'text',
  observed_at: 'bigint',
  received_at: 'bigint',
  lat: 'double precision',
  lon: 'double precision',
  sog: 'double precision',
  cog: 'double precision',
  heading: 'double precision',
  nav_status: 'integer',
  msg_type: 'integer',
  source: 'text',
  simulated: 'integer',
  usable: 'integer',
  quality_flags: 'text',
};
const POSITION_COPY_COLUMNS = POSITION_COLUMNS.map((name) => ({ name, type: POSITION_COLUMN_TYPES[name] }));
const POSITION_COPY_COLUMNS_WITH_SEQ = [{ name: 'seq', type: 'bigint' as const }, ...POSITION_COPY_COLUMNS];
const VESSEL_COLUMNS = ['vsl_id', 'mmsi', 'first_seen_at', 'last_seen_at', ...IDENTITY_COLUMNS, ...LATEST_COLUMNS] as const satisfies ReadonlyArray<keyof VesselRow>;
const VESSEL_COLUMN_TYPES: Record<(typeof VESSEL_COLUMNS)[number], BulkColumnType> = {
  vsl_id: 'text',
  mmsi: 'integer',
  first_seen_at: 'bigint',
  last_seen_at: 'bigint',
  imo: 'integer',
  name: 'text',
  callsign: 'text',
  ship_type: 'integer',
  flag: 'text',
  length_m: 'double precision',
  beam_m: 'double precision',
  draught_m: 'double precision',
  destination: 'text',
  eta: 'text',
  simulated: 'integer',
  sources: 'text',
  identity_observed_at: 'bigint',
  pos_observed_at: 'bigint',
  pos_received_at: 'bigint',
  pos_lat: 'double precision',
  pos_lon: 'double precision',
  pos_sog: 'double precision',
  pos_cog: 'double precision',
  pos_heading: 'double precision',
  pos_nav_status: 'integer',
  pos_msg_type: 'integer',
  pos_source: 'text',
  pos_simulated: 'integer',
  pos_quality_flags: 'text',
};

/** Row counts whose statement text is kept: full chunks always, plus the last few partial sizes. */
const REUSED_ROW_COUNTS = 8;

/**
 * A multi-row statement compiled once per row count and reused: building and compiling a statement of
 * thousands of values is a large part of a batch's cost. `build` receives rows whose values are their
 * own parameter positions, so the compiled parameters are checked to be exactly the rows' values,
 * row by row in `columns` order, before the statement text is used.
 */
function reusableMultiRow<Row>(columns: ReadonlyArray<keyof Row & string>, build: (rows: Row[]) => CompiledQuery) {
  const texts = new Map<number, string>();
  return (rows: readonly Row[], valueOf: (row: Row, column: keyof Row & string) => unknown = (row, column) => row[column]): CompiledQuery => {
    let text = texts.get(rows.length);
    if (text === undefined) {
      let position = 0;
      const probe = rows.map(() => Object.fromEntries(columns.map((column) => [column, position++])) as Row);
      const compiled = build(probe);
      if (compiled.parameters.length !== position || compiled.parameters.some((value, i) => value !== i)) {
        throw new Error('multi-row statement parameters do not follow the row values');
      }
      text = compiled.sql;
    } else {
      texts.delete(rows.length);
    }
    texts.set(rows.length, text);
    if (texts.size > REUSED_ROW_COUNTS) texts.delete(texts.keys().next().value!);
    const parameters: unknown[] = new Array(rows.length * columns.length);
    let i = 0;
    for (const row of rows) for (const column of columns) parameters[i++] = valueOf(row, column);
    return CompiledQuery.raw(text, parameters);
  };
}

/**
 * A single-row statement compiled once; `build` receives one row whose values are their own parameter
 * positions, so the compiled parameters are checked to follow `columns` before the text is used.
 */
function singleRowStatement<Row>(columns: ReadonlyArray<keyof Row & string>, build: (rows: Row[]) => CompiledQuery): CompiledQuery {
  const probe = Object.fromEntries(columns.map((column, i) => [column, i])) as Row;
  const compiled = build([probe]);
  if (compiled.parameters.length !== columns.length || compiled.parameters.some((value, i) => value !== i)) {
    throw new Error('single-row statement parameters do not follow the columns');
  }
  return compiled;
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export function createFleetRepo(db: Kysely<Database>, dialect: DialectHelpers, partitions: PositionPartitions = createPositionPartitions(db, dialect)) {
  // An MMSI already stored keeps its vsl_id; identity comes from this batch; the latest position only when newer.
  const mergeVessel = (oc: OnConflictBuilder<Database, 'vessels'>) =>
    oc.column('mmsi').doUpdateSet((eb) => {
      const set: Record<string, unknown> = {
        last_seen_at: sql`case when excluded.last_seen_at > vessels.last_seen_at then excluded.last_seen_at else vessels.last_seen_at end`,
      };
      for (const column of IDENTITY_COLUMNS) set[column] = eb.ref(`excluded.${column}`);
      for (const column of LATEST_COLUMNS) {
        set[column] =
          sql`case when excluded.pos_observed_at is not null and (vessels.pos_observed_at is null or excluded.pos_observed_at > vessels.pos_observed_at) then ${sql.ref(`excluded.${column}`)} else ${sql.ref(`vessels.${column}`)} end`;
      }
      return set;
    });
  const upsertVessels = reusableMultiRow<VesselRow>(VESSEL_COLUMNS, (rows) => db.insertInto('vessels').values(rows).onConflict(mergeVessel).returning(['mmsi', 'vsl_id']).compile());
  const insertOnePosition = singleRowStatement<PositionWrite>(POSITION_COLUMNS, ([row]) =>
    db
      .insertInto('positions')
      .values(row! as PositionInsert)
      .onConflict((oc) => oc.columns(['vsl_id', 'observed_at']).doNothing())
      .compile(),
  );

  /**
   * PostgreSQL: after a batch found rows it already held (a re-import), the next batches go through the
   * staging table straight away instead of trying a COPY that would fail; reset by a batch without any.
   */
  let stagingBatches = 0;

  /**
   * Inserts the batch's positions, skipping those already stored (same vsl_id and observed_at, in the
   * store or earlier in the batch); answers the inserted ones with their seq and place in the batch.
   * SQLite: one prepared single-row statement run per position (a single writer, so seq is the row's
   * rowid and a skipped row changes nothing). PostgreSQL: when no two rows of the batch collide, the
   * batch's seqs are drawn at once (under POSITION_SEQUENCE_LOCK nobody else draws) and the rows are
   * copied straight into positions with them, under a savepoint; a row the store already holds makes
   * that COPY fail, and the batch then goes through a staging table and `insert … select … on conflict
   * do nothing returning` (docs/decisions/059).
   */
  async function insertPositions(trx: Trx, positions: readonly PositionWrite[], canonical: (mmsi: number, vslId: string) => string): Promise<BatchResult['inserted']> {
    const values = new Array<unknown[]>(positions.length);
    for (let i = 0; i < positions.length; i++) values[i] = positionValues(positions[i]!, canonical);
    if (dialect.name === 'sqlite') {
      const { rows } = await trx.executeQuery(dialect.eachRow(insertOnePosition, values)!);
      const inserted: BatchResult['inserted'] = [];
      for (let i = 0; i < rows.length; i++) {
        const { changes, lastInsertRowid } = rows[i]!;
        if (changes === 0) continue;
        const value = values[i]!;
        inserted.push({ index: i, seq: lastInsertRowid, vsl_id: value[VSL_ID_AT] as string, observed_at: value[OBSERVED_AT_AT] as number });
      }
      return inserted;
    }
    // the days' partitions (docs/decisions/101): no query unless a day is new to this process
    await partitions.ensureFor(
      trx,
      positions.map((p) => p.observed_at),
    );
    if (stagingBatches === 0 && !collidesWithin(values)) {
      const direct = await copyStraightIn(trx, values);
      if (direct) return direct;
      stagingBatches = STAGING_AFTER_CONFLICT;
    }
    const inserted = await insertThroughStaging(trx, values);
    if (stagingBatches > 0) stagingBatches = inserted.length === values.length ? 0 : stagingBatches - 1;
    return inserted;
  }

  /** True when two rows of the batch have the same (vsl_id, observed_at). */
  function collidesWithin(values: ReadonlyArray<readonly unknown[]>): boolean {
    const seen = new Set<string>();
    for (const value of values) {
      const key = (value[VSL_ID_AT] as string) + '|' + (value[OBSERVED_AT_AT] as number);
      if (seen.has(key)) return true;
      seen.add(key);
    }
    return false;
  }

  /** The direct COPY into positions with seqs drawn here; null (and nothing written) when a row is already stored. */
  async function copyStraightIn(trx: Trx, values: ReadonlyArray<readonly unknown[]>): Promise<BatchResult['inserted'] | null> {
    const n = values.length;
    // Draws n consecutive numbers: nextval takes the first, setval moves the sequence past the last.
    const { rows } = await sql<{
      last: number | string;
    }>`select setval(s, nextval(s) + ${n - 1}) as last from (select cast(pg_get_serial_sequence('positions', 'seq') as regclass) as s) q`.execute(trx);
    const first = Number(rows[0]!.last) - n + 1;
    const withSeqs = values.map((value, i) => [first + i, ...value]);
    await sql`savepoint bosun_positions_copy`.execute(trx);
    try {
      await trx.executeQuery(dialect.copyIn('positions', POSITION_COPY_COLUMNS_WITH_SEQ, withSeqs)!);
    } catch (err) {
      const code = (err as { code?: unknown } | null)?.code;
      if (code !== UNIQUE_VIOLATION && code !== NO_PARTITION) throw err;
      // The numbers drawn stay unused: a gap in seq, like a rolled-back transaction's.
      await sql`rollback to savepoint bosun_positions_copy`.execute(trx);
      if (code === NO_PARTITION) {
        // another process dropped a partition this one knew: look again, then the staging path
        partitions.forget();
        await partitions.ensureFor(
          trx,
          values.map((value) => value[OBSERVED_AT_AT] as number),
        );
      }
      return null;
    }
    return values.map((value, i) => ({ index: i, seq: first + i, vsl_id: value[VSL_ID_AT] as string, observed_at: value[OBSERVED_AT_AT] as number }));
  }

  /** COPY into a session-local staging table, then one insert … select skipping the rows already stored. */
  async function insertThroughStaging(trx: Trx, values: ReadonlyArray<readonly unknown[]>): Promise<BatchResult['inserted']> {
    await sql`create temporary table if not exists ${sql.id(POSITION_STAGING)} (${sql.join(POSITION_COLUMNS.map((column) => sql`${sql.id(column)} ${sql.raw(POSITION_COLUMN_TYPES[column])}`))}) on commit delete rows`.execute(
      trx,
    );
    await trx.executeQuery(dialect.copyIn(POSITION_STAGING, POSITION_COPY_COLUMNS, values)!);
    const columns = sql.join(POSITION_COLUMNS.map((column) => sql.id(column)));
    const { rows } = await sql<{
      seq: number;
      vsl_id: string;
      observed_at: number;
    }>`insert into positions (${columns}) select ${columns} from ${sql.id(POSITION_STAGING)} on conflict (vsl_id, observed_at) do nothing returning seq, vsl_id, observed_at`.execute(trx);
    const indexOf = new Map<string, number>();
    for (let i = values.length - 1; i >= 0; i--) indexOf.set((values[i]![VSL_ID_AT] as string) + '|' + (values[i]![OBSERVED_AT_AT] as number), i);
    return rows.map((row) => {
      const observedAt = Number(row.observed_at);
      return { index: indexOf.get(row.vsl_id + '|' + observedAt)!, seq: Number(row.seq), vsl_id: row.vsl_id, observed_at: observedAt };
    });
  }

  /**
   * Vessel rows are written when a vessel's identity, sources or first sighting change, not with every
   * position, so their latest fix (pos_*) and last_seen_at may be older than the positions stored since.
   * Brings them up to date: the newest usable position of each vessel (when newer than pos_observed_at)
   * and its newest observed_at, both read through the (vsl_id, observed_at) index, one vessel at a time.
   */
  async function withStoredPositions(rows: VesselRow[]): Promise<VesselRow[]> {
    const byVslId = new Map(rows.map((row) => [row.vsl_id, row]));
    const newestSeqs: number[] = [];
    for (const chunk of chunks([...byVslId.keys()], LOAD_CHUNK)) {
      const newest = await db
        .selectFrom('vessels as v')
        .where('v.vsl_id', 'in', chunk)
        .select((eb) => [
          'v.vsl_id',
          eb
            .selectFrom('positions as p')
            .whereRef('p.vsl_id', '=', 'v.vsl_id')
            .select((e) => e.fn.max('p.observed_at').as('m'))
            .as('observed_at'),
          eb.selectFrom('positions as p').whereRef('p.vsl_id', '=', 'v.vsl_id').where('p.usable', '=', 1).orderBy('p.observed_at', 'desc').limit(1).select('p.seq').as('usable_seq'),
        ])
        .execute();
      for (const { vsl_id: vslId, observed_at: observedAt, usable_seq: seq } of newest) {
        const row = byVslId.get(vslId)!;
        if (observedAt !== null && Number(observedAt) > Number(row.last_seen_at)) row.last_seen_at = Number(observedAt);
        if (seq !== null) newestSeqs.push(Number(seq));
      }
    }
    for (const chunk of chunks(newestSeqs, LOAD_CHUNK)) {
      for (const p of await db.selectFrom('positions').selectAll().where('seq', 'in', chunk).execute()) {
        const row = byVslId.get(p.vsl_id)!;
        if (row.pos_observed_at !== null && Number(row.pos_observed_at) >= Number(p.observed_at)) continue;
        Object.assign(row, {
          pos_observed_at: p.observed_at,
          pos_received_at: p.received_at,
          pos_lat: p.lat,
          pos_lon: p.lon,
          pos_sog: p.sog,
          pos_cog: p.cog,
          pos_heading: p.heading,
          pos_nav_status: p.nav_status,
          pos_msg_type: p.msg_type,
          pos_source: p.source,
          pos_simulated: p.simulated,
          pos_quality_flags: p.quality_flags,
        } satisfies Pick<VesselRow, (typeof LATEST_COLUMNS)[number]>);
      }
    }
    return rows;
  }

  return {
    /** Every vessel row, its latest fix and last_seen_at brought up to date from the stored positions. */
    async loadVessels(): Promise<VesselRow[]> {
      return withStoredPositions(await db.selectFrom('vessels').selectAll().execute());
    },

    async positionTotals(): Promise<{ count: number; headSeq: number }> {
      const row = await db
        .selectFrom('positions')
        .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.max<number | null>('seq').as('head')])
        .executeTakeFirstOrThrow();
      return { count: Number(row.count), headSeq: Number(row.head ?? 0) };
    },

    async findVessel(by: { vslId?: string; mmsi?: number; imo?: number }): Promise<VesselRow | undefined> {
      let query = db.selectFrom('vessels').selectAll();
      if (by.vslId !== undefined) query = query.where('vsl_id', '=', by.vslId);
      else if (by.mmsi !== undefined) query = query.where('mmsi', '=', by.mmsi);
      else if (by.imo !== undefined) query = query.where('imo', '=', by.imo).orderBy('last_seen_at', 'desc');
      else return undefined;
      const row = await query.limit(1).executeTakeFirst();
      return row && (await withStoredPositions([row]))[0];
    },

    /**
     * One transaction (the caller's `trx`, or its own): upsert the changed vessels (identity from this
     * batch; the latest position only when it is newer than the stored one), append identity history,
     * insert positions. Holds POSITION_SEQUENCE_LOCK until that transaction ends.
     */
    async writeBatch(vessels: VesselRow[], history: Array<HistoryInsert & { mmsi: number }>, positions: PositionWrite[], openTrx?: Trx): Promise<BatchResult> {
      const write = async (trx: Trx): Promise<BatchResult> => {
        // Taken first, before any row lock, so two writers cannot wait on each other.
        if (positions.length > 0) await dialect.transactionLock(POSITION_SEQUENCE_LOCK)?.execute(trx);
        const vslIds = new Map<number, string>();
        for (const chunk of chunks(vessels, VESSEL_CHUNK)) {
          const arrays = dialect.columnArraysSource(VESSEL_COLUMNS.map((column) => ({ type: VESSEL_COLUMN_TYPES[column], values: chunk.map((row) => row[column]) })));
          const { rows } = arrays
            ? await trx
                .insertInto('vessels')
                .columns([...VESSEL_COLUMNS])
                .expression(arrays)
                .onConflict(mergeVessel)
                .returning(['mmsi', 'vsl_id'])
                .execute()
                .then((rows) => ({ rows }))
            : await trx.executeQuery<{ mmsi: number | string; vsl_id: string }>(upsertVessels(chunk));
          for (const row of rows) vslIds.set(Number(row.mmsi), row.vsl_id);
        }
        const canonical = (mmsi: number, vslId: string) => vslIds.get(mmsi) ?? vslId;

        for (const chunk of chunks(history, HISTORY_CHUNK)) {
          await trx
            .insertInto('vessel_identity_history')
            .values(chunk.map(({ mmsi, ...row }) => ({ ...row, vsl_id: canonical(mmsi, row.vsl_id) })))
            .execute();
        }

        const inserted = positions.length === 0 ? [] : await insertPositions(trx, positions, canonical);
        return { vslIds, inserted };
      };
      return openTrx ? write(openTrx) : db.transaction().execute(write);
    },
  };
}

export type FleetRepo = ReturnType<typeof createFleetRepo>;
