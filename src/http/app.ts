import { randomBytes } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { CatalogView, ImplementedOperation } from '../catalog/catalog.js';
import type { CatalogEntry } from '../catalog/types.js';
import type { Clock } from '../platform/clock.js';
import type { Config } from '../platform/config.js';
import { LIMIT_POLICIES, type LimitPolicy, type LimitPolicyName } from '../limits/policies.js';
import type { Admission, LimitDecision, Limiter } from '../limits/limiter.js';
import type { Logger } from '../observability/logger.js';
import type { RequestTelemetryTable } from '../store/schema.js';
import { authorize, bearerCredential } from './access.js';
import { bareDocumentType } from './documents.js';
import { bearerChallenge, ignoreInvalidCredential } from './credential-fallback.js';
import { pathPattern, plannedOperations } from './planned.js';
import { rateLimitPolicyHeader } from './ratelimit-headers.js';
import { allowedValues, allowedValuesText, fieldQualifier } from './validation-messages.js';
import { applyQueryAliases, type QueryAliases } from './query-vocabulary.js';
import { INNER_BASE_HEADER, innerBaseOf } from './inner-base.js';
import { teachingDetails } from './teaching-errors.js';
import { envelopeJson, envelopeJsonWithData, errorEnvelope, okEnvelope } from './envelope.js';
import { DependencyUnavailableError } from '../platform/dependency.js';
import { boundNumbers, jsonNestsTooDeep, MAX_INPUT_DEPTH, rejectInvalidText } from './edge-input.js';
import { AppError, type ErrorDetail } from '../platform/errors.js';
import { addQualityFlag, dependencyUnavailable, withRequestFlags } from './faults.js';
import { capConnectionsPerAddress, closeUnusedConnectionsOnClose, frameworkErrorsOption, serverGuardOptions } from './server-guards.js';
import { OPERATOR_TOKEN_PREFIX } from '../access/credentials.js';
import { registerPages, type PageDefinition } from './pages.js';
import { IDEMPOTENCY_HEADER, type IdempotentWrites } from './idempotency.js';
import { isBare, isStream, type BareResult, type CallContext, type EnvelopeResult, type RouteDefinition, type StreamResult } from './route.js';
import { openStreams, writeStream } from './stream.js';
import type { AgentPrincipal, Caller, OperatorPrincipal } from '../access/principals.js';

/** The services the HTTP layer itself calls: authentication, the audit of refused credentials, request telemetry, idempotent writes. */
export interface HttpServices {
  agents: { authenticate(apiKey: string): Promise<AgentPrincipal | undefined>; cachedPrincipal(apiKey: string): AgentPrincipal | undefined };
  operator: { authenticate(token: string): Promise<OperatorPrincipal | undefined> };
  audit: { record(event: { actor: { kind: 'anonymous' }; action: string; ip: string; details: Record<string, unknown> }): Promise<void> };
  telemetry: { record(row: Omit<RequestTelemetryTable, 'id'>): void };
  idempotency: IdempotentWrites;
}

/** What the HTTP app is built from; S is every service handlers can reach (CallContext.services). */
export interface HttpContext<S extends HttpServices> {
  config: Config;
  clock: Clock;
  logger: Logger;
  limiter: Limiter;
  catalog: CatalogView<RouteDefinition<S>>;
  services: S;
  /** Extra limit policies attached to operations by whoever embeds Bosun (see createBosun). */
  ratePolicyOverrides: Readonly<Record<string, readonly LimitPolicyName[]>>;
  /** The site's HTML pages (src/http/pages.ts); none for an API-only app. */
  pages?: readonly PageDefinition[];
}

type AnyHttpContext = HttpContext<HttpServices>;

