/**
 * History keeps everything, in real headless Chromium against Puente started as a new user starts it, each step
 * photographed (web/e2e/screenshots/history/):
 * - Ana marks her open request done from its details on the dashboard; /history lists it under Completed as marked
 *   done by her (no partner, so no 'User information unavailable'), and nothing is left in progress;
 * - Bea, on Premium (paid with the test card) so she may post six today, has six active requests: the dashboard shows
 *   four and 'View all exchange requests'; /history lists all six in progress, and she opens the sixth (the oldest,
 *   not on the dashboard) with the keyboard and sees its details.
 * Any uncaught page error or unexpected console error fails the test.
 */
import { describe, expect, it, vi } from 'vitest';
import type { Page } from 'playwright-core';
import type { SignedIn } from '@puente/testkit';
import { CreateSubscriptionResponse, ExchangeRequest } from '@puente/contracts';
import { chromiumAvailable } from './app-server.ts';
import { screenshotFolder, signedInContext, suiteTraders, useAppAndBrowser, watchedPage, type WatchedPage } from './browser.ts';

/** One poll (3 s) and the time to answer it, on a busy 2-core machine. */
const WITHIN_A_POLL = { timeout: 15_000 };

describe.skipIf(!chromiumAvailable())('history keeps everything (browser)', () => {
  const running = useAppAndBrowser();
  const folder = screenshotFolder('history');
  const watched: WatchedPage[] = [];
  const { client, trader } = suiteTraders(running);

  /** Posts £amount GBP → CLP, retried until the exchange service has heard of the user, their accounts and plan (events). */
  const post = (who: SignedIn, amount: number) => vi.waitFor(async () => ExchangeRequest.parse(await client().json('/api/exchange-requests', 201, {
    cookie: who.cookie, body: { fromCurrency: 'GBP', toCurrency: 'CLP', amount, exchangeRate: 1275 },
  })).id, { timeout: 15_000, interval: 250 });

  async function pageOf(who: SignedIn): Promise<WatchedPage> {
    const w = await watchedPage(await signedInContext(running, who.cookie), folder);
    watched.push(w);
    return w;
  }

  const toast = (page: Page, title: string) => page.getByRole('region', { name: 'Notifications (F8)', includeHidden: true }).getByText(title, { exact: true });
  const section = (page: Page, name: string) => page.getByRole('region', { name });

  async function failed(error: unknown): Promise<never> {
    await Promise.all(watched.map((w, i) => w.shot(`failure-${i}`).catch(() => {})));
    throw new Error(`${(error as Error).message}\nproblems: ${JSON.stringify(watched.flatMap((w) => w.problems))}\napp output:\n${running.app.output().slice(-3000)}`);
  }

  it('lists a request its owner marked done on /history, marked done by them', async () => {
    try {
      const ana = await trader('Ana', 'Rojas');
      const requestId = await post(ana, 120);
      const { page, shot } = await pageOf(ana);

      await page.goto(`/dashboard?requestId=${requestId}`);
      const details = page.getByRole('dialog', { name: `Exchange #${requestId}` });
      await details.getByRole('button', { name: 'Mark as Done' }).click();
      const ask = page.getByRole('dialog', { name: `Mark request #${requestId} as done?` });
      await shot('01-mark-done-asked');
      await ask.getByRole('button', { name: 'Mark as Done' }).click();
      await toast(page, 'Completed').waitFor(WITHIN_A_POLL);
      await shot('02-marked-done');
      await details.getByRole('button', { name: 'Close' }).first().click();
      await details.waitFor({ state: 'hidden' });

      await page.getByRole('link', { name: 'History' }).first().click();
      await page.waitForURL('**/history');
      const row = section(page, 'Completed').getByRole('article', { name: `Reference #${requestId}` });
      await row.waitFor(WITHIN_A_POLL);
      const text = await row.textContent();
      expect(text).toContain('Marked done by you');
      expect(text).not.toContain('User information unavailable');
      expect(await row.getByTestId('history-sent').textContent()).toBe('£120.00');
      expect(await row.getByTestId('history-status').textContent()).toBe('completed');
      await section(page, 'In progress').getByText(/^Nothing in progress\./).waitFor();
      await shot('03-history-lists-it');
      expect(watched.flatMap((w) => w.problems)).toEqual([]);
    } catch (error) {
      await failed(error);
    }
  }, 180_000);

  it('opens the sixth of six active requests from /history and shows its details', async () => {
    try {
      const bea = await trader('Bea', 'Soto');
      const { clientSecret } = CreateSubscriptionResponse.parse(await client().json('/api/create-subscription', 200, { cookie: bea.cookie, body: {} }));
      await client().json('/api/subscription/test-checkout/confirm', 200, { cookie: bea.cookie, body: { clientSecret, cardNumber: '4242424242424242', expiry: '12/34' } });
      const ids: number[] = [];
      for (const amount of [101, 102, 103, 104, 105, 106]) ids.push(await post(bea, amount));
      const oldest = ids[0]!;
      const { page, shot } = await pageOf(bea);

      await page.goto('/dashboard');
      const dashboard = section(page, 'Active Requests');
      await dashboard.getByRole('article').first().waitFor(WITHIN_A_POLL);
      expect(await dashboard.getByRole('article').count()).toBe(4);
      expect(await dashboard.getByRole('article', { name: `View exchange #${oldest}` }).count()).toBe(0);
      await shot('04-dashboard-shows-four');
      await dashboard.getByRole('link', { name: 'View all exchange requests' }).click();
      await page.waitForURL('**/history');

      const inProgress = section(page, 'In progress');
      const sixth = inProgress.getByRole('article', { name: `View exchange #${oldest}` });
      await sixth.waitFor(WITHIN_A_POLL);
      expect(await inProgress.getByRole('article').evaluateAll((cards) => cards.map((c) => c.getAttribute('aria-label'))))
        .toEqual([...ids].reverse().map((id) => `View exchange #${id}`));
      await section(page, 'Completed').getByText(/^No completed exchanges yet\./).waitFor();
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('History');
      expect(await page.getByRole('heading', { level: 2 }).allTextContents()).toEqual(expect.arrayContaining(['In progress', 'Completed']));
      await shot('05-history-in-progress');

      // The keyboard reaches the card: its button focused, Enter opens the details on /history.
      await sixth.getByRole('button').first().focus();
      await page.keyboard.press('Enter');
      await page.waitForURL(`**/history?requestId=${oldest}`);
      const details = page.getByRole('dialog', { name: `Exchange #${oldest}` });
      await details.getByText('£101.00').first().waitFor(WITHIN_A_POLL);
      await details.getByRole('button', { name: 'Mark as Done' }).waitFor();
      await shot('06-sixth-details');
      expect(watched.flatMap((w) => w.problems)).toEqual([]);
    } catch (error) {
      await failed(error);
    }
  }, 180_000);
});
