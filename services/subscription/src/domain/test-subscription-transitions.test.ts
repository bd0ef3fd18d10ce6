import { describe, expect, it } from 'vitest';
import type Stripe from 'stripe';
import { ALREADY_PAID, catchUpTo, firstPaymentSucceeded, mayPay, started, type TestSubscriptionState } from './test-subscription-transitions.ts';
import { refusal } from '@puente/platform/testing';

const DAY = 86_400_000;
const END = new Date('2026-12-01T00:00:00Z');
const after = (days: number) => new Date(END.getTime() + days * DAY);
const aSubscription = (status: Stripe.Subscription.Status, fields: Partial<TestSubscriptionState> = {}): TestSubscriptionState =>
  ({ status, currentPeriodEnd: status === 'incomplete' ? null : END, cancelAtPeriodEnd: false, ...fields });

describe('test payment mode subscriptions', () => {
  it('first payment: a checkout just started is active until the period\'s end', () => {
    const s: TestSubscriptionState = started();
    firstPaymentSucceeded(s, END);
    expect(s).toEqual({ status: 'active', currentPeriodEnd: END, cancelAtPeriodEnd: false });
  });

  it.each(['active', 'canceled'] as const)('first payment: refused (409) for a %s subscription', (status) => {
    const s = aSubscription(status);
    expect(refusal(() => mayPay(s))).toEqual({ status: 409, code: 'conflict', message: ALREADY_PAID });
    expect(refusal(() => firstPaymentSucceeded(s, after(30)))).toEqual({ status: 409, code: 'conflict', message: ALREADY_PAID });
    expect(s.currentPeriodEnd).toBe(END);
  });

  it('an active period that ended renews by whole periods; one not ended yet does not move', () => {
    const s = aSubscription('active');
    expect(catchUpTo(s, after(-1), 30 * DAY)).toBe(false);
    expect(catchUpTo(s, after(45), 30 * DAY)).toBe(true);
    expect(s).toEqual({ status: 'active', currentPeriodEnd: after(60), cancelAtPeriodEnd: false });
  });

  it('an active period that ended is canceled if it was to end then', () => {
    const s = aSubscription('active', { cancelAtPeriodEnd: true });
    expect(catchUpTo(s, END, 30 * DAY)).toBe(true);
    expect(s).toMatchObject({ status: 'canceled', currentPeriodEnd: END });
  });

  it.each(['incomplete', 'canceled'] as const)('a %s subscription never moves with time', (status) => {
    const s = aSubscription(status);
    expect(catchUpTo(s, after(90), 30 * DAY)).toBe(false);
    expect(s.status).toBe(status);
  });
});