interface RequestState {
  entry: CatalogEntry | null;
  caller: Caller;
  costUnits: number;
  errorCode: string | null;
  freshnessSeconds: number | null;
  /** Set by a site page (src/http/pages.ts): its path pattern, recorded as the telemetry operation. */
  page?: string;
  /** Set by a transport that is not an operation (the MCP endpoint): recorded as the telemetry operation `<transport> transport`. */
  transport?: string;
  /** The answer's cache use and fallback (EnvelopeResult.served), recorded in telemetry. */
  served?: EnvelopeResult['served'];
}

declare module 'fastify' {
  interface FastifyRequest {
    bosun: RequestState;
  }
}

const INCOMING_REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;
const ANONYMOUS: Caller = { kind: 'anonymous' };
/** Operations without query parameters still reject unknown ones, like every other operation. */
const NO_QUERY = Type.Object({}, { additionalProperties: false });

const REQUEST_ID_BYTES = 12;
// One call to the system random source per 512 request ids instead of one per request.
let requestIdEntropy = Buffer.alloc(0);
let requestIdOffset = 0;
function newRequestId(): string {
  if (requestIdOffset + REQUEST_ID_BYTES > requestIdEntropy.length) {
    requestIdEntropy = randomBytes(REQUEST_ID_BYTES * 512);
    requestIdOffset = 0;
  }
  const id = 'req_' + requestIdEntropy.toString('hex', requestIdOffset, requestIdOffset + REQUEST_ID_BYTES);
  requestIdOffset += REQUEST_ID_BYTES;
  return id;
}

/** `/v1/vessels/{vsl_id}/positions` → `/v1/vessels/:vsl_id/positions` */
export const toRouterPath = (path: string) => path.replace(/\{([^}]+)\}/g, ':$1');

export function baseUrlOf(ctx: Pick<AnyHttpContext, 'config'>, req: FastifyRequest): string {
  return ctx.config.publicUrl ?? innerBaseOf(req.headers[INNER_BASE_HEADER]) ?? `${req.protocol}://${req.host}`;
}

function validationDetail(err: FastifyError): ErrorDetail {
  const first = err.validation?.[0];
  const context = err.validationContext === 'querystring' ? 'query' : (err.validationContext ?? 'body');
  const params = first?.params ?? {};
  const path = (first?.instancePath ?? '').split('/').filter(Boolean);
  if (typeof params.missingProperty === 'string') path.push(params.missingProperty);
  if (typeof params.additionalProperty === 'string') path.push(params.additionalProperty);
  const field = [context, ...path].join('.');
  let message = `${field} ${first?.message ?? 'is invalid'}`;
  if (typeof params.additionalProperty === 'string') message = `${field} is not a known parameter of this operation`;
  const allowed = allowedValues(err.validation);
  if (allowed) message = `${field} ${allowedValuesText(allowed)}`;
  return { code: 'invalid_request', message, field, retryable: false };
}

/** Maps anything thrown during a request to one stable error code and status. */
function toAppError(err: unknown): AppError | { detail: ErrorDetail; status: number } {
  if (err instanceof AppError) return err;
  if (err instanceof DependencyUnavailableError) return dependencyUnavailable(err);
  const e = err as FastifyError;
  if (e.validation) return { detail: validationDetail(e), status: 400 };
  switch (e.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('body_too_large', 'the request body exceeds the size limit (see /v1/capabilities/limits)');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('unsupported_media_type', 'send the body as application/json');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('invalid_json', 'the body is empty but Content-Type says application/json');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('invalid_request', 'Content-Length does not match the body');
  }
  if (err instanceof SyntaxError || e.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    return new AppError('invalid_json', 'the request body is not valid JSON');
  }
  if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    return new AppError('invalid_request', 'the request could not be read');
  }
  return new AppError('internal_error', 'unexpected server error; quote the request_id when reporting it');
}

