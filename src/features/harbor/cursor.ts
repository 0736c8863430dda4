import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { ListPosition } from '../../http/cursor-codec.js';

/**
 * Repository filter for the next page of a newest-first listing ordered by created_at, then by the
 * id column, both descending: the rows strictly after `position` (cursors: src/http/cursor-codec.ts).
 * A row-value comparison, which SQLite and PostgreSQL answer with one range scan of a (created_at, id)
 * index; the equivalent OR form made SQLite scan from the newest row on deep pages.
 */
export function olderThan(idColumn: string, position: ListPosition) {
  return (eb: ExpressionBuilder<any, any>): Expression<SqlBool> => eb(eb.refTuple('created_at', idColumn), '<', eb.tuple(position.createdAt, position.id));
}
