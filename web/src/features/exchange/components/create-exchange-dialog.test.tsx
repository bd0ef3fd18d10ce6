import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ExchangeLimits, ExchangeRate } from '@puente/contracts';
import { CreateExchangeButton } from './create-exchange-button.tsx';
import { makeRequest } from '../testing.ts';
import { fakeApi, makeUser, signedIn } from '../../../testing/fake-api.ts';
import { findToast, renderWithRoutes } from '../../../testing/render.tsx';

const rate = ExchangeRate.parse({ gbpToClp: 1275.5, lastUpdated: new Date().toISOString() });
const limits = ExchangeLimits.parse({
  tier: 'free', maxPerExchange: { GBP: 200, CLP: 255_000 }, perDay: 2, perMonth: 10, usedToday: 1, usedThisMonth: 3,
  resetsAt: { day: '2026-05-05T00:00:00.000Z', month: '2026-06-01T00:00:00.000Z' },
});
const exchangeApi = { ...signedIn(makeUser()), 'GET /api/exchange-rate': { body: rate }, 'GET /api/exchange-requests/limits': { body: limits } };

const dialog = () => screen.getByRole('dialog');
const amount = () => within(dialog()).getByLabelText(/^Amount/, { selector: 'input' });

async function openDialog() {
  fireEvent.click(await screen.findByRole('button', { name: 'Create Exchange' }));
  await within(await screen.findByRole('dialog')).findByTestId('exchange-rate');
}

describe('creating an exchange request', () => {
  it("says 'Account Required' while either bank account is missing", async () => {
    fakeApi(exchangeApi);
    renderWithRoutes(<CreateExchangeButton hasBothAccounts={false} />);
    fireEvent.click(screen.getByRole('button', { name: 'Create Exchange' }));
    const toast = await findToast();
    expect(toast.textContent).toContain('Account Required');
    expect(toast.textContent).toContain('You need both GBP and CLP accounts to create an exchange request');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('opens the decimal pad for the amount and the own rate: inputmode on the <input> itself', async () => {
    fakeApi(exchangeApi);
    renderWithRoutes(<CreateExchangeButton hasBothAccounts />);
    await openDialog();
    expect(amount().getAttribute('inputmode')).toBe('decimal');
    fireEvent.click(within(dialog()).getByRole('switch', { name: 'Use the market rate' }));
    expect(within(dialog()).getByLabelText(/^Your rate/, { selector: 'input' }).getAttribute('inputmode')).toBe('decimal');
    expect(dialog().querySelector('div[inputmode]')).toBeNull();
  });

  it('shows the rate, 500 by default, the receive amount as one types in both directions, and the plan', async () => {
    fakeApi(exchangeApi);
    renderWithRoutes(<CreateExchangeButton hasBothAccounts />);
    await openDialog();
    expect(within(dialog()).getByTestId('exchange-rate').textContent).toBe('1 GBP = 1275.5000 CLP');
    expect(within(dialog()).getByText(/^Last updated/)).toBeTruthy();
    expect((amount() as HTMLInputElement).value).toBe('500');
    expect(within(dialog()).getByTestId('receive-amount').textContent).toBe('You receive about $637,750 CLP');
    fireEvent.change(amount(), { target: { value: '100' } });
    expect(within(dialog()).getByTestId('receive-amount').textContent).toBe('You receive about $127,550 CLP');
    fireEvent.mouseDown(within(dialog()).getByRole('combobox', { name: 'Direction' }));
    fireEvent.click(await screen.findByRole('option', { name: 'CLP → GBP' }));
    fireEvent.change(amount(), { target: { value: '255000' } });
    expect(within(dialog()).getByTestId('receive-amount').textContent).toBe('You receive about £199.92');
    expect(within(dialog()).getByTestId('plan-limits').textContent)
      .toBe('Free plan: up to £200.00 / $255,000 CLP per exchange; 1 of 2 today, 3 of 10 this month');
  });

  it("refuses a non-positive amount with 'Amount must be positive' and sends the market rate otherwise", async () => {
    const server = fakeApi({ ...exchangeApi, 'POST /api/exchange-requests': { status: 201, body: makeRequest({ id: 77, userId: 7 }) } });
    renderWithRoutes(<CreateExchangeButton hasBothAccounts />);
    await openDialog();
    fireEvent.change(amount(), { target: { value: '-5' } });
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Create Request' }));
    expect(await within(dialog()).findByText('Amount must be positive')).toBeTruthy();
    expect(server.callsTo('POST /api/exchange-requests')).toHaveLength(0);
    fireEvent.change(amount(), { target: { value: '100' } });
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Create Request' }));
    expect((await findToast()).textContent).toContain('Exchange Request Created');
    expect(server.callsTo('POST /api/exchange-requests')[0]?.body).toEqual({ fromCurrency: 'GBP', toCurrency: 'CLP', amount: 100, exchangeRate: 1275.5 });
  });

  it('lets the user offer their own rate within the band', async () => {
    const server = fakeApi({ ...exchangeApi, 'POST /api/exchange-requests': { status: 201, body: makeRequest({ id: 77, userId: 7 }) } });
    renderWithRoutes(<CreateExchangeButton hasBothAccounts />);
    await openDialog();
    fireEvent.click(within(dialog()).getByRole('switch', { name: 'Use the market rate' }));
    expect(within(dialog()).getByText('Between 1147.9500 and 1403.0500 (within 10% of the market rate)')).toBeTruthy();
    fireEvent.change(within(dialog()).getByLabelText(/^Your rate/, { selector: 'input' }), { target: { value: '1300' } });
    expect(within(dialog()).getByTestId('receive-amount').textContent).toBe('You receive about $650,000 CLP');
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Create Request' }));
    await waitFor(() => expect(server.callsTo('POST /api/exchange-requests')[0]?.body).toMatchObject({ exchangeRate: 1300 }));
  });

  it("turns a plan limit refusal into 'Subscription Limit Reached' with Upgrade, and others into 'Failed to create exchange request: ...'", async () => {
    const server = fakeApi({ ...exchangeApi, 'POST /api/exchange-requests': { status: 429, body: { message: 'Daily limit reached: the free plan allows 2 exchanges a day. Upgrade to Premium for more.', code: 'limit_reached' } } });
    const { router } = renderWithRoutes(<CreateExchangeButton hasBothAccounts />, { extraRoutes: [{ path: '/subscription', element: <p>plans</p> }] });
    await openDialog();
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Create Request' }));
    const toast = await findToast();
    expect(toast.textContent).toContain('Subscription Limit Reached');
    fireEvent.click(within(toast).getByRole('button', { name: 'Upgrade', hidden: true }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/subscription'));

    server.on({ 'POST /api/exchange-requests': { status: 400, body: { message: 'The exchange rate must be within 10%', code: 'validation' } } });
    await router.navigate('/');
    await openDialog();
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Create Request' }));
    await waitFor(async () => expect((await findToast()).textContent).toContain('Failed to create exchange request: The exchange rate must be within 10%'));
  });
});
