import { createHash } from 'node:crypto';
import { DAY } from '../../platform/clock.js';

/** Document names: 1-128 characters, letters, digits, dot, underscore and hyphen, starting with a letter or digit. */
export const DOCUMENT_NAME_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$';
export const DOCUMENT_MEDIA_TYPES = ['application/json', 'text/plain'] as const;
export type DocumentMediaType = (typeof DOCUMENT_MEDIA_TYPES)[number];

export const WORKSPACE_LIMITS = {
  /** Stored bytes of one document (UTF-8; JSON content counted as its compact serialisation). */
  documentBytes: 32 * 1024,
  /** Stored bytes of all documents of one agent. */
  agentBytes: 1024 * 1024,
  /** Documents per agent. */
  agentDocuments: 100,
  /** Events returned per GET. */
  eventsPerPage: 100,
  /** Longest long poll, seconds. */
  pollSeconds: 30,
} as const;

/** Event retention (docs/workspace.md): acknowledged events go 7 days after the ack, unacknowledged ones 30 days after they were written. */
export const EVENT_RETENTION = { ackedMs: 7 * DAY, unackedMs: 30 * DAY } as const;

/**
 * The strong ETag of a stored version: its revision and a digest of the document's creation time and
 * content, so a document deleted and created again never matches an ETag of the old one.
 */
export function documentEtag(revision: number, createdAt: number, content: string): string {
  const digest = createHash('sha256').update(String(createdAt)).update('\n').update(content).digest('base64url').slice(0, 16);
  return `"${revision}-${digest}"`;
}

/** The entity tags of an If-Match / If-None-Match header (`*` kept as is); weak tags never match a strong comparison. */
export function parseEtagList(header: string | string[] | undefined): string[] | undefined {
  if (header === undefined) return undefined;
  const text = Array.isArray(header) ? header.join(',') : header;
  return text
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '');
}
