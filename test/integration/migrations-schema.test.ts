import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { sql } from 'kysely';
import { migrateToLatest, openStore, type Store } from '../../src/store/db.js';
import { dropTestSchema, testConfig, usingPostgres } from '../helpers/app.js';

/**
 * An applied migration never changes meaning: run on a fresh store, the migrations up to LAST_FROZEN
 * build exactly the schema (and seed rows) recorded in migrations-schema.<dialect>.txt. A rewrite of
 * their code (issue 25: the declarative table helper) must leave both dumps unchanged. The dumps were
 * captured before that rewrite; a later migration does not touch them. `UPDATE_MIGRATIONS_SCHEMA=1`
 * rewrites the dump of the store the test runs on (only to freeze a new LAST_FROZEN).
 */
const LAST_FROZEN = '20261128T0500_voyages';
const dumpFile = (dialect: string) => `test/integration/migrations-schema.${dialect}.txt`;

async function rowsOf<R>(store: Store, query: ReturnType<typeof sql<R>>): Promise<R[]> {
  return (await query.execute(store.db)).rows;
}

async function seedRows(store: Store, tables: string[]): Promise<string[]> {
  const lines: string[] = [];
  for (const table of tables.filter((name) => name !== 'kysely_migration')) {
    const rows = await rowsOf<Record<string, unknown>>(store, sql`select * from ${sql.id(table)}`);
    const sorted = rows.map((row) => JSON.stringify(row)).sort();
    lines.push(...sorted.map((row) => `row ${table} ${row}`));
  }
  return lines;
}

async function sqliteDump(store: Store): Promise<string[]> {
  const objects = await rowsOf<{ type: string; name: string; tbl_name: string; sql: string | null }>(
    store,
    sql`select type, name, tbl_name, sql from sqlite_master where name not like 'sqlite_%' order by type, name`,
  );
  const lines = objects.map((o) => `${o.type} ${o.name} on ${o.tbl_name}: ${(o.sql ?? '').replace(/\s+/g, ' ').trim()}`);
  return [
    ...lines,
    ...(await seedRows(
      store,
      objects.filter((o) => o.type === 'table').map((o) => o.name),
    )),
  ];
}

async function postgresDump(store: Store): Promise<string[]> {
  const schema = store.schema!;
  const unschema = (text: string) => text.split(schema).join('<schema>');
  const columns = await rowsOf<Record<string, unknown>>(
    store,
    sql`select table_name, ordinal_position, column_name, data_type, is_nullable, column_default, is_identity
        from information_schema.columns where table_schema = ${schema} order by table_name, ordinal_position`,
  );
  const indexes = await rowsOf<{ tablename: string; indexname: string; indexdef: string }>(
    store,
    sql`select tablename, indexname, indexdef from pg_indexes where schemaname = ${schema} order by tablename, indexname`,
  );
  const constraints = await rowsOf<{ table_name: string; conname: string; definition: string }>(
    store,
    sql`select c.relname as table_name, k.conname, pg_get_constraintdef(k.oid) as definition
        from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = ${schema} order by c.relname, k.conname`,
  );
  const relations = await rowsOf<{ relname: string; relkind: string; partkey: string | null; parent: string | null; bound: string | null }>(
    store,
    sql`select c.relname, c.relkind::text as relkind,
          case when c.relkind = 'p' then pg_get_partkeydef(c.oid) end as partkey,
          p.relname as parent, pg_get_expr(c.relpartbound, c.oid) as bound
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
        left join pg_inherits i on i.inhrelid = c.oid left join pg_class p on p.oid = i.inhparent
        where n.nspname = ${schema} and c.relkind in ('r', 'p', 'S', 'v', 'm') order by c.relname`,
  );
  const sequences = await rowsOf<Record<string, unknown>>(
    store,
    sql`select s.relname as sequence_name, t.relname as owned_by_table, a.attname as owned_by_column
        from pg_class s join pg_namespace n on n.oid = s.relnamespace
        left join pg_depend d on d.objid = s.oid and d.deptype = 'a' left join pg_class t on t.oid = d.refobjid
        left join pg_attribute a on a.attrelid = d.refobjid and a.attnum = d.refobjsubid
        where n.nspname = ${schema} and s.relkind = 'S' order by s.relname`,
  );
  const triggers = await rowsOf<{ tgname: string; definition: string }>(
    store,
    sql`select t.tgname, pg_get_triggerdef(t.oid) as definition from pg_trigger t
        join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = ${schema} and not t.tgisinternal order by c.relname, t.tgname`,
  );
  const functions = await rowsOf<{ proname: string; definition: string }>(
    store,
    sql`select p.proname, pg_get_functiondef(p.oid) as definition from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname = ${schema} order by p.proname`,
  );
  const lines = [
    ...columns.map((c) => `column ${JSON.stringify(c)}`),
    ...indexes.map((i) => `index ${i.tablename} ${i.indexname}: ${i.indexdef}`),
    ...constraints.map((k) => `constraint ${k.table_name} ${k.conname}: ${k.definition}`),
    ...relations.map((r) => `relation ${r.relname} ${r.relkind}${r.partkey ? ` partition by ${r.partkey}` : ''}${r.parent ? ` partition of ${r.parent} ${r.bound}` : ''}`),
    ...sequences.map((s) => `sequence ${JSON.stringify(s)}`),
    ...triggers.map((t) => `trigger ${t.tgname}: ${t.definition}`),
    ...functions.map((f) => `function ${f.proname}: ${f.definition.replace(/\s+/g, ' ').trim()}`),
  ].map(unschema);
  const tables = relations.filter((r) => r.relkind === 'r' || r.relkind === 'p').map((r) => r.relname);
  return [...lines, ...(await seedRows(store, tables))];
}

test(`the migrations up to ${LAST_FROZEN} build the recorded schema and seed rows`, async () => {
  const config = testConfig();
  const store = await openStore(config.database);
  try {
    await migrateToLatest(store, { upTo: LAST_FROZEN });
    const dialect = usingPostgres() ? 'postgres' : 'sqlite';
    const dump = (dialect === 'postgres' ? await postgresDump(store) : await sqliteDump(store)).join('\n') + '\n';
    if (process.env.UPDATE_MIGRATIONS_SCHEMA === '1') writeFileSync(dumpFile(dialect), dump);
    const recorded = readFileSync(dumpFile(dialect), 'utf8').split('\n');
    const lines = dump.split('\n');
    assert.deepEqual({ missing: recorded.filter((line) => !lines.includes(line)), added: lines.filter((line) => !recorded.includes(line)) }, { missing: [], added: [] });
    assert.deepEqual(lines, recorded, 'the same lines in another order');
  } finally {
    await store.close();
    await dropTestSchema(config);
  }
});
