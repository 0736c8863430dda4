import { connect, createServer, type Server, type Socket } from 'node:net';
import { once } from 'node:events';

/**
 * A TCP proxy in front of a real service (PostgreSQL, Redis) that a test can cut and restore, to
 * produce an outage without touching the shared server. While cut, open connections are destroyed
 * and new ones are closed at once; the listening port stays the same.
 */
export interface TcpProxy {
  port: number;
  /** Destroys every proxied connection and refuses new ones until restore(). */
  cut(): Promise<void>;
  restore(): void;
  /** Keeps every connection open but stops carrying bytes either way (a hung server) until resume(). */
  stall(): void;
  resume(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const pairs = new Set<Socket>();
  const links = new Set<{ client: Socket; upstream: Socket }>();
  let down = false;
  let stalled = false;
  const carry = ({ client, upstream }: { client: Socket; upstream: Socket }) => {
    client.pipe(upstream);
    upstream.pipe(client);
  };
  const server: Server = createServer((client) => {
    if (down) {
      client.destroy();
      return;
    }
    const upstream = connect(target.port, target.host);
    pairs.add(client).add(upstream);
    const link = { client, upstream };
    links.add(link);
    const end = () => {
      client.destroy();
      upstream.destroy();
      pairs.delete(client);
      pairs.delete(upstream);
      links.delete(link);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    if (!stalled) carry(link);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as { port: number }).port;
  return {
    port,
    async cut() {
      down = true;
      const closing = [...pairs].filter((s) => !s.destroyed).map((s) => once(s, 'close'));
      for (const s of pairs) s.destroy();
      await Promise.all(closing);
    },
    restore() {
      down = false;
    },
    stall() {
      stalled = true;
      for (const { client, upstream } of links) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }
    },
    resume() {
      stalled = false;
      for (const link of links) carry(link);
    },
    async close() {
      down = true;
      for (const s of pairs) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The URL with its host and port replaced by the proxy's. */
export function viaProxy(url: string, proxy: TcpProxy): string {
  const u = new URL(url);
  u.hostname = '127.0.0.1';
  u.port = String(proxy.port);
  return u.toString();
}

export function hostPortOf(url: string, defaultPort: number): { host: string; port: number } {
  const u = new URL(url);
  return { host: u.hostname, port: u.port ? Number(u.port) : defaultPort };
}
