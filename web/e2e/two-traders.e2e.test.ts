/**
 * The whole exchange in real headless Chromium, two users in two browser contexts, against Puente started as a new
 * user starts it: Ana posts GBP→CLP £100; Bea sees it appear within one poll and accepts; Ana sees the accept (a
 * notification and the bell's count) without reloading and approves; both see the bank details dialog open by
 * itself with the partner's details; Bea marks it completed; Ana sees that live; both rate each other; both
 * histories show the exchange; Ana's trust rating on the dashboard changes. Then Ana, on the free plan, hits the
 * daily limit, sees 'Subscription Limit Reached', upgrades through the test checkout, comes back to
 * /subscription?success=true and posts a £300 request (the ad gone); as Premium she reads her own figures on the
 * Analytics page and asks for help, an admin answers her in the support queue and she reads the answer. Screenshots of every step go to
 * web/e2e/screenshots/two-traders/; any uncaught page error or unexpected console error fails the test.
 */
import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { chromiumAvailable } from './app-server.ts';
import { screenshotFolder, signedInContext, useAppAndBrowser, watchedPage, type WatchedPage } from './browser.ts';

/** One poll (3 s) and the time to answer it, on a busy 2-core machine. */
const WITHIN_A_POLL = { timeout: 10_000 };

interface Trader {
  name: string;
  email: string;
  context: BrowserContext;
  page: Page;
  watched: WatchedPage;
  shot: (name: string) => Promise<void>;
}

