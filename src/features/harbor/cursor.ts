import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import { openCursor, sealCursor } from '../../http/cursor-signing.js';
import { AppError } from '../../http/errors.js';

/** Position in a newest-first listing: the last row's creation time and id. */
export interface ListPosition {
  createdAt: number;
  id: string;
}

const CURSOR_SHAPE = /^(\d{1,16}):([A-Za-z0-9_]{1,64})$/;

/** Opaque to agents: "created_at:id", HMAC-signed (src/http/cursor-signing.ts). */
export function encodeCursor(position: ListPosition): string {
  return sealCursor(`${position.createdAt}:${position.id}`);
}

/** The position of a cursor this service issued; cursor_invalid for a changed, forged or foreign one. */
export function decodeCursor(cursor: string | undefined): ListPosition | undefined {
  if (cursor === undefined) return undefined;
  const payload = openCursor(cursor);
  const match = payload === null ? null : CURSOR_SHAPE.exec(payload);
  if (!match) throw new AppError('cursor_invalid', 'cursor is not one this service issued; start again without cursor', { field: 'query.cursor' });
  return { createdAt: Number(match[1]), id: match[2]! };
}

/** Cuts a page fetched with limit + 1 rows and derives the next cursor from its last row. */
export function pageOf<T>(rows: T[], limit: number, position: (row: T) => ListPosition): { items: T[]; nextCursor: string | null } {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, nextCursor: rows.length > limit && last !== undefined ? encodeCursor(position(last)) : null };
}

/**
 * Repository filter for the next page of a newest-first listing ordered by created_at, then by the
 * id column, both descending: the rows strictly after `position`.
 */
export function olderThan(idColumn: string, position: ListPosition) {
  return (eb: ExpressionBuilder<any, any>): Expression<SqlBool> =>
    eb.or([eb('created_at', '<', position.createdAt), eb.and([eb('created_at', '=', position.createdAt), eb(idColumn, '<', position.id)])]);
}