/** Query strings and path parameters arrive as text and are coerced; JSON bodies are typed and are not. */
const coercing = new Ajv({ removeAdditional: false, coerceTypes: 'array', useDefaults: true, allErrors: false, strict: false });
/** JSON bodies: every error, so a body missing several fields is refused naming them all (teaching-errors.ts). */
const strictTypes = new Ajv({ removeAdditional: false, coerceTypes: false, useDefaults: true, allErrors: true, strict: false });
for (const ajv of [coercing, strictTypes]) (addFormats as unknown as (a: Ajv) => void)(ajv);
const compiled = { body: new WeakMap<object, ValidateFunction>(), text: new WeakMap<object, ValidateFunction>() };

/**
 * The validator of one route schema, compiled once per process: the catalog's schemas are module constants, so a
 * second app in the same process (tests start hundreds) reuses them instead of compiling ~260 routes again.
 */
function requestValidator(schema: object, part: 'body' | 'text'): ValidateFunction {
  const known = compiled[part].get(schema);
  if (known) return known;
  const validate = (part === 'body' ? strictTypes : coercing).compile(boundNumbers(schema));
  compiled[part].set(schema, validate);
  return validate;
}

export function buildHttpApp<S extends HttpServices>(ctx: HttpContext<S>): FastifyInstance {
  const { config, clock, services, catalog } = ctx;
  const app = Fastify({
    logger: false,
    bodyLimit: config.bodyLimitBytes,
    ...serverGuardOptions(config, clock),
    frameworkErrors: frameworkErrorsOption((req, reply, status, error) => sendError(req, reply, status, error.toDetail())),
    return503OnClosing: true,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      if (typeof incoming === 'string' && INCOMING_REQUEST_ID.test(incoming)) return incoming;
      return newRequestId();
    },
  });
  app.setValidatorCompiler(({ schema, httpPart }) => requestValidator(schema, httpPart === 'body' ? 'body' : 'text'));
  app.addHook('preValidation', rejectInvalidText(catalog.implemented));
  // JSON bodies: Fastify's own parser (prototype poisoning refused) after a linear depth pre-check, so no
  // parser or scan ever recurses into a deeply nested document (issue 24: 9,000 levels overflowed the stack)
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (jsonNestsTooDeep(text)) {
      done(new AppError('invalid_request', `the request body nests objects and arrays deeper than ${MAX_INPUT_DEPTH} levels, which is not accepted`, { field: 'body' }), undefined);
      return;
    }
    void parseJson(req, text, done);
  });

  capConnectionsPerAddress(app, config.server.maxConnectionsPerAddress);
  closeUnusedConnectionsOnClose(app);
  app.decorateRequest('bosun', null as unknown as RequestState);

  // Hooks on every request are callback-style, not async: no promise per hook (issue 9, decision 058).
  app.addHook('onRequest', (req, reply, done) => {
    req.bosun = { entry: null, caller: ANONYMOUS, costUnits: 0, errorCode: null, freshnessSeconds: null };
    reply.header('x-request-id', req.id);
    done();
  });

  const budgetNotCounted = (err: unknown) => ctx.logger.warn({ err }, 'error budget not counted');
  app.addHook('onResponse', (req, reply, done) => {
    const state = req.bosun;
    if (state) {
      // recorded first, stamped with the time the response ended (counting a failed call may wait on Redis)
      services.telemetry.record({
        ts: clock.now(),
        operation_id: state.entry?.operationId ?? (state.page ? `page ${state.page}` : state.transport ? `${state.transport} transport` : 'unmatched'),
        method: req.method,
        status: reply.statusCode,
        latency_ms: Math.round(reply.elapsedTime * 100) / 100,
        cost_units: state.costUnits,
        caller_kind: state.caller.kind,
        agent_id: state.caller.kind === 'agent' ? state.caller.agent.agentId : null,
        error_code: state.errorCode,
        freshness_seconds: state.freshnessSeconds,
        cache: state.served?.cache ?? null,
        fallback: state.served?.fallback ?? null,
        cache_age_seconds: state.served?.cacheAgeSeconds ?? null,
      });
      // only failed calls are counted: a successful answer costs no limiter call and no promise
      if (countsAsFailedCall(state.caller, reply.statusCode)) countFailedCall(ctx, state.caller, req.ip).catch(budgetNotCounted);
    }
    done();
  });

  function sendError(
    req: FastifyRequest,
    reply: FastifyReply,
    status: number,
    detail: ErrorDetail,
    headers: Record<string, string> = {},
    data?: Record<string, unknown>,
    more: readonly ErrorDetail[] = [],
  ) {
    if (req.bosun) {
      req.bosun.errorCode = detail.code;
      req.bosun.costUnits = 0;
    }
    for (const [name, value] of Object.entries(headers)) reply.header(name, value);
    return reply
      .code(status)
      .type('application/json; charset=utf-8')
      .send(errorEnvelope({ requestId: req.id, now: clock.now(), caller: req.bosun?.caller ?? ANONYMOUS, errors: [detail, ...more], data }));
  }

  // fields named bare by a service are qualified by the request part that declares them (body.x, query.x, params.x)
  const qualifiers = new Map(catalog.implemented.map(({ entry, route }) => [entry.operationId, fieldQualifier(entry, route)]));
  const routesById = new Map(catalog.implemented.map(({ entry, route }) => [entry.operationId, route]));
  app.setErrorHandler((err, req, reply) => {
    const mapped = toAppError(err);
    if (mapped instanceof AppError) {
      if (mapped.status >= 500 && mapped.code === 'internal_error') ctx.logger.error({ err, request_id: req.id, url: req.url }, 'request failed');
      const detail = mapped.toDetail();
      const qualify = req.bosun?.entry ? qualifiers.get(req.bosun.entry.operationId) : undefined;
      if (detail.field && qualify) detail.field = qualify(detail.field);
      return sendError(req, reply, mapped.status, detail, mapped.options.headers);
    }
    const entry = req.bosun?.entry;
    const route = entry ? routesById.get(entry.operationId) : undefined;
    if (!(err as FastifyError).validation || !entry || !route) return sendError(req, reply, mapped.status, mapped.detail);
    const [first, ...more] = teachingDetails(mapped.detail, err as FastifyError, { operationId: entry.operationId, route }, baseUrlOf(ctx, req));
    return sendError(req, reply, mapped.status, first ?? mapped.detail, {}, undefined, more);
  });

  const patterns = catalog.implemented.map(({ entry }) => ({ entry, pattern: pathPattern(entry.path) }));
  const planned = plannedOperations(catalog);
  app.setNotFoundHandler((req, reply) => {
    const pathname = req.url.split('?')[0] ?? '/';
    const plannedHit = planned.find(req.method, pathname);
    if (plannedHit) return sendError(req, reply, plannedHit.error.status, plannedHit.error.toDetail(), {}, plannedHit.data);
    const methods = patterns.filter((p) => p.pattern.test(pathname)).map((p) => p.entry.method);
    if (methods.length > 0) {
      const allow = [...new Set(methods.flatMap((m) => (m === 'GET' ? ['GET', 'HEAD'] : [m])))].join(', ');
      return sendError(req, reply, 405, new AppError('method_not_allowed', `${req.method} is not allowed on ${pathname}; use ${allow}`).toDetail(), { allow });
    }
    return sendError(req, reply, 404, new AppError('route_not_found', `no operation at ${req.method} ${pathname}; see /v1/capabilities`).toDetail());
  });

  for (const operation of catalog.implemented) registerOperation(app, ctx, operation);
  registerPages(app, ctx.pages ?? [], {
    onError: (err, path) => ctx.logger.error({ err, path }, 'page failed'),
    baseUrl: (req) => baseUrlOf(ctx, req),
    unavailableData: (req, reply, err) => {
      const refusal = dependencyUnavailable(err);
      return sendError(req, reply, refusal.status, refusal.toDetail(), refusal.options.headers);
    },
  });
  // open streams never end by themselves: end them so closing the server does not wait on them
  const streams = openStreams(app);
  app.addHook('preClose', async () => streams.shutdownAll());
  return app;
}

