import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { StreamChannel, StreamResult } from './route.js';

interface OpenStream {
  shutdown(): void;
}

/** After a stream ends, how long its client has to read the rest before the socket is destroyed. */
const END_GRACE_MS = 10_000;
/** The same when the server shuts down (its close waits for the socket). */
const SHUTDOWN_GRACE_MS = 500;

const registries = new WeakMap<FastifyInstance, Set<OpenStream>>();

function registryOf(app: FastifyInstance): Set<OpenStream> {
  let streams = registries.get(app);
  if (!streams) {
    streams = new Set();
    registries.set(app, streams);
  }
  return streams;
}

/** The streams an app has open, so that closing it can end them (a stream never ends by itself). */
export function openStreams(app: FastifyInstance) {
  const streams = registryOf(app);
  return {
    count: () => streams.size,
    shutdownAll(): void {
      for (const stream of [...streams]) stream.shutdown();
    },
  };
}

/**
 * Answers a request with a stream (docs/decisions/041): takes the reply over from Fastify, sends
 * the head with the headers set so far (request id, rate limits), then lets the stream write.
 * Written bytes the client has not read stay counted in bufferedBytes, so the stream can bound them.
 */
export function writeStream(app: FastifyInstance, reply: FastifyReply, result: StreamResult): FastifyReply {
  const raw = reply.raw;
  const streams = registryOf(app);
  reply.hijack();
  const head: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) head[name] = value;
  raw.writeHead(200, {
    ...head,
    ...result.stream.headers,
    'content-type': result.stream.contentType,
    'cache-control': 'no-store',
    'x-accel-buffering': 'no',
    // the connection ends with the stream: no idle keep-alive socket holds a closing server up
    connection: 'close',
  });
  // An in-process request (Fastify's inject: a tool call, a resource read) has no socket and no reader
  // until the stream ends: every byte written stays buffered, so every byte counts against the
  // stream's bound, and the stream ends as soon as its caller gives the request up (docs/decisions/072).
  const inProcess = (raw as { isLightMyRequest?: boolean }).isLightMyRequest === true;
  let writtenBytes = 0;
  let ended = false;
  const listeners: Array<() => void> = [];
  const finish = () => {
    if (ended) return;
    ended = true;
    streams.delete(open);
    for (const listener of listeners.splice(0)) listener();
  };
  raw.once('close', finish);
  const channel: StreamChannel = {
    write(chunk) {
      if (ended || raw.writableEnded) return;
      raw.write(chunk);
      if (inProcess) writtenBytes += Buffer.byteLength(chunk);
    },
    bufferedBytes: () => (inProcess ? writtenBytes : (raw.writableLength ?? 0)),
    drained() {
      if (ended || (!inProcess && (raw.writableLength ?? 0) === 0)) return Promise.resolve();
      return new Promise((resolve) => {
        const done = () => {
          raw.off('drain', done);
          raw.off('close', done);
          resolve();
        };
        raw.once('drain', done);
        raw.once('close', done);
      });
    },
    end() {
      if (!raw.writableEnded) raw.end();
      finish();
      // a client that does not take the last bytes and close keeps no socket open for long
      setTimeout(() => raw.destroy(), END_GRACE_MS).unref();
    },
    get ended() {
      return ended;
    },
    onEnd(listener) {
      if (ended) listener();
      else listeners.push(listener);
    },
  };
  const open: OpenStream = {
    shutdown() {
      if (ended) return;
      control.shutdown();
      channel.end();
      setTimeout(() => raw.destroy(), SHUTDOWN_GRACE_MS).unref();
    },
  };
  streams.add(open);
  if (inProcess) {
    // the in-process caller gave up (its AbortSignal destroyed the request): end the stream now
    const request = reply.request.raw;
    const gone = () => open.shutdown();
    request.once('close', gone);
    request.once('error', gone);
    if (request.destroyed) queueMicrotask(gone);
  }
  let control: { shutdown(): void };
  try {
    control = result.stream.start(channel);
  } catch {
    // the head is sent: an error can no longer be answered, only the stream ended
    control = { shutdown() {} };
    channel.end();
  }
  return reply;
}
