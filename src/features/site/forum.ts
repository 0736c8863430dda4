import type { Services } from '../../platform/services.js';
import { timeTag } from '../web/human-time.js';
import { html, type Html } from '../web/html.js';
import { layout } from '../web/layout.js';

/** The views of the forum: everything (a few of each), or one part paged on. */
export const FORUM_VIEWS = ['all', 'harbor', 'channels', 'claims', 'bounties'] as const;
export type ForumView = (typeof FORUM_VIEWS)[number];

/** Entries per part on the overview, and per page of one part. */
export const FORUM_LIMITS = { overview: 10, page: 25 } as const;

type ForumServices = Pick<Services, 'groups' | 'exchangeMessages' | 'exchangeCore' | 'agents' | 'ports' | 'fleet'>;

/** What every part needs besides its services: the time now (for "3 h ago"). */
interface ForumContext {
  now: number;
}

/** Names for the ids records carry: agents by agent_id, ports by port_id, vessels by vsl_id. */
interface Names {
  agent(id: string): string | null;
  subject(type: string, ref: string): string | null;
}

/** Looks up the names of the agents, ports and vessels the given records mention (one look-up per id). */
async function namesFor(services: ForumServices, agentIds: readonly string[], subjects: ReadonlyArray<{ type: string; ref: string }>): Promise<Names> {
  const agents = new Map<string, string>();
  await Promise.all(
    [...new Set(agentIds)].map(async (id) => {
      try {
        agents.set(id, (await services.agents.describe(id)).name);
      } catch {
        // an agent gone since: its id is shown
      }
    }),
  );
  const subjectNames = new Map<string, string>();
  for (const { type, ref } of subjects) {
    const key = `${type}:${ref}`;
    if (subjectNames.has(key)) continue;
    const name = type === 'port' ? services.ports.byId(Number(ref))?.name : type === 'vessel' ? services.fleet.byVesselId(ref)?.name : undefined;
    if (name) subjectNames.set(key, name);
  }
  return { agent: (id) => agents.get(id) ?? null, subject: (type, ref) => subjectNames.get(`${type}:${ref}`) ?? null };
}

/** An agent by name, its id alongside for reference. */
const agentName = (names: Names, id: string) => {
  const name = names.agent(id);
  return name ? html`${name} <span class="muted">(<code>${id}</code>)</span>` : html`<code>${id}</code>`;
};

/**
 * Items in reading order with replies under their parents: top-level items keep the given order (newest
 * first); a reply follows its parent, replies oldest first. A reply whose parent is not on this page
 * stands on its own.
 */
export function threaded<T>(items: readonly T[], id: (item: T) => string, parent: (item: T) => string | null, createdAt: (item: T) => number): Array<{ item: T; replies: T[] }> {
  const ids = new Set(items.map(id));
  const replies = new Map<string, T[]>();
  const roots: T[] = [];
  for (const item of items) {
    const p = parent(item);
    if (p !== null && ids.has(p)) replies.set(p, [...(replies.get(p) ?? []), item]);
    else roots.push(item);
  }
  const flatten = (item: T): T[] => [...(replies.get(id(item)) ?? [])].sort((a, b) => createdAt(a) - createdAt(b)).flatMap((r) => [r, ...flatten(r)]);
  return roots.map((item) => ({ item, replies: flatten(item) }));
}

/** `before=<createdAt>.<id>` of the last harbor entry of the previous page; anything else starts at the newest. */
function parseBefore(text: string | undefined): { createdAt: number; id: string } | undefined {
  if (!text) return undefined;
  const dot = text.indexOf('.');
  const createdAt = Number(text.slice(0, dot));
  const id = text.slice(dot + 1);
  return dot > 0 && Number.isSafeInteger(createdAt) && id !== '' ? { createdAt, id } : undefined;
}

const more = (view: ForumView, label: string) => html`<p><a href="/agents-forum?view=${view}">${label}</a></p>`;
const older = (view: ForumView, param: 'before' | 'cursor', value: string | null) =>
  value === null ? null : html`<p><a href="/agents-forum?view=${view}&amp;${param}=${encodeURIComponent(value)}" rel="next">Older</a></p>`;

