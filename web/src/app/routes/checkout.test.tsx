/** The checkout's details: the test mode notice and the card form in both languages, expired cards, a premium visitor. */
import { describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { CardMessages, CreateSubscriptionResponse, SubscriptionInfo, SubscriptionPlans, SubscriptionRefusal, TEST_MODE_NOTICE } from '@puente/contracts';
import { useCurrentUser } from '../../lib/auth.ts';
import { chooseLanguage } from '../../lib/i18n.ts';
import { CheckoutRoute } from './checkout.tsx';
import { fakeApi, idempotencyKeyOf, makeUser, signedIn } from '../../testing/fake-api.ts';
import { findToast, renderWithRoutes } from '../../testing/render.tsx';

const info = (overrides: Partial<SubscriptionInfo> = {}) => SubscriptionInfo.parse({
  tier: 'free', status: 'none', currentPeriodEnd: null, cancelAtPeriodEnd: false, plan: SubscriptionPlans.free,
  payments: 'test', paymentNotice: TEST_MODE_NOTICE, publishableKey: null, ...overrides,
});
const premium = (overrides: Partial<SubscriptionInfo> = {}) => info({ tier: 'premium', status: 'active', currentPeriodEnd: '2026-06-04T10:00:00.000Z', plan: SubscriptionPlans.premium, ...overrides });
const started = { body: CreateSubscriptionResponse.parse({ clientSecret: 'pi_1_secret_2', subscriptionId: 'sub_1' }) };
const api = (subscription: SubscriptionInfo, more = {}) => fakeApi({
  ...signedIn(makeUser()), 'GET /api/subscription/info': { body: subscription }, 'POST /api/create-subscription': started, ...more,
});
const field = (label: RegExp) => screen.getByLabelText(label, { selector: 'input' }) as HTMLInputElement;
const helperOf = (input: HTMLElement) => document.getElementById(input.getAttribute('aria-describedby') ?? '')?.textContent?.trim();

function UserProbe() {
  useCurrentUser();
  return null;
}

describe('the test checkout', () => {
  it('starts the checkout once per visit, each visit under its own idempotency key', async () => {
    const server = api(info());
    const first = renderWithRoutes(<CheckoutRoute />);
    await screen.findByLabelText('Card number', { selector: 'input' });
    first.unmount();
    renderWithRoutes(<CheckoutRoute />);
    await screen.findByLabelText('Card number', { selector: 'input' });
    const keys = server.callsTo('POST /api/create-subscription').map(idempotencyKeyOf);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBeTruthy();
    expect(keys[1]).not.toBe(keys[0]);
  });

  it('says it is a test, and opens the number pad on the card fields, in English and in Spanish', async () => {
    api(info());
    renderWithRoutes(<CheckoutRoute />);
    expect((await screen.findByTestId('payment-notice')).textContent).toBe('Test mode — no real payment');
    await screen.findByLabelText('Card number', { selector: 'input' });
    for (const label of [/^Card number/, /^Expiry/, /^CVC/]) expect([String(label), field(label).getAttribute('inputmode')]).toEqual([String(label), 'numeric']);
    expect(document.querySelector('div[inputmode]')).toBeNull();
    await act(() => chooseLanguage('es'));
    expect(screen.getByTestId('payment-notice').textContent).toBe('Modo de prueba: no se cobra nada real');
    expect(field(/^Número de tarjeta/).value).toBe('4242 4242 4242 4242');
    expect(field(/^Vencimiento/).getAttribute('inputmode')).toBe('numeric');
  });

  it('returns to ?success=true once paid, though the plan read again after the payment already says premium', async () => {
    const server = api(info(), {
      'POST /api/subscription/test-checkout/confirm': () => {
        // The plan answers at once; the user read again after the payment, later.
        server.on({
          'GET /api/subscription/info': { body: premium() },
          'GET /api/auth/user': async () => { await new Promise((resolve) => setTimeout(resolve, 300)); return { body: makeUser({ subscriptionTier: 'premium' }) }; },
        });
        return { body: { message: 'Payment succeeded: you are on Premium.' } };
      },
    });
    // The header reads the user, as on every page: the payment reads it again, so the plan's answer comes first.
    const { router } = renderWithRoutes(<><UserProbe /><CheckoutRoute /></>, { extraRoutes: [{ path: '/subscription', element: <p>plans</p> }] });
    await screen.findByLabelText('Card number', { selector: 'input' });
    fireEvent.click(screen.getByRole('button', { name: 'Pay £9.99' }));
    await waitFor(() => expect(router.state.location.pathname + router.state.location.search).toBe('/subscription?success=true'));
    expect(server.callsTo('POST /api/subscription/test-checkout/confirm')[0]?.body).toEqual({ clientSecret: 'pi_1_secret_2', cardNumber: '4242 4242 4242 4242', expiry: '12/34' });
  });

  it("refuses an expiry in the past as Stripe's card form does, in English and in Spanish, and sends nothing", async () => {
    const server = api(info());
    renderWithRoutes(<CheckoutRoute />);
    const expiry = await screen.findByLabelText(/^Expiry/, { selector: 'input' });
    fireEvent.change(expiry, { target: { value: '01/20' } });
    fireEvent.click(screen.getByRole('button', { name: 'Pay £9.99' }));
    await waitFor(() => expect(helperOf(expiry)).toBe("Your card's expiration date is in the past."));
    expect(expiry.getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(expiry, { target: { value: '13/30' } });
    fireEvent.click(screen.getByRole('button', { name: 'Pay £9.99' }));
    await waitFor(() => expect(helperOf(expiry)).toBe(CardMessages.expiryInvalid));
    await act(() => chooseLanguage('es'));
    fireEvent.change(expiry, { target: { value: '12/2021' } });
    fireEvent.click(screen.getByRole('button', { name: 'Pagar £9,99' }));
    await waitFor(() => expect(helperOf(expiry)).toBe('La fecha de vencimiento de tu tarjeta ya pasó.'));
    expect(server.callsTo('POST /api/subscription/test-checkout/confirm')).toEqual([]);
  });

  it("shows the server's expired_card refusal (the expired test card) as a failed payment, in Spanish too", async () => {
    api(info(), { 'POST /api/subscription/test-checkout/confirm': { status: 402, body: { message: CardMessages.expired, code: SubscriptionRefusal.expiredCard } } });
    renderWithRoutes(<CheckoutRoute />);
    fireEvent.change(await screen.findByLabelText('Card number', { selector: 'input' }), { target: { value: '4000 0000 0000 0069' } });
    fireEvent.change(field(/^Expiry/), { target: { value: '1230' } });
    fireEvent.click(screen.getByRole('button', { name: 'Pay £9.99' }));
    const toast = await findToast();
    expect(toast.textContent).toContain('Payment Failed');
    expect(toast.textContent).toContain('Your card has expired.');
    await act(() => chooseLanguage('es'));
    fireEvent.click(screen.getByRole('button', { name: 'Pagar £9,99' }));
    await waitFor(async () => expect((await findToast()).textContent).toContain('Tu tarjeta está vencida'));
  });
});

describe('the checkout, for a premium user', () => {
  it('shows their plan and its renewal instead of a payment, and starts nothing, in English and in Spanish', async () => {
    const server = api(premium());
    renderWithRoutes(<CheckoutRoute />);
    const plan = await screen.findByTestId('current-plan');
    expect(plan.textContent).toBe('You are already on PremiumYour plan: Premium, £9.99/month. Nothing to pay now.Renews on 4 Jun 2026.');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Your plan');
    expect(screen.queryByText('Unable to initialize payment')).toBeNull();
    expect(screen.queryByLabelText('Card number', { selector: 'input' })).toBeNull();
    expect(screen.queryByTestId('payment-notice')).toBeNull();
    await act(() => chooseLanguage('es'));
    expect(within(plan).getByRole('alert').textContent).toContain('Ya tienes Premium');
    expect(plan.textContent).toContain('Se renueva el');
    expect(server.callsTo('POST /api/create-subscription')).toEqual([]);
  });

  it('says a failed renewal needs a new card', async () => {
    api(premium({ status: 'past_due' }));
    renderWithRoutes(<CheckoutRoute />);
    expect((await screen.findByTestId('current-plan')).textContent).toContain('Your last payment failed: update your card to keep Premium.');
  });

  it("turns the server's 409 already_premium (premium bought elsewhere) into the plan, with no error", async () => {
    const server = api(info(), {
      'POST /api/create-subscription': () => {
        server.on({ 'GET /api/subscription/info': { body: premium() } }); // paid in another tab meanwhile
        return { status: 409, body: { message: 'You already have a premium subscription', code: SubscriptionRefusal.alreadyPremium } };
      },
    });
    renderWithRoutes(<CheckoutRoute />);
    expect((await screen.findByTestId('current-plan')).textContent).toContain('Renews on 4 Jun 2026.');
    expect(screen.queryByText('Unable to initialize payment')).toBeNull();
    expect(screen.queryByText('Failed to initialize payment. Please try again.')).toBeNull(); // no error toast
    expect(server.callsTo('POST /api/create-subscription')).toHaveLength(1);
  });
});
