import { describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ExchangeLimits, ExchangeRate } from '@puente/contracts';
import { CreateExchangeButton } from './create-exchange-button.tsx';
import { makeRequest } from '../testing.ts';
import { fakeApi, makeUser, signedIn } from '../../../testing/fake-api.ts';
import { findToast, renderWithRoutes } from '../../../testing/render.tsx';
import { chooseLanguage } from '../../../lib/i18n.ts';

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
  it("says 'Account Required' while either bank account is missing, in a dialog that leads to /accounts", async () => {
    fakeApi(exchangeApi);
    const { router } = renderWithRoutes(<CreateExchangeButton hasBothAccounts={false} />, { extraRoutes: [{ path: '/accounts', element: <p>accounts</p> }] });
    fireEvent.click(screen.getByRole('button', { name: 'Create Exchange' }));
    const required = await screen.findByRole('dialog', { name: 'Account Required' });
    expect(required.textContent).toContain('You need both GBP and CLP accounts to create an exchange request');
    expect(required.textContent).toContain('Add your GBP and CLP bank accounts on the Accounts page');
    expect(screen.queryByRole('dialog', { name: 'Create Exchange Request' })).toBeNull();
    const add = within(required).getByRole('link', { name: 'Add bank accounts' });
    expect(add.getAttribute('href')).toBe('/accounts');
    fireEvent.click(add);
    await waitFor(() => expect(router.state.location.pathname).toBe('/accounts'));
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
    expect(within(dialog()).getByTestId('pay-amount').textContent).toBe('You pay £100.00 ·');
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

  it("shows the free plan's per-exchange limit as £500 is typed, under 'Subscription Limit Reached' with Upgrade to /subscription", async () => {
    fakeApi(exchangeApi);
    const { router } = renderWithRoutes(<CreateExchangeButton hasBothAccounts />, { extraRoutes: [{ path: '/subscription', element: <p>plans</p> }] });
    await openDialog();
    fireEvent.change(amount(), { target: { value: '150' } });
    expect(within(dialog()).queryByTestId('plan-limit-refusal')).toBeNull();
    expect(within(dialog()).getByTestId('receive-amount').tagName).toBe('P');
    fireEvent.change(amount(), { target: { value: '500' } });
    const refusal = await within(dialog()).findByTestId('plan-limit-refusal');
    expect(within(refusal).getByText('Subscription Limit Reached')).toBeTruthy();
    expect(within(refusal).getByTestId('refusal-perExchange').textContent).toBe('The Free plan allows at most £200.00 per exchange: £500.00 is £300.00 over.');
    // The receive amount does not pretend all is fine: it is struck through, under what would refuse it.
    expect(within(dialog()).getByText('This request would be refused as it is:')).toBeTruthy();
    expect(within(dialog()).getByTestId('receive-amount').tagName).toBe('DEL');
    const upgrade = within(refusal).getByRole('link', { name: 'Upgrade' });
    expect(upgrade.getAttribute('href')).toBe('/subscription');
    fireEvent.change(amount(), { target: { value: '200' } }); // the limit itself is allowed
    await waitFor(() => expect(within(dialog()).queryByTestId('plan-limit-refusal')).toBeNull());
    fireEvent.change(amount(), { target: { value: '200.01' } });
    fireEvent.click(within(await within(dialog()).findByTestId('plan-limit-refusal')).getByRole('link', { name: 'Upgrade' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/subscription'));
  });

  it("counts the pesos against the plan's pesos, and says when the day's and the month's exchanges are used up", async () => {
    fakeApi({ ...exchangeApi, 'GET /api/exchange-requests/limits': { body: { ...limits, usedToday: 2, usedThisMonth: 10 } } });
    renderWithRoutes(<CreateExchangeButton hasBothAccounts />);
    await openDialog();
    fireEvent.mouseDown(within(dialog()).getByRole('combobox', { name: 'Direction' }));
    fireEvent.click(await screen.findByRole('option', { name: 'CLP → GBP' }));
    fireEvent.change(amount(), { target: { value: '300000' } });
    const refusal = await within(dialog()).findByTestId('plan-limit-refusal');
    expect(within(refusal).getByTestId('refusal-perExchange').textContent).toBe('The Free plan allows at most $255,000 CLP per exchange: $300,000 CLP is $45,000 CLP over.');
    expect(within(refusal).getByTestId('refusal-perDay').textContent).toMatch(/^The Free plan allows 2 exchanges a day and you have made 2 today: you can post again from .*2026/);
    expect(within(refusal).getByTestId('refusal-perMonth').textContent).toMatch(/^The Free plan allows 10 exchanges a month and you have made 10 this month: you can post again from .*2026/);
  });

  it('says a premium limit with nothing to upgrade to', async () => {
    fakeApi({ ...exchangeApi, 'GET /api/exchange-requests/limits': { body: { ...limits, tier: 'premium', maxPerExchange: { GBP: 10_000, CLP: 12_750_000 }, perDay: 20, perMonth: 200 } } });
    renderWithRoutes(<CreateExchangeButton hasBothAccounts />);
    await openDialog();
    fireEvent.change(amount(), { target: { value: '10500' } });
    const refusal = await within(dialog()).findByTestId('plan-limit-refusal');
    expect(within(refusal).getByTestId('refusal-perExchange').textContent).toBe('The Premium plan allows at most £10,000.00 per exchange: £10,500.00 is £500.00 over.');
    expect(within(refusal).queryByRole('link', { name: 'Upgrade' })).toBeNull();
  });

  it('checks the rate band as the rate is typed, in the service\'s words, and by how much it is missed', async () => {
    fakeApi({ ...exchangeApi, 'GET /api/exchange-requests/limits': { body: { ...limits, usedToday: 0 } } });
    renderWithRoutes(<CreateExchangeButton hasBothAccounts />);
    await openDialog();
    fireEvent.change(amount(), { target: { value: '100' } });
    fireEvent.click(within(dialog()).getByRole('switch', { name: 'Use the market rate' }));
    const ownRate = within(dialog()).getByLabelText(/^Your rate/, { selector: 'input' });
    fireEvent.change(ownRate, { target: { value: '1403.05' } }); // the top of the band is allowed
    expect(within(dialog()).queryByTestId('rate-band-refusal')).toBeNull();
    fireEvent.change(ownRate, { target: { value: '1500' } });
    const refusal = await within(dialog()).findByTestId('rate-band-refusal');
    expect(refusal.textContent).toBe('Rate outside the allowed bandThe exchange rate must be within 10% of the market rate (1275.5000): from 1147.9500 to 1403.0500 Your rate is 96.9500 above the highest allowed.');
    expect(within(dialog()).getByTestId('receive-amount').tagName).toBe('DEL');
    fireEvent.change(ownRate, { target: { value: '1100' } });
    expect((await within(dialog()).findByTestId('rate-band-refusal')).textContent).toContain('Your rate is 47.9500 below the lowest allowed.');
    expect(within(dialog()).queryByTestId('plan-limit-refusal')).toBeNull(); // a rate is no plan's limit
  });

  it('says the rules in Spanish', async () => {
    await act(() => chooseLanguage('es'));
    fakeApi(exchangeApi);
    renderWithRoutes(<CreateExchangeButton hasBothAccounts />);
    fireEvent.click(await screen.findByRole('button', { name: 'Crear cambio' }));
    const create = await screen.findByRole('dialog', { name: 'Crear solicitud de cambio' });
    const refusal = await within(create).findByTestId('plan-limit-refusal');
    expect(within(refusal).getByText('Alcanzaste el límite de tu suscripción')).toBeTruthy();
    expect(within(refusal).getByTestId('refusal-perExchange').textContent).toBe('El plan Gratuito permite hasta £200,00 por cambio: £500,00 lo supera en £300,00.');
    expect(within(refusal).getByRole('link', { name: 'Mejorar plan' }).getAttribute('href')).toBe('/subscription');
  });

  /** Each refusal of posting a step lifts: the server's answer, the toast's words in each language, and its link (a plan limit has the spec's own title). */
  const refusals = [
    {
      name: 'missing accounts', message: 'You need both GBP and CLP accounts to create an exchange request', code: 'forbidden',
      title: { en: 'Failed to create exchange request: ', es: 'No se pudo crear la solicitud de cambio: ' },
      es: 'Necesitas una cuenta bancaria en GBP y otra en CLP para cambiar: agrégalas en la página Cuentas.',
      link: { en: 'Add bank accounts', es: 'Agregar cuentas bancarias', to: '/accounts' },
    },
    {
      name: "the plan's limit", message: 'Free plan limit reached: 2 exchanges a day. Upgrade to Premium for up to 20.', code: 'plan_limit',
      title: { en: 'Subscription Limit Reached', es: 'Alcanzaste el límite de tu suscripción' },
      es: 'Alcanzaste el límite de tu plan. Mejora a Premium para tener límites más altos.',
      link: { en: 'Upgrade', es: 'Mejorar plan', to: '/subscription' },
    },
    {
      name: 'a suspension', code: 'trading_suspended',
      title: { en: 'Failed to create exchange request: ', es: 'No se pudo crear la solicitud de cambio: ' },
      message: 'Your trading is suspended after a dispute: you cannot post or accept exchange requests until an admin lifts the suspension',
      es: 'Tu operación está suspendida tras una disputa: no puedes publicar ni aceptar solicitudes de cambio hasta que un administrador levante la suspensión.',
      link: { en: 'Contact support', es: 'Contactar a soporte', to: '/help' },
    },
  ];
  const words = {
    en: { open: 'Create Exchange', dialog: 'Create Exchange Request', amount: /^Amount/, create: 'Create Request' },
    es: { open: 'Crear cambio', dialog: 'Crear solicitud de cambio', amount: /^Monto/, create: 'Crear solicitud' },
  };
  for (const refusal of refusals) {
    for (const language of ['en', 'es'] as const) {
      it(`leads a server refusal for ${refusal.name} to ${refusal.link.to} (${language}), under the spec's toast`, async () => {
        const server = fakeApi({ ...exchangeApi, 'POST /api/exchange-requests': { status: 403, body: { message: refusal.message, code: refusal.code } } });
        if (language === 'es') await act(() => chooseLanguage('es'));
        const w = words[language];
        const { router } = renderWithRoutes(<CreateExchangeButton hasBothAccounts />, {
          extraRoutes: ['/accounts', '/subscription', '/help'].map((path) => ({ path, element: <p>{path}</p> })),
        });
        fireEvent.click(await screen.findByRole('button', { name: w.open }));
        const create = await screen.findByRole('dialog', { name: w.dialog });
        await within(create).findByTestId('exchange-rate');
        fireEvent.change(within(create).getByLabelText(w.amount, { selector: 'input' }), { target: { value: '100' } });
        fireEvent.click(within(create).getByRole('button', { name: w.create }));
        const toast = await findToast();
        expect(toast.textContent).toContain(refusal.title[language] + (language === 'es' ? refusal.es : refusal.message));
        fireEvent.click(within(toast).getByRole('button', { name: refusal.link[language], hidden: true }));
        await waitFor(() => expect(router.state.location.pathname).toBe(refusal.link.to));
        expect(server.callsTo('POST /api/exchange-requests')).toHaveLength(1);
      });
    }
  }

  it('says a rate the server finds outside the band (the market moved) in the user\'s language, and reads the rate again', async () => {
    await act(() => chooseLanguage('es'));
    const message = 'The exchange rate must be within 10% of the market rate (1400): from 1260.0000 to 1540.0000';
    const server = fakeApi({ ...exchangeApi, 'POST /api/exchange-requests': { status: 400, body: { message, code: 'validation_failed', errors: [{ field: 'exchangeRate', message }] } } });
    renderWithRoutes(<CreateExchangeButton hasBothAccounts />);
    fireEvent.click(await screen.findByRole('button', { name: 'Crear cambio' }));
    const create = await screen.findByRole('dialog', { name: 'Crear solicitud de cambio' });
    await within(create).findByTestId('exchange-rate');
    fireEvent.change(within(create).getByLabelText('Monto (GBP)', { selector: 'input' }), { target: { value: '100' } });
    fireEvent.click(within(create).getByRole('button', { name: 'Crear solicitud' }));
    expect((await findToast()).textContent).toContain('No se pudo crear la solicitud de cambio: El tipo de cambio debe estar dentro de un 10% del tipo de cambio del mercado, que acaba de cambiar');
    await waitFor(() => expect(server.callsTo('GET /api/exchange-rate').length).toBeGreaterThan(1));
  });
});
