/** Shared steps of identity's integration tests. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { EventEnvelope } from '@puente/contracts';
import { INTERNAL_TOKEN_HEADER } from '@puente/platform';
import { testAuth, startTestService, type TestService, type TestServiceOptions } from '@puente/platform/testing';
import { identityService, type IdentityOptions, type IdentitySettings } from '../app.ts';

/** The gateway's side of the test keys: it reads the session actions identity signs for it. */
const gatewayAuth = testAuth('gateway');

export const ADMIN = { email: 'first@puente.test', password: 'a long password', referralCode: 'FIRST-CODE' } as const;

/** The browser the tests' calls come from, as the gateway tells of it. */
export const BROWSER_SEEN = { 'x-client-ip': '203.0.113.9', 'user-agent': 'Mozilla/5.0 (Vitest)' } as const;

/** The gateway's own token on a visitor's call: identity believes the browser's address only from the gateway. */
export const viaGateway = async () => ({ [INTERNAL_TOKEN_HEADER]: await gatewayAuth.sign({ kind: 'service', service: 'gateway' }, 'identity') });

/** What the gateway forwards about the browser on a visitor's call, with its token (a user's token, spread after it, replaces it). */
export const browser = async () => ({ ...BROWSER_SEEN, ...(await viaGateway()) });

export interface IdentityTestService extends TestService {
  /** Where emails are written when no SMTP_URL is set: a fresh folder per service unless MAIL_DIR is given. */
  mailDir: string;
}

export async function startIdentity(
  databaseUrl: string, settings: IdentitySettings = {}, opts: IdentityOptions = {}, testOpts: TestServiceOptions = {},
): Promise<IdentityTestService> {
  const ownDir = settings.MAIL_DIR ? null : await mkdtemp(join(tmpdir(), 'puente-mail-'));
  const mailDir = settings.MAIL_DIR ?? join(ownDir!, 'mail');
  const svc = await startTestService(identityService(
    // No backfill unless a test asks: no exchange service answers here.
    { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ADMIN_REFERRAL_CODE: ADMIN.referralCode, MAIL_DIR: mailDir, PROJECTION_BACKFILL: 'off', ...settings },
    { printAdmin: () => {}, ...opts },
  ), databaseUrl, testOpts);
  return {
    ...svc,
    mailDir,
    async stop() {
      await svc.stop();
      if (ownDir) await rm(ownDir, { recursive: true, force: true });
    },
  };
}

/**
 * Every event identity has published so far (after its outbox relay has caught up), once each: the outbox
 * publishes at least once, so the observer may see a redelivery, which consumers skip by event id.
 */
export async function publishedEvents(svc: TestService): Promise<EventEnvelope[]> {
  await svc.ctx.relay.flush();
  await svc.bus.drain();
  const seen = new Set<string>();
  return svc.published().filter((e) => !seen.has(e.id) && seen.add(e.id));
}

/** The events published by `action`, of the given types. */
export async function eventsDuring(svc: TestService, action: () => Promise<unknown>, ...types: string[]): Promise<EventEnvelope[]> {
  const before = (await publishedEvents(svc)).length;
  await action();
  return (await publishedEvents(svc)).slice(before).filter((e) => types.length === 0 || types.includes(e.type));
}

export interface Person { email: string; password: string; firstName: string; lastName: string }

let counter = 0;
export function person(name = 'ana'): Person {
  counter += 1;
  return { email: `${name}.${counter}@puente.test`, password: 'correct horse battery', firstName: name[0]!.toUpperCase() + name.slice(1), lastName: 'Rojas' };
}

export async function requestSignup(svc: TestService, p: Person, referralCode: string = ADMIN.referralCode): Promise<string> {
  const res = await svc.app.inject({ method: 'POST', url: '/signup/request', headers: await browser(), payload: { ...p, referralCode } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ verificationToken: string }>().verificationToken;
}

/** Signs someone up and verifies them; returns their user id. */
export async function registered(svc: TestService, p: Person = person(), referralCode: string = ADMIN.referralCode): Promise<number> {
  const token = await requestSignup(svc, p, referralCode);
  const res = await svc.app.inject({ method: 'POST', url: '/signup/verify', payload: { token } });
  expect(res.statusCode, res.body).toBe(200);
  const me = await login(svc, p);
  return me.userId;
}

/** Logs in; returns the user id and role from the session grant the gateway would act on. */
export async function login(svc: TestService, p: { email: string; password: string }): Promise<{ userId: number; role: 'user' | 'admin' }> {
  const res = await svc.app.inject({ method: 'POST', url: '/auth/login', headers: await browser(), payload: { email: p.email, password: p.password } });
  expect(res.statusCode, res.body).toBe(200);
  const action = await gatewayAuth.verifySessionAction(String(res.headers['x-session-action']));
  if (action.action !== 'grant') throw new Error(`expected a grant, got ${action.action}`);
  return { userId: action.userId, role: action.role };
}

export async function as(svc: TestService, userId: number, role: 'user' | 'admin' = 'user', sessionId = 'session-1'): Promise<Record<string, string>> {
  return svc.as({ kind: 'user', userId, role, sessionId });
}
