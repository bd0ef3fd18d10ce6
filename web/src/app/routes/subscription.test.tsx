import { describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  CreateSubscriptionResponse, ExchangeLimits, PAYMENTS_NOT_CONFIGURED, SubscriptionInfo, SubscriptionPlans, SubscriptionRefusal, TEST_MODE_NOTICE,
} from '@puente/contracts';
import { chooseLanguage } from '../../lib/i18n.ts';
import { AdSlot } from '../../features/subscription/components/ad-slot.tsx';
import { CheckoutRoute } from './checkout.tsx';
import { SubscriptionRoute } from './subscription.tsx';
import { fakeApi, makeUser, signedIn } from '../../testing/fake-api.ts';
import { findToast, renderWithRoutes } from '../../testing/render.tsx';

const info = (overrides: Partial<SubscriptionInfo> = {}) => SubscriptionInfo.parse({
  tier: 'free', status: 'none', currentPeriodEnd: null, cancelAtPeriodEnd: false, plan: SubscriptionPlans.free,
  payments: 'test', paymentNotice: TEST_MODE_NOTICE, publishableKey: null, ...overrides,
});
/** Production without Stripe keys or PAYMENTS_TEST_MODE=true. */
const unavailable = () => info({ payments: 'unavailable', paymentNotice: null });
const premium = (overrides: Partial<SubscriptionInfo> = {}) => info({ tier: 'premium', status: 'active', currentPeriodEnd: '2026-06-04T10:00:00.000Z', plan: SubscriptionPlans.premium, ...overrides });
const limits = ExchangeLimits.parse({
  tier: 'free', maxPerExchange: { GBP: 200, CLP: 255_000 }, perDay: 2, perMonth: 10, usedToday: 2, usedThisMonth: 4,
  resetsAt: { day: '2026-05-05T00:00:00.000Z', month: '2026-06-01T00:00:00.000Z' },
});
const api = (subscription: SubscriptionInfo, more = {}) => fakeApi({
  ...signedIn(makeUser()), 'GET /api/subscription/info': { body: subscription }, 'GET /api/exchange-requests/limits': { body: limits }, ...more,
});

describe('the subscription page', () => {
  it("shows both plans with the spec's prices, limits and extras, the usage and a comparison", async () => {
    api(info());
    renderWithRoutes(<SubscriptionRoute />);
    const free = await screen.findByRole('region', { name: 'Free' });
    const paid = screen.getByRole('region', { name: 'Premium' });
    expect(within(free).getByTestId('plan-price').textContent).toBe('£0/month');
    expect(within(paid).getByTestId('plan-price').textContent).toBe('£9.99/month');
    expect(free.textContent).toContain('Up to £200 / 255,000 CLP per exchange2 exchanges per day10 exchanges per monthAds');
    expect(paid.textContent).toContain('Up to £10,000 / 12,750,000 CLP per exchange20 exchanges per day200 exchanges per monthNo adsPriority supportAdvanced analytics');
    expect(within(free).getByText('Current plan')).toBeTruthy();
    expect(within(paid).getByRole('link', { name: 'Upgrade to Premium' }).getAttribute('href')).toBe('/subscription/checkout');
    expect((await screen.findByTestId('usage-today')).textContent).toBe('2 of 2 exchanges today');
    expect(screen.getByRole('table', { name: 'Compare plans' }).textContent).toContain('Per day2 exchanges per day20 exchanges per day');
  });

  it("lets premium cancel, showing the period end; a failure says 'Failed to cancel subscription. Please try again.'", async () => {
    const server = api(premium(), { 'POST /api/cancel-subscription': { status: 502, body: { message: 'Stripe did not answer', code: 'bad_gateway' } } });
    renderWithRoutes(<SubscriptionRoute />);
    const paid = await screen.findByRole('region', { name: 'Premium' });
    expect(paid.textContent).toContain('Renews on 4 Jun 2026.');
    fireEvent.click(within(paid).getByRole('button', { name: 'Cancel Subscription' }));
    expect((await findToast()).textContent).toContain('Failed to cancel subscription. Please try again.');
    server.on({ 'POST /api/cancel-subscription': { body: { message: 'Subscription cancelled' } }, 'GET /api/subscription/info': { body: premium({ cancelAtPeriodEnd: true }) } });
    fireEvent.click(within(paid).getByRole('button', { name: 'Cancel Subscription' }));
    await waitFor(() => expect(paid.textContent).toContain('Your Premium plan ends on 4 Jun 2026.'));
    expect(within(paid).queryByRole('button', { name: 'Cancel Subscription' })).toBeNull();
  });

  it('where payments are not configured, says so in place of the Upgrade button, in English and in Spanish', async () => {
    api(unavailable());
    renderWithRoutes(<SubscriptionRoute />);
    const paid = await screen.findByRole('region', { name: 'Premium' });
    expect(within(paid).getByTestId('payments-unavailable').textContent)
      .toBe('Payments are not configuredPremium cannot be bought here yet: card payments have not been set up on this server. Your plan stays as it is.');
    expect(within(paid).queryByRole('link', { name: 'Upgrade to Premium' })).toBeNull();
    await act(() => chooseLanguage('es'));
    expect(within(paid).getByTestId('payments-unavailable').textContent)
      .toBe('Los pagos no están configuradosTodavía no se puede comprar Premium aquí: los pagos con tarjeta no están configurados en este servidor. Tu plan sigue igual.');
  });

  it('after the checkout waits for the tier to turn premium, then shows the success state', async () => {
    const server = api(info({ status: 'incomplete' }));
    renderWithRoutes(<SubscriptionRoute />, { path: '/?success=true' });
    expect(await screen.findByText('Finishing your upgrade…')).toBeTruthy();
    server.on({ 'GET /api/subscription/info': { body: premium() } });
    expect((await screen.findByTestId('subscription-success', {}, { timeout: 8_000 })).textContent).toContain('Welcome to Premium!');
  });
});

