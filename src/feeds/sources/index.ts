import type { Clock } from '../../platform/clock.js';
import { demoFeedFactory, type DemoFeedDeps } from '../demo.js';
import { FeedSpecError, type FeedSpec } from '../../platform/feed-spec.js';
import type { FeedSource } from '../../ais/line-source.js';
import { StreamSource, type Sleeper } from './stream.js';
import { TcpClientSource } from './tcp-client.js';
import { TcpServerSource } from './tcp-server.js';
import { UdpSource } from './udp.js';

export interface SourceDeps {
  clock: Clock;
  stdin?: NodeJS.ReadableStream;
  sleeper?: Sleeper;
  /** Told of each reconnect a network client source schedules (bosun serve logs it). */
  onRetry?: (source: string, retry: { error: string; delayMs: number; failedAttempts: number }) => void;
  /** Needed only by the demo feed. */
  demo?: Omit<DemoFeedDeps, 'clock' | 'name'>;
}

/** Builds the source a spec describes (nothing is opened until `start`). */
export function createSource(spec: FeedSpec, deps: SourceDeps): FeedSource {
  switch (spec.kind) {
    case 'tcp-client':
      return new TcpClientSource(spec.name, deps.clock, { host: spec.host, port: spec.port, ...(deps.onRetry ? { onRetry: (retry) => deps.onRetry!(spec.name, retry) } : {}) });
    case 'tcp-server':
      return new TcpServerSource(spec.name, deps.clock, spec.host, spec.port);
    case 'udp':
      return new UdpSource(spec.name, deps.clock, spec.host, spec.port);
    case 'file':
      return StreamSource.file(spec.name, spec.path, deps.clock, { pace: spec.pace, ...(deps.sleeper ? { sleeper: deps.sleeper } : {}) });
    case 'stdin':
      return StreamSource.stream(spec.name, 'stdin', deps.stdin ?? process.stdin, deps.clock);
    case 'demo':
      if (!deps.demo) throw new FeedSpecError('invalid feed "demo": the demo fleet runs only inside bosun serve');
      return demoFeedFactory({ ...deps.demo, clock: deps.clock, name: spec.name });
  }
}
