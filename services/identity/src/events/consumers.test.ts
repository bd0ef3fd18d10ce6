import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeEvent } from '@puente/platform';
import { startTestService, type TestService } from '@puente/platform/testing';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { identityService } from '../app.ts';
import { User } from '../domain/user.ts';

describeWithInfra(['postgres'], 'identity projections from other services', () => {
  const db = useFreshDatabase('identity_projections');
  let svc: TestService;
  let userId: number;
  beforeAll(async () => {
    svc = await startTestService(identityService({}, { printAdmin: () => {}, mailer: { send: async () => {} } }), db.url); // sends no email
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

  it('counts a completed match once for each party, even if the event is redelivered', async () => {
    const completed = makeEvent('matchCompleted', 5, {
      matchId: 5, requestId: 3, requesterId: userId, matcherId: 99, fromCurrency: 'GBP', toCurrency: 'CLP', amount: '100.00', exchangeRate: '1275.0000',
    });
    await svc.deliver(completed, completed);
    expect((await user()).transactionCount).toBe(1);
  });

  it('follows the subscription tier', async () => {
    await svc.deliver(makeEvent('subscriptionActivated', userId, { userId, tier: 'premium', currentPeriodEnd: new Date().toISOString() }));
    expect((await user()).subscriptionTier).toBe('premium');
    await svc.deliver(makeEvent('subscriptionCancelled', userId, { userId, tier: 'free' }));
    expect((await user()).subscriptionTier).toBe('free');
  });
});