async function resolveCaller(ctx: AnyHttpContext, req: FastifyRequest): Promise<Caller> {
  const credential = bearerCredential(req.headers.authorization);
  if (credential === undefined) return ANONYMOUS;
  const reject = async (why: string) => {
    await ctx.services.audit.record({ actor: { kind: 'anonymous' }, action: 'security.auth_invalid', ip: req.ip, details: { why, path: req.url.split('?')[0] } });
    return new AppError('auth_invalid', why, { headers: { 'www-authenticate': bearerChallenge('invalid_token', why) } });
  };
  if (credential === null) throw await reject('the Authorization header must be "Bearer <api key>"');
  if (credential.startsWith(OPERATOR_TOKEN_PREFIX)) {
    const operator = await ctx.services.operator.authenticate(credential);
    if (!operator) throw await reject('unknown or revoked operator token');
    return { kind: 'operator', operator };
  }
  const agent = await ctx.services.agents.authenticate(credential);
  if (!agent) throw await reject('unknown or revoked API key');
  return { kind: 'agent', agent };
}

function limitSubject(policy: LimitPolicy, caller: Caller, ip: string, operationId: string): string {
  const identity = caller.kind === 'agent' ? caller.agent.agentId : caller.kind;
  const base = policy.keying === 'ip' ? `ip:${ip}` : policy.keying === 'caller' ? (caller.kind === 'agent' ? identity : `ip:${ip}`) : `${identity}|${ip}`;
  return policy.perOperation ? `${operationId}:${base}` : base;
}

