/**
 * The trade's dialogs on every signed-in page, and the address after login, in real headless Chromium against Puente
 * (web/e2e/screenshots/every-page/):
 * - Ines posts, Jorge accepts and goes to his history; when Ines approves, the bank details open by themselves on
 *   Jorge's /history without navigation; when Ines completes from her own /history (the trade opened with
 *   ?requestId=), her rating opens there, and Jorge, still on /history, is asked whether he received the pounds above
 *   his rating;
 * - a login through the real form ends on /dashboard, which took /login's place in the history: Back goes to the page
 *   before the login, not to its form.
 * Any uncaught page error or unexpected console error fails the test.
 */
import { describe, expect, it } from 'vitest';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { chromiumAvailable } from './app-server.ts';
import { screenshotFolder, signedInContext, suiteTraders, useAppAndBrowser, watchedPage, type WatchedPage } from './browser.ts';

/** One poll (3 s) and the time to answer it, on a busy 2-core machine. */
const WITHIN_A_POLL = { timeout: 15_000 };

interface Viewer { name: string; context: BrowserContext; page: Page; watched: WatchedPage }

describe.skipIf(!chromiumAvailable())('the trade dialogs on every page, and the address after login (browser)', () => {
  const running = useAppAndBrowser();
  const folder = screenshotFolder('every-page');
  const viewers: Viewer[] = [];
  const { trader } = suiteTraders(running);

  async function viewer(name: string, context: BrowserContext): Promise<Viewer> {
    const watched = await watchedPage(context, folder);
    const v = { name, context, page: watched.page, watched };
    viewers.push(v);
    return v;
  }

  const shot = (v: Viewer, step: string) => v.watched.shot(`${step}-${v.name.toLowerCase()}`);
  const pathOf = (v: Viewer) => new URL(v.page.url()).pathname;
  const toast = (page: Page, title: string) => page.getByRole('region', { name: 'Notifications (F8)', includeHidden: true }).getByText(title, { exact: true });
  const dialog = (page: Page, name: string | RegExp) => page.getByRole('dialog', { name });
  const exchangeOf = (v: Viewer, requestId: number) => dialog(v.page, `Exchange #${requestId}`);
  /** The dialog's own Close (a text button), not the close icon of a toast shown inside it. */
  const closeOf = (d: Locator) => d.getByRole('button', { name: 'Close' }).filter({ hasText: 'Close' }).click();

  async function failed(error: unknown): Promise<never> {
    await Promise.all(viewers.map((v) => v.watched.shot(`failure-${v.name.toLowerCase()}`).catch(() => {})));
    throw new Error(`${(error as Error).message}\nproblems: ${JSON.stringify(viewers.flatMap((v) => v.watched.problems))}\napp output:\n${running.app.output().slice(-3000)}`);
  }

  it("opens the bank details and the rating on the /history page each party is on, without navigation", async () => {
    try {
      const inesUser = await trader('Ines', 'Bravo');
      const jorgeUser = await trader('Jorge', 'Lagos');
      const ines = await viewer('Ines', await signedInContext(running, inesUser.cookie));
      const jorge = await viewer('Jorge', await signedInContext(running, jorgeUser.cookie));
      await Promise.all([ines.page.goto('/dashboard'), jorge.page.goto('/dashboard')]);

      // Ines posts £100 GBP → CLP.
      await ines.page.getByRole('button', { name: 'Create Exchange' }).click();
      const create = dialog(ines.page, 'Create Exchange Request');
      await create.getByTestId('exchange-rate').waitFor();
      await create.getByRole('textbox', { name: 'Amount (GBP)' }).fill('100');
      await create.getByRole('button', { name: 'Create Request' }).click();
      await toast(ines.page, 'Exchange Request Created').waitFor();
      const requestId = Number(new URL(ines.page.url()).searchParams.get('requestId'));
      expect(requestId).toBeGreaterThan(0);
      await closeOf(exchangeOf(ines, requestId));
      await shot(ines, '01-posted');

      // Jorge accepts it from the market, then goes to his history and stays there.
      const card = jorge.page.getByRole('article', { name: `View exchange #${requestId}` });
      await card.click(WITHIN_A_POLL);
      await exchangeOf(jorge, requestId).getByRole('button', { name: 'Accept Exchange' }).click();
      await toast(jorge.page, 'Exchange Matched').waitFor();
      await closeOf(exchangeOf(jorge, requestId));
      await jorge.page.getByRole('navigation', { name: 'Main' }).first().getByRole('link', { name: 'History' }).click();
      await jorge.page.waitForURL((url) => url.pathname === '/history');
      await jorge.page.getByRole('heading', { name: 'History', level: 1 }).waitFor();
      await shot(jorge, '02-accepted-then-history');

      // Ines approves from her dashboard; her bank details open at once.
      await ines.page.goto(`/dashboard?requestId=${requestId}`);
      await exchangeOf(ines, requestId).getByRole('button', { name: 'Approve Match & Share Bank Details' }).click(WITHIN_A_POLL);
      await dialog(ines.page, 'Exchange Match Confirmed').getByTestId('amount-to-send').waitFor();

      // Jorge's open by themselves on his history page, which he never left.
      const jorgeBank = dialog(jorge.page, 'Exchange Match Confirmed');
      await jorgeBank.waitFor(WITHIN_A_POLL);
      expect(await jorgeBank.getByTestId('amount-to-send').textContent()).toMatch(/^Send \$[\d,]+( CLP)? to Ines Bravo$/);
      expect(pathOf(jorge)).toBe('/history');
      await shot(jorge, '03-bank-details-on-history');
      await Promise.all([ines, jorge].map((v) => closeOf(dialog(v.page, 'Exchange Match Confirmed'))));
      await jorgeBank.waitFor({ state: 'detached' });
      expect(pathOf(jorge)).toBe('/history');

      // Ines opens the trade on her own history page (?requestId=, as its rows do) and marks it completed: her rating opens there.
      await ines.page.goto(`/history?requestId=${requestId}`);
      await exchangeOf(ines, requestId).getByRole('button', { name: 'Mark as Completed' }).click(WITHIN_A_POLL);
      const inesRating = dialog(ines.page, 'Rate Exchange');
      await inesRating.getByText('How was your exchange with Jorge Lagos?').waitFor();
      expect(pathOf(ines)).toBe('/history');
      await shot(ines, '04-rating-where-completed');
      await inesRating.getByRole('button', { name: 'Submit Rating' }).click();
      await toast(ines.page, 'Rating Submitted').waitFor();

      // Jorge, still on /history, is asked whether his pounds arrived, above his rating of Ines.
      const jorgeRating = dialog(jorge.page, 'Rate Exchange');
      await jorgeRating.waitFor(WITHIN_A_POLL);
      const question = jorgeRating.getByTestId('receipt-question').filter({ hasText: 'Did you receive £100.00 from Ines Bravo?' });
      await question.waitFor(WITHIN_A_POLL);
      await jorgeRating.getByText('How was your exchange with Ines Bravo?').waitFor();
      expect(pathOf(jorge)).toBe('/history');
      await shot(jorge, '05-asked-and-rating-on-history');
      await question.getByRole('button', { name: 'Yes, I received it' }).click();
      await toast(jorge.page, 'Receipt confirmed').waitFor();
      await jorgeRating.getByRole('button', { name: 'Submit Rating' }).click();
      await toast(jorge.page, 'Rating Submitted').waitFor();
      await jorgeRating.waitFor({ state: 'detached' });
      expect(pathOf(jorge)).toBe('/history');
      await shot(jorge, '06-rated-on-history');
      expect(viewers.flatMap((v) => v.watched.problems)).toEqual([]);
    } catch (error) {
      await failed(error);
    }
  });

  it('ends a login through the form on /dashboard, in place of /login in the history', async () => {
    try {
      const kikaUser = await trader('Kika', 'Neira');
      const context = await running.browser.newContext({ viewport: { width: 1280, height: 900 }, baseURL: running.app.url });
      const kika = await viewer('Kika', context);
      await kika.page.goto('/');
      await kika.page.getByRole('banner').getByRole('link', { name: 'Log In' }).click();
      await kika.page.waitForURL((url) => url.pathname === '/login');
      const form = kika.page.getByRole('form', { name: 'Log in' });
      await form.getByLabel('Email').fill(kikaUser.email);
      await form.getByLabel('Password', { exact: true }).fill(kikaUser.password);
      await shot(kika, '07-login-form');
      const entries = await kika.page.evaluate(() => window.history.length);

      await form.getByRole('button', { name: 'Log In' }).click();
      await kika.page.waitForURL((url) => url.pathname === '/dashboard');
      await kika.page.getByRole('heading', { name: 'Welcome back, Kika!' }).waitFor();
      await toast(kika.page, 'Login Successful').waitFor();
      expect(pathOf(kika)).toBe('/dashboard');
      // Replaced, not added: the history holds as many entries as before the login.
      expect(await kika.page.evaluate(() => window.history.length)).toBe(entries);
      await shot(kika, '08-dashboard-after-login');

      // Back goes to the page before the login (/ shows a signed-in user the dashboard), never to its form.
      await kika.page.goBack();
      await kika.page.waitForURL((url) => url.pathname === '/');
      await kika.page.getByRole('heading', { name: 'Welcome back, Kika!' }).waitFor();
      expect(await kika.page.getByRole('form', { name: 'Log in' }).count()).toBe(0);
      await shot(kika, '09-back-after-login');
      expect(viewers.flatMap((v) => v.watched.problems)).toEqual([]);
    } catch (error) {
      await failed(error);
    }
  });
});
