import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { AppError } from '../platform/errors.js';

/**
 * Opaque pagination cursors (docs/decisions/010, 014): `base64url(payload).base64url(tag)`, the tag the
 * first 16 bytes of HMAC-SHA256 over the payload with the cursor secret. The secret is BOSUN_CURSOR_SECRET
 * or, without it, a secret generated once per store and kept in its service_secrets table, so every
 * process on the same store accepts the cursors of the others. A changed or forged cursor fails
 * verification and answers cursor_invalid.
 *
 * One codec is built per app at start from its secret and handed to the services that page.
 */
export interface CursorCodec {
  /** A signed cursor carrying `payload`. */
  seal(payload: string): string;
  /** The payload of a cursor this codec issued, or null for anything else (changed, forged, malformed). */
  open(cursor: string): string | null;
  /** The payload matched against `shape`; cursor_invalid (on `field`) when it is not a cursor of that shape this codec issued. */
  read(cursor: string, shape: RegExp, field: string): RegExpExecArray;
  /** A cursor for the next page of a newest-first listing. */
  encodePosition(position: ListPosition): string;
  /** The position of a listing cursor; undefined without one, cursor_invalid for a changed, forged or foreign one. */
  decodePosition(cursor: string | undefined): ListPosition | undefined;
  /** Cuts a page fetched with limit + 1 rows and derives the next cursor from its last row. */
  page<T>(rows: T[], limit: number, position: (row: T) => ListPosition): { items: T[]; nextCursor: string | null };
}

/** Position in a newest-first listing: the last row's creation time and id. */
export interface ListPosition {
  createdAt: number;
  id: string;
}

const TAG_BYTES = 16;
const CURSOR_FORM = /^([A-Za-z0-9_-]{1,400})\.([A-Za-z0-9_-]{22})$/;
const LIST_POSITION = /^(\d{1,16}):([A-Za-z0-9_]{1,64})$/;

/** A new random secret (for a store that has none yet). */
export const newCursorSecret = () => randomBytes(32).toString('base64url');

export function createCursorCodec(secret: string): CursorCodec {
  const key = createHmac('sha256', 'bosun cursor key').update(secret, 'utf8').digest();
  const tag = (payload: string) => createHmac('sha256', key).update(payload, 'utf8').digest().subarray(0, TAG_BYTES);

  const seal = (payload: string) => `${Buffer.from(payload, 'utf8').toString('base64url')}.${tag(payload).toString('base64url')}`;

  function open(cursor: string): string | null {
    const match = CURSOR_FORM.exec(cursor);
    if (!match) return null;
    const payload = Buffer.from(match[1]!, 'base64url').toString('utf8');
    if (Buffer.from(payload, 'utf8').toString('base64url') !== match[1]) return null;
    const given = Buffer.from(match[2]!, 'base64url');
    if (given.length !== TAG_BYTES) return null;
    return timingSafeEqual(tag(payload), given) ? payload : null;
  }

  function read(cursor: string, shape: RegExp, field: string): RegExpExecArray {
    const payload = open(cursor);
    const match = payload === null ? null : shape.exec(payload);
    if (!match) throw new AppError('cursor_invalid', `cursor is not one this service issued; start again without ${field.split('.').pop()}`, { field });
    return match;
  }

  const encodePosition = (position: ListPosition) => seal(`${position.createdAt}:${position.id}`);

  return {
    seal,
    open,
    read,
    encodePosition,
    decodePosition(cursor) {
      if (cursor === undefined) return undefined;
      const match = read(cursor, LIST_POSITION, 'query.cursor');
      return { createdAt: Number(match[1]), id: match[2]! };
    },
    page(rows, limit, position) {
      const items = rows.slice(0, limit);
      const last = items[items.length - 1];
      return { items, nextCursor: rows.length > limit && last !== undefined ? encodePosition(position(last)) : null };
    },
  };
}
