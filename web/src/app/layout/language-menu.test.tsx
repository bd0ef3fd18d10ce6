import { describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ExchangeLimits, ExchangeRate } from '@puente/contracts';
import { Header } from './header.tsx';
import { chooseLanguage } from '../../lib/i18n.ts';
import { CreateExchangeButton } from '../../features/exchange/components/create-exchange-button.tsx';
import { fakeApi, makeUser, signedIn } from '../../testing/fake-api.ts';
import { findToast, renderWithRoutes } from '../../testing/render.tsx';

const rate = ExchangeRate.parse({ gbpToClp: 1275.5, lastUpdated: new Date().toISOString() });
const limits = ExchangeLimits.parse({
  tier: 'free', maxPerExchange: { GBP: 200, CLP: 255_000 }, perDay: 2, perMonth: 10, usedToday: 2, usedThisMonth: 3,
  resetsAt: { day: '2026-05-05T00:00:00.000Z', month: '2026-06-01T00:00:00.000Z' },
});
const planLimit = {
  status: 403, body: { message: 'Free plan limit reached: 2 exchanges per day. Upgrade to Premium for up to 20.', code: 'plan_limit' },
};

function renderPage() {
  fakeApi({
    ...signedIn(makeUser()), 'GET /api/exchange-rate': { body: rate }, 'GET /api/exchange-requests/limits': { body: limits },
    'POST /api/exchange-requests': planLimit, 'PATCH /api/auth/user': ({ body }) => ({ body: { ...makeUser(), ...(body as object) } }),
  });
  return renderWithRoutes(<><Header /><CreateExchangeButton hasBothAccounts /></>, { extraRoutes: [{ path: '/subscription', element: <p>planes</p> }] });
}

describe('the language switch', () => {
  it('turns the app into Spanish: a dialog with Chilean figures and Spanish field messages, and a toast that still offers the upgrade', async () => {
    const { router } = renderPage();
    const english = await screen.findByRole('button', { name: 'EN — Language: English' });
    expect(english.textContent).toBe('EN'); // the name starts with what is shown (WCAG 2.5.3)
    fireEvent.click(english);
    fireEvent.click(screen.getByRole('menuitem', { name: 'Español' }));
    expect((await screen.findByRole('button', { name: 'ES — Idioma: Español' })).textContent).toBe('ES');
    expect(document.documentElement.lang).toBe('es-CL');
    expect(localStorage.getItem('ui-language')).toBe('es');
    expect(screen.getByRole('link', { name: 'Historial' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Crear cambio' }));
    const dialog = await screen.findByRole('dialog', { name: 'Crear solicitud de cambio' });
    expect((await within(dialog).findByTestId('exchange-rate')).textContent).toBe('1 GBP = 1.275,5000 CLP');
    expect(within(dialog).getByTestId('receive-amount').textContent).toBe('Recibes aproximadamente $637.750');
    expect(within(dialog).getByTestId('plan-limits').textContent).toBe('Plan Gratuito: hasta £200,00 / $255.000 por cambio; 2 de 2 hoy, 3 de 10 este mes');

    const amount = within(dialog).getByLabelText('Monto (GBP)', { selector: 'input' });
    fireEvent.change(amount, { target: { value: '1.000' } }); // a thousand, as Chile writes it
    expect(within(dialog).getByTestId('receive-amount').textContent).toBe('Recibes aproximadamente $1.275.500');
    fireEvent.change(amount, { target: { value: '-5' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Crear solicitud' }));
    expect(await within(dialog).findByText('El monto debe ser positivo')).toBeTruthy();
    fireEvent.change(amount, { target: { value: '100' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Crear solicitud' }));
    const toast = await findToast();
    expect(toast.textContent).toContain('Alcanzaste el límite de tu suscripción');
    expect(toast.textContent).toContain('Alcanzaste el límite de tu plan. Mejora a Premium para tener límites más altos.');
    // Inside the still open dialog, out of the aria-hidden MUI puts on the page.
    fireEvent.click(within(toast).getByRole('button', { name: 'Mejorar plan' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/subscription'));
  });
});

describe("a signed-in user's language", () => {
  const pick = async (current: string, language: string) => {
    fireEvent.click(await screen.findByRole('button', { name: current }));
    fireEvent.click(screen.getByRole('menuitem', { name: language }));
  };

  it('is saved to their account when they switch, so their other devices and emails follow', async () => {
    const server = fakeApi({ ...signedIn(makeUser()), 'PATCH /api/auth/user': ({ body }) => ({ body: { ...makeUser(), ...(body as object) } }) });
    renderWithRoutes(<Header />);
    await screen.findByRole('link', { name: 'History' }); // signed in
    await pick('EN — Language: English', 'Español');
    await waitFor(() => expect(server.callsTo('PATCH /api/auth/user').map((c) => c.body)).toEqual([{ language: 'es' }]));
    expect(await screen.findByRole('button', { name: 'ES — Idioma: Español' })).toBeTruthy();
  });

  it('is taken from their account when they open the app signed in, whatever this browser showed', async () => {
    localStorage.setItem('ui-language', 'en');
    const server = fakeApi(signedIn(makeUser({ language: 'es' })));
    renderWithRoutes(<Header />);
    expect(await screen.findByRole('button', { name: 'ES — Idioma: Español' })).toBeTruthy();
    expect(localStorage.getItem('ui-language')).toBe('es');
    expect(screen.getByRole('link', { name: 'Historial' })).toBeTruthy();
    expect(server.callsTo('PATCH /api/auth/user')).toEqual([]);
  });

  it("is not saved for a visitor, and a failed save says the account keeps the previous one", async () => {
    const visitor = fakeApi({ 'GET /api/auth/user': { status: 401, body: { message: 'Not authenticated' } } });
    const first = renderWithRoutes(<Header />);
    await pick('EN — Language: English', 'Español');
    expect(await screen.findByRole('button', { name: 'ES — Idioma: Español' })).toBeTruthy();
    expect(visitor.callsTo('PATCH /api/auth/user')).toEqual([]);
    first.unmount();
    await act(() => chooseLanguage('en'));

    fakeApi({ ...signedIn(makeUser()), 'PATCH /api/auth/user': { status: 503, body: { message: 'Service unavailable' } } });
    renderWithRoutes(<Header />);
    await screen.findByRole('link', { name: 'History' }); // signed in
    await pick('EN — Language: English', 'Español');
    expect(within(await findToast()).getByText('No se pudo guardar el idioma en tu cuenta, así que tus otros dispositivos y correos siguen con el anterior. Inténtalo de nuevo.')).toBeTruthy();
  });
});