/** Refuses every call of a caller whose recent failed calls filled the error budget. */
async function enforceErrorBudget(ctx: AnyHttpContext, caller: Caller, ip: string) {
  if (caller.kind === 'operator') return;
  const policy = LIMIT_POLICIES.error_budget;
  const full = await ctx.limiter.exhausted(policy, limitSubject(policy, caller, ip, ''), ctx.clock.now());
  if (full) throw errorBudgetRefusal(full);
}

function errorBudgetRefusal(full: { window: LimitPolicy['windows'][number]; resetInMs: number }): AppError {
  const resetSeconds = Math.max(1, Math.ceil(full.resetInMs / 1000));
  return new AppError('error_rate_limited', `${full.window.limit} failed calls per ${full.window.name} reached; fix the failing requests and retry in ${resetSeconds} s`, {
    headers: { 'retry-after': String(resetSeconds) },
  });
}

/** A failed call (4xx other than a limit refusal) of anyone but the operator counts against the error budget. */
const countsAsFailedCall = (caller: Caller, status: number): boolean => status >= 400 && status < 500 && status !== 429 && caller.kind !== 'operator';

/** Counts a failed call against the caller's error budget. */
async function countFailedCall(ctx: AnyHttpContext, caller: Caller, ip: string): Promise<void> {
  const policy = LIMIT_POLICIES.error_budget;
  await ctx.limiter.check(policy, limitSubject(policy, caller, ip, ''), ctx.clock.now());
}

/** The rate limits of one operation for one kind of caller, with their RateLimit-Policy header, fixed at start. */
interface OperationLimits {
  policies: LimitPolicy[];
  policyHeader: string;
}

function operationLimits(ctx: AnyHttpContext, entry: CatalogEntry): Record<Caller['kind'], OperationLimits> {
  const forKind = (kind: Caller['kind']): OperationLimits => {
    const names = [
      ...(kind === 'anonymous' ? (['anonymous_default'] as const) : kind === 'agent' ? (['agent_default'] as const) : []),
      ...(entry.ratePolicies ?? []),
      ...(ctx.ratePolicyOverrides[entry.operationId] ?? []),
    ];
    const policies = [...new Set(names)].map((name) => LIMIT_POLICIES[name]);
    return { policies, policyHeader: rateLimitPolicyHeader(policies) };
  };
  return { anonymous: forKind('anonymous'), agent: forKind('agent'), operator: forKind('operator') };
}

