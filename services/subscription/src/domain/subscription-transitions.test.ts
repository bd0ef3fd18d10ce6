import { describe, expect, it } from 'vitest';
import type { SubscriptionStatus } from '@puente/contracts';
import { Subscription } from './subscription.ts';
import {
  ALREADY_PREMIUM, NOTHING_TO_CANCEL, cancelRenewal, ended, followProvider, forget, freePlan, mayCancel, paid, paymentFailed, resumeRenewal, startCheckout,
} from './subscription-transitions.ts';
import { refusal } from '@puente/platform/testing';

const USER = 7;
const END = new Date('2026-12-01T00:00:00Z');
const NEXT_END = new Date('2026-12-31T00:00:00Z');
const STATUSES: SubscriptionStatus[] = ['none', 'incomplete', 'active', 'past_due', 'cancelled'];
const PREMIUM: SubscriptionStatus[] = ['active', 'past_due'];
const FREE = STATUSES.filter((s) => !PREMIUM.includes(s));

/** A plan in `status`, premium (with a period and the provider's subscription) while active or past_due. */
function aPlan(status: SubscriptionStatus, fields: Partial<Subscription> = {}): Subscription {
  const premium = PREMIUM.includes(status);
  return Object.assign(new Subscription(), {
    id: 1, userId: USER, tier: premium ? 'premium' : 'free', status, currentPeriodEnd: premium ? END : null, cancelAtPeriodEnd: false,
    customerId: status === 'none' ? null : 'cus_1', providerSubscriptionId: status === 'none' ? null : 'sub_1', lastEventAt: 0,
  } satisfies Partial<Subscription>, fields);
}

const activated = (end: Date) => ({ type: 'subscription.subscription.activated', payload: { userId: USER, tier: 'premium', currentPeriodEnd: end.toISOString() } });
const cancelled = { type: 'subscription.subscription.cancelled', payload: { userId: USER, tier: 'free' } };

