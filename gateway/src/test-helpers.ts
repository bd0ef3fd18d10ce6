/**
 * Test helpers: a fake identity service speaking the real protocol (the platform's HTTP app verifying internal
 * tokens, session actions signed with identity's key), and a gateway built around it, all on the test keys.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { topicOf, type ServiceName } from '@puente/contracts';
import {
  createHttpApp, createLogger, generateSigningKeys, InProcessBus, internalAuth, keyringOf, makeEvent, requireUser, SESSION_ACTION_HEADER,
  type EventBus, type SessionAction,
} from '@puente/platform';
import { testAuth } from '@puente/platform/testing';
import { buildGateway, type GatewayOptions } from './app.ts';
import { SESSION_COOKIE } from './sessions/sessions.ts';
import { sessionIdHash } from './sessions/revocations.ts';

export const logger = createLogger({ name: 'gateway-test', level: 'silent' });
/** The gateway's keys in these tests; every fake service trusts them. */
export const auth = testAuth('gateway');
/** Keys nobody here trusts: what an outsider signs with. */
export const foreignKeys = () => keyringOf(generateSigningKeys().signingKeys);
export const sessionSecret = 'session-secret-for-gateway-tests-0123456789';
/** The origin of an inject() request (Host: localhost:80). */
export const OWN_ORIGIN = 'http://localhost';

export const users: Record<string, { id: number; role: 'user' | 'admin' }> = {
  'ana@example.com': { id: 1, role: 'user' },
  'ben@example.com': { id: 2, role: 'admin' },
  'unverified@example.com': { id: 3, role: 'user' },
  'dora@example.com': { id: 4, role: 'user' },
};
export const PASSWORD = 'correct horse';
/** The one code the fake identity takes at the two-factor login step. */
export const TWO_FACTOR_CODE = '123456';

export interface FakeUpstream {
  app: FastifyInstance;
  url: string;
  /** Every request it received: path, the caller it verified, the headers it got. */
  seen: { method: string; url: string; caller: unknown; headers: Record<string, unknown>; body: string }[];
  close(): Promise<void>;
}

/**
 * identity: POST /auth/login grants a session (401 for a wrong password, 403 for the unverified account), and so does
 * POST /auth/google/link (401 for a password other than PASSWORD);
 * POST /auth/change-password ends the caller's other sessions (401 for a currentPassword other than PASSWORD); POST /auth/reset-password ends all of the caller's
 * sessions; POST /auth/two-factor/disable grants a session without the second factor and ends the others; POST /auth/forgot-password sends an action signed with a key that is not identity's;
 * GET /auth/user answers the caller or 401; GET /login redirects to the app's /login.
 * Every other path echoes what it received (and, with an x-test-grant-me header, tries to grant a session).
 * Given a bus, identity announces the sessions a password change or reset ended on it (userSessionsEnded).
 */
