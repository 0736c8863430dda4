import { randomBytes } from 'node:crypto';
import { STATUS_CODES, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyHttpOptions, FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import type { Clock } from '../platform/clock.js';
import type { Config } from '../platform/config.js';
import { errorEnvelope } from './envelope.js';
import { AppError, type ErrorCode } from '../platform/errors.js';

/**
 * Guards of the HTTP server itself, below Bosun's handlers (docs/decisions/012-faults-and-hostile-input.md):
 * which X-Forwarded-For hops are trusted, slow-client timeouts, a per-address socket cap, and
 * envelopes for the answers Node and Fastify produce before any route runs.
 */

/** Fastify's trustProxy from the configuration: a hop count trusts that many proxies nearest the socket. */
export function trustProxyOption(trust: Config['trustProxy']): FastifyServerOptions['trustProxy'] {
  if (trust === false) return false;
  if (typeof trust === 'number') return (_address: string, hop: number) => hop < trust;
  return trust;
}

/** How often Node looks for requests past their timeouts: a fraction of the shortest one. */
function checkingIntervalMs(server: Config['server']): number {
  const timeouts = [server.requestTimeoutMs, server.headersTimeoutMs].filter((t) => t > 0);
  return timeouts.length === 0 ? 30_000 : Math.max(25, Math.min(5_000, Math.floor(Math.min(...timeouts) / 4)));
}

/** Server options of the slow-client guards, and envelopes for errors found before routing. */
export function serverGuardOptions(config: Config, clock: Clock): Partial<FastifyHttpOptions<Server>> {
  const { server } = config;
  return {
    trustProxy: trustProxyOption(config.trustProxy),
    // Receiving a whole request (headers and body) must end within this; a long poll's wait is not receiving.
    requestTimeout: server.requestTimeoutMs,
    // An idle socket (no bytes either way) is closed after this; longer than the longest long poll.
    connectionTimeout: server.idleTimeoutMs,
    http: { headersTimeout: server.headersTimeoutMs, connectionsCheckingInterval: checkingIntervalMs(server) },
    clientErrorHandler: clientErrorEnvelope(clock),
  };
}

/** The envelope Bosun answers with when no request object exists yet. */
function rawErrorResponse(status: number, code: ErrorCode, message: string, clock: Clock): string {
  const body = JSON.stringify(
    errorEnvelope({
      requestId: 'req_' + randomBytes(12).toString('hex'),
      now: clock.now(),
      caller: { kind: 'anonymous' },
      errors: [new AppError(code, message).toDetail()],
    }),
  );
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` + `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}

/** What a client error found by Node's parser means, as Bosun error codes. */
function classifyClientError(err: NodeJS.ErrnoException): { status: number; code: ErrorCode; message: string } {
  switch (err.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, code: 'request_timeout', message: 'the request was not received in time; send headers and body without long pauses' };
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, code: 'headers_too_large', message: 'the request line and headers exceed the size limit; shorten the URL or headers' };
    default:
      return { status: 400, code: 'invalid_request', message: 'the request is not valid HTTP/1.1' };
  }
}

/** Fastify's clientErrorHandler: an envelope instead of Fastify's bare JSON, where the socket still takes one. */
function clientErrorEnvelope(clock: Clock) {
  return function (this: FastifyInstance, err: NodeJS.ErrnoException, socket: Socket): void {
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const { status, code, message } = classifyClientError(err);
    // A response already under way on this socket cannot be followed by another one.
    const busy = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
    if (socket.writable && !busy) socket.end(rawErrorResponse(status, code, message, clock));
    socket.destroy();
  };
}

/**
 * Fastify's frameworkErrors: a malformed percent-encoding in the path (400) or a path parameter
 * longer than the router takes (414) become envelopes through Bosun's own error sender.
 */
export function frameworkErrorsOption(send: (req: FastifyRequest, reply: FastifyReply, status: number, error: AppError) => unknown): FastifyServerOptions['frameworkErrors'] {
  return (err, req, reply) => {
    if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') {
      return send(req, reply, 414, new AppError('uri_too_long', 'a path segment is longer than any identifier this service uses'));
    }
    return send(req, reply, 400, new AppError('invalid_request', 'the URL is not validly percent-encoded'));
  };
}

/**
 * Refuses sockets beyond `max` open at once from one remote address (0: no cap). Counted on the
 * raw socket address: behind a proxy every socket is the proxy's, so the default there is no cap.
 */
export function capConnectionsPerAddress(app: FastifyInstance, max: number): void {
  if (max <= 0) return;
  const open = new Map<string, number>();
  app.server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const count = open.get(address) ?? 0;
    if (count >= max) {
      socket.destroy();
      return;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
}

/**
 * Closing the server closes the sockets that carry no request, including those that never carried
 * one. Node counts a socket as busy from the moment it is accepted until its first request has been
 * answered, so `server.close()` (and its closeIdleConnections) leaves a socket a client opened ahead
 * of need and never used — HTTP clients' pools do that, e.g. undici while an aborted stream's socket
 * is torn down — and waits for it until the idle timeout (65 s by default). Such sockets are
 * destroyed when closing starts; one that has received part of a request is left to the headers timeout.
 */
export function closeUnusedConnectionsOnClose(app: FastifyInstance): void {
  const unused = new Set<Socket>();
  let closing = false;
  const closeIfUnused = (socket: Socket) => {
    if (unused.has(socket) && socket.bytesRead === 0) socket.destroy();
  };
  app.server.on('connection', (socket: Socket) => {
    unused.add(socket);
    socket.once('close', () => unused.delete(socket));
    // accepted while closing, before the listener stopped: nothing will be answered on it
    if (closing) setImmediate(() => closeIfUnused(socket));
  });
  app.server.on('request', (req: { socket: Socket }) => unused.delete(req.socket));
  app.addHook('preClose', async () => {
    closing = true;
    for (const socket of [...unused]) closeIfUnused(socket);
  });
}
