/**
 * The HTTP factory's input handling: every JSON body must be an object (a `null` body once reached handlers and
 * answered 500 'Cannot read properties of null') while Fastify's parsing and its refusals stay as they were, and
 * what the router refuses gets the api-conventions error body.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { ErrorBody } from '@puente/contracts';
import { createLogger } from '../logger.ts';
import { BODY_NOT_OBJECT_MESSAGE, GENERIC_5XX_MESSAGE, OUTAGE_MESSAGE, createHttpApp } from './app.ts';

describe('createHttpApp: JSON bodies', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = createHttpApp({ logger: createLogger({ name: 'test', level: 'silent' }) });
    // Like the services' handlers: reads a field of the body without checking it is an object first.
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      app.route({ method, url: '/things', handler: async (request) => ({ name: (request.body as { name?: unknown }).name ?? null }) });
    }
    await app.ready();
  });
  afterAll(async () => { await app.close(); });

  const send = (payload: string, opts: { method?: 'POST' | 'PUT' | 'PATCH' | 'DELETE'; contentType?: string } = {}) =>
    app.inject({ method: opts.method ?? 'POST', url: '/things', headers: { 'content-type': opts.contentType ?? 'application/json' }, payload });

  it('answers 400 to a JSON body that is null, an array or a scalar, on every method', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      for (const payload of ['null', '[]', '[{"name":"a"}]', '7', '-1.5e3', '"text"', 'true', 'false', ' null ']) {
        const res = await send(payload, { method });
        expect({ method, payload, status: res.statusCode }).toEqual({ method, payload, status: 400 });
        expect(ErrorBody.parse(res.json())).toEqual({ message: BODY_NOT_OBJECT_MESSAGE, code: 'bad_request' });
      }
    }
  });

  it('checks JSON sent with a charset the same way', async () => {
    const res = await send('null', { contentType: 'application/json; charset=utf-8' });
    expect(res.statusCode).toBe(400);
    expect(ErrorBody.parse(res.json())).toEqual({ message: BODY_NOT_OBJECT_MESSAGE, code: 'bad_request' });
  });

  it('passes objects through, parsed', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      const res = await send('{"name":"Ana","tags":[1,null]}', { method });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ name: 'Ana' });
    }
    expect((await send('{}')).json()).toEqual({ name: null });
  });

  it('still refuses malformed, empty and prototype-poisoning JSON as malformed', async () => {
    for (const payload of ['{', '{"a":1,}', 'nul', '{"__proto__":{"admin":true}}', '{"constructor":{"prototype":{"admin":true}}}']) {
      const res = await send(payload);
      expect({ payload, status: res.statusCode }).toEqual({ payload, status: 400 });
      expect(ErrorBody.parse(res.json()).message).toBe('Malformed JSON body');
    }
    const empty = await send('');
    expect(empty.statusCode).toBe(400);
    expect(ErrorBody.parse(empty.json()).code).toMatch(/^FST_ERR_CTP/);
  });

  it('keeps the body limit and the unsupported media type answers', async () => {
    const big = await send(JSON.stringify({ name: 'x'.repeat(1024 * 1024) }));
    expect(big.statusCode).toBe(413);
    expect(ErrorBody.parse(big.json())).toEqual({ message: 'Request body is too large (limit 1 MB)', code: 'FST_ERR_CTP_BODY_TOO_LARGE' });
    const xml = await send('<a/>', { contentType: 'application/xml' });
    expect(xml.statusCode).toBe(415);
    expect(ErrorBody.parse(xml.json())).toEqual({ message: 'Unsupported content type; send JSON', code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE' });
  });
});

describe('createHttpApp: what the router refuses', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = createHttpApp({ logger: createLogger({ name: 'test', level: 'silent' }) });
    app.get('/things/:id', async (request) => request.params);
    await app.ready();
  });
  afterAll(async () => { await app.close(); });

  it('answers a malformed percent-encoding (a lone surrogate as UTF-8 bytes) with the api-conventions body', async () => {
    for (const url of ['/things/%ED%A0%80', '/things/%E0%A4%A', '/things/%FF']) {
      const res = await app.inject({ method: 'GET', url });
      expect({ url, status: res.statusCode, body: ErrorBody.parse(res.json()) }).toEqual({ url, status: 400, body: { message: 'Malformed URL', code: 'FST_ERR_BAD_URL' } });
      expect(res.headers['x-request-id']).toBeTruthy();
    }
    expect((await app.inject({ method: 'GET', url: '/things/%C3%A9' })).json()).toEqual({ id: 'é' });
  });

  it('answers a path parameter over 100 characters with the api-conventions body', async () => {
    const res = await app.inject({ method: 'GET', url: `/things/${'x'.repeat(101)}` });
    expect(res.statusCode).toBe(414);
    expect(ErrorBody.parse(res.json())).toEqual({ message: 'A part of the URL is too long', code: 'FST_ERR_MAX_PARAM_LENGTH' });
  });
});

describe('createHttpApp: a failed request', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = createHttpApp({ logger: createLogger({ name: 'test', level: 'silent' }) });
    // As node-postgres fails a query while the database restarts, and as a bug fails.
    app.get('/database-down', async () => { throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }); });
    app.get('/database-shutting-down', async () => { throw Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }); });
    app.get('/bug', async () => { throw new TypeError("Cannot read properties of undefined (reading 'id')"); });
    await app.ready();
  });
  afterAll(async () => { await app.close(); });

  it('answers 503 service_unavailable, not 500, when the database cannot be reached: the caller may try again', async () => {
    for (const url of ['/database-down', '/database-shutting-down']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(503);
      expect(ErrorBody.parse(res.json())).toEqual({ message: OUTAGE_MESSAGE, code: 'service_unavailable' });
    }
  });

  it('answers 500 internal to any other failure, without its details', async () => {
    const res = await app.inject({ method: 'GET', url: '/bug' });
    expect(res.statusCode).toBe(500);
    expect(ErrorBody.parse(res.json())).toEqual({ message: GENERIC_5XX_MESSAGE, code: 'internal' });
  });
});
