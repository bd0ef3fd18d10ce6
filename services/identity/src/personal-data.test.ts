/**
 * Your data (UK GDPR): the download composed from every service's section, and the account's deletion. The other
 * services are fakes answering their declared internal routes (a service cannot start another's code); the whole
 * product does both in infra/personal-data-e2e.test.ts.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  AccountDeletionMessages as Says, DeletedUser, ErrorBody, InternalUserList, Message, PersonalDataExport, ReauthenticationMessages,
  ReferralList, Routes, UserDirectory, servicePath, type AccountsPersonalData, type AuditPersonalData, type ExchangePersonalData,
  type NotificationPersonalData, type RatingPersonalData, type SubscriptionPersonalData,
} from '@puente/contracts';
import { OutboxEvent, type Caller } from '@puente/platform';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { User } from './domain/user.ts';
import { KnownDevice } from './domain/known-device.ts';
import { TwoFactor } from './domain/two-factor.ts';
import { RecentGoogleSignIn, recordGoogleSignIn } from './domain/reauthentication.ts';
import { ADMIN, browser, as, eventsDuring, login, person, registered, requestSignup, startIdentity, type IdentityTestService, type Person } from './testing/helpers.ts';
import { startOtherServices, type OtherServices } from './testing/other-services.ts';
import { testAuth } from '@puente/platform/testing';

/** The gateway's side of the test keys: it reads the session actions identity signs for it. */
const gatewayAuth = testAuth('gateway');

const at = '2026-03-01T10:00:00.000Z';
const sections = {
  accounts: {
    bankAccounts: [{ id: 11, currency: 'GBP', bankName: 'Monzo', accountNumber: '31926819', accountHolder: 'Zoe Rojas', sortCode: '040004', rut: null, accountType: null, email: null, iban: null, holderMatchesName: true }],
  } satisfies AccountsPersonalData,
  exchange: {
    requests: [{ id: 5, userId: 2, fromCurrency: 'GBP', toCurrency: 'CLP', amount: 100, exchangeRate: 1275, status: 'completed', createdAt: at }],
    matches: [],
    history: [{
      id: 8, exchangeRequestId: 5, exchangeMatchId: 8, fromCurrency: 'GBP', toCurrency: 'CLP', fromAmount: 100, toAmount: 127_500,
      exchangeRate: 1275, status: 'completed', completedAt: at, userRole: 'requester',
    }],
    blockedUsers: [],
    chatMessages: [],
    disputes: [],
  } satisfies ExchangePersonalData,
  rating: {
    given: [{ id: 4, exchangeMatchId: 8, fromUserId: 2, toUserId: 3, rating: 5, comment: 'Quick and kind', createdAt: at, fromUser: { firstName: 'Zoe' } }],
    received: [],
  } satisfies RatingPersonalData,
  notification: {
    notifications: [{ id: 9, type: 'exchange_completed', content: 'The exchange on request #5 was marked completed.', params: null, read: true, referenceId: 5, createdAt: at }],
    preferences: { emailDigest: false },
  } satisfies NotificationPersonalData,
  subscription: {
    tier: 'premium', status: 'active', currentPeriodEnd: at, cancelAtPeriodEnd: false, paymentCustomerId: 'cus_test_1', paymentSubscriptionId: 'sub_test_1', supportRequests: [],
  } satisfies SubscriptionPersonalData,
  audit: {
    signupAttempts: [],
    loginAttempts: [{ id: 1, email: 'zoe@puente.test', method: 'password', status: 'success', failureReason: null, ipAddress: '203.0.113.9', userAgent: 'Mozilla/5.0 (Vitest)', inputAltered: false, createdAt: at }],
  } satisfies AuditPersonalData,
};
const PERSONAL_DATA = {
  accounts: servicePath(Routes.accounts.personalData), exchange: servicePath(Routes.exchange.personalData),
  rating: servicePath(Routes.rating.personalData), notification: servicePath(Routes.notification.personalData),
  subscription: servicePath(Routes.subscription.personalData), audit: servicePath(Routes.audit.personalData),
} as const;
const TRADES_IN_PROGRESS = servicePath(Routes.exchange.tradesInProgress);

