/**
 * The app in Spanish, in real headless Chromium against Puente as `npm start` runs it: a browser set to Chilean
 * Spanish gets the landing page in Spanish on its first visit; a trader whose browser is in English switches to
 * Español in the header, and the dashboard, the create dialog, the details dialog and the toasts are in Spanish with
 * Chile's figures ($637.750, £100,00); the plan limit refusal still offers the upgrade (told by its code); the choice
 * survives a reload; a notification that arrives meanwhile (another trader takes her request) is worded in Spanish in
 * its toast and the bell; the choice is saved to the account, so another browser signed in as the trader opens in Spanish. Screenshots go to web/e2e/screenshots/spanish/.
 */
import { describe, expect, it, vi } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumAvailable } from './app-server.ts';
import { screenshotFolder, useAppAndBrowser, watchedPage } from './browser.ts';

describe.skipIf(!chromiumAvailable())('the app in Spanish (browser)', () => {
  const running = useAppAndBrowser();
  const folder = screenshotFolder('spanish');
  const toast = (page: Page, title: string) => page.getByRole('region', { name: 'Notificaciones (F8)', includeHidden: true }).getByText(title, { exact: true });

  /** A browser-like API call for the setup (the gateway wants the app's Origin on writes). */
  async function api(path: string, body: unknown, cookie?: string) {
    const res = await fetch(`${running.app.url}${path}`, {
      method: 'POST', headers: { origin: running.app.url, 'content-type': 'application/json', ...(cookie ? { cookie } : {}) }, body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res;
  }

  /** A signed-up trader with a GBP and a CLP account; their session cookie (`name=value`). */
  async function trader(firstName: string, lastName: string): Promise<string> {
    const user = { email: `${firstName.toLowerCase()}.${Date.now()}@example.com`, password: 'correct horse battery', firstName, lastName };
    const signup = await (await api('/api/signup/request', { ...user, referralCode: running.app.admin.referralCode })).json() as { verificationToken: string };
    await api('/api/signup/verify', { token: signup.verificationToken });
    const login = await api('/api/auth/login', { email: user.email, password: user.password });
    const cookie = login.headers.getSetCookie().find((c) => c.startsWith('puente_session='))!.split(';')[0]!;
    const holder = `${firstName} ${lastName}`;
    await api('/api/bank-accounts', { currency: 'GBP', bankName: 'Monzo', accountNumber: '33926819', accountHolder: holder, sortCode: '04-00-04' }, cookie);
    await api('/api/bank-accounts', { currency: 'CLP', bankName: 'BancoEstado', accountNumber: '333456789', accountHolder: holder, rut: '12.345.678-5', accountType: 'vista', email: 'trader@example.cl' }, cookie);
    return cookie;
  }

  it('follows a Spanish browser on the first visit', async () => {
    const context = await running.browser.newContext({ locale: 'es-CL', baseURL: running.app.url });
    const { page, problems, shot } = await watchedPage(context, folder);
    try {
      await page.goto('/');
      await page.getByRole('heading', { name: 'Cambia libras esterlinas y pesos chilenos con personas, no con bancos' }).waitFor();
      expect(await page.getAttribute('html', 'lang')).toBe('es-CL');
      await shot('01-landing');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('switches to Español: the dashboard, dialogs and toasts in Spanish with Chilean figures, kept after a reload', async () => {
    const cookie = await trader('Camila', 'Muñoz');
    const context = await running.browser.newContext({ locale: 'en-GB', viewport: { width: 1280, height: 900 }, baseURL: running.app.url });
    const [name, value] = cookie.split('=') as [string, string];
    await context.addCookies([{ name, value, url: running.app.url }]);
    const { page, problems, shot } = await watchedPage(context, folder);
    try {
      await page.goto('/dashboard');
      await page.getByRole('heading', { name: 'Welcome back, Camila!' }).waitFor();
      await page.getByRole('button', { name: 'Language: English' }).click();
      await page.getByRole('menuitem', { name: 'Español' }).click();

      // The dashboard.
      await page.getByRole('heading', { name: '¡Hola de nuevo, Camila!' }).waitFor();
      expect(await page.getByTestId('trust-rating').textContent()).toBe('Sin calificaciones aún');
      await page.getByText(/^Nivel de confianza: Sin verificar · \d+\/100$/).waitFor();
      expect(await page.getAttribute('html', 'lang')).toBe('es-CL');
      await page.getByRole('link', { name: 'Historial' }).waitFor();
      await shot('02-dashboard');

      // The create dialog: the rate and the amounts as Chile writes them; the toast and the details dialog.
      await page.getByRole('button', { name: 'Crear cambio' }).click();
      const create = page.getByRole('dialog', { name: 'Crear solicitud de cambio' });
      await create.getByTestId('exchange-rate').waitFor();
      expect(await create.getByTestId('exchange-rate').textContent()).toMatch(/^1 GBP = [\d.]+,\d{4} CLP$/);
      await create.getByRole('textbox', { name: 'Monto (GBP)' }).fill('100');
      expect(await create.getByTestId('receive-amount').textContent()).toMatch(/^Recibes aproximadamente \$\d{1,3}(\.\d{3})+$/);
      expect(await create.getByTestId('plan-limits').textContent()).toMatch(/^Plan Gratuito: hasta £200,00 \/ \$255\.000 por cambio; 0 de 2 hoy/);
      await shot('03-create-dialog');
      await create.getByRole('button', { name: 'Crear solicitud' }).click();
      await toast(page, 'Solicitud de cambio creada').waitFor();
      const requestId = Number(new URL(page.url()).searchParams.get('requestId'));
      const details = page.getByRole('dialog', { name: `Cambio #${requestId}` });
      await details.getByRole('button', { name: 'Enviar notificaciones' }).waitFor();
      await shot('04-details-dialog');
      await details.getByRole('button', { name: 'Cerrar' }).click();
      const card = page.getByRole('article', { name: `Ver cambio #${requestId}` }).first();
      expect(await card.getByTestId('request-amount').textContent()).toBe('£100,00');

      // The free plan's second exchange of the day, then the third: refused, in Spanish, with the upgrade offered.
      for (const expected of ['Solicitud de cambio creada', 'Alcanzaste el límite de tu suscripción']) {
        await page.getByRole('button', { name: 'Crear cambio' }).click();
        await create.getByTestId('exchange-rate').waitFor();
        await create.getByRole('textbox', { name: 'Monto (GBP)' }).fill('50');
        await create.getByRole('button', { name: 'Crear solicitud' }).click();
        await toast(page, expected).waitFor();
        if (expected === 'Solicitud de cambio creada') await page.getByRole('dialog', { name: /^Cambio #/ }).getByRole('button', { name: 'Cerrar' }).click();
      }
      const refusal = page.getByRole('region', { name: 'Notificaciones (F8)', includeHidden: true });
      await refusal.getByText('Alcanzaste el límite de tu plan. Mejora a Premium para tener límites más altos.').waitFor();
      await shot('05-limit-toast');
      await refusal.getByRole('button', { name: 'Mejorar plan', includeHidden: true }).click();
      await page.waitForURL('**/subscription');
      await page.getByRole('region', { name: 'Gratuito' }).getByText('Hasta £200 / 255.000 CLP por cambio').waitFor();

      // A reload keeps Spanish.
      await page.goto('/dashboard');
      await page.getByRole('heading', { name: '¡Hola de nuevo, Camila!' }).waitFor();
      expect(await page.getAttribute('html', 'lang')).toBe('es-CL');
      await page.getByRole('button', { name: 'Idioma: Español' }).waitFor();
      await shot('06-after-reload');

      // A notification while she reads Spanish: Diego takes her first request; its toast and the bell word it in Spanish.
      const diego = await trader('Diego', 'Soto');
      await vi.waitFor(() => api('/api/exchange-matches', { exchangeRequestId: requestId }, diego), { timeout: 30_000, interval: 250 });
      // Named, and from her side: she pays the pounds and receives the pesos.
      const accepted = new RegExp(`^Diego Soto aceptó tu solicitud de cambio #${requestId}\\. Pagas £100,00 · Recibes \\$[\\d.]+( CLP)?\\. Aprueba el match para intercambiar los datos bancarios\\.$`);
      await page.getByRole('region', { name: 'Notificaciones (F8)', includeHidden: true }).getByText(accepted).waitFor();
      await toast(page, 'Nueva notificación').waitFor();
      await page.getByRole('button', { name: 'Notificaciones, 1 sin leer' }).click();
      await page.getByRole('dialog', { name: 'Notificaciones' }).getByText(accepted).waitFor();
      await shot('07-notification');
      await page.keyboard.press('Escape');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }

    // The choice was saved to Camila's account: another browser (in English, nothing stored) opens in Spanish.
    const laptop = await running.browser.newContext({ locale: 'en-GB', baseURL: running.app.url });
    await laptop.addCookies([{ name, value, url: running.app.url }]);
    const other = await watchedPage(laptop, folder);
    try {
      await other.page.goto('/dashboard');
      await other.page.getByRole('heading', { name: '¡Hola de nuevo, Camila!' }).waitFor();
      await other.page.getByRole('button', { name: 'Idioma: Español' }).waitFor();
      await other.shot('08-another-browser');
      expect(other.problems).toEqual([]);
    } finally {
      await laptop.close();
    }
  });
});
