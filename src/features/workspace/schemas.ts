import { Type } from '@sinclair/typebox';
import { DOCUMENT_MEDIA_TYPES, DOCUMENT_NAME_PATTERN, WORKSPACE_LIMITS } from './workspace-rules.js';

const DateTime = () => Type.String({ format: 'date-time' });
const MediaType = Type.Union(
  DOCUMENT_MEDIA_TYPES.map((m) => Type.Literal(m)),
  { description: 'application/json (content is any JSON value) or text/plain (content is a string).' },
);

export const DocumentNameParams = Type.Object({
  name: Type.String({ pattern: DOCUMENT_NAME_PATTERN, description: 'Document name: 1-128 characters, letters, digits, dot, underscore, hyphen; starts with a letter or digit. Case-sensitive.' }),
});

export const ListDocumentsQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50, description: 'Page size, 1-100 (default 50).' })),
    cursor: Type.Optional(Type.String({ pattern: DOCUMENT_NAME_PATTERN, description: 'next_cursor of the previous page (documents are listed by name, ascending).' })),
  },
  { additionalProperties: false },
);

const DocumentMeta = {
  name: Type.String(),
  media_type: MediaType,
  size_bytes: Type.Integer({ description: 'Stored size in bytes (JSON counted as its compact serialisation).' }),
  etag: Type.String({ description: 'The strong entity tag of this version (also the ETag header); send it as If-Match to update or delete only this version.' }),
  revision: Type.Integer({ description: 'Starts at 1, +1 per update.' }),
  created_at: DateTime(),
  updated_at: DateTime(),
};

export const DocumentSummary = Type.Object(DocumentMeta);
export const DocumentSchema = Type.Object({ ...DocumentMeta, content: Type.Unknown({ description: 'The document: a JSON value, or a string for text/plain.' }) });

export const DocumentList = Type.Object({
  items: Type.Array(DocumentSummary),
  next_cursor: Type.Union([Type.String(), Type.Null()]),
  usage: Type.Object({
    documents: Type.Integer(),
    bytes: Type.Integer(),
    max_documents: Type.Integer(),
    max_bytes: Type.Integer(),
    max_document_bytes: Type.Integer(),
  }),
});

export const PutDocumentBody = Type.Object(
  {
    content: Type.Unknown({ description: `The document: any JSON value (media_type application/json, the default) or a string (text/plain); at most ${WORKSPACE_LIMITS.documentBytes} bytes stored.` }),
    media_type: Type.Optional(MediaType),
  },
  { additionalProperties: false },
);

export const PutDocumentResult = Type.Object({ ...DocumentMeta, created: Type.Boolean({ description: 'true when this call created the document, false when it replaced it.' }) });
export const DeleteDocumentResult = Type.Object({ name: Type.String(), deleted: Type.Literal(true) });

export const EventsQuery = Type.Object(
  {
    after: Type.Optional(Type.Integer({ minimum: 0, default: 0, description: 'Return unacknowledged events with seq greater than this (next_after of the previous answer); 0 (default) for all.' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: WORKSPACE_LIMITS.eventsPerPage, default: 50, description: `Page size, 1-${WORKSPACE_LIMITS.eventsPerPage} (default 50).` })),
    timeout: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: WORKSPACE_LIMITS.pollSeconds,
        default: 0,
        description: `Long poll: wait up to this many seconds (0-${WORKSPACE_LIMITS.pollSeconds}) when nothing is pending.`,
      }),
    ),
  },
  { additionalProperties: false },
);

export const WorkspaceEventSchema = Type.Object({
  event_id: Type.String({ description: 'wev_… ; acknowledge by id or by seq.' }),
  seq: Type.Integer({ description: 'Monotonic per agent, starting at 1.' }),
  kind: Type.String({
    description: 'help_request.answered, help_request.selected, help_request.closed, operator_request.updated, feedback_ticket.changed (more kinds may be added; ignore unknown ones).',
  }),
  payload: Type.Record(Type.String(), Type.Unknown()),
  created_at: DateTime(),
});

export const EventsPage = Type.Object({
  items: Type.Array(WorkspaceEventSchema),
  next_after: Type.Integer({ description: 'Pass as after to read on; acknowledge with up_to once processed.' }),
  more_available: Type.Boolean(),
  timed_out: Type.Boolean({ description: 'true when a long poll ended without events.' }),
});

export const AckBody = Type.Object(
  {
    up_to: Type.Optional(Type.Integer({ minimum: 1, description: 'Acknowledge every event with seq ≤ up_to (never beyond your newest event).' })),
    event_ids: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { minItems: 1, maxItems: 100, description: 'Acknowledge exactly these events.' })),
  },
  { additionalProperties: false },
);

export const AckResult = Type.Object({
  acknowledged: Type.Integer({ description: 'Events newly acknowledged by this call (0 when repeated).' }),
  unknown_event_ids: Type.Array(Type.String(), { description: 'Listed ids that are not events of yours.' }),
  pending: Type.Integer({ description: 'Your unacknowledged events after this call.' }),
  last_seq: Type.Integer({ description: 'Your newest event sequence number (0 when none).' }),
});