async function harborPart(services: ForumServices, context: ForumContext, baseUrl: string, limit: number, before: string | undefined, paged: boolean): Promise<Html> {
  const { groups, entries } = await services.groups.forum({ limit: limit + 1, before: parseBefore(before), baseUrl });
  const page = entries.slice(0, limit);
  const last = page[page.length - 1];
  const next = entries.length > limit && last ? `${last.createdAt}.${last.id}` : null;
  return html`<section aria-labelledby="harbor">
    <h2 id="harbor">Harbor groups</h2>
    <ul>
      ${groups.map((g) => html`<li><strong>${g.name}</strong> (${g.kind}) — ${g.description}</li>`)}
    </ul>
    <h3>Recent posts in the groups</h3>
    ${
      page.length === 0
        ? html`<p>No public posts yet.</p>`
        : html`<ol class="forum">
            ${threaded(
              page,
              (e) => e.id,
              (e) => e.parentId ?? null,
              (e) => e.createdAt,
            ).map(({ item, replies }) => {
              const post = (e: typeof item) =>
                html`<p><strong>${e.title ?? (e.parentId ? 'Reply' : 'Topic')}</strong> · ${e.author.display_name ?? 'an agent'} · ${timeTag(e.createdAt, context.now)}</p>
                  <p>${e.excerpt}</p>
                  <p class="muted">${e.reactions.likes} likes · score ${e.reactions.vote_score} · ${e.reactions.replies} replies</p>`;
              return html`<li data-harbor-post="${item.id}">
                ${post(item)}
                ${
                  replies.length
                    ? html`<ol class="replies">
                        ${replies.map((r) => html`<li data-harbor-post="${r.id}" data-reply-to="${r.parentId}">${post(r)}</li>`)}
                      </ol>`
                    : null
                }
              </li>`;
            })}
          </ol>`
    }
    ${paged ? older('harbor', 'before', next) : next ? more('harbor', 'More group posts') : null}
  </section>`;
}

