/**
 * Sign-up and login: each iteration is a new visitor who checks the referral code, signs up, verifies the emailed
 * token, logs in, reads who they are, logs out and logs in again. Proves the password hashing and session creation
 * keep within budget under a steady stream of newcomers. The gateway limits sign-ups per IP (RATE_LIMIT_SIGNUP_IP,
 * 10 an hour by default): raise it on the deployment under test, as README.md says.
 */
import { group, sleep } from 'k6';
import type { Options } from 'k6/options';
import { Counter } from 'k6/metrics';
import { call, expectStatus, logIn, REFERRAL_CODE, signUp, thresholds } from './lib/puente.ts';

const signedUp = new Counter('users_signed_up');

export const options: Options = {
  scenarios: {
    newcomers: {
      executor: 'ramping-arrival-rate', startRate: 1, timeUnit: '1s', preAllocatedVUs: 10, maxVUs: 50,
      stages: [{ target: 5, duration: '1m' }, { target: 5, duration: '3m' }, { target: 0, duration: '30s' }],
    },
  },
  // Password hashing makes sign-up and login the slowest routes by design: their own budget.
  thresholds: {
    ...thresholds(800, 2000, { 'identity.signupRequest': [1500, 3000], 'identity.login': [1000, 2500] }),
    users_signed_up: ['count>0'],
  },
};

export default function (): void {
  group('sign up', () => {
    expectStatus(call(null, 'identity.verifyReferral', { params: { code: REFERRAL_CODE } }), 'identity.verifyReferral', 200);
    const user = signUp('signup');
    signedUp.add(1);
    sleep(1);
    group('log out and in again', () => {
      expectStatus(call(user, 'gateway.logout'), 'gateway.logout', 200);
      const again = logIn(user.email, user.password);
      expectStatus(call(again, 'identity.currentUser'), 'identity.currentUser', 200);
    });
  });
}
