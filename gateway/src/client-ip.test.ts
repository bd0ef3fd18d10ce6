/**
 * Whose address a request is (TRUST_PROXY): what the per-IP limits count and what the services are told (x-client-ip,
 * which the audit of login attempts records). A client may write its own X-Forwarded-For; only the hops the proxies
 * in front appended are believed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { ErrorBody } from '@puente/contracts';
import { gatewayOptionsFrom, gatewaySettings } from './settings.ts';
import { buildTestGateway, OWN_ORIGIN, PASSWORD, startFakeService, type FakeUpstream } from './test-helpers.ts';

/** The reverse proxy in front of the gateway, on the private network. */
const PROXY = '10.0.0.5';
/** The browser, as the proxy saw it (and appended to X-Forwarded-For). */
const CLIENT = '203.0.113.7';
const OTHER_CLIENT = '198.51.100.20';

describe('client addresses behind a reverse proxy', () => {
  let identity: FakeUpstream;
  const gateways: FastifyInstance[] = [];

  /** A gateway started with these environment variables, as server.ts and the embedded runner read them. */
  const gatewayWith = async (env: Record<string, string>) => {
    const gateway = await buildTestGateway({ serviceUrls: { identity: identity.url }, ...gatewayOptionsFrom(gatewaySettings.parse(env)) });
    gateways.push(gateway);
    return gateway;
  };
  /** The client address identity is told for a request reaching the gateway from `peer` with this X-Forwarded-For. */
  const addressSeen = async (gateway: FastifyInstance, peer: string, forwardedFor?: string) => {
    const res = await gateway.inject({
      method: 'GET', url: '/api/auth/verify-referral/ABC', remoteAddress: peer, headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
    });
    return (res.json() as { headers: Record<string, string> }).headers['x-client-ip'];
  };
  const login = (gateway: FastifyInstance, password: string, peer: string, forwardedFor: string) => gateway.inject({
    method: 'POST', url: '/api/auth/login', remoteAddress: peer,
    headers: { origin: OWN_ORIGIN, 'content-type': 'application/json', 'x-forwarded-for': forwardedFor }, payload: { email: 'ana@example.com', password },
  });

  beforeAll(async () => {
    identity = await startFakeService('identity');
  });
  afterAll(async () => {
    await Promise.all(gateways.map((g) => g.close()));
    await identity?.close();
  });

  it('with TRUST_PROXY=1, the address the proxy appended is the client: a per-IP login limit counts it, whatever the client wrote before it', async () => {
    const gateway = await gatewayWith({ TRUST_PROXY: '1', RATE_LIMIT_LOGIN_IP: '3/15m' });
    expect(await addressSeen(gateway, PROXY, `6.6.6.6, ${CLIENT}`)).toBe(CLIENT);

    // A guesser writes a new address before the proxy's every time: all its guesses are from CLIENT.
    for (const fake of ['6.6.6.1', '6.6.6.2', '6.6.6.3']) expect((await login(gateway, 'wrong', PROXY, `${fake}, ${CLIENT}`)).statusCode).toBe(401);
    const refused = await login(gateway, PASSWORD, PROXY, `6.6.6.4, ${CLIENT}`);
    expect(refused.statusCode).toBe(429);
    expect(ErrorBody.parse(refused.json())).toEqual({ message: 'Too many failed login attempts. Please try again in 15 minutes.', code: 'rate_limited' });
    const audited = identity.seen.filter((s) => s.url === '/auth/login').map((s) => s.headers['x-client-ip']);
    expect(audited).toEqual([CLIENT, CLIENT, CLIENT]);

    // Someone else behind the same proxy is not limited.
    expect((await login(gateway, PASSWORD, PROXY, OTHER_CLIENT)).statusCode).toBe(200);
  });

  it('with TRUST_PROXY=2, the address the first of two proxies appended is the client', async () => {
    const gateway = await gatewayWith({ TRUST_PROXY: '2' });
    expect(await addressSeen(gateway, PROXY, `6.6.6.6, ${CLIENT}, 10.1.0.9`)).toBe(CLIENT);
  });

  it('with the proxies\' addresses, only hops from them are believed', async () => {
    const gateway = await gatewayWith({ TRUST_PROXY: '10.0.0.0/24, 10.1.0.9' });
    expect(await addressSeen(gateway, PROXY, `6.6.6.6, ${CLIENT}`)).toBe(CLIENT);
    // Through both proxies: each appended the address it was reached from.
    expect(await addressSeen(gateway, PROXY, `6.6.6.6, ${CLIENT}, 10.1.0.9`)).toBe(CLIENT);
    // A client reaching the gateway directly, or through a machine not listed, is its own address.
    expect(await addressSeen(gateway, OTHER_CLIENT, '6.6.6.6')).toBe(OTHER_CLIENT);
    expect(await addressSeen(gateway, PROXY, `${CLIENT}, 10.2.0.1`)).toBe('10.2.0.1');
  });

  it('by default, X-Forwarded-For is ignored: the client is the address the connection came from', async () => {
    const gateway = await gatewayWith({});
    expect(await addressSeen(gateway, CLIENT, '6.6.6.6')).toBe(CLIENT);
    expect(await addressSeen(gateway, PROXY, `6.6.6.6, ${CLIENT}`)).toBe(PROXY);
  });

  it('refuses TRUST_PROXY=true and addresses it cannot read, saying what to give instead', () => {
    const refusal = (value: string) => gatewaySettings.safeParse({ TRUST_PROXY: value }).error?.issues.map((i) => i.message);
    expect(refusal('true')).toEqual([
      'TRUST_PROXY=true would trust client-written X-Forwarded-For hops: give the number of proxies in front (1, 2) or their addresses (10.0.0.5,10.1.0.0/16)',
    ]);
    expect(refusal('proxy.example')).toEqual(['TRUST_PROXY is a number of proxies (1, 2) or their IPs or CIDRs, comma-separated: invalid IP address: proxy.example']);
    expect(refusal('10.0.0.0/33')).toEqual(['TRUST_PROXY is a number of proxies (1, 2) or their IPs or CIDRs, comma-separated: invalid range on address: 10.0.0.0/33']);
    expect(gatewaySettings.parse({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
  });
});
