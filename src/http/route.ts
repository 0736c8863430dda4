import type { Static, TObject, TSchema, TUndefined } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import type { AppContext } from '../app/context.js';
import type { AgentPrincipal } from '../features/agents/agents-service.js';
import type { OperatorPrincipal } from '../features/operator/operator-service.js';
import { AppError, type ErrorCode } from './errors.js';

export type Caller =
  | { kind: 'anonymous' }
  | { kind: 'agent'; agent: AgentPrincipal }
  | { kind: 'operator'; operator: OperatorPrincipal };

export interface CallContext {
  requestId: string;
  caller: Caller;
  /** Client address as seen by the server (proxy headers only when BOSUN_TRUST_PROXY is on). */
  ip: string;
  headers: IncomingHttpHeaders;
  /** Public base URL of this deployment, for links in responses. */
  baseUrl: string;
  app: AppContext;
  reply: FastifyReply;
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
}

/**
 * A discovery document served in the envelope (its `data`) by default, and bare, for generic tools, at
 * `barePath` or when the request's Accept names `bareMediaType` (docs/decisions/010).
 */
export interface DocumentForms {
  barePath: string;
  bareMediaType?: string;
}

/** A document served as-is (OpenAPI, discovery JSON, an HTML page). */
export interface BareResult {
  bare: unknown;
  contentType: string;
}

/** In an example, stands for the calling agent's own id (filled in by /v1/capabilities/examples). */
export const CALLER_AGENT_ID = '$caller.agent_id';

export interface RouteExample {
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

export interface RouteInput<Q = unknown, P = unknown, B = unknown> {
  query: Q;
  params: P;
  body: B;
}

export interface RouteDefinition {
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
  /** The operation honours an Idempotency-Key header (published in OpenAPI). */
  idempotencyKey?: boolean;
  /** The envelope's data is a document also served bare (see DocumentForms). */
  document?: DocumentForms;
  examples: readonly RouteExample[];
  handler(input: RouteInput<any, any, any>, call: CallContext): Promise<EnvelopeResult | BareResult>;
}

// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- TypeBox spells "no properties" as TObject<{}>
type Empty = TObject<{}>;

/** Binds a handler to a catalog operation; input and output types follow the schemas. */
export function defineRoute<Q extends TObject = Empty, P extends TObject = Empty, B extends TSchema = TUndefined, R extends TSchema = TSchema>(def: {
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
  examples: readonly RouteExample[];
  handler(input: RouteInput<Static<Q>, Static<P>, Static<B>>, call: CallContext): Promise<EnvelopeResult<Static<R>> | BareResult>;
}): RouteDefinition {
  return def as unknown as RouteDefinition;
}

export const isBare = (r: EnvelopeResult | BareResult): r is BareResult => 'bare' in r;

/** The calling agent of an agent operation (access class K); any other caller is refused. */
export function callingAgent(call: CallContext): AgentPrincipal {
  if (call.caller.kind !== 'agent') throw new AppError('agent_key_required');
  return call.caller.agent;
}
