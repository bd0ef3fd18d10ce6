/** Test users as the exchange service learns of them: through identity's and accounts' events. */
import { makeEvent } from '@puente/platform';
import type { TestService } from '@puente/platform/testing';

let nextAccountId = 1_000;

/** Delivers a user's registration and, unless told otherwise, a GBP and a CLP account. */
export async function trader(svc: TestService, userId: number, opts: { firstName?: string; lastName?: string; accounts?: ('GBP' | 'CLP')[] } = {}) {
  const { firstName = `User${userId}`, lastName = 'Tester', accounts = ['GBP', 'CLP'] } = opts;
  await svc.deliver(
    makeEvent('userRegistered', userId, { userId, firstName, lastName, role: 'user', referrerId: null }),
    ...accounts.map((currency) => {
      const accountId = nextAccountId++;
      return makeEvent('bankAccountAdded', accountId, { accountId, userId, currency });
    }),
  );
  return { userId, headers: await svc.as({ kind: 'user', userId, role: 'user' }) };
}
