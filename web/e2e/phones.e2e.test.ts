/**
 * Phones in real headless Chromium at 375×812 (touch), against Puente started as a new user starts it: the
 * dashboard and its navigation drawer, each dialog of a trade (create, the open request's details and its 'Mark as
 * Done' question, the bank details once approved, the details with the chat, 'I have paid', the dispute form, the
 * rating), the admin page with each of its tabs and a dispute opened, and the subscription checkout. In each, nothing
 * overflows sideways and every target a finger presses is at least 44×44 px (WCAG 2.5.5). Screenshots go to
 * web/e2e/screenshots/phones/; any uncaught page error or unexpected console error fails the test.
 */
import { describe, expect, it, vi } from 'vitest';
import type { Page } from 'playwright-core';
import { appClient, type AppClient } from '@puente/testkit';
import { chromiumAvailable } from './app-server.ts';
import { overflowsSideways, screenshotFolder, signedInContext, signUpTrader, useAppAndBrowser, watchedPage, type WatchedPage } from './browser.ts';

const PHONE = { width: 375, height: 812 };
/** WCAG 2.5.5 (AAA) target size, in CSS px. */
const TARGET = 44;
/** A poll of the match (every few seconds) or a query refreshed after an action, on a busy 2-core machine. */
const SOON = { timeout: 20_000 };
/** A bank reference with no place to break: it must wrap inside the chat, not push the page sideways. */
const LONG_WORD = 'REF-PUENTE-000123456789012345678901234567890123456789';

/**
 * What a finger presses: buttons (and what acts as one: role=button, links drawn as buttons, which MUI draws on a
 * ButtonBase), tabs, pagination items, checkboxes, radios and switches (MUI's input covers its whole touch area), the
 * boxes of text fields and selects (a tap anywhere in the box focuses its input), and a rating's stars (its labels: the
 * radios are visually hidden). Text links count too (smallTargets), except a link inside a sentence: WCAG's inline
 * exception, its size is the sentence's line.
 */
const TARGETS = [
  'button', '[role="button"]', '[role="tab"]', 'a.MuiButtonBase-root', '.MuiPaginationItem-root', '.MuiInputBase-root',
  'input[type="checkbox"]', 'input[type="radio"]:not(.MuiRating-visuallyHidden)', '.MuiRating-root label',
].join(', ');

interface Viewer { name: string; page: Page; watched: WatchedPage }