describe.skipIf(!chromiumAvailable())('two traders (browser)', () => {
  const running = useAppAndBrowser();
  const folder = screenshotFolder('two-traders');
  const traders: Trader[] = [];

  /** A browser-like API call for the setup (the gateway wants the app's Origin on writes). */
  async function api(path: string, init: { body?: unknown; cookie?: string } = {}) {
    const headers: Record<string, string> = { origin: running.app.url };
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    if (init.cookie) headers.cookie = init.cookie;
    const res = await fetch(`${running.app.url}${path}`, { method: init.body === undefined ? 'GET' : 'POST', headers, ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }) });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res;
  }

  /** Signs a user up with the admin's code, verifies, logs in and adds both accounts; a browser context holds the session. */
  async function trader(firstName: string, lastName: string): Promise<Trader> {
    const email = `${firstName.toLowerCase()}.${Date.now()}@example.com`;
    const password = 'correct horse battery';
    const signup = await (await api('/api/signup/request', { body: { email, password, firstName, lastName, referralCode: running.app.admin.referralCode } })).json() as { verificationToken: string };
    await api('/api/signup/verify', { body: { token: signup.verificationToken } });
    const login = await api('/api/auth/login', { body: { email, password } });
    const cookie = login.headers.getSetCookie().find((c) => c.startsWith('puente_session='))!.split(';')[0]!;
    await api('/api/bank-accounts', { cookie, body: { currency: 'GBP', bankName: 'Monzo', accountNumber: `${firstName === 'Ana' ? '11' : '22'}926819`, accountHolder: `${firstName} ${lastName}`, sortCode: '04-00-04' } });
    await api('/api/bank-accounts', { cookie, body: { currency: 'CLP', bankName: 'BancoEstado', accountNumber: `${firstName === 'Ana' ? '11' : '22'}3456789`, accountHolder: `${firstName} ${lastName}`, rut: '12.345.678-5', accountType: 'vista', email: `${firstName.toLowerCase()}@example.cl` } });
    const context = await signedInContext(running, cookie, { permissions: ['clipboard-read', 'clipboard-write'] });
    const watched = await watchedPage(context, folder);
    const t: Trader = { name: firstName, email, context, page: watched.page, watched, shot: (step) => watched.shot(`${step}-${firstName.toLowerCase()}`) };
    traders.push(t);
    return t;
  }

  const toast = (page: Page, title: string) => page.getByRole('region', { name: 'Notifications (F8)', includeHidden: true }).getByText(title, { exact: true });
  const dialog = (page: Page, name: string | RegExp) => page.getByRole('dialog', { name });


  it('posts, accepts, approves, shares bank details, completes, rates and shows the history, live', async () => {
    const ana = await trader('Ana', 'Rojas');
    const bea = await trader('Bea', 'Soto');
    try {
      await Promise.all([ana.page.goto('/dashboard'), bea.page.goto('/dashboard')]);
      await ana.page.getByRole('heading', { name: 'Welcome back, Ana!' }).waitFor();
      await bea.page.getByRole('heading', { name: 'Welcome back, Bea!' }).waitFor();
      expect(await ana.page.getByTestId('trust-rating').textContent()).toBe('Not rated yet');
      await ana.shot('01-dashboard');

      // Ana posts GBP → CLP £100.
      await ana.page.getByRole('button', { name: 'Create Exchange' }).click();
      const create = dialog(ana.page, 'Create Exchange Request');
      await create.getByTestId('exchange-rate').waitFor();
      await create.getByRole('textbox', { name: 'Amount (GBP)' }).fill('100');
      expect(await create.getByTestId('receive-amount').textContent()).toMatch(/^You receive about \$[\d,]+ CLP$/);
      await ana.shot('02-create-request');
      await create.getByRole('button', { name: 'Create Request' }).click();
      await toast(ana.page, 'Exchange Request Created').waitFor();
      const requestId = Number(new URL(ana.page.url()).searchParams.get('requestId'));
      expect(requestId).toBeGreaterThan(0);
      const anaDetails = dialog(ana.page, `Exchange #${requestId}`);
      await anaDetails.getByRole('button', { name: 'Send Notifications' }).waitFor();
      await ana.shot('03-request-posted');
      await anaDetails.getByRole('button', { name: 'Close' }).click();

      // Bea sees it on the market within one poll, and accepts.
      const card = bea.page.getByRole('article', { name: `View exchange #${requestId}` });
      await card.waitFor(WITHIN_A_POLL);
      expect(await card.getByTestId('request-amount').textContent()).toBe('£100.00');
      await bea.shot('04-market');
      await card.click();
      const beaDetails = dialog(bea.page, `Exchange #${requestId}`);
      await beaDetails.getByRole('button', { name: 'Accept Exchange' }).click();
      await toast(bea.page, 'Exchange Matched').waitFor();
      await bea.shot('05-accepted');
      await beaDetails.getByRole('button', { name: 'Close' }).click();

      // Ana sees the accept without reloading: the bell's count and the request's status, and approves.
      await ana.page.getByTestId('notification-badge').getByText('1', { exact: true }).waitFor(WITHIN_A_POLL);
      const anaCard = ana.page.getByRole('region', { name: 'Active Requests' }).getByRole('article', { name: `View exchange #${requestId}` });
      await anaCard.getByTestId('request-status').getByText('matched').waitFor(WITHIN_A_POLL);
      await ana.page.getByRole('button', { name: 'Notifications, 1 unread' }).click();
      const bell = ana.page.getByRole('dialog', { name: 'Notifications' });
      await bell.getByText(/^Bea Soto accepted your exchange request #\d+/).waitFor();
      await ana.shot('06-accept-seen');
      // The notification opens its request (and is read).
      await bell.getByRole('button', { name: /Bea Soto accepted/ }).click();
      await ana.page.waitForURL(`**/dashboard?requestId=${requestId}`);
      await ana.page.getByTestId('notification-badge').getByText('1', { exact: true }).waitFor({ state: 'hidden', timeout: 10_000 });
      await anaDetails.getByRole('button', { name: 'Approve Match & Share Bank Details' }).click();

      // Both see the bank details open by themselves, each with the partner's account.
      const anaBank = dialog(ana.page, 'Exchange Match Confirmed');
      const beaBank = dialog(bea.page, 'Exchange Match Confirmed');
      // Ana sends pounds to Bea's GBP account; Bea sends pesos to Ana's CLP account.
      await anaBank.getByRole('region', { name: "Bea Soto's account" }).getByText('22926819').waitFor();
      await beaBank.getByRole('region', { name: "Ana Rojas's account" }).getByText('113456789').waitFor(WITHIN_A_POLL);
      expect(await anaBank.getByTestId('transfer-reference').textContent()).toBe(`#${requestId}`);
      expect(await anaBank.getByTestId('amount-to-send').textContent()).toBe('Send £100.00 to Bea Soto');
      // The payer-name check: each is told whose name the partner's money comes from (their accounts are in their names).
      expect(await anaBank.getByTestId('expected-payer').textContent()).toContain('expect the money from Bea Soto.');
      expect(await beaBank.getByTestId('expected-payer').textContent()).toContain('expect the money from Ana Rojas.');
      expect(await anaBank.getByTestId('partner-holder-mismatch').count()).toBe(0);
      await Promise.all([ana.shot('07-bank-details'), bea.shot('07-bank-details')]);
      await anaBank.getByRole('button', { name: 'Close' }).click();
      await beaBank.getByRole('button', { name: 'Close' }).click();

      // Bea marks it completed; the rating dialog opens on her screen; she rates Ana.
      const beaCard = bea.page.getByRole('region', { name: 'Active Requests' }).getByRole('article', { name: `View exchange #${requestId}` });
      await beaCard.click();
      await beaDetails.getByRole('button', { name: 'Mark as Completed' }).click();
      const beaRating = dialog(bea.page, 'Rate Exchange');
      await beaRating.getByText('How was your exchange with Ana Rojas?').waitFor();
      expect(await beaRating.getByTestId('rating-word').textContent()).toBe('Very Good');
      await beaRating.locator('label', { hasText: '5 Stars' }).click();
      expect(await beaRating.getByTestId('rating-word').textContent()).toBe('Excellent');
      await beaRating.getByRole('textbox', { name: 'Comment (optional)' }).fill('Fast and friendly');
      await bea.shot('08-rating');
      await beaRating.getByRole('button', { name: 'Submit Rating' }).click();
      await toast(bea.page, 'Rating Submitted').waitFor();

      // Ana sees it completed live: she is offered the rating, rates Bea, and her trust rating changes.
      const anaRating = dialog(ana.page, 'Rate Exchange');
      await anaRating.getByText('How was your exchange with Bea Soto?').waitFor(WITHIN_A_POLL);
      await ana.shot('09-offered-rating');
      await anaRating.getByRole('button', { name: 'Submit Rating' }).click();
      await toast(ana.page, 'Rating Submitted').waitFor();
      await expect.poll(() => ana.page.getByTestId('trust-rating').textContent(), { timeout: 40_000 }).toBe('5.0/5');
      await ana.shot('10-trust-rating');

      // Both histories show the exchange.
      for (const t of [ana, bea]) {
        await t.page.goto('/history');
        await t.page.getByText(`#${requestId}`).first().waitFor();
        expect(await t.page.getByText('completed', { exact: true }).count()).toBeGreaterThan(0);
        await t.shot('11-history');
      }
      expect(traders.flatMap((t) => t.watched.problems)).toEqual([]);
    } catch (error) {
      await Promise.all(traders.map((t) => t.shot('failure').catch(() => {})));
      throw new Error(`${(error as Error).message}\nproblems: ${JSON.stringify(traders.flatMap((t) => t.watched.problems))}\napp output:\n${running.app.output().slice(-3000)}`);
    }
  });

  it('stops a free user at the daily limit, upgrades through the test checkout, and takes a £300 request', async () => {
    const ana = traders.find((t) => t.name === 'Ana')!;
    const { page, shot } = ana;
    const post = async (amount: string) => {
      await page.getByRole('button', { name: 'Create Exchange' }).click();
      const create = dialog(page, 'Create Exchange Request');
      await create.getByTestId('exchange-rate').waitFor();
      await create.getByRole('textbox', { name: 'Amount (GBP)' }).fill(amount);
      await create.getByRole('button', { name: 'Create Request' }).click();
      return create;
    };
    try {
      await page.goto('/dashboard');
      // The free plan allows 2 exchanges a day: the first was this morning's £100.
      await post('50');
      await toast(page, 'Exchange Request Created').waitFor();
      await dialog(page, /^Exchange #/).getByRole('button', { name: 'Close' }).click();
      const refused = await post('60');
      await toast(page, 'Subscription Limit Reached').waitFor();
      await shot('12-limit-reached');
      await refused.getByRole('button', { name: 'Cancel' }).click();
      await page.getByRole('region', { name: 'Notifications (F8)', includeHidden: true }).getByRole('button', { name: 'Upgrade', includeHidden: true }).click();
      await page.waitForURL('**/subscription');
      await page.getByRole('region', { name: 'Free' }).getByText('Current plan').waitFor();
      await shot('13-plans');

      await page.getByRole('link', { name: 'Upgrade to Premium' }).click();
      await page.waitForURL('**/subscription/checkout');
      expect(await page.getByTestId('payment-notice').textContent()).toBe('Test mode — no real payment');
      expect(await page.getByRole('textbox', { name: 'Card number' }).inputValue()).toBe('4242 4242 4242 4242');
      await shot('14-checkout');
      await page.getByRole('button', { name: 'Pay £9.99' }).click();
      await page.waitForURL('**/subscription?success=true');
      await page.getByTestId('subscription-success').waitFor({ timeout: 30_000 });
      await page.getByRole('region', { name: 'Premium' }).getByText('Current plan').waitFor();
      await shot('15-premium');

      // Premium: £300 is within its limits (free stops at £200), and the ad is gone.
      await page.goto('/dashboard');
      await expect.poll(async () => page.getByRole('complementary', { name: 'Advertisement' }).count(), { timeout: 40_000 }).toBe(0);
      await post('300');
      await toast(page, 'Exchange Request Created').waitFor();
      await shot('16-premium-request');
      expect(ana.watched.problems).toEqual([]);
    } catch (error) {
      await shot('failure-subscription').catch(() => {});
      throw new Error(`${(error as Error).message}\nproblems: ${JSON.stringify(ana.watched.problems)}\napp output:\n${running.app.output().slice(-3000)}`);
    }
  });

  it("gives Premium's extras: Ana's own figures, and a support request an admin answers first", async () => {
    const ana = traders.find((t) => t.name === 'Ana')!;
    const { page, shot } = ana;
    const login = await api('/api/auth/login', { body: { email: running.app.admin.email, password: running.app.admin.password } });
    const adminContext = await signedInContext(running, login.headers.getSetCookie().find((c) => c.startsWith('puente_session='))!);
    const admin = await watchedPage(adminContext, folder);
    try {
      // Her analytics count the one exchange she completed, with Bea as her counterparty.
      await page.goto('/analytics');
      const figure = (label: string) => page.locator('dl > *').filter({ has: page.getByText(label, { exact: true }) }).locator('dd');
      await figure('Completed exchanges').getByText('1', { exact: true }).waitFor();
      const counterparties = page.getByRole('table', { name: 'Your counterparties' });
      expect(await counterparties.locator('tbody tr').evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].map((c) => c.textContent))))
        .toEqual([['Bea Soto', '1', '4.0 (1 rating)']]); // Ana gave her the dialog's default, 4 stars
      // The volume chart's amounts are whole on its axis, not cut short.
      expect(await page.getByRole('figure', { name: 'Volume in GBP per month' }).getByText('£100.00', { exact: true }).count()).toBeGreaterThan(0);
      await shot('17-analytics');

      // She asks for help; an admin sees it marked Premium in the queue and answers; she reads the answer.
      await page.goto('/help');
      await page.getByRole('textbox', { name: 'Subject' }).fill('Receipt for my exchange');
      await page.getByRole('textbox', { name: 'Message' }).fill('Could I get a receipt for my last exchange?');
      await page.getByRole('button', { name: 'Send request' }).click();
      await toast(page, 'Request sent').waitFor();
      await page.getByRole('listitem', { name: 'Receipt for my exchange' }).getByText('Open', { exact: true }).waitFor();
      await shot('18-help');

      await admin.page.goto('/admin');
      const item = admin.page.getByRole('listitem', { name: 'Receipt for my exchange' });
      await item.getByText('Premium', { exact: true }).waitFor();
      await item.getByText(`Ana Rojas <${ana.email}>`, { exact: false }).waitFor();
      await item.getByRole('textbox', { name: 'Reply' }).fill('Your history page lists it: print that page.');
      await item.getByRole('button', { name: 'Mark answered' }).click();
      await toast(admin.page, 'Request resolved').waitFor();
      await admin.shot('19-support-queue-admin');

      await page.reload();
      const mine = page.getByRole('listitem', { name: 'Receipt for my exchange' });
      await mine.getByText('Answered', { exact: true }).waitFor();
      await mine.getByText('Your history page lists it: print that page.').waitFor();
      await shot('20-help-answered');
      expect([...ana.watched.problems, ...admin.problems]).toEqual([]);
    } catch (error) {
      await shot('failure-premium-extras').catch(() => {});
      throw new Error(`${(error as Error).message}\nproblems: ${JSON.stringify([...ana.watched.problems, ...admin.problems])}\napp output:\n${running.app.output().slice(-3000)}`);
    } finally {
      await adminContext.close();
    }
  });
});
