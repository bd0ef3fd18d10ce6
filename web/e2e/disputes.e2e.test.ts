/**
 * A dispute in real headless Chromium: Ana's request accepted by Bea and approved (set up through the
 * API); Bea opens a dispute from the exchange (no payment received); both see the exchange is under dispute and
 * cannot complete it; an admin opens it from the admin page's disputes, reads the statement, both parties' history
 * and the chat, and resolves it completed with a warning for Bea; both see the outcome in the exchange, and Bea's
 * profile counts it. Screenshots go to web/e2e/screenshots/disputes/; an uncaught page error or unexpected console
 * error fails the test.
 */
import { describe, expect, it, vi } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { appClient, type AppClient } from '@puente/testkit';
import { chromiumAvailable } from './app-server.ts';
import { screenshotFolder, signedInContext, signUpTrader, useAppAndBrowser, watchedPage, type WatchedPage } from './browser.ts';

/** A poll of the match (every few seconds) or a query refreshed after an action, on a busy 2-core machine. */
const SOON = { timeout: 20_000 };

interface Viewer { name: string; context: BrowserContext; page: Page; watched: WatchedPage }

describe.skipIf(!chromiumAvailable())('a dispute opened by a party and resolved by an admin (browser)', () => {
  const running = useAppAndBrowser();
  const folder = screenshotFolder('disputes');
  const viewers: Viewer[] = [];
  let client: AppClient;

  const trader = (firstName: string, lastName: string, n: number) => signUpTrader(client, running.app, { firstName, lastName, n, emailTag: 'dispute' });

  async function viewer(name: string, cookie: string): Promise<Viewer> {
    const context = await signedInContext(running, cookie);
    const watched = await watchedPage(context, folder);
    const v = { name, context, page: watched.page, watched };
    viewers.push(v);
    return v;
  }

  /** Retries a setup call until the services have heard of the new users' accounts (events). */
  const eventually = <T>(attempt: () => Promise<T>): Promise<T> => vi.waitFor(attempt, { timeout: 10_000, interval: 250 });

  it('Bea opens a dispute, an admin resolves it, and both parties see the outcome', async () => {
    client = appClient(running.app.url);
    const anaUser = await trader('Ana', 'Rojas', 5);
    const beaUser = await trader('Bea', 'Soto', 6);
    const request = await eventually(async () => (await client.json('/api/exchange-requests', 201, {
      cookie: anaUser.cookie, body: { fromCurrency: 'GBP', toCurrency: 'CLP', amount: 100, exchangeRate: 1275 },
    })) as { id: number });
    const match = await eventually(async () => (await client.json('/api/exchange-matches', 201, { cookie: beaUser.cookie, body: { exchangeRequestId: request.id } })) as { id: number });
    await client.json(`/api/exchange-matches/${match.id}/confirm`, 200, { method: 'PUT', cookie: anaUser.cookie });
    const ana = await viewer('Ana', anaUser.cookie);
    const bea = await viewer('Bea', beaUser.cookie);
    try {
      // The bank details open by themselves once the match is confirmed: closed, then the exchange.
      for (const v of [ana, bea]) {
        await v.page.goto('/dashboard');
        await v.page.getByRole('dialog', { name: 'Exchange Match Confirmed' }).getByRole('button', { name: 'Close' }).click(SOON);
        await v.page.goto(`/dashboard?requestId=${request.id}`);
      }
      const exchangeOf = (v: Viewer) => v.page.getByRole('dialog', { name: `Exchange #${request.id}` });

      // Bea has not been paid: she opens a dispute with the reason and what happened.
      await exchangeOf(bea).getByRole('button', { name: 'Open a dispute' }).click();
      const form = bea.page.getByRole('dialog', { name: 'Open a dispute' });
      await form.getByRole('button', { name: 'Open dispute' }).click();
      await form.getByText('Choose a reason for the dispute').waitFor(); // nothing sent without a reason and a statement
      await form.getByText('Describe what happened').waitFor();
      await form.getByRole('combobox', { name: 'Reason' }).click();
      await bea.page.getByRole('option', { name: 'No payment received' }).click();
      await form.getByRole('textbox', { name: 'What happened' }).fill('I sent £100 on Monday; no pesos have arrived and Ana does not answer.');
      await form.getByRole('button', { name: 'Open dispute' }).click();
      await form.waitFor({ state: 'detached' });

      // Both see it under dispute, with its reason, and cannot complete it; the chat says so.
      for (const [v, by] of [[bea, 'you'], [ana, 'Bea Soto']] as const) {
        const banner = exchangeOf(v).getByTestId('dispute-banner');
        await banner.getByText('This exchange is under dispute').waitFor(SOON);
        await banner.getByText(`Reason: No payment received (opened by ${by}).`, { exact: false }).waitFor();
        expect(await exchangeOf(v).getByRole('button', { name: 'Mark as Completed' }).isDisabled()).toBe(true);
        await exchangeOf(v).getByRole('region', { name: 'Chat' }).getByText(`Dispute opened by ${by}`, { exact: false }).waitFor(SOON);
      }
      expect(await exchangeOf(ana).getByRole('button', { name: 'Open a dispute' }).count()).toBe(0);
      await Promise.all([ana.watched.shot('01-under-dispute-ana'), bea.watched.shot('01-under-dispute-bea')]);

      // The admin opens it from the queue: the statement, both parties and the chat; resolves it completed, Bea warned.
      const { cookie: adminCookie } = await client.login(running.app.admin.email, running.app.admin.password);
      const admin = await viewer('Admin', adminCookie!);
      await admin.page.goto('/admin');
      const disputes = admin.page.getByRole('region', { name: 'Disputes' });
      await disputes.getByRole('button', { name: /Dispute #\d+: Ana Rojas and Bea Soto/ }).click(SOON);
      const detail = disputes.getByTestId('dispute-detail');
      await detail.getByText('I sent £100 on Monday; no pesos have arrived and Ana does not answer.').waitFor();
      await detail.getByLabel('Requester: Ana Rojas').getByText('Matches completed: 0 · cancelled: 0 · expired: 0').waitFor();
      await detail.getByLabel('Matcher: Bea Soto').getByText('0 warnings').waitFor();
      await detail.getByTestId('dispute-chat').getByText('Dispute opened by Bea Soto', { exact: false }).waitFor();
      await detail.getByRole('radio', { name: 'Completed' }).check();
      await detail.getByRole('combobox', { name: 'Sanction' }).click();
      await admin.page.getByRole('option', { name: 'Warning for Bea Soto' }).click();
      await detail.getByRole('textbox', { name: 'Note on the decision' }).fill('Ana showed the transfer in her bank statement.');
      await admin.watched.shot('02-admin-decides');
      await detail.getByRole('button', { name: 'Resolve dispute' }).click();
      await admin.page.getByText('Dispute resolved').first().waitFor(SOON);
      await detail.getByText('Decision: Ana showed the transfer in her bank statement.').waitFor(SOON);

      // The completion offers both parties the rating on the page they have open (within a poll); they leave it for
      // later, so it is not offered again over the exchange.
      for (const v of [ana, bea]) await v.page.getByRole('dialog', { name: 'Rate Exchange' }).getByRole('button', { name: 'Later' }).click(SOON);
      // Both see the outcome; Bea is told of her warning.
      for (const v of [ana, bea]) {
        await v.page.goto(`/dashboard?requestId=${request.id}`);
        const banner = exchangeOf(v).getByTestId('dispute-banner');
        await banner.getByText('An admin resolved the dispute: the exchange was marked completed.', { exact: false }).waitFor(SOON);
        await exchangeOf(v).getByRole('region', { name: 'Chat' }).getByText('An admin resolved the dispute').waitFor();
      }
      await exchangeOf(bea).getByTestId('dispute-banner').getByText('You received a warning.', { exact: false }).waitFor();
      expect(await exchangeOf(ana).getByTestId('dispute-banner').getByText('You received a warning.', { exact: false }).count()).toBe(0);
      await Promise.all([ana.watched.shot('03-resolved-ana'), bea.watched.shot('03-resolved-bea')]);

      // Bea's profile counts the dispute's outcome and her warning.
      await bea.page.goto('/profile');
      await bea.page.getByTestId('dispute-outcomes').getByText('Disputes: 1 resolved as completed · 0 resolved as cancelled · 1 warning · 0 suspensions').waitFor(SOON);
      expect(viewers.flatMap((v) => v.watched.problems)).toEqual([]);
    } catch (error) {
      await Promise.all(viewers.map((v) => v.watched.shot(`failure-${v.name.toLowerCase()}`).catch(() => {})));
      throw new Error(`${(error as Error).message}\nproblems: ${JSON.stringify(viewers.flatMap((v) => v.watched.problems))}\napp output:\n${running.app.output().slice(-3000)}`);
    }
  });
});
