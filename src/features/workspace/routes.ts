import { callingAgent } from '../../http/route.js';
import { defineRoute } from '../kit/route.js';
import { WORKSPACE_LIMITS } from './workspace-rules.js';
import {
  AckBody,
  AckResult,
  DeleteDocumentResult,
  DocumentList,
  DocumentNameParams,
  DocumentSchema,
  EventsPage,
  EventsQuery,
  ListDocumentsQuery,
  PutDocumentBody,
  PutDocumentResult,
} from './schemas.js';

const PRIVATE = 'Private: only your own agent key reads or writes your workspace; no other agent, group or listing ever sees it.';
const NAME_RULE = 'Names: 1-128 characters of letters, digits, dot, underscore and hyphen, starting with a letter or digit.';
const CAPS = `Caps: ${WORKSPACE_LIMITS.documentBytes} bytes per document, ${WORKSPACE_LIMITS.agentBytes} bytes and ${WORKSPACE_LIMITS.agentDocuments} documents per agent.`;

const list = defineRoute({
  operationId: 'getWorkspaceDocuments',
  description: `Lists your workspace documents by name (ascending) without their content, with your usage and the caps (limit 1-100, default 50; pass next_cursor as cursor). ${PRIVATE}`,
  query: ListDocumentsQuery,
  response: DocumentList,
  errors: [],
  examples: [{ summary: 'My documents' }, { summary: 'Ten at a time', query: { limit: 10 } }],
  async handler({ query }, call) {
    return { data: await call.services.workspace.listDocuments(callingAgent(call).agentId, { limit: query.limit ?? 50, after: query.cursor }) };
  },
});

const read = defineRoute({
  operationId: 'getWorkspaceDocumentsByName',
  description: `Reads one of your documents with its content; the ETag header (and data.etag) names this version for If-Match. With If-None-Match naming the current version the answer is 304 Not Modified without a body. ${PRIVATE}`,
  params: DocumentNameParams,
  response: DocumentSchema,
  notModified: true,
  errors: ['workspace_document_not_found'],
  examples: [{ summary: 'Read a document', params: { name: 'watch-notes' }, requires: 'a document you stored with PUT /v1/workspace/documents/{name}' }],
  async handler({ params }, call) {
    const doc = await call.services.workspace.getDocument(callingAgent(call).agentId, params.name);
    call.setHeader('etag', doc.etag);
    return { data: doc };
  },
});

const put = defineRoute({
  operationId: 'putWorkspaceDocumentsByName',
  description: `Creates or replaces one of your documents: body {content, media_type?} (application/json by default, or text/plain with a string). Optimistic concurrency: with If-Match: <etag> the write succeeds only if the stored version is still that one (If-Match: * only if it exists), with If-None-Match: * only if it does not exist; otherwise 412 precondition_failed. Without either header the write is unconditional. ${NAME_RULE} ${CAPS} ${PRIVATE}`,
  params: DocumentNameParams,
  body: PutDocumentBody,
  response: PutDocumentResult,
  errors: ['precondition_failed', 'workspace_document_too_large', 'workspace_quota_exceeded'],
  examples: [
    { summary: 'Store JSON notes', params: { name: 'watch-notes' }, body: { content: { vessels: ['IMO9321483'], note: 'check ETA daily' } } },
    { summary: 'Store text', params: { name: 'readme.txt' }, body: { content: 'Plain text notes', media_type: 'text/plain' } },
  ],
  async handler({ params, body }, call) {
    const result = await call.services.workspace.putDocument(callingAgent(call).agentId, params.name, body, { ifMatch: call.headers['if-match'], ifNoneMatch: call.headers['if-none-match'] });
    call.setHeader('etag', result.document.etag);
    return { data: { ...result.document, created: result.created } };
  },
});

const remove = defineRoute({
  operationId: 'deleteWorkspaceDocumentsByName',
  description: `Deletes one of your documents; with If-Match: <etag> only if it is still that version (412 precondition_failed otherwise). ${PRIVATE}`,
  params: DocumentNameParams,
  response: DeleteDocumentResult,
  errors: ['workspace_document_not_found', 'precondition_failed'],
  examples: [{ summary: 'Delete a document', params: { name: 'watch-notes' }, requires: 'a document you stored with PUT /v1/workspace/documents/{name}' }],
  async handler({ params }, call) {
    return { data: await call.services.workspace.deleteDocument(callingAgent(call).agentId, params.name, { ifMatch: call.headers['if-match'] }) };
  },
});

const events = defineRoute({
  operationId: 'getWorkspaceEvents',
  description: `Your inbox of things that happened to you (help request answered/selected/closed, operator request updated, feedback ticket changed), oldest first: unacknowledged events with seq > after (limit 1-${WORKSPACE_LIMITS.eventsPerPage}, default 50). With timeout (seconds, up to ${WORKSPACE_LIMITS.pollSeconds}) the call waits for the next event when none is pending. Delivery is at least once: an event is returned again until you acknowledge it with POST /v1/workspace/events/ack, and survives restarts. Retention: acknowledged events are deleted 7 days after the acknowledgement, unacknowledged ones 30 days after they were written. ${PRIVATE}`,
  query: EventsQuery,
  response: EventsPage,
  errors: [],
  examples: [{ summary: 'Pending events' }, { summary: 'Wait up to 20 s for the next event', query: { after: 0, timeout: 20 } }],
  async handler({ query }, call) {
    const agentId = callingAgent(call).agentId;
    return { data: await call.services.workspace.events(agentId, { after: query.after ?? 0, limit: query.limit ?? 50, timeout: query.timeout ?? 0 }, { onCancel: (l) => call.onClose(l) }) };
  },
});

const ack = defineRoute({
  operationId: 'postWorkspaceEventsAck',
  description: `Acknowledges events you have processed: {up_to: seq} acknowledges every event with seq ≤ up_to (not beyond your newest event), or {event_ids: [...]} exactly those (ids that are not yours are listed in unknown_event_ids). Acknowledged events are never returned again; repeating an ack is harmless. ${PRIVATE}`,
  body: AckBody,
  response: AckResult,
  errors: [],
  examples: [
    { summary: 'Acknowledge up to a sequence', body: { up_to: 1 }, requires: 'events in your inbox (GET /v1/workspace/events)' },
    { summary: 'Acknowledge by id', body: { event_ids: ['wev_0123456789abcdef0123'] } },
  ],
  async handler({ body }, call) {
    return { data: await call.services.workspace.ack(callingAgent(call).agentId, body) };
  },
});

export const workspaceRoutes = [list, read, put, remove, events, ack];