describe.skipIf(!chromiumAvailable())('phones: every page and dialog fits 375 px, with 44 px targets (browser)', () => {
  const running = useAppAndBrowser();
  const folder = screenshotFolder('phones');
  const viewers: Viewer[] = [];
  /** Every state's overflow and undersized targets, all reported at the end so one run names them all. */
  const findings: string[] = [];
  let client: AppClient;

  const trader = (firstName: string, lastName: string, n: number) => signUpTrader(client, running.app, { firstName, lastName, n, emailTag: 'phone' });

  async function viewer(name: string, cookie: string): Promise<Viewer> {
    const context = await signedInContext(running, cookie, { viewport: PHONE, isMobile: true, hasTouch: true });
    const watched = await watchedPage(context, folder);
    const v = { name, page: watched.page, watched };
    viewers.push(v);
    return v;
  }

  /** Retries a setup call until the services have heard of the new users' accounts (events). */
  const eventually = <T>(attempt: () => Promise<T>): Promise<T> => vi.waitFor(attempt, { timeout: 10_000, interval: 250 });

  /** The visible targets under the topmost open dialog (or the whole page) smaller than 44×44, each named. */
  async function smallTargets(page: Page): Promise<string[]> {
    return page.evaluate(({ selector, size }) => {
      const dialogs = [...document.querySelectorAll('[role="dialog"], [role="alertdialog"]')].filter((d) => d.checkVisibility());
      const root = dialogs.at(-1) ?? document.body;
      // A link in a sentence: its block has words of its own besides the links in it.
      const inSentence = (link: Element) => {
        const words = document.createTreeWalker(link.parentElement ?? link, NodeFilter.SHOW_TEXT);
        for (let node = words.nextNode(); node; node = words.nextNode()) {
          if (!node.parentElement?.closest('a') && node.textContent?.trim()) return true;
        }
        return false;
      };
      const links = [...root.querySelectorAll<HTMLElement>('a[href]:not(.MuiButtonBase-root)')].filter((a) => !inSentence(a));
      return [...root.querySelectorAll<HTMLElement>(selector), ...links]
        .filter((el) => el.checkVisibility({ visibilityProperty: true }))
        .map((el) => ({ el, box: el.getBoundingClientRect() }))
        .filter(({ box }) => box.width > 0 && box.height > 0 && (box.width < size - 0.5 || box.height < size - 0.5))
        .map(({ el, box }) => {
          const name = el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 40) ?? '';
          const kind = el.getAttribute('role') ?? el.tagName.toLowerCase();
          return `${kind} '${name}' (${[...el.classList].find((c) => c.startsWith('Mui')) ?? 'no MUI class'}) is ${Math.round(box.width)}×${Math.round(box.height)}`;
        });
    }, { selector: TARGETS, size: TARGET });
  }

  /** The state photographed, then checked: nothing overflows sideways, no target under 44×44. */
  async function check(v: Viewer, state: string): Promise<void> {
    await v.watched.shot(state);
    if (await overflowsSideways(v.page)) {
      const widest = await v.page.evaluate(() => [...document.querySelectorAll<HTMLElement>('body *')]
        .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1)
        .slice(-3).map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')} ends at ${Math.round(el.getBoundingClientRect().right)}`));
      findings.push(`${state}: the page overflows sideways (${widest.join('; ')})`);
    }
    for (const small of await smallTargets(v.page)) findings.push(`${state}: ${small}`);
  }

  const dialog = (page: Page, name: string | RegExp) => page.getByRole('dialog', { name });
  const toast = (page: Page, title: string) => page.getByRole('region', { name: 'Notifications (F8)', includeHidden: true }).getByText(title, { exact: true });

  it('the dashboard, the trade\'s dialogs, the admin page and the checkout', async () => {
    client = appClient(running.app.url);
    const carlaUser = await trader('Carla', 'Vega', 1);
    const diegoUser = await trader('Diego', 'Paz', 2);
    const anaUser = await trader('Ana', 'Rojas', 3);
    // A mistyped password, for the admin's failure lists.
    expect((await client.login(carlaUser.email, 'not her password')).res.status).toBe(401);
    const carla = await viewer('Carla', carlaUser.cookie);
    const diego = await viewer('Diego', diegoUser.cookie);
    try {
      // The dashboard, then Carla posts £200 through the create dialog.
      await carla.page.goto('/dashboard');
      await carla.page.getByRole('button', { name: 'Create Exchange' }).waitFor();
      await check(carla, '01-dashboard');
      // The links folded into the drawer on a phone.
      await carla.page.getByRole('button', { name: 'Open navigation' }).click();
      const drawer = carla.page.locator('#nav-drawer').getByRole('navigation', { name: 'Main' });
      await drawer.getByRole('link', { name: 'Subscription' }).waitFor();
      await check(carla, '01-navigation');
      await carla.page.keyboard.press('Escape');
      await drawer.waitFor({ state: 'detached' });
      await carla.page.getByRole('button', { name: 'Create Exchange' }).click();
      const create = dialog(carla.page, 'Create Exchange Request');
      await create.getByTestId('exchange-rate').waitFor();
      await create.getByRole('textbox', { name: 'Amount (GBP)' }).fill('200');
      await check(carla, '02-create-exchange');
      await create.getByRole('button', { name: 'Create Request' }).click();
      await toast(carla.page, 'Exchange Request Created').waitFor();
      const requestId = Number(new URL(carla.page.url()).searchParams.get('requestId'));
      const exchangeOf = (v: Viewer) => dialog(v.page, `Exchange #${requestId}`);

      // Her open request's details, and the question before 'Mark as Done' takes it down.
      await exchangeOf(carla).getByRole('button', { name: 'Mark as Done' }).waitFor();
      await check(carla, '03-open-request-details');
      await exchangeOf(carla).getByRole('button', { name: 'Mark as Done' }).click();
      const markDone = carla.page.getByRole('dialog').filter({ hasText: 'Keep it open' });
      await markDone.waitFor();
      await check(carla, '04-mark-done-question');
      await markDone.getByRole('button', { name: 'Keep it open' }).click();
      await markDone.waitFor({ state: 'detached' });

      // Diego accepts and Carla approves (through the API): the bank details open by themselves for both.
      const match = await eventually(async () => (await client.json('/api/exchange-matches', 201, { cookie: diegoUser.cookie, body: { exchangeRequestId: requestId } })) as { id: number });
      await client.json(`/api/exchange-matches/${match.id}/confirm`, 200, { method: 'PUT', cookie: carlaUser.cookie });
      for (const v of [carla, diego]) await v.page.goto('/dashboard');
      const bankDetails = dialog(carla.page, 'Exchange Match Confirmed');
      await bankDetails.getByRole('button', { name: 'Close' }).last().waitFor(SOON);
      await check(carla, '05-bank-details');
      for (const v of [carla, diego]) await dialog(v.page, 'Exchange Match Confirmed').getByRole('button', { name: 'Close' }).last().click(SOON);

      // The details with the chat: a reference with no place to break wraps inside its bubble.
      for (const v of [carla, diego]) await v.page.goto(`/dashboard?requestId=${requestId}`);
      await exchangeOf(carla).getByRole('textbox', { name: 'Write a message' }).fill(LONG_WORD);
      await exchangeOf(carla).getByRole('button', { name: 'Send' }).click();
      await exchangeOf(carla).getByRole('region', { name: 'Chat' }).getByText(LONG_WORD).waitFor();
      await check(carla, '06-details-with-chat');

      // Diego says he has paid.
      await exchangeOf(diego).getByRole('button', { name: 'I have paid' }).click();
      const paid = dialog(diego.page, 'I have paid');
      await paid.getByRole('button', { name: 'Mark as paid' }).waitFor();
      await check(diego, '07-i-have-paid');
      await paid.getByRole('button', { name: 'Mark as paid' }).click();
      await exchangeOf(diego).getByText('You marked your payment sent').first().waitFor(SOON);

      // Carla looks at the dispute form, leaves it, and completes: the rating opens.
      await carla.page.goto(`/dashboard?requestId=${requestId}`);
      await exchangeOf(carla).getByRole('button', { name: 'Open a dispute' }).click();
      const dispute = dialog(carla.page, 'Open a dispute');
      await dispute.getByRole('combobox', { name: 'Reason' }).click();
      await carla.page.getByRole('option', { name: 'No payment received' }).click();
      await check(carla, '08-dispute-form');
      await dispute.getByRole('button', { name: 'Cancel' }).click();
      await dispute.waitFor({ state: 'detached' });
      await exchangeOf(carla).getByRole('button', { name: 'Mark as Completed' }).click();
      const rating = dialog(carla.page, 'Rate Exchange');
      await rating.getByRole('button', { name: 'Later' }).waitFor(SOON);
      await check(carla, '09-rating');
      await rating.getByRole('button', { name: 'Later' }).click();

      // A second trade, Ana's, disputed by Diego (through the API), for the admin's queue.
      const second = await eventually(async () => (await client.json('/api/exchange-requests', 201, { cookie: anaUser.cookie, body: { fromCurrency: 'GBP', toCurrency: 'CLP', amount: 100, exchangeRate: 1275 } })) as { id: number });
      const secondMatch = await eventually(async () => (await client.json('/api/exchange-matches', 201, { cookie: diegoUser.cookie, body: { exchangeRequestId: second.id } })) as { id: number });
      await client.json(`/api/exchange-matches/${secondMatch.id}/confirm`, 200, { method: 'PUT', cookie: anaUser.cookie });
      await client.json(`/api/exchange-matches/${secondMatch.id}/dispute`, 201, { cookie: diegoUser.cookie, body: { reason: 'no_payment', statement: 'No pesos have arrived in my BancoEstado account.' } });

      // The admin page: each monitoring tab, then the dispute opened.
      const { cookie: adminCookie } = await client.login(running.app.admin.email, running.app.admin.password);
      const admin = await viewer('Admin', adminCookie!);
      await admin.page.goto('/admin');
      const tabs = admin.page.getByRole('tab');
      await tabs.first().waitFor();
      const tabNames = await tabs.allTextContents();
      expect(tabNames).toEqual(['Signup Failures', 'Login Failures', 'Signup Attempts', 'Login Attempts']);
      for (const [i, name] of tabNames.entries()) {
        await admin.page.getByRole('tab', { name }).click();
        await admin.page.getByRole('tabpanel').getByRole('table').or(admin.page.getByRole('tabpanel').getByText('Nothing')).first().waitFor(SOON);
        await check(admin, `1${i}-admin-${name.toLowerCase().replace(' ', '-')}`);
      }
      const disputes = admin.page.getByRole('region', { name: 'Disputes' });
      await disputes.getByRole('button', { name: /Dispute #\d+: Ana Rojas and Diego Paz/ }).click(SOON);
      await disputes.getByTestId('dispute-detail').getByText('No pesos have arrived in my BancoEstado account.').waitFor();
      await check(admin, '14-admin-dispute');

      // The checkout, in the built-in test payment mode.
      await carla.page.goto('/subscription/checkout');
      await carla.page.getByRole('textbox', { name: 'Card number' }).waitFor(SOON);
      await check(carla, '15-checkout');

      expect(findings).toEqual([]);
      expect(viewers.flatMap((v) => v.watched.problems)).toEqual([]);
    } catch (error) {
      await Promise.all(viewers.map((v) => v.watched.shot(`failure-${v.name.toLowerCase()}`).catch(() => {})));
      throw new Error(`${(error as Error).message}\nfindings so far: ${JSON.stringify(findings, null, 1)}\nproblems: ${JSON.stringify(viewers.flatMap((v) => v.watched.problems))}\napp output:\n${running.app.output().slice(-3000)}`);
    }
  });
});
