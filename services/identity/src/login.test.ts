import { afterAll, beforeAll, expect, it } from 'vitest';
import { CurrentUser, ErrorBody, LoginResponse } from '@puente/contracts';
import { testAuth, type TestService } from '@puente/platform/testing';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { User } from './domain/user.ts';
import { ADMIN, browser, as, eventsDuring, login, person, registered, startIdentity } from './testing/helpers.ts';

/** The gateway's side of the test keys: it reads the session actions identity signs for it. */
const gatewayAuth = testAuth('gateway');

describeWithInfra(['postgres'], 'login and the current user', () => {
  const db = useFreshDatabase('identity_login');
  let svc: TestService;
  beforeAll(async () => { svc = await startIdentity(db.url); });
  afterAll(async () => { await svc?.stop(); });

  const loginWith = async (payload: Record<string, unknown>) => svc.app.inject({ method: 'POST', url: '/auth/login', headers: await browser(), payload });

  it('signs in with the right password: a grant for the gateway and a success attempt', async () => {
    const ana = person('ana');
    const id = await registered(svc, ana);
    const events = await eventsDuring(svc, async () => {
      const res = await loginWith({ email: ` ${ana.email.toUpperCase()}`, password: ana.password });
      expect(res.statusCode).toBe(200);
      expect(LoginResponse.parse(res.json())).toEqual({ message: 'Login successful' });
      expect(await gatewayAuth.verifySessionAction(String(res.headers['x-session-action']))).toEqual({ action: 'grant', userId: id, role: 'user' });
    }, 'identity.login.attempted');
    expect(events.map((e) => e.payload)).toEqual([{
      email: ana.email, method: 'password', status: 'success', failureReason: null, ipAddress: '203.0.113.9', userAgent: 'Mozilla/5.0 (Vitest)', inputAltered: false,
      userId: id,
    }]);
    expect((await login(svc, ADMIN)).role).toBe('admin');
  });

  it('refuses a wrong password and an unknown email alike, 401 "Invalid email or password", and records both', async () => {
    const bea = person('bea');
    await registered(svc, bea);
    const events = await eventsDuring(svc, async () => {
      const wrong = await loginWith({ email: bea.email, password: 'wrong password' });
      const unknown = await loginWith({ email: 'nobody@puente.test', password: bea.password });
      for (const res of [wrong, unknown]) {
        expect(res.statusCode).toBe(401);
        expect(ErrorBody.parse(res.json())).toEqual({ message: 'Invalid email or password', code: 'invalid_credentials' });
        expect(res.headers['x-session-action']).toBeUndefined();
      }
    }, 'identity.login.attempted');
    expect(events.map((e) => e.payload)).toEqual([
      expect.objectContaining({ email: bea.email, method: 'password', status: 'failed', failureReason: 'invalid_credentials' }),
      expect.objectContaining({ email: 'nobody@puente.test', status: 'failed', failureReason: 'invalid_credentials' }),
    ]);
    expect(JSON.stringify(events)).not.toContain('wrong password');
  });

  it("answers the spec's login validation messages and records the attempt", async () => {
    const events = await eventsDuring(svc, async () => {
      const bad = await loginWith({ email: 'not-an-email', password: '' });
      expect(bad.statusCode).toBe(400);
      expect(ErrorBody.parse(bad.json())).toEqual({
        message: 'Please enter a valid email address', code: 'validation_failed',
        errors: [{ field: 'email', message: 'Please enter a valid email address' }, { field: 'password', message: 'Password is required' }],
      });
      const noPassword = await loginWith({ email: 'ana@puente.test' });
      expect(ErrorBody.parse(noPassword.json()).message).toBe('Password is required');
    }, 'identity.login.attempted');
    expect(events.map((e) => e.payload)).toEqual([
      expect.objectContaining({ email: 'not-an-email', status: 'failed', failureReason: 'validation' }),
      expect.objectContaining({ email: 'ana@puente.test', status: 'failed', failureReason: 'validation' }),
    ]);
  });

  it('GET /auth/user returns every User field of spec section 3 with role and trust; 401 without a user', async () => {
    const cy = person('cy');
    const id = await registered(svc, cy);
    const res = await svc.app.inject({ method: 'GET', url: '/auth/user', headers: await as(svc, id) });
    expect(res.statusCode).toBe(200);
    const me = CurrentUser.parse(res.json());
    expect(Object.keys(res.json()).sort()).toEqual(Object.keys(CurrentUser.shape).sort());
    expect(me).toEqual({
      id, email: cy.email, createdAt: expect.any(String), firstName: 'Cy', lastName: 'Rojas', profileImageUrl: null, trustRating: null, ratingCount: 0,
      transactionCount: 0, emailVerified: true, phoneVerified: false, idVerified: false, bankVerified: false,
      subscriptionTier: 'free', hasBothAccounts: false, role: 'user', trustScore: 5, trustLevel: 'Unverified', language: 'en',
    });
    expect(JSON.stringify(res.json())).not.toMatch(/password|referralCode|googleSubject/i);

    // The projections show through: a rating of 4.5 over 3 ratings (36 points), 20 transactions (capped at 30) and the email (5).
    await svc.ctx.orm.em.fork().nativeUpdate(User, { id }, { trustRating: '4.5', ratingCount: 3, transactionCount: 20 });
    const rated = CurrentUser.parse((await svc.app.inject({ method: 'GET', url: '/auth/user', headers: await as(svc, id) })).json());
    expect([rated.trustRating, rated.trustScore, rated.trustLevel]).toEqual([4.5, 71, 'Gold']);

    const anonymous = await svc.app.inject({ method: 'GET', url: '/auth/user' });
    expect(anonymous.statusCode).toBe(401);
    const forged = await svc.app.inject({ method: 'GET', url: '/auth/user', headers: { 'x-internal-token': 'forged' } });
    expect(forged.statusCode).toBe(401);
  });

  it('PATCH /auth/user edits only one\'s own first and last name and announces it', async () => {
    const dee = person('dee');
    const id = await registered(svc, dee);
    const events = await eventsDuring(svc, async () => {
      const res = await svc.app.inject({ method: 'PATCH', url: '/auth/user', headers: await as(svc, id), payload: { firstName: ' Deirdre ', email: 'evil@x.test', role: 'admin' } });
      expect(res.statusCode).toBe(200);
      const me = CurrentUser.parse(res.json());
      expect([me.id, me.firstName, me.lastName, me.email, me.role]).toEqual([id, 'Deirdre', 'Rojas', dee.email, 'user']);
    }, 'identity.user.profile-updated');
    expect(events.map((e) => e.payload)).toEqual([{ userId: id, firstName: 'Deirdre', lastName: 'Rojas', profileImageUrl: null }]);

    const blank = await svc.app.inject({ method: 'PATCH', url: '/auth/user', headers: await as(svc, id), payload: { lastName: '  ' } });
    expect(blank.statusCode).toBe(400);
    expect(ErrorBody.parse(blank.json()).message).toBe('Last name is required');
    const nothing = await svc.app.inject({ method: 'PATCH', url: '/auth/user', headers: await as(svc, id), payload: {} });
    expect(ErrorBody.parse(nothing.json()).message).toBe('Send a first name or a last name to update');
    expect((await svc.app.inject({ method: 'PATCH', url: '/auth/user', payload: { firstName: 'X' } })).statusCode).toBe(401);
  });

  it('GET /login sends the browser to the login page', async () => {
    const res = await svc.app.inject({ method: 'GET', url: '/login' });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/login');
  });
});