describe('the checkout', () => {
  it('in test mode shows the notice and a test card form that pays and returns to ?success=true', async () => {
    const server = api(info(), {
      'POST /api/create-subscription': { body: CreateSubscriptionResponse.parse({ clientSecret: 'pi_1_secret_2', subscriptionId: 'sub_1' }) },
      'POST /api/subscription/test-checkout/confirm': { status: 402, body: { message: 'Your card was declined.', code: 'card_declined' } },
    });
    const { router } = renderWithRoutes(<CheckoutRoute />, { extraRoutes: [{ path: '/subscription', element: <p>plans</p> }] });
    expect((await screen.findByTestId('payment-notice')).textContent).toBe('Test mode — no real payment');
    const card = await screen.findByLabelText('Card number', { selector: 'input' });
    expect((card as HTMLInputElement).value).toBe('4242 4242 4242 4242');
    fireEvent.change(card, { target: { value: '4000 0000 0000 0002' } });
    fireEvent.click(screen.getByRole('button', { name: 'Pay £9.99' }));
    const toast = await findToast();
    expect(toast.textContent).toContain('Payment Failed');
    expect(toast.textContent).toContain('Your card was declined.');
    server.on({ 'POST /api/subscription/test-checkout/confirm': { body: { message: 'Payment confirmed' } } });
    fireEvent.change(card, { target: { value: '4242 4242 4242 4242' } });
    fireEvent.click(screen.getByRole('button', { name: 'Pay £9.99' }));
    await waitFor(() => expect(router.state.location.pathname + router.state.location.search).toBe('/subscription?success=true'));
    expect(server.callsTo('POST /api/create-subscription')).toHaveLength(1);
    expect(server.callsTo('POST /api/subscription/test-checkout/confirm').at(-1)?.body).toEqual({ clientSecret: 'pi_1_secret_2', cardNumber: '4242 4242 4242 4242', expiry: '12/34' });
  });

  it('where payments are not configured, shows the notice instead of a card form and starts no checkout', async () => {
    const server = api(unavailable());
    renderWithRoutes(<CheckoutRoute />);
    expect((await screen.findByTestId('payments-unavailable')).textContent).toContain('Payments are not configured');
    expect(screen.queryByLabelText('Card number', { selector: 'input' })).toBeNull();
    expect(screen.queryByTestId('payment-notice')).toBeNull();
    expect(server.callsTo('POST /api/create-subscription')).toEqual([]);
  });

  it('shows the same notice, and no error toast, when the server refuses the checkout with 503 payments_not_configured', async () => {
    const server = api(info(), {
      'POST /api/create-subscription': { status: 503, body: { message: PAYMENTS_NOT_CONFIGURED, code: SubscriptionRefusal.paymentsNotConfigured } },
    });
    renderWithRoutes(<CheckoutRoute />);
    expect((await screen.findByTestId('payments-unavailable')).textContent).toContain('Payments are not configured');
    expect(server.callsTo('POST /api/create-subscription')).toHaveLength(1);
    expect(screen.queryByText('Unable to initialize payment')).toBeNull();
    expect(screen.queryByText('Failed to initialize payment. Please try again.')).toBeNull();
    expect(screen.queryByLabelText('Card number', { selector: 'input' })).toBeNull();
  });

  it("says 'Unable to initialize payment' when the subscription cannot start", async () => {
    api(info(), { 'POST /api/create-subscription': { status: 502, body: { message: 'Stripe did not answer', code: 'bad_gateway' } } });
    renderWithRoutes(<CheckoutRoute />);
    expect(await screen.findByText('Unable to initialize payment')).toBeTruthy();
    expect((await findToast()).textContent).toContain('Failed to initialize payment. Please try again.');
  });
});

describe('the ad slot', () => {
  it('is shown on the free plan, labelled, and not on premium', () => {
    const { unmount } = renderWithRoutes(<AdSlot tier="free" />);
    expect(screen.getByRole('complementary', { name: 'Advertisement' }).textContent).toContain('Go Premium');
    unmount();
    renderWithRoutes(<AdSlot tier="premium" />);
    expect(screen.queryByRole('complementary')).toBeNull();
  });
});
