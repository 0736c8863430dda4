// A server-sent events reader for tests, following the HTML Living Standard's parsing rules
// (fields id, event, data, retry; comments start with a colon; an event ends at a blank line).

export interface SseEvent {
  id: string;
  event: string;
  data: string;
}

export interface SseParse {
  events: SseEvent[];
  comments: string[];
  retry: number | null;
  lastEventId: string;
}

/** Parses a whole stream text (what an ended stream answered). */
export function parseSse(text: string): SseParse {
  const parser = sseParser();
  parser.push(text);
  return parser.state;
}

export function sseParser() {
  const state: SseParse = { events: [], comments: [], retry: null, lastEventId: '' };
  let buffer = '';
  let data: string[] = [];
  let event = '';
  const listeners: Array<() => void> = [];
  return {
    state,
    onChange(listener: () => void) {
      listeners.push(listener);
    },
    push(chunk: string) {
      buffer += chunk;
      let newline: number;
      while ((newline = buffer.search(/\r\n|\r|\n/)) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + (buffer.startsWith('\r\n', newline) ? 2 : 1));
        if (line === '') {
          if (data.length > 0) state.events.push({ id: state.lastEventId, event: event || 'message', data: data.join('\n') });
          data = [];
          event = '';
          continue;
        }
        if (line.startsWith(':')) {
          state.comments.push(line.slice(1).trim());
          continue;
        }
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        let value = colon < 0 ? '' : line.slice(colon + 1);
        if (value.startsWith(' ')) value = value.slice(1);
        if (field === 'data') data.push(value);
        else if (field === 'event') event = value;
        else if (field === 'id' && !value.includes('\0')) state.lastEventId = value;
        else if (field === 'retry' && /^\d+$/.test(value)) state.retry = Number(value);
      }
      for (const listener of listeners) listener();
    },
  };
}

export interface SseConnection {
  status: number;
  headers: Headers;
  state: SseParse;
  /** Resolves when `predicate` holds on the parsed state (checked on every chunk), or rejects after timeoutMs. */
  until(predicate: (s: SseParse) => boolean, timeoutMs?: number): Promise<SseParse>;
  /** Resolves when the server ended the stream. */
  ended: Promise<void>;
  close(): void;
}

/** Opens a stream over a real socket with fetch and reads it as it arrives. */
export async function openSse(url: string, headers: Record<string, string>): Promise<SseConnection> {
  const controller = new AbortController();
  const res = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: controller.signal });
  const parser = sseParser();
  let endedResolve!: () => void;
  const ended = new Promise<void>((resolve) => (endedResolve = resolve));
  let done = false;
  if (res.body) {
    void (async () => {
      const decoder = new TextDecoder();
      try {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) parser.push(decoder.decode(chunk, { stream: true }));
      } catch {
        // aborted by close()
      }
      done = true;
      parser.push('');
      endedResolve();
    })();
  } else endedResolve();
  return {
    status: res.status,
    headers: res.headers,
    state: parser.state,
    ended,
    until(predicate, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        if (predicate(parser.state)) return resolve(parser.state);
        const timer = setTimeout(() => reject(new Error(`stream condition not met in ${timeoutMs} ms; state: ${JSON.stringify(parser.state).slice(0, 600)}`)), timeoutMs);
        parser.onChange(() => {
          if (predicate(parser.state)) {
            clearTimeout(timer);
            resolve(parser.state);
          } else if (done) {
            clearTimeout(timer);
            reject(new Error(`stream ended before the condition held; state: ${JSON.stringify(parser.state).slice(0, 600)}`));
          }
        });
      });
    },
    close() {
      controller.abort();
    },
  };
}
