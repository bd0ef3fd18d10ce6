import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { ErrorBody } from '@puente/contracts';
import { defaultRateLimits, parseLimit } from './rate-limits.ts';
import { gatewayOptionsFrom, gatewaySettings } from './settings.ts';
import { buildTestGateway, login, OWN_ORIGIN, sessionCookieOf, startFakeService, type FakeUpstream } from './test-helpers.ts';

describe('gateway security', () => {
  let identity: FakeUpstream;
  let accounts: FakeUpstream;
  let subscription: FakeUpstream;
  let gateway: FastifyInstance;
  /** A signed-in user's cookie: the accounts routes are for users. */
  let user: string;

  beforeAll(async () => {
    [identity, accounts, subscription] = await Promise.all([startFakeService('identity'), startFakeService('accounts'), startFakeService('subscription')]);
    gateway = await buildTestGateway({
      serviceUrls: { identity: identity.url, accounts: accounts.url, subscription: subscription.url },
      allowedOrigins: ['https://app.puente.example'],
      rateLimits: {
        loginFailuresPerAccountAndIp: { max: 2, windowMs: 60_000 },
        loginFailuresPerIp: { max: 4, windowMs: 60_000 },
        signupsPerIp: { max: 2, windowMs: 120_000 },
        referralChecksPerIp: { max: 3, windowMs: 600_000 },
      },
    });
    user = sessionCookieOf(await login(gateway, 'ana@example.com'))!;
  });
  afterAll(async () => {
    await gateway?.close();
    await Promise.all([identity, accounts, subscription].map((u) => u?.close()));
  });

  describe('cross-site requests', () => {
    const send = (method: 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'GET', url: string, headers: Record<string, string>) =>
      gateway.inject({ method, url, headers: { 'content-type': 'application/json', cookie: user, ...headers }, ...(method === 'GET' ? {} : { payload: '{}' }) });

    it('refuses a state-changing request with no Origin or Referer, or from another site', async () => {
      const before = accounts.seen.length;
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
        const res = await send(method, '/api/bank-accounts/1', {});
        expect({ method, status: res.statusCode, body: res.json() }).toEqual({
          method, status: 403, body: { message: 'Cross-site request refused: this request did not come from the Puente app.', code: 'csrf' },
        });
      }
      const foreign: Record<string, string>[] = [{ origin: 'https://evil.example' }, { origin: 'null' }, { referer: 'https://evil.example/page' }, { origin: 'http://localhost:8080' }];
      for (const headers of foreign) {
        expect((await send('POST', '/api/bank-accounts', headers)).statusCode).toBe(403);
      }
      // A foreign Origin is not saved by a same-origin Referer.
      expect((await send('POST', '/api/bank-accounts', { origin: 'https://evil.example', referer: `${OWN_ORIGIN}/` })).statusCode).toBe(403);
      expect(accounts.seen.length).toBe(before);
      expect((await send('POST', '/api/auth/logout', {})).statusCode).toBe(403);
    });

    it('accepts the app\'s own origin, a same-origin Referer, and origins in ALLOWED_ORIGINS', async () => {
      expect((await send('POST', '/api/bank-accounts', { origin: OWN_ORIGIN })).statusCode).toBe(200);
      expect((await send('PUT', '/api/bank-accounts/1', { referer: `${OWN_ORIGIN}/bank-accounts?x=1` })).statusCode).toBe(200);
      expect((await send('DELETE', '/api/bank-accounts/1', { origin: 'https://app.puente.example' })).statusCode).toBe(200);
      expect((await send('POST', '/api/bank-accounts', { host: 'puente.example:8080', origin: 'http://puente.example:8080' })).statusCode).toBe(200);
    });

    it('lets reads through, and Stripe\'s signed webhook without an Origin', async () => {
      expect((await send('GET', '/api/bank-accounts', {})).statusCode).toBe(200);
      // No Origin, no session: Stripe's call reaches the subscription service, which checks its signature.
      const before = subscription.seen.length;
      const hook = await gateway.inject({
        method: 'POST', url: '/api/webhooks/stripe', headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=abc' }, payload: '{"id":"evt_1"}',
      });
      expect(hook.statusCode).toBe(200);
      expect(subscription.seen.slice(before).map((s) => [s.method, s.url, s.headers['stripe-signature']])).toEqual([['POST', '/webhooks/stripe', 't=1,v1=abc']]);
      // No other route is exempt: the subscription actions still need the app's Origin.
      expect((await send('POST', '/api/create-subscription', {})).statusCode).toBe(403);
    });
  });

  describe('rate limits', () => {
    it('refuses logins after too many failures for one account, with Retry-After and a clear message', async () => {
      expect((await login(gateway, 'ana@example.com', 'wrong')).statusCode).toBe(401);
      expect((await login(gateway, 'ANA@example.com ', 'wrong')).statusCode).toBe(401);
      const before = identity.seen.length;
      const refused = await login(gateway, 'ana@example.com'); // even the right password, until the window ends
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBe('60');
      expect(ErrorBody.parse(refused.json())).toEqual({ message: 'Too many failed login attempts for this account. Please try again in 1 minute.', code: 'rate_limited' });
      expect(identity.seen.length).toBe(before); // never reached identity
      // Another account from the same IP may still log in.
      expect((await login(gateway, 'ben@example.com')).statusCode).toBe(200);
    });

    it('counts 403 (unverified) as a failure and refuses every login from an IP after too many failures', async () => {
      expect((await login(gateway, 'unverified@example.com')).statusCode).toBe(403);
      expect((await login(gateway, 'someone@example.com', 'x')).statusCode).toBe(401); // 4th failure from this IP
      const refused = await login(gateway, 'ben@example.com');
      expect(refused.statusCode).toBe(429);
      expect(ErrorBody.parse(refused.json())).toEqual({ message: 'Too many failed login attempts. Please try again in 1 minute.', code: 'rate_limited' });
      // Only 127.0.0.1 is limited.
      const elsewhere = await gateway.inject({
        method: 'POST', url: '/api/auth/login', remoteAddress: '10.0.0.9',
        headers: { origin: OWN_ORIGIN, 'content-type': 'application/json' }, payload: { email: 'ben@example.com', password: 'correct horse' },
      });
      expect(elsewhere.statusCode).toBe(200);
    });

    it('limits sign-ups per IP', async () => {
      const signup = () => gateway.inject({ method: 'POST', url: '/api/signup/request', remoteAddress: '10.0.0.1', headers: { origin: OWN_ORIGIN, 'content-type': 'application/json' }, payload: {} });
      expect((await signup()).statusCode).toBe(200);
      expect((await signup()).statusCode).toBe(200);
      const refused = await signup();
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBe('120');
      expect(ErrorBody.parse(refused.json())).toEqual({ message: 'Too many sign-up attempts. Please try again in 2 minutes.', code: 'rate_limited' });
    });

    it('limits referral checks per IP, however the path is spelled', async () => {
      const check = (path: string) => gateway.inject({ method: 'GET', url: path, remoteAddress: '10.0.0.2' });
      expect((await check('/api/auth/verify-referral/ABC')).statusCode).toBe(200);
      expect((await check('/api/auth/verify-referral/DEF/')).statusCode).toBe(200);
      expect((await check('/api/auth/verify-%72eferral/GHI')).statusCode).toBe(200);
      const refused = await check('/api/auth/verify-referral/JKL');
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBe('600');
      expect(ErrorBody.parse(refused.json())).toEqual({ message: 'Too many referral code checks. Please try again in 10 minutes.', code: 'rate_limited' });
      expect((await gateway.inject({ method: 'GET', url: '/api/auth/verify-referral/ABC', remoteAddress: '10.0.0.3' })).statusCode).toBe(200);
    });

    it('reads limits written as max/window', () => {
      expect(parseLimit('5/15m')).toEqual({ max: 5, windowMs: 900_000 });
      expect(parseLimit('10/1h')).toEqual({ max: 10, windowMs: 3_600_000 });
      expect(parseLimit(' 3 / 30s ')).toEqual({ max: 3, windowMs: 30_000 });
      expect(() => parseLimit('5 per minute')).toThrow(/5\/15m/);
      const options = gatewayOptionsFrom(gatewaySettings.parse({ RATE_LIMIT_SIGNUP_IP: '3/2h', ALLOWED_ORIGINS: 'https://a.example, https://b.example' }));
      expect(options).toMatchObject({ rateLimits: { signupsPerIp: { max: 3, windowMs: 7_200_000 } }, allowedOrigins: ['https://a.example', 'https://b.example'], sessionTtlHours: 168, trustProxy: false });
      expect(gatewaySettings.safeParse({ RATE_LIMIT_LOGIN_IP: 'lots' }).success).toBe(false);
      const quotas = gatewayOptionsFrom(gatewaySettings.parse({
        RATE_LIMIT_CHAT_MESSAGE_USER: '10/30s', RATE_LIMIT_CHAT_ATTACHMENT_MATCH_USER: '5/12h', RATE_LIMIT_DISPUTE_USER: '2/24h', RATE_LIMIT_SUPPORT_REQUEST_USER: '',
      })).rateLimits;
      expect(quotas).toEqual({
        chatMessagesPerUser: { max: 10, windowMs: 30_000 }, chatAttachmentsPerMatchAndUser: { max: 5, windowMs: 43_200_000 },
        disputesPerUser: { max: 2, windowMs: 86_400_000 },
      });
      expect(defaultRateLimits).toMatchObject({
        chatMessagesPerUser: { max: 30, windowMs: 60_000 }, chatAttachmentsPerMatchAndUser: { max: 20, windowMs: 86_400_000 },
        disputesPerUser: { max: 5, windowMs: 86_400_000 }, supportRequestsPerUser: { max: 5, windowMs: 86_400_000 },
      });
    });
  });

  describe('bodies and headers', () => {
    it('answers 413 for a JSON body over 1 MB, before it reaches a service', async () => {
      const before = accounts.seen.length;
      const big = JSON.stringify({ bankName: 'x'.repeat(1024 * 1024) });
      const res = await gateway.inject({ method: 'POST', url: '/api/bank-accounts', headers: { origin: OWN_ORIGIN, cookie: user, 'content-type': 'application/json' }, payload: big });
      expect(res.statusCode).toBe(413);
      expect(ErrorBody.parse(res.json())).toEqual({ message: 'Request body is too large (limit 1 MB)', code: 'FST_ERR_CTP_BODY_TOO_LARGE' });
      expect(accounts.seen.length).toBe(before);
    });

    it('forwards a body byte for byte (Stripe signs the raw bytes)', async () => {
      const raw = '{ "id":"evt_1",\n  "type": "invoice.paid" }';
      const res = await gateway.inject({ method: 'POST', url: '/api/bank-accounts', headers: { origin: OWN_ORIGIN, cookie: user, 'content-type': 'application/json; charset=utf-8' }, payload: raw });
      expect(res.json()).toMatchObject({ body: raw });
      const text = await gateway.inject({ method: 'POST', url: '/api/bank-accounts', headers: { origin: OWN_ORIGIN, cookie: user, 'content-type': 'text/plain' }, payload: 'plain words' });
      expect(text.json()).toMatchObject({ body: 'plain words' });
      const none = await gateway.inject({ method: 'DELETE', url: '/api/bank-accounts/1', headers: { origin: OWN_ORIGIN, cookie: user } });
      expect(none.statusCode).toBe(200);
    });

    it('sets the API\'s security headers on its own and on proxied answers, and returns the request id', async () => {
      for (const url of ['/api/health', '/api/bank-accounts']) {
        const res = await gateway.inject({ method: 'GET', url, headers: { cookie: user, 'x-request-id': 'req-42' } });
        expect(res.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        expect(res.headers['x-frame-options']).toBe('DENY');
        expect(res.headers['referrer-policy']).toBe('no-referrer');
        expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
        expect(res.headers['strict-transport-security']).toBeUndefined(); // plain HTTP
        expect(res.headers['x-request-id']).toBe('req-42');
      }
      expect(accounts.seen.at(-1)!.headers['x-request-id']).toBe('req-42');
    });

    it('gives documents a CSP fit for the app and Stripe.js, never framed; HSTS only over HTTPS', async () => {
      const docs = await gateway.inject({ method: 'GET', url: '/api/docs/openapi.json' });
      const csp = String(docs.headers['content-security-policy']);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain('script-src \'self\' https://js.stripe.com');
      expect(csp).toContain("frame-ancestors 'none'");
      expect(docs.headers['x-frame-options']).toBe('DENY');
      expect(docs.headers['strict-transport-security']).toBeUndefined();
      // The proxy in front is 127.0.0.1 (TRUST_PROXY=127.0.0.1), where inject's connections come from.
      const behindProxy = await buildTestGateway({ serviceUrls: {}, trustProxy: ['127.0.0.1'] });
      try {
        for (const url of ['/api/docs/openapi.json', '/api/health']) {
          const secure = await behindProxy.inject({ method: 'GET', url, headers: { 'x-forwarded-proto': 'https' } });
          expect(secure.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
        }
        // A client reaching the gateway from elsewhere does not say it came over HTTPS.
        const direct = await behindProxy.inject({ method: 'GET', url: '/api/health', remoteAddress: '198.51.100.20', headers: { 'x-forwarded-proto': 'https' } });
        expect(direct.headers['strict-transport-security']).toBeUndefined();
      } finally {
        await behindProxy.close();
      }
    });
  });
});