describe('subscription transitions', () => {
  it('a new user starts free, with no subscription', () => {
    expect(freePlan(USER)).toEqual({ userId: USER, tier: 'free', status: 'none', currentPeriodEnd: null });
  });

  it.each(FREE)('checkout: a %s plan starts one, its first payment awaited, announcing nothing', (status) => {
    const row = aPlan(status, { cancelAtPeriodEnd: true });
    expect(startCheckout(row, 'sub_2')).toEqual([]);
    expect(row).toMatchObject({ tier: 'free', status: 'incomplete', providerSubscriptionId: 'sub_2', cancelAtPeriodEnd: false });
  });

  it.each(PREMIUM)('checkout: refused while %s (premium)', (status) => {
    const row = aPlan(status);
    expect(refusal(() => startCheckout(row, 'sub_2'))).toEqual({ status: 409, code: 'already_premium', message: ALREADY_PREMIUM });
    expect(row).toMatchObject({ status, providerSubscriptionId: 'sub_1' });
  });

  it.each(PREMIUM)('resume: a %s plan set to end at the period\'s end renews again, announcing nothing', (status) => {
    const row = aPlan(status, { cancelAtPeriodEnd: true });
    expect(resumeRenewal(row)).toEqual([]);
    expect(row).toMatchObject({ tier: 'premium', status, cancelAtPeriodEnd: false });
  });

  it('resume: refused for premium not set to end, and for any free plan', () => {
    for (const row of [aPlan('active'), ...FREE.map((s) => aPlan(s, { cancelAtPeriodEnd: true }))]) {
      expect(refusal(() => resumeRenewal(row))).toEqual({ status: 409, code: 'already_premium', message: ALREADY_PREMIUM });
    }
  });

  it.each(PREMIUM)('cancel: a %s plan stays premium until the period\'s end, announcing nothing yet', (status) => {
    const row = aPlan(status);
    expect(cancelRenewal(row)).toEqual([]);
    expect(row).toMatchObject({ tier: 'premium', status, cancelAtPeriodEnd: true, currentPeriodEnd: END });
  });

  it('cancel: refused without a plan, for a free one, and for premium the provider does not bill', () => {
    const refused = { status: 409, code: 'conflict', message: NOTHING_TO_CANCEL };
    expect(refusal(() => mayCancel(null))).toEqual(refused);
    for (const row of [...FREE.map((s) => aPlan(s)), aPlan('active', { providerSubscriptionId: null })]) {
      expect(refusal(() => cancelRenewal(row))).toEqual(refused);
      expect(row.cancelAtPeriodEnd).toBe(false);
    }
  });

  it.each(FREE)('paid: a %s plan becomes premium and active until the period\'s end, announced', (status) => {
    const row = aPlan(status);
    expect(paid(row, END)).toMatchObject([activated(END)]);
    expect(row).toMatchObject({ tier: 'premium', status: 'active', currentPeriodEnd: END });
  });

  it('paid: a renewal moves the period on (announced); the same or an older period changes nothing announced', () => {
    const row = aPlan('active');
    expect(paid(row, NEXT_END)).toMatchObject([activated(NEXT_END)]);
    expect(paid(row, NEXT_END)).toEqual([]);
    expect(paid(row, END)).toEqual([]);
    expect(row).toMatchObject({ status: 'active', currentPeriodEnd: NEXT_END });
  });

  it('paid: past_due is active again; announced only if the period moved on', () => {
    const row = aPlan('past_due');
    expect(paid(row, END)).toEqual([]);
    expect(row).toMatchObject({ tier: 'premium', status: 'active' });
    const late = aPlan('past_due');
    expect(paid(late, NEXT_END)).toMatchObject([activated(NEXT_END)]);
  });

  it('payment failed: an active plan is past_due, still premium, announced once', () => {
    const row = aPlan('active');
    expect(paymentFailed(row)).toMatchObject([{ type: 'subscription.payment.failed', payload: { userId: USER } }]);
    expect(row).toMatchObject({ tier: 'premium', status: 'past_due' });
    expect(paymentFailed(row)).toEqual([]);
  });

  it.each(FREE)('payment failed: a %s plan does not move', (status) => {
    const row = aPlan(status);
    expect(paymentFailed(row)).toEqual([]);
    expect(row.status).toBe(status);
  });

  it.each(PREMIUM)('ended: a %s plan is free again (cancelled), announced', (status) => {
    const row = aPlan(status, { cancelAtPeriodEnd: true });
    expect(ended(row)).toMatchObject([cancelled]);
    expect(row).toMatchObject({ tier: 'free', status: 'cancelled', cancelAtPeriodEnd: false });
  });

  it.each(FREE)('ended: a %s plan is cancelled, announcing nothing (the user was not premium)', (status) => {
    const row = aPlan(status);
    expect(ended(row)).toEqual([]);
    expect(row).toMatchObject({ tier: 'free', status: 'cancelled' });
  });

  it('the provider\'s state: canceled, unpaid and incomplete_expired end the plan', () => {
    for (const status of ['canceled', 'unpaid', 'incomplete_expired'] as const) {
      const row = aPlan('active');
      expect(followProvider(row, { status, currentPeriodEnd: END, cancelAtPeriodEnd: false })).toMatchObject([cancelled]);
      expect(row).toMatchObject({ tier: 'free', status: 'cancelled' });
    }
  });

  it('the provider\'s state: incomplete changes nothing (the first payment is awaited)', () => {
    const row = aPlan('incomplete');
    expect(followProvider(row, { status: 'incomplete', currentPeriodEnd: END, cancelAtPeriodEnd: true })).toEqual([]);
    expect(row).toMatchObject({ tier: 'free', status: 'incomplete', cancelAtPeriodEnd: false });
  });

  it('the provider\'s state: past_due moves premium to past_due without announcing it (the invoice\'s failure does), never a free plan', () => {
    const row = aPlan('active');
    expect(followProvider(row, { status: 'past_due', currentPeriodEnd: END, cancelAtPeriodEnd: true })).toEqual([]);
    expect(row).toMatchObject({ tier: 'premium', status: 'past_due', cancelAtPeriodEnd: true });
    const free = aPlan('incomplete');
    followProvider(free, { status: 'past_due', currentPeriodEnd: END, cancelAtPeriodEnd: false });
    expect(free).toMatchObject({ tier: 'free', status: 'incomplete' });
  });

  it('the provider\'s state: active or trialing is paid until its period\'s end', () => {
    for (const status of ['active', 'trialing'] as const) {
      const row = aPlan('incomplete');
      expect(followProvider(row, { status, currentPeriodEnd: END, cancelAtPeriodEnd: true })).toMatchObject([activated(END)]);
      expect(row).toMatchObject({ tier: 'premium', status: 'active', cancelAtPeriodEnd: true });
    }
  });

  it('the provider\'s state: paused only follows the cancel-at-period-end flag', () => {
    const row = aPlan('active');
    expect(followProvider(row, { status: 'paused', currentPeriodEnd: NEXT_END, cancelAtPeriodEnd: true })).toEqual([]);
    expect(row).toMatchObject({ tier: 'premium', status: 'active', currentPeriodEnd: END, cancelAtPeriodEnd: true });
  });

  it('forget: a deleted user\'s plan ends (announced if premium) and the provider\'s references go', () => {
    const premium = aPlan('active');
    expect(forget(premium)).toMatchObject([cancelled]);
    expect(premium).toMatchObject({ tier: 'free', status: 'cancelled', customerId: null, providerSubscriptionId: null, currentPeriodEnd: null });
    const never = aPlan('none');
    expect(forget(never)).toEqual([]);
    expect(never).toMatchObject({ tier: 'free', status: 'none', customerId: null, providerSubscriptionId: null });
  });
});