/** The error budget and the operation's rate limits, counted in one limiter call (one Redis round trip). */
async function enforceLimits(ctx: AnyHttpContext, entry: CatalogEntry, caller: Caller, ip: string, reply: FastifyReply, limits: OperationLimits) {
  const { guard, checks } = limitChecks(entry, caller, ip, limits);
  applyAdmission(await ctx.limiter.admit(guard, checks, ctx.clock.now()), reply, limits);
}

/** `enforceLimits` without a promise when the limiter counts in this process; false when it needs a round trip. */
function enforceLimitsNow(ctx: AnyHttpContext, entry: CatalogEntry, caller: Caller, ip: string, reply: FastifyReply, limits: OperationLimits): boolean {
  const { guard, checks } = limitChecks(entry, caller, ip, limits);
  const admission = ctx.limiter.admitNow(guard, checks, ctx.clock.now());
  if (admission === undefined) return false;
  applyAdmission(admission, reply, limits);
  return true;
}

function limitChecks(entry: CatalogEntry, caller: Caller, ip: string, { policies }: OperationLimits) {
  const budget = LIMIT_POLICIES.error_budget;
  const guard = caller.kind === 'operator' ? null : { policy: budget, subject: limitSubject(budget, caller, ip, '') };
  const checks = policies.map((policy) => ({ policy, subject: limitSubject(policy, caller, ip, entry.operationId) }));
  return { guard, checks };
}

/** The 429 of a refused policy, with Retry-After and the RateLimit headers of the window that is full. */
export function limitRefusal(policy: LimitPolicy, decision: LimitDecision, policyHeader: string): AppError {
  const resetSeconds = Math.max(1, Math.ceil(decision.resetInMs / 1000));
  return new AppError(policy.code, `limit ${policy.name} reached: ${decision.window.limit} calls per ${decision.window.name}; retry in ${resetSeconds} s`, {
    headers: {
      'retry-after': String(resetSeconds),
      'ratelimit-limit': String(decision.window.limit),
      'ratelimit-remaining': '0',
      'ratelimit-reset': String(resetSeconds),
      'ratelimit-policy': policyHeader,
    },
  });
}

/** Throws the refusal of an admission, or sets the RateLimit headers of its tightest window. */
function applyAdmission({ guardFull, decisions }: Admission, reply: FastifyReply, { policies, policyHeader }: OperationLimits): void {
  if (guardFull) throw errorBudgetRefusal(guardFull);
  let tightest: LimitDecision | null = null;
  for (const [i, decision] of decisions.entries()) {
    if (!decision.allowed) throw limitRefusal(policies[i]!, decision, policyHeader);
    if (decision.local) addQualityFlag(reply.request, 'rate_limits_local');
    if (!tightest || decision.remaining < tightest.remaining) tightest = decision;
  }
  if (tightest) {
    reply.header('ratelimit-limit', String(tightest.window.limit));
    reply.header('ratelimit-remaining', String(tightest.remaining));
    reply.header('ratelimit-reset', String(Math.max(1, Math.ceil(tightest.resetInMs / 1000))));
    reply.header('ratelimit-policy', policyHeader);
  }
}

/** Rewrites the shared query names (range, to) into the operation's own before its query is validated. */
function queryAliasHook(aliases: QueryAliases) {
  return (req: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void): void => {
    try {
      applyQueryAliases(req.query as Record<string, unknown>, aliases);
    } catch (err) {
      return done(err as Error);
    }
    done();
  };
}

function registerOperation(app: FastifyInstance, ctx: AnyHttpContext, { entry, route }: ImplementedOperation<RouteDefinition<HttpServices>>) {
  // a discovery document is also served bare at its sibling path (docs/decisions/010)
  for (const url of [toRouterPath(entry.path), ...(route.document ? [route.document.barePath] : [])]) registerUrl(app, ctx, { entry, route }, url);
}

