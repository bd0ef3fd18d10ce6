/** Users of the subscription routes in tests: registered through the bus, calling as a browser would. */
import { expect } from 'vitest';
import { CreateSubscriptionResponse, SubscriptionInfo } from '@puente/contracts';
import { makeEvent } from '@puente/platform';
import type { TestService } from '@puente/platform/testing';

export interface Subscriber { userId: number; headers: Record<string, string> }

export function subscribers(svc: () => TestService, firstUserId: number) {
  let nextUser = firstUserId;
  /** A newly registered user (on the free plan). */
  async function user(): Promise<Subscriber> {
    const userId = nextUser++;
    await svc().deliver(makeEvent('userRegistered', userId, { userId, firstName: 'Ana', lastName: 'Diaz', role: 'user', referrerId: 1 }));
    return { userId, headers: await svc().as({ kind: 'user', userId, role: 'user' }) };
  }
  const post = (u: Subscriber, url: string, payload?: object) => svc().app.inject({ method: 'POST', url, headers: u.headers, ...(payload ? { payload } : {}) });
  async function info(u: Subscriber) {
    const res = await svc().app.inject({ method: 'GET', url: '/subscription/info', headers: u.headers });
    expect(res.statusCode, res.body).toBe(200);
    return SubscriptionInfo.parse(res.json());
  }
  async function checkout(u: Subscriber) {
    const res = await post(u, '/create-subscription');
    expect(res.statusCode, res.body).toBe(200);
    return CreateSubscriptionResponse.parse(res.json());
  }
  return { user, post, info, checkout };
}
