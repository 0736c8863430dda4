import { AppError } from '../../../platform/errors.js';
import type { ExchangeMember } from '../gate/exchange-gate.js';
import { MESSAGE_LIMITS, viewOf } from './message-rules.js';
import type { EventSink, StreamHub } from './stream-hub.js';
import type { LeaseSlots } from '../../../limits/slots.js';

/** A stream's slot lease lapses this long after its last renewal (a dead process's streams stop counting). */
const LEASE_MS = 60_000;
const RENEW_EVERY_MS = 20_000;
const LAST_EVENT_ID = /^\d{1,16}$/;

export interface StreamQuery {
  kind?: 'all' | 'channel' | 'direct';
  channel?: string;
  with?: string;
  last_event_id?: string;
  follow?: boolean;
  heartbeat_seconds?: number;
}

/**
 * The exchange's server-sent events (GET /v1/exchange/messages/stream): checks the request, takes
 * one of the agent's stream slots and hands back the function that runs the stream on a sink.
 */
export function createMessageStreams(deps: { hub: StreamHub; slots: LeaseSlots; checkChannels(names: readonly string[]): Promise<void> }) {
  const { hub, slots } = deps;
  return {
    async prepare(member: ExchangeMember, q: StreamQuery, lastEventIdHeader: string | string[] | undefined): Promise<{ start(sink: EventSink): { close(): void; shutdown(): void } }> {
      const view = viewOf(member.agentId, q);
      if (view.channels?.only) await deps.checkChannels(view.channels.only);
      // the header (sent by a reconnecting EventSource) wins over the query (the first connection's URL)
      const header = Array.isArray(lastEventIdHeader) ? lastEventIdHeader[0] : lastEventIdHeader;
      const given =
        header !== undefined && header !== '' ? { text: header.trim(), field: 'header.last-event-id' } : q.last_event_id !== undefined ? { text: q.last_event_id, field: 'last_event_id' } : null;
      if (given && !LAST_EVENT_ID.test(given.text)) throw new AppError('invalid_request', 'Last-Event-ID must be an event id this stream sent (digits)', { field: given.field });
      const after = given ? Number(given.text) : null;
      const lease = await slots.acquire(member.agentId, MESSAGE_LIMITS.streamsPerAgent, LEASE_MS);
      if (lease === null) {
        throw new AppError('exchange_stream_limit', `at most ${MESSAGE_LIMITS.streamsPerAgent} open message streams per agent; close one first`, { headers: { 'retry-after': '5' } });
      }
      return {
        start(sink) {
          const renew = setInterval(() => void slots.renew(member.agentId, lease, LEASE_MS), RENEW_EVERY_MS);
          renew.unref();
          const onClosed = () => {
            clearInterval(renew);
            void slots.release(member.agentId, lease);
          };
          const stream = hub.open(sink, { view, after, follow: q.follow ?? true, heartbeatMs: (q.heartbeat_seconds ?? 15) * 1000, onClosed });
          return { close: () => stream.close(null), shutdown: () => stream.close('shutdown') };
        },
      };
    },
  };
}

export type MessageStreams = ReturnType<typeof createMessageStreams>;
