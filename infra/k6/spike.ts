/**
 * Spike: the app at a quiet baseline, then six times as many browsing users within seconds, held, then back.
 * setup() signs up a handful of users; every VU logs in as one of them (a new browser: a new session) and each
 * iteration is a visit to the dashboard: who am I, the market, notifications and their count, the rate. Proves the
 * app absorbs a sudden surge — latency may rise but requests do not fail — and recovers when it passes.
 */
import { group, sleep } from 'k6';
import type { Options } from 'k6/options';
import { call, expectStatus, logIn, newUser, thresholds, type User } from './lib/puente.ts';

const USERS = Number(__ENV.SPIKE_USERS || 10);

export const options: Options = {
  scenarios: {
    spike: {
      executor: 'ramping-vus', startVUs: 0,
      stages: [
        { target: 50, duration: '30s' }, { target: 50, duration: '1m' }, // baseline
        { target: 300, duration: '10s' }, { target: 300, duration: '1m' }, // the spike
        { target: 50, duration: '10s' }, { target: 50, duration: '1m' }, // recovery
        { target: 0, duration: '10s' },
      ],
      gracefulRampDown: '30s',
    },
  },
  setupTimeout: '2m',
  // A surge may slow answers (a looser budget than steady load) but must not make them fail.
  thresholds: thresholds(1000, 3000, { 'exchange.requests': [800, 2500] }),
};

interface Credentials { email: string; password: string }

export function setup(): Credentials[] {
  return Array.from({ length: USERS }, (_, i) => {
    const user = newUser('spike', i);
    return { email: user.email, password: user.password };
  });
}

let me: User | undefined;

export default function (users: Credentials[]): void {
  if (!me) {
    const { email, password } = users[(__VU - 1) % users.length]!;
    me = logIn(email, password);
  }
  const user = me;
  group('dashboard visit', () => {
    expectStatus(call(user, 'identity.currentUser'), 'identity.currentUser', 200);
    expectStatus(call(user, 'exchange.requests'), 'exchange.requests', 200);
    expectStatus(call(user, 'notification.list'), 'notification.list', 200);
    expectStatus(call(user, 'notification.count'), 'notification.count', 200);
    expectStatus(call(null, 'exchange.rate'), 'exchange.rate', 200);
  });
  sleep(3);
}
