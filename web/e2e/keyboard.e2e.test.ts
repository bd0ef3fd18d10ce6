/**
 * The whole exchange with the keyboard alone, in real headless Chromium (web/e2e/screenshots/keyboard/): Ana posts a
 * request, Bruno accepts it, Ana approves, both read the bank details, Bruno marks his payment sent, Ana says she
 * received it and completes, Bruno answers the receipt question, and both rate. Every step is Tab, Shift+Tab, Enter,
 * Space, the arrows, Escape or typing: nothing is clicked. Each dialog keeps the focus inside while open (Tab never
 * leaves it) and gives it back to what opened it once closed. Sign-up and bank accounts go through the API.
 * Any uncaught page error or unexpected console error fails the test.
 */
import { describe, expect, it } from 'vitest';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { chromiumAvailable } from './app-server.ts';
import { screenshotFolder, signedInContext, suiteTraders, useAppAndBrowser, watchedPage, type WatchedPage } from './browser.ts';

/** One poll (3 s) and the time to answer it, on a busy 2-core machine. */
const WITHIN_A_POLL = { timeout: 15_000 };
/** More Tabs than any page of the app has stops before what a step needs. */
const MOST_TABS = 80;

interface Trader { name: string; context: BrowserContext; page: Page; watched: WatchedPage }

