import type { Static, TObject, TSchema, TUndefined } from '@sinclair/typebox';
import type { IncomingHttpHeaders } from 'node:http';
import type { AgentPrincipal, Caller } from '../access/principals.js';
import type { CatalogView } from '../catalog/catalog.js';
import type { DocumentForms, OperationContract, OperationExample } from '../catalog/types.js';
import type { Clock } from '../platform/clock.js';
import { AppError, type ErrorCode } from '../platform/errors.js';
import { queryAliasesOf, withQueryAliases, type QueryAliases, type ValueVocabulary } from './query-vocabulary.js';

/**
 * What a handler gets besides its input: the services (of type S, given by whoever composes the
 * application, so http/ depends on no feature), the catalog, the site URLs, the clock, and the
 * few response controls handlers need.
 */
export interface CallContext<S = unknown> {
  requestId: string;
  caller: Caller;
  /** Client address as seen by the server (proxy headers only when BOSUN_TRUST_PROXY is on). */
  ip: string;
  headers: IncomingHttpHeaders;
  /** Public base URL of this deployment, for links in responses. */
  baseUrl: string;
  /** Public URL of the human-facing site (BOSUN_SITE_URL), the base URL when none is configured. */
  siteUrl: string;
  services: S;
  catalog: CatalogView;
  clock: Clock;
  /** Sets a response header (on success; an error answer sets its own). */
  setHeader(name: string, value: string): void;
  /** Calls `listener` if the client goes away before the answer is written (long polls stop waiting). */
  onClose(listener: () => void): void;
}

export interface EnvelopeResult<D = unknown> {
  data: D;
  freshnessSeconds?: number;
  confidence?: number | null;
  qualityFlags?: string[];
  /**
   * `data` already serialised as JSON, when one result is sent to many callers (long polls woken
   * together): the envelope is then written around this text instead of serialising `data` again.
   */
  dataJson?: string;
  /**
   * Recorded in request telemetry, never sent: whether the answer came from an answer cache (`miss_evict`: computed,
   * and storing it evicted the least recently used answer), the age of a cached answer, and the documented fallback
   * that produced the answer, if any (docs/decisions/066).
   */
  served?: { cache?: 'hit' | 'miss' | 'miss_evict'; cacheAgeSeconds?: number; fallback?: string };
}

/** A document served as-is (OpenAPI, discovery JSON, an HTML page). */
export interface BareResult {
  bare: unknown;
  contentType: string;
  /** Extra response headers (an HTML page's security headers, PAGE_SECURITY_HEADERS). */
  headers?: Record<string, string>;
}

/**
 * A response written over time (server-sent events): the head (status 200, `contentType`, the
 * request's headers) is sent at once, then `start` writes chunks through the channel until it or the
 * client ends it. The server ends every open stream when it shuts down, calling `shutdown` first
 * so the stream can say why (docs/decisions/041).
 */
export interface StreamResult {
  stream: {
    contentType: string;
    headers?: Record<string, string>;
    start(channel: StreamChannel): { shutdown(): void };
  };
}

/** The writing end of a streamed response. */
export interface StreamChannel {
  write(chunk: string): void;
  /** Bytes written that the client's connection has not taken yet (the per-stream memory). */
  bufferedBytes(): number;
  /** Resolves when the buffered bytes were handed to the connection, or the stream ended. */
  drained(): Promise<void>;
  end(): void;
  readonly ended: boolean;
  /** Called once when the stream ends, whoever ended it (end(), the client going away, shutdown). */
  onEnd(listener: () => void): void;
}

export interface RouteInput<Q = unknown, P = unknown, B = unknown> {
  query: Q;
  params: P;
  body: B;
}

/** An operation's published contract bound to the handler that serves it. */
export interface RouteDefinition<S = any> extends OperationContract {
  /** The shared query names (range, to) this operation also takes, and which of its own they stand for. */
  queryAliases?: QueryAliases;
  handler(input: RouteInput<any, any, any>, call: CallContext<S>): Promise<EnvelopeResult | BareResult | StreamResult>;
}

// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- TypeBox spells "no properties" as TObject<{}>
type Empty = TObject<{}>;

/**
 * The `defineRoute` of an application whose handlers see services of type S: binds a handler to a
 * catalog operation; input and output types follow the schemas. Every query also takes the shared names
 * of query-vocabulary.ts and the application's shared values (`vocabulary`).
 */
export function routeDefiner<S>(vocabulary: ValueVocabulary = {}) {
  return function defineRoute<Q extends TObject = Empty, P extends TObject = Empty, B extends TSchema = TUndefined, R extends TSchema = TSchema>(def: {
    operationId: string;
    description: string;
    query?: Q;
    params?: P;
    body?: B;
    response: R;
    successStatus?: number;
    errors?: readonly ErrorCode[];
    idempotencyKey?: boolean;
    document?: DocumentForms;
    examples: readonly OperationExample[];
    streamMediaType?: string;
    alsoStreams?: { mediaType: string; when: string };
    notModified?: boolean;
    handler(input: RouteInput<Static<Q>, Static<P>, Static<B>>, call: CallContext<S>): Promise<EnvelopeResult<Static<R>> | BareResult | StreamResult>;
  }): RouteDefinition<S> {
    if (!def.query) return def;
    return { ...def, query: withQueryAliases(def.query, vocabulary), queryAliases: queryAliasesOf(def.query, vocabulary) };
  };
}

export const isBare = (r: EnvelopeResult | BareResult | StreamResult): r is BareResult => 'bare' in r;
export const isStream = (r: EnvelopeResult | BareResult | StreamResult): r is StreamResult => 'stream' in r;

/** The calling agent of an agent operation (access class K); any other caller is refused. */
export function callingAgent(call: { caller: Caller }): AgentPrincipal {
  if (call.caller.kind !== 'agent') throw new AppError('agent_key_required');
  return call.caller.agent;
}
