import { connect, createServer } from 'node:net';
import type { Socket } from 'node:net';
import type { TcpProxy } from './types.ts';

/**
 * Optional per-connection byte filter (used by the Kafka proxy to rewrite broker addresses). Each function gets
 * the bytes read from one side and returns the bytes to write to the other (possibly empty while it buffers).
 */
export interface ConnectionFilter {
  toTarget(data: Buffer): Buffer;
  toClient(data: Buffer): Buffer;
}

export interface TcpProxyOptions {
  /** interface to listen on (default 127.0.0.1) */
  host?: string;
  /** port to listen on (default: a free one) */
  port?: number;
  /** called once per accepted connection */
  filter?: () => ConnectionFilter;
}

interface Connection {
  client: Socket;
  target: Socket;
}

function reset(socket: Socket): void {
  try {
    socket.resetAndDestroy(); // RST: the peer sees ECONNRESET at once, like a crashed server
  } catch {
    socket.destroy();
  }
}

/** Copies a → b through `transform`, with backpressure. */
function pump(a: Socket, b: Socket, transform: (data: Buffer) => Buffer): void {
  a.on('data', (data: Buffer) => {
    const out = transform(data);
    if (out.length > 0 && !b.write(out)) a.pause();
  });
  b.on('drain', () => a.resume());
  a.on('end', () => b.end());
}

/**
 * A TCP proxy on 127.0.0.1:<free port> forwarding to targetHost:targetPort.
 *
 * pause(): every open connection is reset (RST) and every new connection is accepted and reset immediately, so
 * clients fail fast (ECONNRESET / "connection closed") instead of hanging until a timeout. The listening port stays
 * reserved, so resume() is synchronous and instant. The listener does not keep the event loop alive.
 */
export function startTcpProxy(targetHost: string, targetPort: number, options: TcpProxyOptions = {}): Promise<TcpProxy> {
  const connections = new Set<Connection>();
  let paused = false;
  let closed = false;

  const server = createServer((client) => {
    if (paused || closed) {
      reset(client);
      return;
    }
    const target = connect({ host: targetHost, port: targetPort });
    client.setNoDelay(true);
    target.setNoDelay(true);
    const conn: Connection = { client, target };
    connections.add(conn);
    const filter = options.filter?.();
    const identity = (data: Buffer): Buffer => data;
    pump(client, target, filter ? (data) => filter.toTarget(data) : identity);
    pump(target, client, filter ? (data) => filter.toClient(data) : identity);
    // The target failing (refused, reset) is passed on to the client as a reset; the client going away closes the
    // target connection.
    target.on('error', () => reset(client));
    client.on('error', () => target.destroy());
    const forget = (): void => {
      if (client.destroyed && target.destroyed) connections.delete(conn);
    };
    client.on('close', () => {
      target.destroy();
      forget();
    });
    target.on('close', () => {
      if (!client.destroyed) client.end();
      forget();
    });
  });

  const dropAll = (): void => {
    for (const { client, target } of connections) {
      reset(client);
      target.destroy();
    }
    connections.clear();
  };

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      server.unref();
      const address = server.address();
      if (!address || typeof address === 'string') {
        reject(new Error('proxy has no TCP address'));
        return;
      }
      resolve({
        host: address.address,
        port: address.port,
        pause() {
          paused = true;
          dropAll();
        },
        resume() {
          paused = false;
        },
        close() {
          if (closed) return Promise.resolve();
          closed = true;
          dropAll();
          return new Promise<void>((done) => server.close(() => done()));
        },
      });
    });
  });
}