describe.skipIf(!chromiumAvailable())('the whole exchange with the keyboard alone (browser)', () => {
  const running = useAppAndBrowser();
  const folder = screenshotFolder('keyboard');
  const traders: Trader[] = [];
  const { trader: signUp } = suiteTraders(running);

  async function trader(name: string, cookie: string): Promise<Trader> {
    const context = await signedInContext(running, cookie);
    const watched = await watchedPage(context, folder);
    const t = { name, context, page: watched.page, watched };
    traders.push(t);
    return t;
  }

  const shot = (t: Trader, step: string) => t.watched.shot(`${step}-${t.name.toLowerCase()}`);
  const toast = (page: Page, title: string) => page.getByRole('region', { name: 'Notifications (F8)', includeHidden: true }).getByText(title, { exact: true });
  const dialog = (page: Page, name: string | RegExp) => page.getByRole('dialog', { name });
  const exchangeOf = (t: Trader, requestId: number) => dialog(t.page, `Exchange #${requestId}`);
  /** Whether the focus is on `target` or inside it. */
  const focused = (target: Locator) => target.evaluate((el) => el === document.activeElement || el.contains(document.activeElement));
  /** Whether the focus is in `dialog`'s modal: the dialog, or the frame around it that MUI focuses when it opens. */
  const inside = (dialog: Locator) => dialog.evaluate((el) => (el.closest('.MuiModal-root') ?? el).contains(document.activeElement));
  /** What has the focus, for a failure's message: the element and its ancestors' classes. */
  const focusNow = (page: Page) => page.evaluate(() => {
    const el = document.activeElement;
    if (!el) return 'nothing';
    const chain: string[] = [];
    for (let node: Element | null = el; node && chain.length < 6; node = node.parentElement) chain.push(`${node.tagName.toLowerCase()}.${[...node.classList].join('.')}`);
    return `${el.outerHTML.slice(0, 120)} in ${chain.slice(1).join(' < ')}`;
  });

  /**
   * Tab until `target` has the focus (Shift+Tab when `back`). Within an open `dialog`, every stop on the way must be
   * inside it: the dialog traps the focus.
   */
  async function tabTo(t: Trader, target: Locator, { within, back = false }: { within?: Locator; back?: boolean } = {}): Promise<void> {
    await target.waitFor(WITHIN_A_POLL);
    const trail: string[] = [];
    for (let i = 0; i < MOST_TABS; i += 1) {
      if (await focused(target)) return;
      await t.page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
      trail.push(await focusNow(t.page));
      if (within) expect(await inside(within), `Tab left the dialog for ${trail.at(-1)}`).toBe(true);
    }
    throw new Error(`${t.name}: ${MOST_TABS} Tabs never reached ${String(target)}; the last stops:\n${trail.slice(-8).join('\n')}`);
  }

  /** Tab to `target` and press Enter on it. */
  async function enter(t: Trader, target: Locator, within?: Locator): Promise<void> {
    await tabTo(t, target, within ? { within } : {});
    await t.page.keyboard.press('Enter');
  }

  /** Tab around the whole of an open dialog and back: the focus moves from stop to stop and never leaves it. */
  async function trapsFocus(t: Trader, open: Locator): Promise<void> {
    await open.waitFor();
    await expect.poll(() => inside(open), { message: `the focus is not in the dialog: ${await focusNow(t.page)}` }).toBe(true);
    const stops = new Set<string>();
    for (const key of [...Array<string>(25).fill('Tab'), ...Array<string>(25).fill('Shift+Tab')]) {
      await t.page.keyboard.press(key);
      const now = await focusNow(t.page);
      stops.add(now);
      expect(await inside(open), `${key} left '${await open.getAttribute('aria-labelledby')}' for ${now}`).toBe(true);
    }
    expect(stops.size, `Tab is stuck in '${await open.getAttribute('aria-labelledby')}' on ${[...stops].join(', ')}`).toBeGreaterThan(1);
  }

  /** Escape closes `open`, and the focus is back on `opener`. */
  async function escapeBackTo(t: Trader, open: Locator, opener: Locator): Promise<void> {
    await t.page.keyboard.press('Escape');
    await open.waitFor({ state: 'detached' });
    await expect.poll(() => focused(opener), { message: `${t.name}'s focus after closing: ${await focusNow(t.page)}` }).toBe(true);
  }

  /** Escape closes `open`, and the focus is on the request's card (the one that opened it, or where it moved since). */
  async function escapeBackToCard(t: Trader, open: Locator, requestId: number): Promise<void> {
    await t.page.keyboard.press('Escape');
    await open.waitFor({ state: 'detached' });
    const onCard = () => t.page.evaluate((name) => document.activeElement?.closest('article')?.getAttribute('aria-label') === name, `View exchange #${requestId}`);
    await expect.poll(onCard, { message: `${t.name}'s focus after closing: ${await focusNow(t.page)}` }).toBe(true);
  }

  /** Opens a request's trade from its card on the dashboard, by keyboard: Tab to the card, Enter. */
  async function openTrade(t: Trader, requestId: number): Promise<Locator> {
    await t.page.goto('/dashboard');
    await enter(t, t.page.getByRole('article', { name: `View exchange #${requestId}` }).getByRole('button').first());
    const trade = exchangeOf(t, requestId);
    await trade.waitFor();
    return trade;
  }

  /** Rates 5 stars with the arrows and a comment typed in, then Enter on Submit Rating. */
  async function rate(t: Trader, partner: string): Promise<void> {
    const rating = dialog(t.page, 'Rate Exchange');
    await rating.getByText(`How was your exchange with ${partner}?`).waitFor(WITHIN_A_POLL);
    await trapsFocus(t, rating);
    await tabTo(t, rating.getByRole('radio', { checked: true }), { within: rating });
    await t.page.keyboard.press('ArrowRight');
    await expect.poll(() => rating.getByTestId('rating-word').textContent()).toBe('Excellent');
    await tabTo(t, rating.getByRole('textbox', { name: 'Comment (optional)' }), { within: rating });
    await t.page.keyboard.type('Smooth and quick.');
    await shot(t, `09-rates-${partner.split(' ')[0]!.toLowerCase()}`);
    await enter(t, rating.getByRole('button', { name: 'Submit Rating' }), rating);
    await toast(t.page, 'Rating Submitted').waitFor();
    await rating.waitFor({ state: 'detached' });
  }

  async function failed(error: unknown): Promise<never> {
    await Promise.all(traders.map((t) => t.watched.shot(`failure-${t.name.toLowerCase()}`).catch(() => {})));
    const focus = await Promise.all(traders.map(async (t) => `${t.name} at ${t.page.url()}: ${await focusNow(t.page).catch(() => 'unknown')}; modals: ${await t.page.evaluate(() => [...document.querySelectorAll('.MuiModal-root')].map((m) => `${m.className.slice(0, 40)} hidden=${m.getAttribute('aria-hidden')} ${m.querySelector('[role=dialog]')?.getAttribute('aria-labelledby') ?? ''}`).join(' | ')).catch(() => '?')}`));
    throw new Error(`${(error as Error).message}\nfocus: ${focus.join('; ')}\nproblems: ${JSON.stringify(traders.flatMap((t) => t.watched.problems))}\napp output:\n${running.app.output().slice(-3000)}`);
  }

  it('posts, accepts, approves, shows the bank details, marks paid and received, completes and rates: Tab, Enter, arrows, Escape and typing only', async () => {
    try {
      const ana = await trader('Ana', (await signUp('Ana', 'Diaz')).cookie);
      const bruno = await trader('Bruno', (await signUp('Bruno', 'Silva')).cookie);
      await Promise.all([ana.page.goto('/dashboard'), bruno.page.goto('/dashboard')]);

      // Ana posts £150: the dialog holds the focus, the amount is typed, Enter on Create Request.
      const createButton = ana.page.getByRole('button', { name: 'Create Exchange' });
      await enter(ana, createButton);
      const create = dialog(ana.page, 'Create Exchange Request');
      await create.getByTestId('exchange-rate').waitFor();
      await trapsFocus(ana, create);
      await escapeBackTo(ana, create, createButton);
      await enter(ana, createButton);
      await create.getByTestId('exchange-rate').waitFor();
      const amount = create.getByRole('textbox', { name: 'Amount (GBP)' });
      await tabTo(ana, amount, { within: create });
      await ana.page.keyboard.press('ControlOrMeta+A');
      await ana.page.keyboard.type('150');
      await shot(ana, '01-create-typed');
      await enter(ana, create.getByRole('button', { name: 'Create Request' }), create);
      await toast(ana.page, 'Exchange Request Created').waitFor();
      const requestId = Number(new URL(ana.page.url()).searchParams.get('requestId'));
      expect(requestId).toBeGreaterThan(0);
      const posted = exchangeOf(ana, requestId);
      await trapsFocus(ana, posted);
      await shot(ana, '02-posted');
      // 'Mark as Done' asks first; Escape keeps the request open and gives the button its focus back.
      const markDone = posted.getByRole('button', { name: 'Mark as Done' });
      await enter(ana, markDone, posted);
      const askDone = dialog(ana.page, `Mark request #${requestId} as done?`);
      await trapsFocus(ana, askDone);
      await escapeBackTo(ana, askDone, markDone);
      await escapeBackTo(ana, posted, createButton);

      // Bruno opens it from its card, reads it and accepts: Enter on Accept Exchange; Escape gives the card its focus back.
      const brunoTrade = await openTrade(bruno, requestId);
      await trapsFocus(bruno, brunoTrade);
      await enter(bruno, brunoTrade.getByRole('button', { name: 'Accept Exchange' }), brunoTrade);
      await toast(bruno.page, 'Exchange Matched').waitFor();
      await shot(bruno, '03-accepted');
      await escapeBackToCard(bruno, brunoTrade, requestId);

      // Ana approves from her own card; the bank details open, and closing them leaves the focus in the trade.
      const anaTrade = await openTrade(ana, requestId);
      await enter(ana, anaTrade.getByRole('button', { name: 'Approve Match & Share Bank Details' }), anaTrade);
      const anaBank = dialog(ana.page, 'Exchange Match Confirmed');
      await anaBank.getByText('Bruno Silva').first().waitFor(WITHIN_A_POLL);
      await trapsFocus(ana, anaBank);
      await shot(ana, '04-bank-details');
      await ana.page.keyboard.press('Escape');
      await anaBank.waitFor({ state: 'detached' });
      // The trade is back, and holds the focus again.
      await expect.poll(() => inside(anaTrade), { message: `Ana's focus after the bank details: ${await focusNow(ana.page)}` }).toBe(true);

      // Bruno's bank details open by themselves once the match is confirmed; Escape closes them.
      const brunoBank = dialog(bruno.page, 'Exchange Match Confirmed');
      await brunoBank.getByText('Ana Diaz').first().waitFor(WITHIN_A_POLL);
      await trapsFocus(bruno, brunoBank);
      await shot(bruno, '04-bank-details');
      await bruno.page.keyboard.press('Escape');
      await brunoBank.waitFor({ state: 'detached' });

      // Bruno writes in the chat (Enter sends), looks at 'Open a dispute' and leaves it with Escape.
      const paying = { trade: await openTrade(bruno, requestId) };
      await tabTo(bruno, paying.trade.getByRole('textbox', { name: 'Write a message' }), { within: paying.trade });
      await bruno.page.keyboard.type('Pesos sent from my BancoEstado account');
      await bruno.page.keyboard.press('Enter');
      await paying.trade.getByText('Pesos sent from my BancoEstado account').waitFor();
      const disputeButton = paying.trade.getByRole('button', { name: 'Open a dispute' });
      await enter(bruno, disputeButton, paying.trade);
      const dispute = dialog(bruno.page, 'Open a dispute');
      await trapsFocus(bruno, dispute);
      await shot(bruno, '05-dispute-form');
      await escapeBackTo(bruno, dispute, disputeButton);

      // Bruno marks his payment sent: Enter on 'I have paid', then on 'Mark as paid' in its dialog.
      const paidButton = paying.trade.getByRole('button', { name: 'I have paid' });
      await enter(bruno, paidButton, paying.trade);
      const paid = dialog(bruno.page, 'I have paid');
      await trapsFocus(bruno, paid);
      await escapeBackTo(bruno, paid, paidButton);
      await enter(bruno, paidButton, paying.trade);
      await paid.waitFor();
      await shot(bruno, '06-mark-paid');
      await enter(bruno, paid.getByRole('button', { name: 'Mark as paid' }), paid);
      await paying.trade.getByText('You marked your payment sent').waitFor(WITHIN_A_POLL);
      await paid.waitFor({ state: 'detached' });
      // Closed with its Close button: after a successful 'Mark as paid' the trade ignores Escape (MUI's Modal no longer
      // takes itself for the top one once the paid dialog is gone, with the focus on the trade's container), a known
      // bug not fixed yet.
      await enter(bruno, paying.trade.getByRole('button', { name: 'Close', exact: true }), paying.trade);
      await paying.trade.waitFor({ state: 'detached' });

      // Ana says she received the pesos, and completes; her rating dialog opens.
      const completing = { trade: await openTrade(ana, requestId) };
      const receivedButton = completing.trade.getByRole('button', { name: /^I received / });
      await enter(ana, receivedButton, completing.trade);
      const arrived = dialog(ana.page, /^Did .* arrive\?$/);
      await trapsFocus(ana, arrived);
      await escapeBackTo(ana, arrived, receivedButton);
      await enter(ana, receivedButton, completing.trade);
      await enter(ana, arrived.getByRole('button', { name: 'Yes, I received it' }), arrived);
      await arrived.waitFor({ state: 'detached' });
      // The button is gone with the question it asked: the focus stays in the trade.
      await expect.poll(() => inside(completing.trade)).toBe(true);
      await enter(ana, completing.trade.getByRole('button', { name: 'Mark as Completed' }), completing.trade);
      await shot(ana, '07-completed');
      await rate(ana, 'Bruno Silva');

      // Bruno, still on his dashboard, is asked at once whether he received his pounds (above the rating), says Yes, and rates.
      const question = bruno.page.getByTestId('receipt-question').filter({ hasText: 'Did you receive £150.00 from Ana Diaz?' }).first();
      await question.waitFor(WITHIN_A_POLL);
      await shot(bruno, '08-asked');
      await enter(bruno, question.getByRole('button', { name: 'Yes, I received it' }), dialog(bruno.page, 'Rate Exchange'));
      await toast(bruno.page, 'Receipt confirmed').waitFor();
      await rate(bruno, 'Ana Diaz');
      expect(traders.flatMap((t) => t.watched.problems)).toEqual([]);
    } catch (error) {
      await failed(error);
    }
  });
});
