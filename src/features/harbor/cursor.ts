import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { ListPosition } from '../../http/cursor-codec.js';

/**
 * Repository filter for the next page of a newest-first listing ordered by created_at, then by the
 * id column, both descending: the rows strictly after `position` (cursors: src/http/cursor-codec.ts).
 */
export function olderThan(idColumn: string, position: ListPosition) {
  return (eb: ExpressionBuilder<any, any>): Expression<SqlBool> =>
    eb.or([eb('created_at', '<', position.createdAt), eb.and([eb('created_at', '=', position.createdAt), eb(idColumn, '<', position.id)])]);
}
