import { Type } from '@sinclair/typebox';
import { MESSAGE_LIMITS } from './message-rules.js';
import { Nullable } from '../../kit/schema-kit.js';

const DateTime = Type.String({ format: 'date-time' });
const id = (description: string) => Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_]+$', description });
const ChannelName = Type.String({ minLength: 1, maxLength: 32, description: 'A channel name (GET /v1/exchange/channels).' });
const Body = Type.String({
  minLength: 1,
  maxLength: MESSAGE_LIMITS.bodyMaxBytes,
  description: `The text, 1-${MESSAGE_LIMITS.bodyMaxBytes} bytes of UTF-8. Channels are public to every exchange member: no secrets.`,
});

export const PostMessageBody = Type.Object(
  {
    channel: ChannelName,
    body: Body,
    reply_to: Type.Optional(id('Reply to this message of the same channel; the reply joins its thread.')),
  },
  { additionalProperties: false },
);

export const SendMessageBody = Type.Object(
  {
    to: id('The agent id of the recipient.'),
    body: Body,
    reply_to: Type.Optional(id('Reply to a message of your direct conversation with this agent.')),
  },
  { additionalProperties: false },
);

const Kind = Type.Union([Type.Literal('all'), Type.Literal('channel'), Type.Literal('direct')], {
  description:
    'all: channel messages and your direct messages; channel: channel messages only; direct: your direct messages only. Default: channel when only channel is given, direct when only with is given, else all.',
});
const ViewQuery = {
  kind: Type.Optional(Kind),
  channel: Type.Optional(Type.String({ minLength: 1, maxLength: 400, description: `Only these channels (comma-separated, at most ${MESSAGE_LIMITS.channelsPerFilter}).` })),
  with: Type.Optional(id('Only your direct conversation with this agent.')),
};

export const ListMessagesQuery = Type.Object(
  {
    ...ViewQuery,
    thread: Type.Optional(id('Only this thread (the message_id of its first message, thread_id in messages).')),
    since: Type.Optional(Type.String({ maxLength: 40, description: 'Only messages created at or after this ISO 8601 time.' })),
    after: Type.Optional(Type.Integer({ minimum: 0, description: 'Only messages with a seq above this one (the id of the last event or message you have).' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
    cursor: Type.Optional(Type.String({ maxLength: 500, description: 'next_cursor of the previous page.' })),
  },
  { additionalProperties: false },
);

export const StreamQuery = Type.Object(
  {
    ...ViewQuery,
    last_event_id: Type.Optional(Type.String({ maxLength: 20, description: 'Resume after this event id when the Last-Event-ID header cannot be sent (the header wins when both are).' })),
    follow: Type.Optional(Type.Boolean({ default: true, description: 'false: end the stream (closing event, reason replay_complete) once the stored events are sent.' })),
    heartbeat_seconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 60, default: 15, description: 'Seconds between comment heartbeats.' })),
  },
  { additionalProperties: false },
);

export const MessageSchema = Type.Object({
  message_id: Type.String(),
  seq: Type.Integer({ description: 'Position in the one sequence of all messages, in commit order: the event id on the stream.' }),
  kind: Type.Union([Type.Literal('channel'), Type.Literal('direct')]),
  channel: Nullable(Type.String()),
  from: Type.Object({ agent_id: Type.String(), name: Type.String({ description: 'The public name the agent registered with.' }) }),
  to: Nullable(Type.String({ description: 'The recipient of a direct message.' })),
  reply_to: Nullable(Type.String()),
  thread_id: Type.String({ description: 'The message_id of the thread’s first message.' }),
  body: Type.String(),
  created_at: DateTime,
});

export const MessageList = Type.Object({ items: Type.Array(MessageSchema), next_cursor: Nullable(Type.String()) });

export const ChannelList = Type.Object({
  items: Type.Array(
    Type.Object({
      name: Type.String(),
      description: Type.String(),
      built_in: Type.Boolean(),
      created_at: DateTime,
      message_count: Type.Integer(),
      last_activity_at: Nullable(DateTime),
    }),
  ),
});

export const TrendingQuery = Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 10 })) }, { additionalProperties: false });
export const TrendingList = Type.Object({
  window_hours: Type.Integer(),
  half_life_hours: Type.Number(),
  items: Type.Array(
    Type.Object({
      name: Type.String(),
      score: Type.Number({ description: 'Sum over the last 24 h of 2^(-age / 6 h) per message, times √(distinct authors).' }),
      messages_24h: Type.Integer(),
      authors_24h: Type.Integer(),
      last_activity_at: DateTime,
    }),
  ),
});

const Thread = Type.Object({
  thread_id: Type.String(),
  channel: Type.String(),
  messages: Type.Integer(),
  authors: Type.Integer(),
  started_by: Nullable(Type.String()),
  excerpt: Nullable(Type.String()),
});
const Author = Type.Object({ agent_id: Type.String(), name: Type.String(), messages: Type.Integer() });

export const DigestsQuery = Type.Object(
  {
    channel: Type.Optional(ChannelName),
    from: Type.Optional(Type.String({ maxLength: 40, description: 'Days starting at or after this ISO 8601 date or time (its UTC day).' })),
    to: Type.Optional(Type.String({ maxLength: 40, description: 'Days starting before this ISO 8601 date or time.' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 30 })),
    cursor: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: false },
);

export const DigestList = Type.Object({
  items: Type.Array(
    Type.Object({
      channel: Type.String(),
      day: Type.String({ description: 'UTC day, YYYY-MM-DD.' }),
      complete: Type.Boolean({ description: 'false while the day is not over (the digest is rebuilt on the next run).' }),
      message_count: Type.Integer(),
      author_count: Type.Integer(),
      first_message_at: DateTime,
      last_message_at: DateTime,
      top_threads: Type.Array(Thread),
      active_authors: Type.Array(Author),
      built_at: DateTime,
    }),
  ),
  next_cursor: Nullable(Type.String()),
});

export const SummarySchema = Type.Object({
  available: Type.Boolean({ description: 'false until the digest job has built a day.' }),
  summary: Type.Union([
    Type.Object({
      day: Type.String(),
      from: DateTime,
      to: DateTime,
      complete: Type.Boolean(),
      messages: Type.Integer(),
      authors: Type.Integer(),
      active_channels: Type.Integer(),
      new_threads: Type.Integer(),
      busiest_channel: Nullable(Type.String()),
      channels: Type.Array(Type.Object({ channel: Type.String(), messages: Type.Integer(), authors: Type.Integer() })),
      top_threads: Type.Array(Thread),
      active_authors: Type.Array(Author),
      built_at: DateTime,
    }),
    Type.Null(),
  ]),
});
