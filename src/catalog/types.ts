import type { TObject, TSchema } from '@sinclair/typebox';
import type { ErrorCode } from '../platform/errors.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type Stability = 'stable' | 'beta' | 'experimental';
/** P: no credential needed; K: agent key; U: restricted to the operator or an agent holding ops:read. */
export type AccessClass = 'P' | 'K' | 'U';

export type Section =
  | 'meta'
  | 'billing'
  | 'vessels'
  | 'ports'
  | 'sts'
  | 'events'
  | 'metrics'
  | 'layers'
  | 'routes'
  | 'feedback'
  | 'exchange'
  | 'workspace'
  | 'services'
  | 'agents'
  | 'harbor'
  | 'payments'
  | 'discovery'
  | 'site';

export type RatePolicyName = 'anonymous_preview' | 'registration' | 'snapshot_trial';

export interface CatalogEntry {
  operationId: string;
  method: HttpMethod;
  /** Path as the documents write it, `{name}` for path parameters. */
  path: string;
  stability: Stability;
  /** x-cost-units-hint: what a successful call charges (see docs/decisions/003-cost-units.md). */
  cost: number;
  access: AccessClass;
  /** Scopes every caller of the operation must hold (agents; the operator holds all). */
  scopes: readonly string[];
  section: Section;
  summary: string;
  /** Extra limit policies on top of the per-caller default. */
  ratePolicies?: readonly RatePolicyName[];
  /** Meta and discovery calls that charge nothing even on success. */
  free?: boolean;
  /** Served as a bare document (OpenAPI, discovery JSON, HTML) instead of the envelope on success. */
  bare?: 'json' | 'html' | 'text';
  /**
   * 'closed': not part of public discovery (harbor 4.3): left out of the public OpenAPI, capabilities,
   * examples and the service directory; the operator's OpenAPI lists it.
   */
  discovery?: 'closed';
  /**
   * A Bosun extension: an operation beyond the two interface documents (spec/endpoints.tsv), marked
   * x-bosun-extension in OpenAPI and `extension` in the capabilities (docs/decisions/112).
   */
  extension?: true;
}

/**
 * A discovery document served in the envelope (its `data`) by default, and bare, for generic tools, at
 * `barePath` or when the request's Accept names `bareMediaType` (docs/decisions/010).
 */
/** How answers that list operations name one: its id, method, path, section and access class, in that order. */
export const entryHeading = (entry: CatalogEntry) => ({
  operation_id: entry.operationId,
  method: entry.method,
  path: entry.path,
  section: entry.section,
  access: entry.access,
});

export interface DocumentForms {
  barePath: string;
  bareMediaType?: string;
}

/** In an example, stands for the calling agent's own id (filled in by /v1/capabilities/examples). */
export const CALLER_AGENT_ID = '$caller.agent_id';

export interface OperationExample {
  summary: string;
  query?: Record<string, string | number | boolean>;
  params?: Record<string, string>;
  body?: unknown;
  /**
   * The documented refusal this example shows on a default deployment, for features that are
   * off unless the operator enables them (payments): the example then answers with this code.
   */
  expectError?: ErrorCode;
  /** Operator-granted scopes the example needs beyond those of a fresh sandbox agent (published as requires_scopes). */
  scopes?: readonly string[];
  /** What must exist before this example can work (another agent's request, a granted scope); its ids are then placeholders. */
  requires?: string;
}

/**
 * The published part of an operation's route: everything the catalog, OpenAPI and the discovery
 * documents read. The handler that serves it is added by http/route.ts (RouteDefinition).
 */
export interface OperationContract {
  operationId: string;
  /** What an agent needs to know to use the operation well: inputs, behaviour, limits. */
  description: string;
  query?: TObject;
  params?: TObject;
  body?: TSchema;
  /** Schema of the envelope's `data` (or of the bare document). */
  response: TSchema;
  /** HTTP status of a successful call (200 unless the operation creates something). */
  successStatus?: number;
  /** Error codes this operation can answer with besides the common access/validation ones. */
  errors?: readonly ErrorCode[];
  /**
   * The operation honours an Idempotency-Key header (published in OpenAPI); route registration
   * runs the handler under the caller's key, so handlers do nothing for it.
   */
  idempotencyKey?: boolean;
  /** The envelope's data is a document also served bare (see DocumentForms). */
  document?: DocumentForms;
  /** A successful call answers a stream of this media type (text/event-stream) instead of the envelope; `response` is the schema of one event's data. */
  streamMediaType?: string;
  /**
   * Besides the envelope, a successful call may answer the document `response` describes, streamed
   * bare in this media type; `when` says which input asks for it (docs/decisions/057).
   */
  alsoStreams?: { mediaType: string; when: string };
  /**
   * A GET whose handler sets an ETag header answers 304 Not Modified, without a body, when the
   * request's If-None-Match names that tag (weak comparison, RFC 9110 §13.1.2); published in OpenAPI.
   */
  notModified?: boolean;
  examples: readonly OperationExample[];
}
