/**
 * The body limit: 1 MB everywhere but on a route that takes a file (a chat attachment, 5 MB), whose bodies may be a
 * little over the file's limit so that the service checks the file; a body over even that is refused here, with the
 * service's words. And no body is read before the caller is known and within their quota: a visitor cannot make the
 * gateway hold 5 MB.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { ErrorBody, MULTIPART_OVERHEAD_BYTES, Routes } from '@puente/contracts';
import { buildTestGateway, login, OWN_ORIGIN, sessionCookieOf, startFakeService, type FakeUpstream } from './test-helpers.ts';

const MB = 1024 * 1024;

describe('gateway body limits', () => {
  let identity: FakeUpstream;
  let exchange: FastifyInstance;
  let gateway: FastifyInstance;
  let cookie: string;
  /** The bodies the exchange service received: their size. */
  const received: number[] = [];

  beforeAll(async () => {
    identity = await startFakeService('identity');
    // An exchange service that takes any body up to 10 MB and says how long it was.
    exchange = Fastify({ bodyLimit: 10 * MB });
    exchange.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    exchange.all('/*', async (request) => {
      received.push((request.body as Buffer | undefined)?.length ?? 0);
      return { bytes: received.at(-1) };
    });
    await exchange.listen({ host: '127.0.0.1', port: 0 });
    const { port } = exchange.server.address() as { port: number };
    gateway = await buildTestGateway({ serviceUrls: { identity: identity.url, exchange: `http://127.0.0.1:${port}` } });
    cookie = sessionCookieOf(await login(gateway, 'ana@example.com'))!;
    await gateway.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await gateway?.close();
    await exchange?.close();
    await identity?.close();
  });

  const post = (url: string, bytes: number) => gateway.inject({
    method: 'POST', url, payload: Buffer.alloc(bytes, 0x61),
    headers: { cookie, origin: OWN_ORIGIN, 'content-type': 'multipart/form-data; boundary=x' },
  });
  const upload = '/api/exchange-matches/7/attachments';

  /**
   * An upload over a real connection that announces 5 MB, sends 64 KiB of it and never finishes: its answer, if one
   * comes within `waitMs` (the gateway could only answer it without reading the body), or null.
   */
  async function unfinishedUpload(path: string, session: string | undefined, waitMs = 5_000) {
    const port = (gateway.server.address() as { port: number }).port;
    const req = httpRequest({
      host: '127.0.0.1', port, method: 'POST', path,
      headers: {
        origin: `http://127.0.0.1:${port}`, 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(5 * MB),
        ...(session ? { cookie: session } : {}),
      },
    });
    req.on('error', () => {}); // destroyed below, mid-body
    req.write(Buffer.alloc(64 * 1024, 0x61));
    try {
      return await new Promise<{ status: number; retryAfter: unknown; body: unknown } | null>((resolve) => {
        const timer = setTimeout(() => resolve(null), waitMs);
        req.on('response', (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            clearTimeout(timer);
            resolve({ status: res.statusCode!, retryAfter: res.headers['retry-after'], body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
          });
        });
      });
    } finally {
      req.destroy();
    }
  }

  it('answers a visitor\'s upload 401 without reading its body: one that never finishes still gets its answer', async () => {
    const before = received.length;
    const refused = await unfinishedUpload(upload, undefined);
    expect(refused?.status).toBe(401);
    expect(ErrorBody.parse(refused?.body)).toEqual({ message: 'Authentication required', code: 'unauthorized' });
    // A forged or ended session is no session either.
    expect((await unfinishedUpload(upload, 'puente_session=forged'))?.status).toBe(401);
    // Signed in, the same upload is waited for (its body is read before it goes on): no answer while it is unfinished.
    expect(await unfinishedUpload(upload, cookie, 500)).toBeNull();
    expect(received.length).toBe(before);
  });

  it('refuses an upload past the attachment quota with 429 before reading its body', async () => {
    const quota = '/api/exchange-matches/8/attachments';
    for (let i = 0; i < 20; i++) expect((await post(quota, 1024)).statusCode).toBe(200);
    const refused = await unfinishedUpload(quota, cookie);
    expect(refused?.status).toBe(429);
    expect(Number(refused?.retryAfter)).toBeGreaterThan(23 * 3600);
    expect(ErrorBody.parse(refused?.body)).toEqual({ message: 'Too many files attached to this chat. Please try again in 24 hours.', code: 'rate_limited' });
  });

  it('lets a file\'s body through on the attachment route: up to 5 MB and the form\'s overhead', async () => {
    const limit = Routes.exchange.postChatAttachment.multipart.maxBytes + MULTIPART_OVERHEAD_BYTES;
    expect(limit).toBe(5 * MB + 64 * 1024);
    for (const bytes of [2 * MB, 5 * MB + 1, limit]) {
      const res = await post(upload, bytes);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ bytes });
    }
  });

  it('refuses a body over that with the service\'s words, before it reaches the service', async () => {
    const before = received.length;
    const res = await post(upload, 6 * MB);
    expect(res.statusCode).toBe(413);
    expect(ErrorBody.parse(res.json())).toEqual({ message: 'The file must be at most 5 MB', code: 'file_too_large' });
    expect(received.length).toBe(before);
  });

  it('keeps 1 MB on every other route, the chat\'s text messages included', async () => {
    const before = received.length;
    const res = await post('/api/exchange-matches/7/messages', 2 * MB);
    expect(res.statusCode).toBe(413);
    expect(ErrorBody.parse(res.json())).toEqual({ message: 'Request body is too large (limit 1 MB)', code: 'FST_ERR_CTP_BODY_TOO_LARGE' });
    expect((await post('/api/exchange-matches/7/messages', MB)).statusCode).toBe(200);
    expect(received.length).toBe(before + 1);
  });
});