function registerUrl(app: FastifyInstance, ctx: AnyHttpContext, { entry, route }: ImplementedOperation<RouteDefinition<HttpServices>>, url: string) {
  const limits = operationLimits(ctx, entry);
  app.route({
    method: entry.method,
    url,
    schema: {
      querystring: route.query ?? NO_QUERY,
      ...(route.params ? { params: route.params } : {}),
      ...(route.body ? { body: route.body } : {}),
    },
    ...(route.queryAliases?.range || route.queryAliases?.to || route.queryAliases?.values ? { preValidation: queryAliasHook(route.queryAliases) } : {}),
    onRequest: (req, reply, done) => {
      req.bosun.entry = entry;
      // The common case runs without a promise: no caller to look up in the store (anonymous, or an agent
      // key resolved before at the current access version), admitted and counted in this process; with
      // shared (Redis) limits only the count waits.
      const caller = callerNow(ctx, req);
      if (caller !== undefined && authorize(entry, caller) === null) {
        req.bosun.caller = caller;
        try {
          if (enforceLimitsNow(ctx, entry, caller, req.ip, reply, limits[caller.kind])) return done();
        } catch (err) {
          return done(err as FastifyError);
        }
        enforceLimits(ctx, entry, caller, req.ip, reply, limits[caller.kind]).then(() => done(), done);
        return;
      }
      admitCall(ctx, entry, req, reply, limits).then(() => done(), done);
    },
    handler: async (req, reply) => {
      const call = new HttpCall(ctx, req, reply);
      const input = { query: req.query ?? {}, params: req.params ?? {}, body: req.body };
      const result = route.idempotencyKey ? await runIdempotent(ctx.services.idempotency, route, input, call, req) : await route.handler(input, call);
      const costUnits = entry.free ? 0 : entry.cost;
      req.bosun.costUnits = costUnits;
      if (isStream(result)) return writeStream(app, reply, result);
      if (isBare(result)) {
        if (result.headers) reply.headers(result.headers);
        return reply.type(result.contentType).send(result.bare);
      }
      if (route.notModified && ifNoneMatchHolds(req.headers['if-none-match'], reply.getHeader('etag'))) return reply.code(304).send();
      if (route.document) reply.header('vary', 'Accept');
      const bareType = route.document ? bareDocumentType(route.document, req.url.split('?')[0] ?? '/', req.headers.accept) : null;
      if (bareType) return reply.type(bareType).send(result.data);
      req.bosun.freshnessSeconds = result.freshnessSeconds ?? 0;
      if (result.served) req.bosun.served = result.served;
      const envelope = okEnvelope({
        requestId: req.id,
        now: ctx.clock.now(),
        caller: req.bosun.caller,
        data: result.data,
        costUnits,
        freshnessSeconds: result.freshnessSeconds,
        confidence: result.confidence,
        qualityFlags: withRequestFlags(req, result.qualityFlags),
      });
      reply.code(route.successStatus ?? 200);
      return reply.type('application/json; charset=utf-8').send(result.dataJson !== undefined ? envelopeJsonWithData(envelope, result.dataJson) : envelopeJson(envelope));
    },
  });
}

/** Whether If-None-Match names the entity tag (weak comparison: W/ prefixes ignored; `*` names any). */
function ifNoneMatchHolds(header: string | string[] | undefined, etag: unknown): boolean {
  if (header === undefined || typeof etag !== 'string') return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  const wanted = opaque(etag);
  return (Array.isArray(header) ? header.join(',') : header).split(',').some((tag) => tag.trim() === '*' || opaque(tag) === wanted);
}

