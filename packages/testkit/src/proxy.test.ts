import { connect, createServer } from 'node:net';
import type { Server, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTcpProxy } from './index.ts';
import type { TcpProxy } from './index.ts';

/** Connects, sends `text`, resolves with the first chunk echoed back; rejects on error or close. */
function roundTrip(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port }, () => socket.write(text));
    socket.setTimeout(2000, () => socket.destroy(new Error('timeout')));
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString());
    });
    socket.once('error', reject);
    socket.once('close', () => reject(new Error('closed without data')));
  });
}

function openSocket(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port }, () => resolve(socket));
    socket.once('error', reject);
  });
}

describe('startTcpProxy', () => {
  let echo: Server;
  let echoPort: number;
  let proxy: TcpProxy;
  beforeAll(async () => {
    echo = createServer((socket) => socket.pipe(socket));
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    echoPort = (echo.address() as { port: number }).port;
    proxy = await startTcpProxy('127.0.0.1', echoPort);
  });
  afterAll(async () => {
    await proxy?.close();
    await new Promise((resolve) => echo.close(resolve));
  });

  it('listens on its own port and forwards both ways', async () => {
    expect(proxy.host).toBe('127.0.0.1');
    expect(proxy.port).not.toBe(echoPort);
    expect(await roundTrip(proxy.port, 'hello')).toBe('hello');
  });

  it('forwards large payloads intact (backpressure)', async () => {
    const payload = Buffer.alloc(8 * 1024 * 1024, 'abcdefgh');
    const socket = await openSocket(proxy.port);
    const chunks: Buffer[] = [];
    let total = 0;
    const done = new Promise<void>((resolve) =>
      socket.on('data', (d: Buffer) => {
        chunks.push(d);
        total += d.length;
        if (total >= payload.length) resolve();
      }),
    );
    socket.write(payload);
    await done;
    socket.destroy();
    expect(Buffer.concat(chunks).equals(payload)).toBe(true);
  });

  it('pause() resets open connections and refuses new ones; resume() restores service', async () => {
    const open = await openSocket(proxy.port);
    const closed = new Promise<string>((resolve) => {
      open.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'));
      open.once('close', () => resolve('close'));
    });
    expect(await roundTrip(proxy.port, 'before')).toBe('before');

    proxy.pause();
    expect(await closed).toBe('ECONNRESET');
    await expect(roundTrip(proxy.port, 'during')).rejects.toThrow(/ECONNRESET|closed without data/);
    // the target itself is still fine
    expect(await roundTrip(echoPort, 'direct')).toBe('direct');

    proxy.resume();
    expect(await roundTrip(proxy.port, 'after')).toBe('after');
  });

  it('passes a dead target on to the client as a failed connection', async () => {
    const dead = await startTcpProxy('127.0.0.1', 1);
    try {
      await expect(roundTrip(dead.port, 'x')).rejects.toThrow(/ECONNRESET|closed without data/);
    } finally {
      await dead.close();
    }
  });

  it('close() releases the port', async () => {
    const other = await startTcpProxy('127.0.0.1', echoPort);
    expect(await roundTrip(other.port, 'x')).toBe('x');
    await other.close();
    await expect(roundTrip(other.port, 'x')).rejects.toThrow(/ECONNREFUSED/);
    await other.close(); // idempotent
  });
});
