/**
 * The user directory at scale, in real headless Chromium against Puente started as a new user starts it, each step
 * photographed (web/e2e/screenshots/directory/): with more users than a page holds, a visitor reaches the last page
 * with the page control (from the keyboard), finds a user by a part of their name and by their directory tier, and
 * reads each card's dispute outcomes from the directory's own answer (no call per card). A new search starts at
 * page 1; a search nobody matches says so. Any uncaught page error or unexpected console error fails the test.
 */
import { describe, expect, it, vi } from 'vitest';
import type { Page } from 'playwright-core';
import { appClient, type AppClient, type SignedIn } from '@puente/testkit';
import { Dispute, UserDirectory } from '@puente/contracts';
import { chromiumAvailable } from './app-server.ts';
import { screenshotFolder, signUpTrader, useAppAndBrowser, watchedPage } from './browser.ts';

/** Members beyond the two traders: with the admin, 23 users, a full page of 20 and a last page of 3. */
const MEMBERS = ['Alma', 'Bruno', 'Carmen', 'Diego', 'Elena', 'Felipe', 'Gloria', 'Hugo', 'Irene', 'Jorge',
  'Karla', 'Luis', 'Marta', 'Nico', 'Olga', 'Pablo', 'Rosa', 'Sergio', 'Tania', 'Victor'];
const DESKTOP = { width: 1280, height: 900 };
/** A page's first load (the app's chunks, then the directory), or a search's answer, on a busy 2-core machine. */
const SOON = { timeout: 15_000 };

