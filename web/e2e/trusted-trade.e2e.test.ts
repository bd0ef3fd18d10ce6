/**
 * A trade you would trust with £500, in real headless Chromium against Puente started as a new user starts it, each
 * step photographed at 1280 px and at 375 px (web/e2e/screenshots/trusted-trade/):
 * - on a desktop, Carla types £500 on the free plan and sees the limit before she submits; Diego reads "You pay $… ·
 *   You receive £200.00" before he accepts; Carla approves beside Diego's record; Carla completes; Diego is asked
 *   "Did you receive £200.00 from Carla Vega?" live, answers No, and the admin finds the dispute with the chat;
 * - on a 375 px phone, the same trade with Yes, after which the rating opens; the trade is full screen, nothing
 *   overflows sideways and nothing covers the main button;
 * - an ID verification reaches the admin's review only once its document is uploaded.
 * Any uncaught page error or unexpected console error fails the test.
 */
import { describe, expect, it } from 'vitest';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { AdminVerificationRequestList } from '@puente/contracts';
import { chromiumAvailable } from './app-server.ts';
import { overflowsSideways, screenshotFolder, signedInContext, suiteTraders, useAppAndBrowser, watchedPage, type WatchedPage } from './browser.ts';

/** One poll (3 s) and the time to answer it, on a busy 2-core machine. */
const WITHIN_A_POLL = { timeout: 15_000 };
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 375, height: 812 };
/** A real 1×1 PNG: the server checks a document's type by its content. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

interface Viewer { name: string; context: BrowserContext; page: Page; watched: WatchedPage; size: typeof DESKTOP }

describe.skipIf(!chromiumAvailable())('a trade you would trust with £500 (browser)', () => {
  const running = useAppAndBrowser();
  const folder = screenshotFolder('trusted-trade');
  const viewers: Viewer[] = [];
  const { client, trader } = suiteTraders(running);

  async function viewer(name: string, cookie: string, size = DESKTOP): Promise<Viewer> {
    const phone = size === PHONE;
    const context = await signedInContext(running, cookie, { viewport: size, ...(phone ? { isMobile: true, hasTouch: true } : {}) });
    const watched = await watchedPage(context, folder);
    const v = { name, context, page: watched.page, watched, size };
    viewers.push(v);
    return v;
  }

  /** The step photographed at the viewer's own width and at the other one (then back). */
  async function shot(v: Viewer, step: string): Promise<void> {
    const other = v.size === DESKTOP ? PHONE : DESKTOP;
    await v.watched.shot(`${step}-${v.name.toLowerCase()}-${v.size.width}`);
    await v.page.setViewportSize(other);
    await v.watched.shot(`${step}-${v.name.toLowerCase()}-${other.width}`);
    await v.page.setViewportSize(v.size);
  }

  const toast = (page: Page, title: string) => page.getByRole('region', { name: 'Notifications (F8)', includeHidden: true }).getByText(title, { exact: true });
  const dialog = (page: Page, name: string | RegExp) => page.getByRole('dialog', { name });
  const exchangeOf = (v: Viewer, requestId: number) => dialog(v.page, `Exchange #${requestId}`);

  /** Nothing overflows sideways, and the button is on screen with nothing drawn over its middle. */
  async function uncovered(v: Viewer, button: Locator): Promise<void> {
    expect(await overflowsSideways(v.page), `${v.name}'s page overflows sideways`).toBe(false);
    await button.scrollIntoViewIfNeeded();
    const box = (await button.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(v.size.width + 1);
    expect(box.y + box.height).toBeLessThanOrEqual(v.size.height + 1);
    const onTop = await button.evaluate((el) => {
      const r = el.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return hit !== null && el.contains(hit);
    });
    expect(onTop, `something covers '${await button.textContent()}' on ${v.name}'s screen`).toBe(true);
  }

  /** Posts GBP → CLP `amount` through the create dialog; returns the request's id. */
  async function post(v: Viewer, amount: string): Promise<number> {
    await v.page.getByRole('button', { name: 'Create Exchange' }).click();
    const create = dialog(v.page, 'Create Exchange Request');
    await create.getByTestId('exchange-rate').waitFor();
    await create.getByRole('textbox', { name: 'Amount (GBP)' }).fill(amount);
    await create.getByRole('button', { name: 'Create Request' }).click();
    await toast(v.page, 'Exchange Request Created').waitFor();
    const requestId = Number(new URL(v.page.url()).searchParams.get('requestId'));
    expect(requestId).toBeGreaterThan(0);
    await exchangeOf(v, requestId).getByRole('button', { name: 'Close' }).first().click();
    return requestId;
  }

  /** The taker reads the request from their side on its card and in its details, with the poster's record, and accepts. */
  async function accept(v: Viewer, requestId: number, amount: string, poster: string): Promise<void> {
    const first = poster.split(' ')[0]!;
    const sides = new RegExp(`^You pay \\$[\\d,]+( CLP)? · You receive ${amount.replace('.', '\\.')}$`);
    const card = v.page.getByRole('article', { name: `View exchange #${requestId}` });
    await card.waitFor(WITHIN_A_POLL);
    expect(await card.getByTestId('request-sides').textContent()).toMatch(sides);
    await card.click();
    const details = exchangeOf(v, requestId);
    expect(await details.getByTestId('request-sides').first().textContent()).toMatch(sides);
    const record = details.getByRole('region', { name: `${poster}'s record` });
    await record.getByText(/^Member since /).waitFor();
    await record.getByRole('link', { name: `See ${first}'s profile` }).waitFor();
    await shot(v, '02-taker-sees-sides');
    await details.getByRole('button', { name: 'Accept Exchange' }).click();
    await toast(v.page, 'Exchange Matched').waitFor();
    await details.getByRole('button', { name: 'Close' }).first().click();
  }

  /** The requester opens the trade once the accept is seen, reads the taker's record beside the button, and approves. */
  async function approve(v: Viewer, requestId: number, taker: string): Promise<void> {
    await v.page.goto(`/dashboard?requestId=${requestId}`);
    const details = exchangeOf(v, requestId);
    const approveButton = details.getByRole('button', { name: 'Approve Match & Share Bank Details' });
    await approveButton.waitFor(WITHIN_A_POLL);
    const first = taker.split(' ')[0]!;
    const record = details.getByRole('region', { name: `${taker}'s record` });
    await record.getByText(/^Member since /).waitFor();
    await record.getByRole('link', { name: `See ${first}'s profile` }).waitFor();
    await uncovered(v, approveButton);
    await shot(v, '03-approve-beside-record');
    await approveButton.click();
  }

  const closeBankDetails = async (v: Viewer) => dialog(v.page, 'Exchange Match Confirmed').getByRole('button', { name: 'Close' }).first().click(WITHIN_A_POLL);

  async function failed(error: unknown): Promise<never> {
    await Promise.all(viewers.map((v) => v.watched.shot(`failure-${v.name.toLowerCase()}`).catch(() => {})));
    throw new Error(`${(error as Error).message}\nproblems: ${JSON.stringify(viewers.flatMap((v) => v.watched.problems))}\napp output:\n${running.app.output().slice(-3000)}`);
  }

  it('on a desktop: the limit while typing, amounts from each side, the record before approval, and a No that opens a dispute with the chat', async () => {
    try {
      const carlaUser = await trader('Carla', 'Vega');
      const diegoUser = await trader('Diego', 'Paz');
      const carla = await viewer('Carla', carlaUser.cookie);
      const diego = await viewer('Diego', diegoUser.cookie);
      await Promise.all([carla.page.goto('/dashboard'), diego.page.goto('/dashboard')]);

      // £500 on the free plan: the dialog says which rule refuses it, and by how much, before anything is sent.
      await carla.page.getByRole('button', { name: 'Create Exchange' }).click();
      const create = dialog(carla.page, 'Create Exchange Request');
      await create.getByTestId('exchange-rate').waitFor();
      await create.getByRole('textbox', { name: 'Amount (GBP)' }).fill('500');
      const limit = create.getByTestId('plan-limit-refusal');
      await limit.getByText('Subscription Limit Reached').waitFor();
      expect(await limit.getByRole('link', { name: 'Upgrade' }).getAttribute('href')).toBe('/subscription');
      await shot(carla, '01-limit-while-typing');
      await create.getByRole('textbox', { name: 'Amount (GBP)' }).fill('200');
      await limit.waitFor({ state: 'detached' });
      await create.getByRole('button', { name: 'Cancel' }).click();
      const requestId = await post(carla, '200');

      await accept(diego, requestId, '£200.00', 'Carla Vega');
      await approve(carla, requestId, 'Diego Paz');
      await Promise.all([closeBankDetails(carla), closeBankDetails(diego)]);

      // Diego writes in the chat, then Carla completes as soon as her pesos arrive.
      await diego.page.goto(`/dashboard?requestId=${requestId}`);
      const diegoTrade = exchangeOf(diego, requestId);
      await diegoTrade.getByRole('textbox', { name: 'Write a message' }).fill('Pesos sent from my BancoEstado account this morning');
      await diegoTrade.getByRole('button', { name: 'Send' }).click();
      await diegoTrade.getByText('Pesos sent from my BancoEstado account this morning').waitFor();
      await carla.page.goto(`/dashboard?requestId=${requestId}`);
      await exchangeOf(carla, requestId).getByRole('button', { name: 'Mark as Completed' }).click();
      await dialog(carla.page, 'Rate Exchange').getByRole('button', { name: 'Later' }).click();

      // Diego is asked at once, without reloading, above the rating: he has not received his pounds.
      const question = diego.page.getByTestId('receipt-question').filter({ hasText: 'Did you receive £200.00 from Carla Vega?' }).first();
      await question.waitFor(WITHIN_A_POLL);
      await shot(diego, '04-asked-live');
      await question.getByRole('button', { name: 'No, I didn\'t' }).click();
      const form = dialog(diego.page, 'Open a dispute');
      await form.getByRole('textbox', { name: 'What happened' }).fill('No pounds have arrived in my Monzo account.');
      await form.getByRole('button', { name: 'Open dispute' }).click();
      await form.waitFor({ state: 'detached' });
      const rating = dialog(diego.page, 'Rate Exchange');
      if (await rating.count()) await rating.getByRole('button', { name: 'Later' }).click();
      await diego.page.goto(`/dashboard?requestId=${requestId}`);
      await exchangeOf(diego, requestId).getByText('Dispute opened by you').first().waitFor(WITHIN_A_POLL);
      await shot(diego, '05-dispute-opened');

      // The admin finds it in the queue with Diego's statement and the trade's chat.
      const { cookie: adminCookie } = await client().login(running.app.admin.email, running.app.admin.password);
      const admin = await viewer('Admin', adminCookie!);
      await admin.page.goto('/admin');
      const disputes = admin.page.getByRole('region', { name: 'Disputes' });
      await disputes.getByRole('button', { name: /Dispute #\d+: Carla Vega and Diego Paz/ }).click(WITHIN_A_POLL);
      const detail = disputes.getByTestId('dispute-detail');
      await detail.getByText('No pounds have arrived in my Monzo account.').waitFor();
      await detail.getByTestId('dispute-chat').getByText('Pesos sent from my BancoEstado account this morning').waitFor();
      await shot(admin, '06-admin-dispute-with-chat');
      expect(viewers.flatMap((v) => v.watched.problems)).toEqual([]);
    } catch (error) {
      await failed(error);
    }
  });

  it('on a 375 px phone: the whole trade full screen, nothing cut off or covered, a Yes and then the rating', async () => {
    try {
      const elenaUser = await trader('Elena', 'Mora');
      const fedeUser = await trader('Fede', 'Rios');
      const elena = await viewer('Elena', elenaUser.cookie, PHONE);
      const fede = await viewer('Fede', fedeUser.cookie, PHONE);
      await Promise.all([elena.page.goto('/dashboard'), fede.page.goto('/dashboard')]);
      expect(await overflowsSideways(elena.page)).toBe(false);
      const requestId = await post(elena, '150');

      await accept(fede, requestId, '£150.00', 'Elena Mora');
      await approve(elena, requestId, 'Fede Rios');
      await Promise.all([closeBankDetails(elena), closeBankDetails(fede)]);

      // Fede's trade fills the screen: the amounts on top, the message box and the main action at the bottom.
      await fede.page.goto(`/dashboard?requestId=${requestId}`);
      const fedeTrade = exchangeOf(fede, requestId);
      const frame = (await fedeTrade.boundingBox())!;
      expect(Math.round(frame.width)).toBe(PHONE.width);
      await fedeTrade.getByText(/^You pay \$[\d,]+( CLP)? · You receive £150\.00$/).first().waitFor();
      const messageBox = fedeTrade.getByRole('textbox', { name: 'Write a message' });
      await uncovered(fede, messageBox);
      expect((await messageBox.boundingBox())!.width).toBeGreaterThan(150);
      const paid = fedeTrade.getByRole('button', { name: 'I have paid' });
      await uncovered(fede, paid);
      await shot(fede, '07-phone-trade');
      await paid.click();
      await dialog(fede.page, 'I have paid').getByRole('button', { name: 'Mark as paid' }).click();
      await exchangeOf(fede, requestId).getByText('You marked your payment sent').waitFor(WITHIN_A_POLL);

      // Elena completes; Fede is asked live and answers Yes; the rating opens.
      await elena.page.goto(`/dashboard?requestId=${requestId}`);
      const complete = exchangeOf(elena, requestId).getByRole('button', { name: 'Mark as Completed' });
      await uncovered(elena, complete);
      await complete.click();
      await dialog(elena.page, 'Rate Exchange').getByRole('button', { name: 'Later' }).click();
      const question = fede.page.getByTestId('receipt-question').filter({ hasText: 'Did you receive £150.00 from Elena Mora?' }).first();
      await question.waitFor(WITHIN_A_POLL);
      const yes = question.getByRole('button', { name: 'Yes, I received it' });
      await uncovered(fede, yes);
      await shot(fede, '08-phone-asked');
      await yes.click();
      await toast(fede.page, 'Receipt confirmed').waitFor();
      const rating = dialog(fede.page, 'Rate Exchange');
      await rating.getByText('How was your exchange with Elena Mora?').waitFor(WITHIN_A_POLL);
      await question.waitFor({ state: 'detached' });
      const submit = rating.getByRole('button', { name: 'Submit Rating' });
      await uncovered(fede, submit);
      await shot(fede, '09-phone-rating');
      await submit.click();
      await toast(fede.page, 'Rating Submitted').waitFor();

      // The timeline says who confirmed what.
      await fede.page.goto(`/dashboard?requestId=${requestId}`);
      await exchangeOf(fede, requestId).getByText('You confirmed receiving £150.00').waitFor(WITHIN_A_POLL);
      await exchangeOf(fede, requestId).getByText('Marked completed by Elena Mora').first().waitFor();
      expect(await overflowsSideways(fede.page)).toBe(false);
      await shot(fede, '10-phone-timeline');
      expect(viewers.flatMap((v) => v.watched.problems)).toEqual([]);
    } catch (error) {
      await failed(error);
    }
  });

  it('an ID verification reaches the admin\'s review only once its document is uploaded', async () => {
    try {
      const ginaUser = await trader('Gina', 'Lara');
      const gina = await viewer('Gina', ginaUser.cookie);
      const { cookie: adminCookie } = await client().login(running.app.admin.email, running.app.admin.password);
      const waiting = async () => AdminVerificationRequestList.parse(await client().json('/api/admin/verification-requests?limit=100', 200, { cookie: adminCookie! }))
        .filter((r) => r.userId === ginaUser.id);

      await gina.page.goto('/profile');
      await gina.page.getByRole('button', { name: 'Verification' }).click();
      const verify = dialog(gina.page, 'Verification');
      await verify.getByRole('button', { name: 'Request ID verification' }).click();
      await verify.getByText('Awaiting document').waitFor();
      await shot(gina, '11-id-awaiting-document');
      expect(await waiting()).toEqual([]);

      await verify.locator('input[type=file]').setInputFiles({ name: 'passport.png', mimeType: 'image/png', buffer: PNG });
      await verify.getByText('Document received (passport.png): an admin will review it.').waitFor(WITHIN_A_POLL);
      await shot(gina, '12-id-document-uploaded');
      expect((await waiting()).map((r) => r.type)).toEqual(['id']);

      const admin = await viewer('Admin', adminCookie!);
      await admin.page.goto('/admin');
      const review = admin.page.getByRole('table', { name: 'Verification requests' });
      await review.getByRole('img', { name: 'ID document of Gina Lara' }).waitFor(WITHIN_A_POLL);
      await shot(admin, '13-admin-reviews-id');
      expect(viewers.flatMap((v) => v.watched.problems)).toEqual([]);
    } catch (error) {
      await failed(error);
    }
  });
});