/** Resolves the caller, authorises it for the operation and counts the call against its limits. */
async function admitCall(ctx: AnyHttpContext, entry: CatalogEntry, req: FastifyRequest, reply: FastifyReply, limits: Record<Caller['kind'], OperationLimits>): Promise<void> {
  let caller: Caller;
  try {
    caller = await resolveCaller(ctx, req);
  } catch (err) {
    await enforceErrorBudget(ctx, ANONYMOUS, req.ip);
    if (!ignoreInvalidCredential(entry, err, req, reply)) throw err;
    caller = ANONYMOUS;
  }
  req.bosun.caller = caller;
  const denied = authorize(entry, caller);
  if (denied) {
    await enforceErrorBudget(ctx, caller, req.ip);
    throw denied;
  }
  await enforceLimits(ctx, entry, caller, req.ip, reply, limits[caller.kind]);
}

/** The caller when the store need not be asked: anonymous, or an agent key resolved before at the current access version. */
function callerNow(ctx: AnyHttpContext, req: FastifyRequest): Caller | undefined {
  const credential = bearerCredential(req.headers.authorization);
  if (credential === undefined) return ANONYMOUS;
  if (credential === null || credential.startsWith(OPERATOR_TOKEN_PREFIX)) return undefined;
  const agent = ctx.services.agents.cachedPrincipal(credential);
  return agent === undefined ? undefined : { kind: 'agent', agent };
}

/**
 * A handler's CallContext: one object per request, no closures; the base URLs (which read the Host
 * header and the protocol) are worked out only when a handler asks for them.
 */
class HttpCall implements CallContext<HttpServices> {
  readonly requestId: string;
  readonly caller: Caller;
  readonly services: HttpServices;
  readonly catalog: AnyHttpContext['catalog'];
  readonly clock: Clock;
  private base: string | undefined;

  constructor(
    private readonly ctx: AnyHttpContext,
    private readonly req: FastifyRequest,
    private readonly reply: FastifyReply,
  ) {
    this.requestId = req.id;
    this.caller = req.bosun.caller;
    this.services = ctx.services;
    this.catalog = ctx.catalog;
    this.clock = ctx.clock;
  }

  get ip(): string {
    return this.req.ip;
  }

  get headers(): FastifyRequest['headers'] {
    return this.req.headers;
  }

  get baseUrl(): string {
    this.base ??= baseUrlOf(this.ctx, this.req);
    return this.base;
  }

  get siteUrl(): string {
    return this.ctx.config.siteUrl ?? this.baseUrl;
  }

  setHeader(name: string, value: string): void {
    this.reply.header(name, value);
  }

  onClose(listener: () => void): void {
    const raw = this.reply.raw;
    raw.once('close', () => {
      if (!raw.writableEnded) listener();
    });
  }
}

/**
 * Runs an operation that declares idempotencyKey under the caller's Idempotency-Key (if sent): the
 * same key and request replay the first answer's data with `Idempotent-Replayed: true` and never run
 * the handler again, so replays are neither repeated nor counted against limits.
 */
async function runIdempotent(
  idempotency: IdempotentWrites,
  route: RouteDefinition<HttpServices>,
  input: { query: unknown; params: unknown; body: unknown },
  call: CallContext<HttpServices>,
  req: FastifyRequest,
): Promise<EnvelopeResult | BareResult | StreamResult> {
  const key = idempotency.parseKey(req.headers[IDEMPOTENCY_HEADER]);
  // Anonymous callers share no identity a stored result could safely be replayed to.
  if (call.caller.kind === 'anonymous') return route.handler(input, call);
  const caller = call.caller.kind === 'agent' ? `agent:${call.caller.agent.agentId}` : 'operator';
  let firstAnswer: EnvelopeResult | null = null;
  const { result, replayed } = await idempotency.run(key, { caller, method: req.method, path: req.url.split('?')[0]!, body: input.body }, async () => {
    const answer = await route.handler(input, call);
    if (isBare(answer) || isStream(answer)) throw new Error(`${route.operationId} declares idempotencyKey but answers a bare document or a stream`);
    firstAnswer = answer;
    return answer.data;
  });
  if (replayed) call.setHeader('idempotent-replayed', 'true');
  return firstAnswer ?? { data: result };
}