describe.skipIf(!chromiumAvailable())('the user directory, a page at a time (browser)', () => {
  // Twenty-two sign-ups from one address: more than a real visitor makes in an hour.
  const running = useAppAndBrowser({ RATE_LIMIT_SIGNUP_IP: '100/1h' });
  const folder = screenshotFolder('directory');
  let client: AppClient;

  /** Retries a setup call until the services have heard of the new users, accounts and trades (events). */
  const eventually = <T>(attempt: () => Promise<T>): Promise<T> => vi.waitFor(attempt, { timeout: 20_000, interval: 250 });

  const trader = (firstName: string, lastName: string, n: number) => signUpTrader(client, running.app, { firstName, lastName, n });
  const post = (who: SignedIn) => eventually(async () => (await client.json('/api/exchange-requests', 201, {
    cookie: who.cookie, body: { fromCurrency: 'GBP', toCurrency: 'CLP', amount: 100, exchangeRate: 1275 },
  })) as { id: number });
  const take = (who: SignedIn, requestId: number) => eventually(async () => (await client.json('/api/exchange-matches', 201, { cookie: who.cookie, body: { exchangeRequestId: requestId } })) as { id: number });
  const put = (who: SignedIn, matchId: number, step: string) => client.json(`/api/exchange-matches/${matchId}/${step}`, 200, { method: 'PUT', cookie: who.cookie });

  /**
   * Twenty members, and two traders: Bea, rated 5 by Ana after a completed trade (Platinum); Ana, rated 4 by Bea
   * (Gold), whose second trade with Bea ended in a dispute the admin resolved as cancelled, warning Ana.
   */
  async function setUp(): Promise<{ ana: SignedIn; bea: SignedIn }> {
    client = appClient(running.app.url);
    for (const firstName of MEMBERS) {
      await client.signUp({ email: `${firstName.toLowerCase()}.${Date.now()}@example.com`, password: 'correct horse battery', firstName, lastName: 'Rivas' }, running.app.admin.referralCode);
    }
    const ana = await trader('Ana', 'Quispe', 1);
    const bea = await trader('Bea', 'Luna', 2);
    const traded = (await take(ana, (await post(bea)).id)).id;
    await put(bea, traded, 'confirm');
    await put(bea, traded, 'complete');
    await eventually(() => client.json('/api/ratings', 201, { cookie: ana.cookie, body: { exchangeMatchId: traded, toUserId: bea.id, rating: 5 } }));
    await eventually(() => client.json('/api/ratings', 201, { cookie: bea.cookie, body: { exchangeMatchId: traded, toUserId: ana.id, rating: 4 } }));
    const disputed = (await take(bea, (await post(ana)).id)).id;
    await put(ana, disputed, 'confirm');
    const dispute = Dispute.parse(await client.json(`/api/exchange-matches/${disputed}/dispute`, 201, { cookie: bea.cookie, body: { reason: 'no_payment', statement: 'No pounds have arrived.' } }));
    const { cookie: adminCookie } = await client.login(running.app.admin.email, running.app.admin.password);
    await client.json(`/api/admin/disputes/${dispute.id}/resolve`, 200, {
      cookie: adminCookie!, body: { outcome: 'cancelled', sanction: { userId: ana.id, kind: 'warning' }, note: 'No proof of payment.' },
    });
    // The directory is identity's: it hears of the ratings and the resolution by events.
    await eventually(async () => {
      const ana = UserDirectory.parse(await client.json('/api/admin/users?name=quispe', 200));
      expect(ana.map((u) => [u.trustRating, u.disputeOutcomes])).toEqual([[4, { completed: 0, cancelled: 1, warnings: 1, suspensions: 0 }]]);
      expect(UserDirectory.parse(await client.json('/api/admin/users?tier=Platinum', 200)).map((u) => u.firstName)).toEqual(['Bea']);
    });
    return { ana, bea };
  }

  const cards = (page: Page) => page.getByRole('article');
  const status = (page: Page) => page.getByRole('status').filter({ hasText: /users?$|match/ });

  it('reaches the last page with the page control, and finds users by name and by tier', async () => {
    await setUp();
    const context = await running.browser.newContext({ viewport: DESKTOP, baseURL: running.app.url });
    const watched = await watchedPage(context, folder);
    const { page } = watched;
    const directoryCalls: string[] = [];
    const perCardCalls: string[] = [];
    page.on('request', (request) => {
      const { pathname, search } = new URL(request.url());
      if (pathname === '/api/admin/users') directoryCalls.push(search);
      if (pathname.endsWith('/dispute-outcomes')) perCardCalls.push(pathname);
    });
    try {
      await page.goto('/users');
      await expect.poll(() => cards(page).count(), SOON).toBe(20);
      await expect.poll(() => status(page).textContent(), SOON).toBe('23 users');
      expect(directoryCalls).toEqual(['?limit=20&offset=0']);
      await watched.shot('01-first-page');

      // The page control from the keyboard: Tab reaches "Go to page 2", Enter opens it.
      const pages = page.getByRole('navigation', { name: 'Directory pages' });
      const last = pages.getByRole('button', { name: 'Go to page 2' });
      await pages.getByRole('button', { name: 'Page 1, shown' }).focus();
      await page.keyboard.press('Tab');
      await expect.poll(() => last.evaluate((el) => el === document.activeElement), SOON).toBe(true);
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/users\?page=2$/);
      await expect.poll(() => cards(page).count(), SOON).toBe(3);
      // By id: the admin and 19 members on page 1; the last member and the two traders here.
      expect(await cards(page).evaluateAll((all) => all.map((a) => a.getAttribute('aria-label')))).toEqual(['Victor Rivas', 'Ana Quispe', 'Bea Luna']);
      await expect.poll(() => pages.getByRole('button', { name: 'Page 2, shown' }).getAttribute('aria-current'), SOON).toBe('page');
      await watched.shot('02-last-page');

      // A part of the last name, in any case: the one user, back on page 1, with her dispute outcomes.
      await page.getByRole('searchbox', { name: 'Search by name' }).fill('QUISP');
      await page.waitForURL(/\/users\?name=QUISP$/);
      await expect.poll(() => cards(page).count(), SOON).toBe(1);
      const ana = page.getByRole('article', { name: 'Ana Quispe' });
      await expect.poll(() => ana.getByTestId('dispute-outcomes').textContent(), SOON)
        .toBe('Disputes: 0 resolved as completed · 1 resolved as cancelled · 1 warning · 0 suspensions');
      expect(await ana.getByText('Directory tier: Gold').count()).toBe(1);
      await watched.shot('03-found-by-name');

      // A tier: the name cleared, Platinum holds Bea alone.
      await page.getByRole('searchbox', { name: 'Search by name' }).fill('');
      await page.waitForURL(/\/users$/);
      await page.getByRole('combobox', { name: 'Directory tier' }).click();
      await page.getByRole('option', { name: 'Platinum' }).click();
      await page.waitForURL(/\/users\?tier=Platinum$/);
      await expect.poll(() => cards(page).evaluateAll((all) => all.map((a) => a.getAttribute('aria-label'))), SOON).toEqual(['Bea Luna']);
      await expect.poll(() => status(page).textContent(), SOON).toBe('1 user');
      await watched.shot('04-found-by-tier');

      // Unverified (below 3 or not rated yet): the admin and the twenty members, two pages again.
      await page.getByRole('combobox', { name: 'Directory tier' }).click();
      await page.getByRole('option', { name: 'Unverified' }).click();
      await expect.poll(() => status(page).textContent(), SOON).toBe('21 users');
      await expect.poll(() => cards(page).count(), SOON).toBe(20);
      await watched.shot('05-unverified-tier');

      // A name with a tier nobody has: said so.
      await page.getByRole('searchbox', { name: 'Search by name' }).fill('bea');
      await expect.poll(() => status(page).textContent(), SOON).toBe('No users match this search.');
      expect(await cards(page).count()).toBe(0);
      await watched.shot('06-no-match');

      expect(perCardCalls).toEqual([]);
      expect(watched.problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 240_000);
});
