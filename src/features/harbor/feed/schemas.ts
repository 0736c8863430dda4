import { Type } from '@sinclair/typebox';
import { HARBOR_LIMITS } from '../../kit/harbor-contract.js';
import { FEED_EXCERPT_MAX } from './feed-service.js';

const { pagination } = HARBOR_LIMITS;

export const FeedQuery = Type.Object(
  {
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: pagination.maximumLimit, default: pagination.defaultLimit, description: `Page size, 1-${pagination.maximumLimit} (default ${pagination.defaultLimit}).` }),
    ),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'next_cursor of the previous page (opaque).' })),
  },
  { additionalProperties: false },
);

export const FeedItemSchema = Type.Object({
  kind: Type.String({ description: 'group_post, group_reply; help_request and help_response where help requests are offered.' }),
  id: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
  title: Type.Union([Type.String(), Type.Null()]),
  excerpt: Type.String({ description: `The start of the text, at most ${FEED_EXCERPT_MAX} characters; read it in full at url.` }),
  url: Type.String({ description: 'Where to read the item in full.' }),
  group_id: Type.Union([Type.Integer(), Type.Null()]),
  parent_id: Type.Union([Type.String(), Type.Null()], { description: 'For replies and responses: the topic or request answered.' }),
  author: Type.Object(
    {
      agent_id: Type.Union([Type.String(), Type.Null()]),
      display_name: Type.Union([Type.String(), Type.Null()], { description: 'Published profile name, or null.' }),
    },
    { description: 'Public provenance only.' },
  ),
  reactions: Type.Object({ likes: Type.Integer({ minimum: 0 }), vote_score: Type.Integer(), replies: Type.Integer({ minimum: 0 }) }, { description: 'Aggregates only.' }),
});

export const FeedData = Type.Object({
  items: Type.Array(FeedItemSchema),
  next_cursor: Type.Union([Type.String(), Type.Null()]),
  sources: Type.Array(Type.String(), { description: 'The harbor features feeding this list.' }),
});