export async function startFakeService(name: ServiceName = 'identity', { bus }: { bus?: EventBus } = {}): Promise<FakeUpstream> {
  const app = createHttpApp({ logger, auth: testAuth(name) });
  const seen: FakeUpstream['seen'] = [];
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  app.addHook('preHandler', async (request) => {
    seen.push({ method: request.method, url: request.url, caller: request.caller, headers: { ...request.headers }, body: String(request.body ?? '') });
  });
  // Even signed with identity's own key, a session action from another service's route is ignored.
  const identity = testAuth('identity');
  const act = async (action: SessionAction) => ({ [SESSION_ACTION_HEADER]: await identity.signSessionAction(action) });
  const announce = async (userId: number, keptSessionId?: string) => bus?.publish(topicOf('identity'), [makeEvent('userSessionsEnded', userId, {
    userId, endedAt: new Date().toISOString(), ...(keptSessionId ? { keptSessionHash: sessionIdHash(keptSessionId) } : {}),
  })]);

  app.post('/auth/login', async (request, reply) => {
    const { email, password } = JSON.parse(String(request.body)) as { email: string; password: string };
    const user = users[email.trim().toLowerCase()];
    if (!user || password !== PASSWORD) return reply.status(401).send({ message: 'Invalid email or password' });
    if (user.id === 3) return reply.status(403).send({ message: 'Please verify your email first' });
    return reply.headers(await act({ action: 'grant', userId: user.id, role: user.role })).send({ id: user.id });
  });
  app.post('/auth/login/two-factor', async (request, reply) => {
    const { code } = JSON.parse(String(request.body)) as { code: string };
    if (code !== TWO_FACTOR_CODE) return reply.status(401).send({ message: 'That code is not right.', code: 'invalid_totp_code' });
    return reply.headers(await act({ action: 'grant', userId: 1, role: 'user' })).send({ message: 'Login successful' });
  });
  app.post('/auth/google/link', async (request, reply) => {
    const { password } = JSON.parse(String(request.body || '{}')) as { password?: string };
    if (password !== undefined && password !== PASSWORD) return reply.status(401).send({ message: 'Password is incorrect', code: 'wrong_password' });
    return reply.headers(await act({ action: 'grant', userId: 1, role: 'user' })).send({ message: 'Linked' });
  });
  app.post('/auth/change-password', async (request, reply) => {
    const caller = requireUser(request);
    const { currentPassword } = JSON.parse(String(request.body || '{}')) as { currentPassword?: string };
    if (currentPassword !== undefined && currentPassword !== PASSWORD) {
      return reply.status(401).send({ message: 'Current password is incorrect', code: 'wrong_password' });
    }
    await announce(caller.userId, caller.sessionId);
    return reply.headers(await act({ action: 'revoke-others', userId: caller.userId, keepSessionId: caller.sessionId! })).send({ message: 'Password changed' });
  });
  app.post('/auth/reset-password', async (request, reply) => {
    const caller = requireUser(request);
    await announce(caller.userId);
    return reply.headers(await act({ action: 'revoke-all', userId: caller.userId })).send({ message: 'Password reset' });
  });
  app.post('/auth/two-factor/disable', async (request, reply) => {
    const caller = requireUser(request);
    return reply.headers(await act({ action: 'grant', userId: caller.userId, role: 'user', endOthers: true })).send({ message: 'Turned off' });
  });
  app.post('/auth/forgot-password', async (_request, reply) => {
    const forged = await internalAuth('identity', foreignKeys()).signSessionAction({ action: 'grant', userId: 1, role: 'admin' });
    return reply.header(SESSION_ACTION_HEADER, forged).send({ ok: true });
  });
  app.get('/auth/user', async (request) => ({ ...requireUser(request) }));
  app.get('/login', async (_request, reply) => reply.redirect('/login'));
  app.all('/*', async (request, reply) => {
    // Any service may try to hand out sessions; only identity's actions count.
    if (request.headers['x-test-grant-me']) reply.headers(await act({ action: 'grant', userId: 1, role: 'admin' }));
    return { service: name, url: request.url, caller: request.caller, headers: request.headers, body: String(request.body ?? '') };
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as { port: number };
  return { app, url: `http://127.0.0.1:${port}`, seen, close: () => app.close() };
}

export async function buildTestGateway(options: Partial<GatewayOptions> & { serviceUrls: GatewayOptions['serviceUrls'] }): Promise<FastifyInstance> {
  const bus: EventBus = options.bus ?? new InProcessBus();
  const app = await buildGateway({ logger, auth, sessionSecret, webRoot: '/nonexistent', ...options, bus });
  if (!options.bus) app.addHook('onClose', async () => bus.close());
  return app;
}

/** `puente_session=<token>` from a response's Set-Cookie, or undefined. */
export function sessionCookieOf(res: LightMyRequestResponse): string | undefined {
  const c = res.cookies.find((c) => c.name === SESSION_COOKIE);
  return c && c.value ? `${SESSION_COOKIE}=${c.value}` : undefined;
}

/** A same-origin login through the gateway; the session cookie it set. */
export async function login(gateway: FastifyInstance, email: string, password = PASSWORD): Promise<LightMyRequestResponse> {
  return gateway.inject({ method: 'POST', url: '/api/auth/login', headers: { origin: OWN_ORIGIN, 'content-type': 'application/json' }, payload: { email, password } });
}