describeWithInfra(['postgres'], 'your data: the download and the deletion of one\'s account', () => {
  const db = useFreshDatabase('identity_personal_data');
  let svc: IdentityTestService;
  let others: OtherServices;
  let adminId: number;
  beforeAll(async () => {
    others = await startOtherServices();
    for (const [service, path] of Object.entries(PERSONAL_DATA) as [keyof typeof sections, string][]) {
      others.answer(service, path, { status: 200, body: sections[service] });
    }
    others.answer('exchange', TRADES_IN_PROGRESS, { status: 200, body: { matchesInProgress: 0 } });
    svc = await startIdentity(db.url, {}, {}, { serviceUrls: others.urls });
    adminId = (await login(svc, ADMIN)).userId;
  });
  afterAll(async () => {
    await svc?.stop();
    await others?.stop();
  });

  const download = async (userId: number) => svc.app.inject({ method: 'GET', url: '/users/me/data', headers: await as(svc, userId) });
  const deleteAccount = async (userId: number, body: object, role: 'user' | 'admin' = 'user') =>
    svc.app.inject({ method: 'POST', url: '/users/me/delete', headers: { ...(await browser()), ...(await as(svc, userId, role)) }, payload: body });
  const get = async (url: string, caller?: Caller) => svc.app.inject({ method: 'GET', url, headers: caller ? await svc.as(caller) : {} });

  it('downloads one JSON file: identity\'s section and every other service\'s, each asked for the caller alone', async () => {
    const zoe = { ...person('zoe'), email: 'zoe@puente.test' };
    const id = await registered(svc, zoe);
    const friend = await registered(svc, person('yan'), (await svc.ctx.orm.em.fork().findOneOrFail(User, { id })).referralCode);
    expect((await svc.app.inject({ method: 'POST', url: '/users/verification/phone', headers: await as(svc, id) })).statusCode).toBe(201);
    others.calls.length = 0;

    const res = await download(id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="puente-data-\d{4}-\d{2}-\d{2}\.json"$/);
    const data = PersonalDataExport.parse(res.json());
    expect(data).toEqual({
      userId: id, exportedAt: expect.any(String),
      identity: {
        profile: expect.objectContaining({ id, email: 'zoe@puente.test', firstName: 'Zoe', lastName: 'Rojas', role: 'user', emailVerified: true }),
        referralCode: expect.stringMatching(/^[A-Z2-9]{8}$/),
        referredById: adminId,
        googleAccountLinked: false,
        verificationRequests: [{ id: expect.any(Number), type: 'phone', status: 'pending', createdAt: expect.any(String), decidedAt: null, document: null }],
        referrals: [{ id: expect.any(Number), referredId: friend, createdAt: expect.any(String), firstName: 'Yan', lastName: 'Rojas' }],
        // Where she signed in from: the tests' browser (a user agent naming no OS) on its network.
        knownDevices: [{ browser: 'Mozilla', os: null, network: '203.0.113.0/24', firstSeenAt: expect.any(String), lastSeenAt: expect.any(String) }],
        twoFactor: { enabled: false, enabledAt: null, recoveryCodesLeft: 0 },
      },
      ...PersonalDataExport.pick({ accounts: true, exchange: true, rating: true, notification: true, subscription: true, audit: true }).parse(sections),
    });
    expect(others.calls.map((c) => [c.service, c.path, c.query, c.caller]).sort()).toEqual(Object.entries(PERSONAL_DATA)
      .map(([service, path]) => [service, path, `?userId=${id}`, { kind: 'service', service: 'identity' }]).sort());
  });

  it('is all or nothing: a service that does not answer makes the download a 503, not a file without its section', async () => {
    const id = await registered(svc, person('ann'));
    others.answer('audit', PERSONAL_DATA.audit, { status: 500, body: { message: 'Something went wrong. Please try again.' } });
    try {
      const res = await download(id);
      expect(res.statusCode).toBe(503);
      expect(ErrorBody.parse(res.json()).message).toBe(Says.downloadUnavailable);
    } finally {
      others.answer('audit', PERSONAL_DATA.audit, { status: 200, body: sections.audit });
    }
  });

  it('refuses to delete with a missing (403) or wrong (401) password, an admin\'s account, and while a match is in progress; the account stays', async () => {
    const bo = person('bo');
    const id = await registered(svc, bo);
    const refusal = async (body: object, role: 'user' | 'admin' = 'user', userId = id) => {
      const res = await deleteAccount(userId, body, role);
      return [res.statusCode, ErrorBody.parse(res.json()).message];
    };
    expect(await refusal({})).toEqual([403, ReauthenticationMessages.passwordNeeded]);
    expect(await refusal({ currentPassword: 'not the password' })).toEqual([401, ReauthenticationMessages.passwordWrong]);
    expect(await refusal({ currentPassword: ADMIN.password }, 'admin', adminId)).toEqual([403, Says.adminAccount]);

    others.answer('exchange', TRADES_IN_PROGRESS, { status: 200, body: { matchesInProgress: 1 } });
    try {
      expect(await refusal({ currentPassword: bo.password })).toEqual([409, Says.tradeInProgress]);
      expect(others.calls.filter((c) => c.path === TRADES_IN_PROGRESS).at(-1)?.query).toBe(`?userId=${id}`);
      others.answer('exchange', TRADES_IN_PROGRESS, { status: 503, body: { message: 'The exchange service is not available right now.' } });
      expect(await refusal({ currentPassword: bo.password })).toEqual([503, Says.unavailable]);
    } finally {
      others.answer('exchange', TRADES_IN_PROGRESS, { status: 200, body: { matchesInProgress: 0 } });
    }
    expect((await login(svc, bo)).userId).toBe(id);
    expect((await login(svc, ADMIN)).userId).toBe(adminId);
  });

  it('deletes: the person is erased and the id stays, every session ends, and the deletion is announced with the id alone', async () => {
    const cleo: Person = { ...person('cleo'), email: 'cleo.deleted@puente.test', firstName: 'Cleopatra' };
    const id = await registered(svc, cleo);
    expect((await svc.app.inject({ method: 'POST', url: '/auth/two-factor/setup', headers: await as(svc, id) })).statusCode).toBe(200);
    const { referralCode } = (await svc.ctx.orm.em.fork().findOneOrFail(User, { id }));
    await svc.ctx.relay.flush(); // her sign-up and login events are out, as they long are before anyone deletes

    const events = await eventsDuring(svc, async () => {
      const res = await deleteAccount(id, { currentPassword: cleo.password });
      expect(res.statusCode, res.body).toBe(200);
      expect(Message.parse(res.json())).toEqual({ message: Says.deleted });
      expect(await gatewayAuth.verifySessionAction(String(res.headers['x-session-action']))).toEqual({ action: 'revoke-all', userId: id });
    });
    // And every gateway instance hears that her sessions ended (no session id in it).
    expect(events.map((e) => [e.type, e.aggregateId, e.payload])).toEqual([
      ['identity.user.deleted', String(id), { userId: id }],
      ['identity.user.sessions-ended', String(id), { userId: id, endedAt: expect.any(String) }],
    ]);
    // Identity's outbox no longer holds her name or email (her registration, her sign-up and login attempts).
    const outbox = JSON.stringify(await svc.ctx.orm.em.fork().find(OutboxEvent, {}));
    expect([outbox.includes(cleo.email), outbox.includes('Cleopatra')]).toEqual([false, false]);
    // Nor are the devices she signed in from kept.
    expect(await svc.ctx.orm.em.fork().count(KnownDevice, { userId: id })).toBe(0);
    // Nor her two-factor secret.
    expect(await svc.ctx.orm.em.fork().count(TwoFactor, { userId: id })).toBe(0);

    // She cannot sign in, her session's token finds no one, and nobody sees her profile, listing or referral code.
    expect((await svc.app.inject({ method: 'POST', url: '/auth/login', headers: await browser(), payload: { email: cleo.email, password: cleo.password } })).statusCode).toBe(401);
    expect((await get('/auth/user', { kind: 'user', userId: id, role: 'user' })).statusCode).toBe(401);
    expect((await deleteAccount(id, { currentPassword: cleo.password })).statusCode).toBe(401);
    expect((await get(`/users/${id}`)).statusCode).toBe(404);
    expect(UserDirectory.parse((await get('/admin/users?limit=500')).json()).map((u) => u.id)).not.toContain(id);
    expect((await get(`/auth/verify-referral/${referralCode}`)).statusCode).toBe(404);

    // The id still resolves, to nobody: other services' trades and ratings, and her referrer's list, show a deleted user.
    const [row] = InternalUserList.parse((await get(`/internal/users?ids=${id}`, { kind: 'service', service: 'exchange' })).json());
    expect(row).toMatchObject({
      id, firstName: DeletedUser.firstName, lastName: DeletedUser.lastName, email: DeletedUser.email(id), profileImageUrl: null,
      emailVerified: false, phoneVerified: false, idVerified: false, bankVerified: false,
    });
    const referrals = ReferralList.parse((await get('/referral/list', { kind: 'user', userId: adminId, role: 'admin' })).json());
    expect(referrals.find((r) => r.referredId === id)).toMatchObject({ firstName: DeletedUser.firstName, lastName: DeletedUser.lastName });

    // Her email is free: whoever owns it may sign up afresh.
    await requestSignup(svc, cleo);
  });

  it('deletes an account that signs in only with Google once this session signed in with Google again, not on the session alone', async () => {
    const dee = person('dee');
    const id = await registered(svc, dee);
    await svc.ctx.orm.em.fork().nativeUpdate(User, { id }, { passwordHash: null, googleSubject: 'google-dee' });
    const refused = await deleteAccount(id, {});
    expect([refused.statusCode, ErrorBody.parse(refused.json())]).toEqual([403, { message: ReauthenticationMessages.googleNeeded, code: 'reauthentication_required' }]);
    // The Google round trip itself is in reauthentication.test.ts; here, its record for the session the request names.
    await recordGoogleSignIn(svc.ctx.orm.em.fork(), 'session-1', id, new Date());
    const res = await deleteAccount(id, {});
    expect(res.statusCode, res.body).toBe(200);
    expect((await svc.ctx.orm.em.fork().findOneOrFail(User, { id })).googleSubject).toBeNull();
    expect(await svc.ctx.orm.em.fork().count(RecentGoogleSignIn, { userId: id })).toBe(0);
  });
});
