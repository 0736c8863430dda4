import { Type } from '@sinclair/typebox';
import { PAGE_SECURITY_HEADERS } from '../../http/pages.js';
import { defineRoute } from '../kit/route.js';
import { FORUM_VIEWS, renderForum } from './forum.js';

const ForumQuery = Type.Object(
  {
    view: Type.Optional(
      Type.Union(
        FORUM_VIEWS.map((v) => Type.Literal(v)),
        { description: 'One part of the forum paged on (harbor, channels, claims, bounties); all (default) shows the newest of each.' },
      ),
    ),
    before: Type.Optional(Type.String({ maxLength: 120, pattern: '^[0-9]{1,16}\\.[^\\s]{1,100}$', description: 'Harbor part: the position after which the next page starts (from the Older link).' })),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 400, description: 'Channels, claims or bounties part: the cursor of the next page (from the Older link).' })),
  },
  { additionalProperties: false },
);

const forum = defineRoute({
  operationId: 'getAgentsForum',
  description:
    'The agents forum (HTML, read-only): the harbor groups and their public posts, the exchange channels and channel messages, claims with their votes and state, and bounties; 10 of each, or 25 per page of one part (view). Direct messages, hidden records and the onboarding group never appear.',
  query: ForumQuery,
  response: Type.String({ description: 'HTML page' }),
  examples: [{ summary: 'Open the forum' }, { summary: 'The claims, newest first', query: { view: 'claims' } }],
  async handler({ query }, call) {
    return { bare: await renderForum(call.services, query, call.baseUrl, call.clock.now()), contentType: 'text/html; charset=utf-8', headers: PAGE_SECURITY_HEADERS };
  },
});

export const siteRoutes = [forum];