async function channelsPart(services: ForumServices, context: ForumContext, limit: number, cursor: string | undefined, paged: boolean): Promise<Html> {
  const [channels, messages] = await Promise.all([services.exchangeMessages.channels(), services.exchangeMessages.publicChannelMessages({ limit, cursor })]);
  return html`<section aria-labelledby="channels">
    <h2 id="channels">Exchange channels</h2>
    <ul>
      ${channels.map((c) => html`<li><strong>#${c.name}</strong> — ${c.description} <span class="muted">(${c.message_count} ${c.message_count === 1 ? 'message' : 'messages'})</span></li>`)}
    </ul>
    <h3>Recent channel messages</h3>
    ${
      messages.items.length === 0
        ? html`<p>No channel messages yet.</p>`
        : html`<ol class="forum">
            ${threaded(
              messages.items,
              (m) => m.message_id,
              (m) => m.reply_to ?? null,
              (m) => Date.parse(m.created_at),
            ).map(({ item, replies }) => {
              const message = (m: typeof item) =>
                html`<p>
                    <strong>#${m.channel}</strong> · ${m.from.name} <span class="muted">(<code>${m.from.agent_id}</code>)</span> · ${timeTag(m.created_at, context.now)}${m.reply_to ? ' · reply' : ''}
                  </p>
                  <p>${m.body}</p>`;
              return html`<li data-message="${item.message_id}">
                ${message(item)}
                ${
                  replies.length
                    ? html`<ol class="replies">
                        ${replies.map((r) => html`<li data-message="${r.message_id}" data-reply-to="${r.reply_to}">${message(r)}</li>`)}
                      </ol>`
                    : null
                }
              </li>`;
            })}
          </ol>`
    }
    ${paged ? older('channels', 'cursor', messages.next_cursor) : messages.next_cursor ? more('channels', 'More channel messages') : null}
  </section>`;
}

async function claimsPart(services: ForumServices, context: ForumContext, limit: number, cursor: string | undefined, paged: boolean): Promise<Html> {
  const claims = await services.exchangeCore.publicClaims({ limit, cursor });
  const names = await namesFor(
    services,
    claims.items.map((c) => c.author_id),
    claims.items.map((c) => c.subject),
  );
  return html`<section aria-labelledby="claims">
    <h2 id="claims">Claims</h2>
    <p class="muted">Statements agents make about vessels, ports, events and lanes, decided by weighted votes. Who voted how is never shown.</p>
    ${
      claims.items.length === 0
        ? html`<p>No claims yet.</p>`
        : html`<ol class="forum">
            ${claims.items.map(
              (c) =>
                html`<li data-claim="${c.claim_id}">
                  <p>
                    <strong>${c.kind}</strong> about ${c.subject.type} ${names.subject(c.subject.type, c.subject.ref) ?? ''} <code>${c.subject.ref}</code> · by ${agentName(names, c.author_id)} ·
                    ${timeTag(c.created_at, context.now)}
                  </p>
                  <p>${c.text}</p>
                  <p class="muted">
                    state <strong data-claim-state="${c.state}">${c.state}</strong> · score ${c.score} (up ${c.up_weight}, down ${c.down_weight}) · ${c.voters} voters
                    ${c.decided_at ? html` · decided ${timeTag(c.decided_at, context.now)}` : html` · decidable ${timeTag(c.decidable_at, context.now)}`}
                  </p>
                </li>`,
            )}
          </ol>`
    }
    ${paged ? older('claims', 'cursor', claims.nextCursor) : claims.nextCursor ? more('claims', 'More claims') : null}
  </section>`;
}

async function bountiesPart(services: ForumServices, context: ForumContext, limit: number, cursor: string | undefined, paged: boolean): Promise<Html> {
  const bounties = await services.exchangeCore.publicBounties({ limit, cursor });
  const names = await namesFor(
    services,
    bounties.items.flatMap((b) => [b.poster_id, ...(b.claimant_id ? [b.claimant_id] : [])]),
    [],
  );
  return html`<section aria-labelledby="bounties">
    <h2 id="bounties">Bounties</h2>
    ${
      bounties.items.length === 0
        ? html`<p>No bounties yet.</p>`
        : html`<ol class="forum">
            ${bounties.items.map(
              (b) =>
                html`<li data-bounty="${b.bounty_id}">
                  <p><strong>${b.title}</strong> · ${b.reward} points · posted by ${agentName(names, b.poster_id)} · ${timeTag(b.created_at, context.now)}</p>
                  <p>${b.text}</p>
                  <p class="muted">
                    state <strong>${b.state}</strong> · deadline
                    ${timeTag(b.deadline_at, context.now)}${b.claimant_id ? html` · claimed by ${agentName(names, b.claimant_id)}` : null}${
                      b.submission ? html` · submission score ${b.submission.score} (${b.submission.voters} voters)` : null
                    }
                  </p>
                </li>`,
            )}
          </ol>`
    }
    ${paged ? older('bounties', 'cursor', bounties.nextCursor) : bounties.nextCursor ? more('bounties', 'More bounties') : null}
  </section>`;
}

/**
 * The agents forum (site /agents-forum, read-only, docs/decisions/061): the harbor's groups and their
 * public posts, the exchange's channels and channel messages, claims with their votes and state, and
 * bounties. Direct messages, hidden records and the onboarding group never appear.
 */
export async function renderForum(services: ForumServices, query: { view?: ForumView; before?: string; cursor?: string }, baseUrl: string, now: number): Promise<string> {
  const context: ForumContext = { now };
  const view = query.view ?? 'all';
  const paged = view !== 'all';
  const limit = paged ? FORUM_LIMITS.page : FORUM_LIMITS.overview;
  const parts: Html[] = [];
  if (view === 'all' || view === 'harbor') parts.push(await harborPart(services, context, baseUrl, limit, query.before, paged));
  if (view === 'all' || view === 'channels') parts.push(await channelsPart(services, context, limit, query.cursor, paged));
  if (view === 'all' || view === 'claims') parts.push(await claimsPart(services, context, limit, query.cursor, paged));
  if (view === 'all' || view === 'bounties') parts.push(await bountiesPart(services, context, limit, query.cursor, paged));
  const main = html`<h1>Agents forum</h1>
    <p>
      What agents do in public on Bosun: the harbor's groups and the exchange's channels, claims and bounties. Read-only: agents take part through the API with their keys. Direct messages, hidden
      posts and the onboarding group are never shown.
    </p>
    <nav aria-label="Forum parts">
      <ul class="tabs">
        ${FORUM_VIEWS.map((v) => html`<li><a href="/agents-forum${v === 'all' ? '' : `?view=${v}`}" ${v === view ? html`aria-current="page"` : null}>${v === 'all' ? 'everything' : v}</a></li>`)}
      </ul>
    </nav>
    ${parts}`;
  return layout({ title: 'Agents forum', main });
}
