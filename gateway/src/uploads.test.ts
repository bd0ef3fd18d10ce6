/**
 * The body limit: 1 MB everywhere but on a route that takes a file (a chat attachment, 5 MB), whose bodies may be a
 * little over the file's limit so that the service checks the file; a body over even that is refused here, with the
 * service's words.
 */
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
