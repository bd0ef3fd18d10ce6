import { afterAll, beforeAll, expect, it } from 'vitest';
import { AdminUserView, PublicUser } from '@puente/contracts';
import { makeEvent, partitionFor } from '@puente/platform';
import { startTestService, type TestService } from '@puente/platform/testing';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { identityService } from '../app.ts';
import { User } from '../domain/user.ts';

describeWithInfra(['postgres'], 'identity projections from other services', () => {
  const db = useFreshDatabase('identity_projections');
  let svc: TestService;
  let userId: number;
  beforeAll(async () => {
    svc = await startTestService(identityService({ PROJECTION_BACKFILL: 'off' }, { printAdmin: () => {}, mailer: { send: async () => {} } }), db.url); // sends no email
    const em = svc.ctx.orm.em.fork();
    const u = em.create(User, { email: 'ana@puente.test', firstName: 'Ana', lastName: 'Diaz', profileImageUrl: null, referralCode: 'ANA12345', referredById: null, trustRating: null });
    await em.flush();
    userId = u.id;
  });
  afterAll(async () => { await svc?.stop(); });
  const user = () => svc.ctx.orm.em.fork().findOneOrFail(User, { id: userId });

  it('sets hasBothAccounts once a GBP and a CLP account exist, and clears it when one is removed', async () => {
    await svc.deliver(makeEvent('bankAccountAdded', 11, { accountId: 11, userId, currency: 'GBP' }));
    expect((await user()).hasBothAccounts).toBe(false);
    const clp = makeEvent('bankAccountAdded', 12, { accountId: 12, userId, currency: 'CLP' });
    await svc.deliver(clp, clp);
    expect((await user()).hasBothAccounts).toBe(true);
    await svc.deliver(makeEvent('bankAccountRemoved', 11, { accountId: 11, userId, currency: 'GBP' }));
    expect((await user()).hasBothAccounts).toBe(false);
  });

  it('sets hasBothAccounts when both accounts\' events are handled at the same time (on two partitions)', async () => {
    // Each account is its own aggregate, so one user's GBP and CLP events may be handled at once, each handler
    // seeing only its own account (CI once waited minutes for a true that never came). A table lock holds every
    // handler at its insert, then lets them all go together.
    const em = svc.ctx.orm.em.fork();
    const users = Array.from({ length: 6 }, (_, i) => em.create(User, {
      email: `both${i}@puente.test`, firstName: 'Both', lastName: String(i), profileImageUrl: null,
      referralCode: `BOTH${i}000`, referredById: null, trustRating: null,
    }));
    await em.flush();
    const accounts = users.flatMap((u, i) => (['GBP', 'CLP'] as const).map((currency, c) => ({ accountId: 1000 + 2 * i + c, userId: u.id, currency })));
    expect(new Set(accounts.map((a) => partitionFor(String(a.accountId)))).size).toBeGreaterThan(1);

    const blocker = svc.ctx.orm.em.fork();
    await blocker.begin();
    await blocker.execute('lock table identity.account_currency in share mode');
    const delivered = svc.deliver(...accounts.map((a) => makeEvent('bankAccountAdded', a.accountId, a)));
    const waiting = async () => Number((await em.execute<{ n: string }[]>(
      "select count(*)::text as n from pg_locks where not granted and relation = 'identity.account_currency'::regclass"))[0]!.n);
    await expect.poll(waiting, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    await blocker.commit();
    await delivered;

    const after = await svc.ctx.orm.em.fork().find(User, { id: { $in: users.map((u) => u.id) } });
    expect(after.map((u) => u.hasBothAccounts)).toEqual(users.map(() => true));
  });

  it('keeps the newest rating average and count, whatever order ratings arrive in', async () => {
    const rating = (count: number, average: string) => makeEvent('ratingSubmitted', userId, {
      ratingId: count, matchId: count, fromUserId: 99, toUserId: userId, rating: 4, toUserAverage: average, toUserCount: count,
    });
    await svc.deliver(rating(2, '4.5'), rating(1, '5.0'));
    const u = await user();
    expect([u.trustRating, u.ratingCount]).toEqual(['4.5', 2]);
    // Rounded to one decimal on its digits: 4.35 is 4.3499… as a double, which toFixed(1) would show as 4.3.
    await svc.deliver(rating(3, '4.35'));
    expect((await user()).trustRating).toBe('4.4');
  });

  it('takes a standing changed without a rating as it comes: a hold lowers the count, no counted rating clears the trust rating', async () => {
    const standing = (count: number, average: string | null) => makeEvent('ratingStandingChanged', userId, { userId, average, count });
    await svc.deliver(standing(2, '4.3333'));
    expect(await user()).toMatchObject({ trustRating: '4.3', ratingCount: 2 });
    await svc.deliver(standing(0, null));
    expect(await user()).toMatchObject({ trustRating: null, ratingCount: 0 });
    const profile = await svc.app.inject({ method: 'GET', url: `/users/${userId}` });
    expect(PublicUser.parse(profile.json())).toMatchObject({ trustRating: null, ratingCount: 0 });
    await svc.deliver(standing(3, '4.35'));
    expect(await user()).toMatchObject({ trustRating: '4.4', ratingCount: 3 });
  });

  it('counts a completed match once for each party, even if the event is redelivered', async () => {
    const completed = makeEvent('matchCompleted', 5, {
      matchId: 5, requestId: 3, requesterId: userId, matcherId: 99, fromCurrency: 'GBP', toCurrency: 'CLP', amount: '100.00', exchangeRate: '1275.0000',
    });
    await svc.deliver(completed, completed);
    expect((await user()).transactionCount).toBe(1);
  });

  it('keeps each party\'s trade record: the public and admin views show the completion rate and average time to complete', async () => {
    const em = svc.ctx.orm.em.fork();
    const bea = em.create(User, { email: 'bea@puente.test', firstName: 'Bea', lastName: 'Soto', profileImageUrl: null, referralCode: 'BEA12345', referredById: null, trustRating: null });
    const cruz = em.create(User, { email: 'cruz@puente.test', firstName: 'Cruz', lastName: 'Vega', profileImageUrl: null, referralCode: 'CRUZ1234', referredById: null, trustRating: null });
    await em.flush();
    const terms = { fromCurrency: 'GBP', toCurrency: 'CLP', amount: '100.00', exchangeRate: '1275.0000' } as const;
    const parties = (matchId: number, matcherId: number) => ({ matchId, requestId: matchId, requesterId: bea.id, matcherId, ...terms });
    const confirmed = (matchId: number, matcherId = cruz.id) => makeEvent('matchConfirmed', matchId, parties(matchId, matcherId));
    /** Completed `minutes` after its confirmation at `confirmedAt`, as the exchange stamps it. */
    const completed = (matchId: number, confirmedAt: string, minutes: number) => ({
      ...makeEvent('matchCompleted', matchId, { ...parties(matchId, cruz.id), completedById: bea.id, confirmedAt }),
      occurredAt: new Date(Date.parse(confirmedAt) + minutes * 60_000).toISOString(),
    });
    const profile = async (id: number) => {
      const res = await svc.app.inject({ method: 'GET', url: `/users/${id}` });
      expect(res.statusCode, res.body).toBe(200);
      const { completionRate, averageCompletionMinutes } = PublicUser.parse(res.json());
      return { completionRate, averageCompletionMinutes };
    };
    expect(await profile(bea.id)).toEqual({ completionRate: null, averageCompletionMinutes: null });

    const confirmed31 = confirmed(31);
    await svc.deliver(confirmed31, confirmed31, confirmed(32), confirmed(33, 98)); // a redelivery counts once
    expect(await profile(bea.id)).toEqual({ completionRate: 0, averageCompletionMinutes: null });
    const completed31 = completed(31, '2026-05-01T10:00:00.000Z', 30);
    await svc.deliver(completed31, completed(32, '2026-05-02T08:15:00.000Z', 45), completed31);
    // 2 of 3 confirmed matches completed; 30 and 45 minutes average 37.5, shown as 38.
    expect(await profile(bea.id)).toEqual({ completionRate: 66.7, averageCompletionMinutes: 38 });
    expect(await profile(cruz.id)).toEqual({ completionRate: 100, averageCompletionMinutes: 38 });

    // An event published before completions carried confirmedAt counts as completed, but is not timed.
    const untimed = makeEvent('matchCompleted', 33, parties(33, 98));
    await svc.deliver(untimed);
    expect(await profile(bea.id)).toEqual({ completionRate: 100, averageCompletionMinutes: 38 });
    const asAdmin = await svc.app.inject({ method: 'GET', url: `/users/${bea.id}`, headers: await svc.as({ kind: 'user', userId: 1, role: 'admin' }) });
    expect(AdminUserView.parse(asAdmin.json())).toMatchObject({ transactionCount: 3, completionRate: 100, averageCompletionMinutes: 38 });
  });

  it('follows the subscription tier', async () => {
    await svc.deliver(makeEvent('subscriptionActivated', userId, { userId, tier: 'premium', currentPeriodEnd: new Date().toISOString() }));
    expect((await user()).subscriptionTier).toBe('premium');
    await svc.deliver(makeEvent('subscriptionCancelled', userId, { userId, tier: 'free' }));
    expect((await user()).subscriptionTier).toBe('free');
  });
});
