import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { withMigratedStore } from '../helpers/store.js';

/** The server itself decodes what copyBinary encodes: every value comes back as it went in (PostgreSQL only). */
test('COPY binary into PostgreSQL: bigints, integers, doubles, text and nulls stored exactly', async (t) => {
  await withMigratedStore(async (store) => {
    if (store.dialect.name !== 'postgres') return t.skip('PostgreSQL only (SQLite has no COPY)');
    const rows: unknown[][] = [
      [-2, -2147483648, -0.1, 'tab\there, new\nline, back\\slash, \\N', null],
      [Number.MAX_SAFE_INTEGER, 2147483647, 1e-300, 'été 東京', 1],
      [1764547200123, 0, 51.923456789012345, '', null],
    ];
    await store.db.transaction().execute(async (trx) => {
      await sql`create temporary table copy_binary_check (n bigint, i integer, d double precision, s text, m integer) on commit drop`.execute(trx);
      const copy = store.dialect.copyIn(
        'copy_binary_check',
        [
          { name: 'n', type: 'bigint' },
          { name: 'i', type: 'integer' },
          { name: 'd', type: 'double precision' },
          { name: 's', type: 'text' },
          { name: 'm', type: 'integer' },
        ],
        rows,
      )!;
      await trx.executeQuery(copy);
      const { rows: stored } = await sql<{ n: string; i: number; d: number; s: string; m: number | null }>`select n::text as n, i, d, s, m from copy_binary_check order by n`.execute(trx);
      assert.deepEqual(
        stored.map((row) => [Number(row.n), row.i, row.d, row.s, row.m]),
        [...rows].sort((a, b) => (a[0] as number) - (b[0] as number)),
      );
    });
  });
});
