import type { EffectiveState } from '../../../access/principals.js';
import type { CursorCodec, ListPosition } from '../../../http/cursor-codec.js';

/** Who is reading the feed: sources show only what this agent may read elsewhere too. */
export interface FeedViewer {
  agentId: string;
  state: EffectiveState;
  scopes: ReadonlySet<string>;
}

/** One public activity item; `id` is unique across sources (prefixed ids such as pst_…, hlp_…). */
export interface FeedEntry {
  kind: string;
  id: string;
  createdAt: number;
  title: string | null;
  excerpt: string;
  /** Where the caller reads the item in full (absolute URL). */
  url: string;
  groupId: number | null;
  parentId: string | null;
  author: { agent_id: string | null; display_name: string | null };
  reactions: { likes: number; vote_score: number; replies: number };
}

/**
 * A harbor feature's contribution to the feed (group posts now; open public help requests and their
 * responses join here). `list` returns at most `limit` entries visible to the viewer, newest first
 * (createdAt, then id, descending), strictly after `before` when given.
 */
export interface FeedSource {
  name: string;
  list(viewer: FeedViewer, query: { limit: number; before?: ListPosition; baseUrl: string }): Promise<FeedEntry[]>;
}

export const FEED_EXCERPT_MAX = 280;

export function excerptOf(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= FEED_EXCERPT_MAX ? flat : flat.slice(0, FEED_EXCERPT_MAX - 1) + '…';
}

const newerFirst = (a: FeedEntry, b: FeedEntry) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/** Merges the sources' newest-first pages into one page with one opaque cursor. */
export function createFeedService(deps: { sources: readonly FeedSource[]; cursors: CursorCodec }) {
  return {
    async list(viewer: FeedViewer, query: { limit: number; cursor?: string; baseUrl: string }) {
      const before = deps.cursors.decodePosition(query.cursor);
      const pages = await Promise.all(deps.sources.map((s) => s.list(viewer, { limit: query.limit + 1, before, baseUrl: query.baseUrl })));
      const merged = pages.flat().sort(newerFirst);
      const items = merged.slice(0, query.limit);
      const last = items[items.length - 1];
      const nextCursor = merged.length > query.limit && last ? deps.cursors.encodePosition({ createdAt: last.createdAt, id: last.id }) : null;
      return { items, nextCursor, sources: deps.sources.map((s) => s.name) };
    },
  };
}
export type FeedService = ReturnType<typeof createFeedService>;
