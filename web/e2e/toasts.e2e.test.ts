/**
 * Toasts while a dialog is open, in real headless Chromium against Puente: a free-plan user submits £500 from the
 * create dialog and is refused with 'Subscription Limit Reached'. With the dialog still open, the toast and its
 * 'Upgrade' button are found by role (role queries skip what MUI's modal marks aria-hidden), F8 moves focus from the
 * dialog to the toasts and back, Escape too, and the button leads to the plans. Screenshots go to
 * web/e2e/screenshots/toasts/; any uncaught page error or unexpected console error fails the test.
 */
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { appClient } from '@puente/testkit';
import { chromiumAvailable } from './app-server.ts';
import { screenshotFolder, signedInContext, signUpTrader, useAppAndBrowser, watchedPage } from './browser.ts';

const focused = (locator: Locator) => locator.evaluate((element) => element === document.activeElement);
const focusedName = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent);

describe.skipIf(!chromiumAvailable())('toasts over a dialog (browser)', () => {
  const running = useAppAndBrowser();
  const folder = screenshotFolder('toasts');

  it("reaches the limit toast's Upgrade by role and by F8 while the create dialog is open", async () => {
    const client = appClient(running.app.url);
    const carla = await signUpTrader(client, running.app, { firstName: 'Carla', lastName: 'Vega', n: 1 });
    const context = await signedInContext(running, carla.cookie);
    const { page, problems, shot } = await watchedPage(context, folder);
    try {
      await page.goto('/dashboard');
      await page.getByRole('button', { name: 'Create Exchange' }).click();
      const create = page.getByRole('dialog', { name: 'Create Exchange Request' });
      await create.getByTestId('exchange-rate').waitFor();
      const amount = create.getByRole('textbox', { name: 'Amount (GBP)' });
      await amount.fill('500'); // the free plan's limit is £200 an exchange
      await shot('01-over-the-limit');
      await create.getByRole('button', { name: 'Create Request' }).click();

      // Found by role, so not aria-hidden, with the dialog still open.
      const toasts = page.getByRole('region', { name: 'Notifications (F8)' });
      await toasts.getByText('Subscription Limit Reached', { exact: true }).waitFor();
      const upgrade = page.getByRole('button', { name: 'Upgrade' });
      await upgrade.hover(); // a hovered toast stays past its 5 s
      expect(await create.isVisible()).toBe(true);
      await shot('02-limit-toast-over-the-dialog');

      // F8 from the dialog to the toasts, Tab to Upgrade, F8 back to the amount.
      await amount.focus();
      await page.keyboard.press('F8');
      expect(await focused(toasts)).toBe(true);
      await page.keyboard.press('Tab');
      expect(await focused(upgrade)).toBe(true);
      await shot('03-f8-to-upgrade');
      await page.keyboard.press('F8');
      expect(await focused(amount), `focus is on ${await focusedName(page)}`).toBe(true);

      // Escape goes back too, and leaves the dialog open.
      await page.keyboard.press('F8');
      expect(await focused(toasts)).toBe(true);
      await page.keyboard.press('Escape');
      expect(await focused(amount), `focus is on ${await focusedName(page)}`).toBe(true);
      expect(await create.isVisible()).toBe(true);
      await shot('04-escape-back-to-the-amount');

      await upgrade.click();
      await page.waitForURL('**/subscription');
      await page.getByRole('region', { name: 'Free' }).getByText('Current plan').waitFor();
      await shot('05-plans');
      expect(problems).toEqual([]);
    } catch (error) {
      await shot('failure').catch(() => {});
      throw new Error(`${(error as Error).message}\nproblems: ${JSON.stringify(problems)}\napp output:\n${running.app.output().slice(-3000)}`);
    } finally {
      await context.close();
    }
  });
});
