import { sql, type ColumnDataType, type ColumnDefinitionBuilder, type CreateTableBuilder, type Kysely } from 'kysely';
import type { DialectHelpers } from '../../dialect.js';

/**
 * FROZEN: applied migrations build their tables with this helper, so it must never change what a given
 * table spec produces (test/integration/migrations-schema.test.ts holds their schema). A new column
 * kind or option goes into a new helper (create-tables-v2.ts …), not here.
 *
 * A table spec reads like SQL, one item a line:
 * - `columns`: `<name> <type> [primary key] [not null] [unique] [references <table>.<column> [on delete cascade|set null]]`,
 *   type one of text, bigint, integer, double precision; or `<name> autoincrement`, an auto-incrementing integer
 *   primary key (SQLite `integer primary key autoincrement`, PostgreSQL `bigserial primary key`);
 *   or a table constraint `constraint <name> primary key|unique (<column>, …)`.
 * - `indexes`: `<name> [unique] (<column>, …) [where <column> = '<word>']`, created after the table, in the order given.
 */
export interface TableSpec {
  name: string;
  columns: string;
  indexes?: string;
}

type TableBuilder = CreateTableBuilder<string, string>;

const COLUMN = /^(\w+) (autoincrement|text|bigint|integer|double precision)((?: primary key| not null| unique| references \w+\.\w+(?: on delete (?:cascade|set null))?)*)$/;
const MODIFIER = / (primary key|not null|unique|references (\w+\.\w+)(?: on delete (cascade|set null))?)/g;
const CONSTRAINT = /^constraint (\w+) (primary key|unique) \((\w+(?:, \w+)*)\)$/;
const INDEX = /^(\w+)( unique)? \((\w+(?:, \w+)*)\)(?: where (\w+) = '(\w+)')?$/;

const linesOf = (text: string | undefined): string[] =>
  (text ?? '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
const namesOf = (list: string): string[] => list.split(', ');

function withModifiers(modifiers: string): (column: ColumnDefinitionBuilder) => ColumnDefinitionBuilder {
  return (column) => {
    for (const [, modifier, target, onDelete] of modifiers.matchAll(MODIFIER)) {
      if (modifier === 'primary key') column = column.primaryKey();
      else if (modifier === 'not null') column = column.notNull();
      else if (modifier === 'unique') column = column.unique();
      else {
        column = column.references(target!);
        if (onDelete) column = column.onDelete(onDelete as 'cascade' | 'set null');
      }
    }
    return column;
  };
}

function withItem(table: TableBuilder, item: string, dialect: DialectHelpers): TableBuilder {
  const constraint = CONSTRAINT.exec(item);
  if (constraint) {
    const [, name, kind, columns] = constraint;
    return kind === 'primary key' ? table.addPrimaryKeyConstraint(name!, namesOf(columns!)) : table.addUniqueConstraint(name!, namesOf(columns!));
  }
  const column = COLUMN.exec(item);
  if (!column) throw new Error(`createTables: cannot read the column "${item}"`);
  const [, name, type, modifiers] = column;
  if (type === 'autoincrement') {
    if (modifiers) throw new Error(`createTables: an autoincrement column takes no modifiers ("${item}")`);
    return dialect.name === 'sqlite' ? table.addColumn(name!, 'integer', (c) => c.primaryKey().autoIncrement()) : table.addColumn(name!, 'bigserial', (c) => c.primaryKey());
  }
  return modifiers ? table.addColumn(name!, type as ColumnDataType, withModifiers(modifiers)) : table.addColumn(name!, type as ColumnDataType);
}

/** Creates each table, then its indexes, in the order given. */
export async function createTables(db: Kysely<any>, dialect: DialectHelpers, tables: readonly TableSpec[]): Promise<void> {
  for (const spec of tables) {
    let table: TableBuilder = db.schema.createTable(spec.name);
    for (const item of linesOf(spec.columns)) table = withItem(table, item, dialect);
    await table.execute();
    for (const line of linesOf(spec.indexes)) {
      const index = INDEX.exec(line);
      if (!index) throw new Error(`createTables: cannot read the index "${line}" of ${spec.name}`);
      const [, name, unique, columns, whereColumn, whereValue] = index;
      let created = db.schema.createIndex(name!).on(spec.name).columns(namesOf(columns!));
      if (unique) created = created.unique();
      if (whereColumn) created = created.where(sql.ref(whereColumn), '=', sql.lit(whereValue!));
      await created.execute();
    }
  }
}
