/**
 * Smoke: one user calls what every page of the app reads, once — home and sign-up (health, rate, referral check),
 * dashboard and market, bank accounts, a request's page, profile and referrals, notifications, subscription,
 * history, ratings, signed-in devices — then logs out. Proves the deployment answers every page's API within budget.
 */
import { group } from 'k6';
import type { Options } from 'k6/options';
import {
  addBankAccounts, bodyOf, call, currentRate, expectStatus, newUser, onceAccountsKnown, REFERRAL_CODE, thresholds,
} from './lib/puente.ts';

export const options: Options = {
  scenarios: {
    smoke: { executor: 'shared-iterations', vus: 1, iterations: 1, maxDuration: '2m' },
  },
  thresholds: thresholds(500, 1500),
};

export default function (): void {
  group('visitor', () => {
    expectStatus(call(null, 'gateway.health'), 'gateway.health', 200);
    currentRate();
    expectStatus(call(null, 'identity.verifyReferral', { params: { code: REFERRAL_CODE } }), 'identity.verifyReferral', 200);
    expectStatus(call(null, 'identity.directory'), 'identity.directory', 200);
  });

  const user = newUser('smoke', __VU - 1);
  addBankAccounts(user);

  group('dashboard and market', () => {
    expectStatus(call(user, 'identity.currentUser'), 'identity.currentUser', 200);
    expectStatus(call(user, 'exchange.requests'), 'exchange.requests', 200);
    expectStatus(call(user, 'exchange.myRequests'), 'exchange.myRequests', 200);
    expectStatus(call(user, 'exchange.matches'), 'exchange.matches', 200);
    expectStatus(call(user, 'exchange.limits'), 'exchange.limits', 200);
    expectStatus(call(user, 'accounts.list'), 'accounts.list', 200);
  });

  group('a request', () => {
    const posted = onceAccountsKnown(user, 'exchange.createRequest', {
      body: { fromCurrency: 'GBP', toCurrency: 'CLP', amount: 10, exchangeRate: currentRate() },
    });
    expectStatus(posted, 'exchange.createRequest', 201);
    const id = bodyOf<{ id: number }>(posted)?.id;
    if (id === undefined) return;
    expectStatus(call(user, 'exchange.request', { params: { id } }), 'exchange.request', 200);
    expectStatus(call(user, 'exchange.matchForRequest', { params: { requestId: id } }), 'exchange.matchForRequest', 200);
  });

  group('profile', () => {
    expectStatus(call(user, 'identity.user', { params: { id: user.id } }), 'identity.user', 200);
    expectStatus(call(user, 'rating.forUser', { params: { userId: user.id } }), 'rating.forUser', 200);
    expectStatus(call(user, 'identity.referralCode'), 'identity.referralCode', 200);
    expectStatus(call(user, 'identity.referralList'), 'identity.referralList', 200);
    expectStatus(call(user, 'gateway.sessions'), 'gateway.sessions', 200);
    expectStatus(call(user, 'exchange.history'), 'exchange.history', 200);
  });

  group('notifications and subscription', () => {
    expectStatus(call(user, 'notification.list'), 'notification.list', 200);
    expectStatus(call(user, 'notification.count'), 'notification.count', 200);
    expectStatus(call(user, 'notification.preferences'), 'notification.preferences', 200);
    expectStatus(call(user, 'subscription.info'), 'subscription.info', 200);
  });

  expectStatus(call(user, 'gateway.logout'), 'gateway.logout', 200);
  expectStatus(call(user, 'identity.currentUser', { expect: [401] }), 'identity.currentUser', 401);
}
