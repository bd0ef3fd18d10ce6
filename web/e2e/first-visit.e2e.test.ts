/**
 * A first visit, in real headless Chromium against Puente started as a new user starts it: a visitor checks a bad
 * and a good referral code on the landing page, registers through /register/{code}, verifies with the shown token,
 * logs in, sees the dashboard, adds a GBP and a CLP account through the dialogs (meeting a validation message on the
 * way), sees the account numbers masked, logs out and is shown the landing page on /dashboard. Then the same user at
 * 375 px wide. Screenshots of each step go to web/e2e/screenshots/first-visit/. Any uncaught page error, and any
 * console error but the browser's own line for an expected 4xx answer, fails the test.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumAvailable } from './app-server.ts';
import { overflowsSideways, screenshotFolder, useAppAndBrowser, watchedPage } from './browser.ts';

const HERO = 'Swap British pounds and Chilean pesos with people, not banks';
const user = {
  firstName: 'Ana',
  lastName: 'Rojas',
  email: `ana.rojas+${Date.now()}@example.com`,
  password: 'correct horse battery',
};

describe.skipIf(!chromiumAvailable())('first visit (browser)', () => {
  const running = useAppAndBrowser();
  const folder = screenshotFolder('first-visit');


  const toast = (page: Page, title: string) => page.getByRole('region', { name: 'Notifications (F8)' }).getByText(title, { exact: true });

  it('registers with a referral code, logs in, adds both accounts and logs out', async () => {
    const context = await running.browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL: running.app.url });
    const { page, problems, shot } = await watchedPage(context, folder);
    try {
      // The landing page.
      await page.goto('/');
      await expect.poll(() => page.getByRole('heading', { name: HERO }).isVisible()).toBe(true);
      expect(await page.title()).toMatch(/Puente/);
      await shot('01-landing');

      // A bad referral code.
      const codeInput = page.getByRole('textbox', { name: 'Referral code' });
      await codeInput.fill('NOT-A-REAL-CODE');
      await page.getByRole('button', { name: 'Validate Code' }).click();
      await page.getByRole('button', { name: 'Invalid' }).waitFor();
      await toast(page, 'Invalid Referral Code').waitFor();
      await page.getByText('Please ask a friend for a valid referral code').waitFor();
      await shot('02-invalid-referral-code');

      // A good one: 'Valid', a toast, and /register/{code} after a second.
      await codeInput.fill(running.app.admin.referralCode);
      await page.getByRole('button', { name: 'Validate Code' }).click();
      await page.getByRole('button', { name: 'Valid' }).waitFor();
      await toast(page, 'Valid Referral Code').waitFor();
      await shot('03-valid-referral-code');
      await page.waitForURL(`**/register/${running.app.admin.referralCode}`);
      await page.getByText('Valid referral code! You can now register.').waitFor();
      await shot('04-register-code-valid');

      // The sign-up form, with a mismatch first.
      await page.getByRole('button', { name: 'Continue to Sign Up' }).click();
      await page.getByLabel('First name').fill(user.firstName);
      await page.getByLabel('Last name').fill(user.lastName);
      await page.getByLabel('Email').fill(user.email);
      await page.getByLabel('Password', { exact: true }).fill(user.password);
      await page.getByLabel('Confirm password', { exact: true }).fill('something else');
      await page.getByRole('button', { name: 'Sign Up' }).click();
      await page.getByText("Passwords don't match").waitFor();
      await page.getByRole('button', { name: 'Show confirm password' }).click();
      await shot('05-signup-form-mismatch');
      await page.getByLabel('Confirm password', { exact: true }).fill(user.password);
      await page.getByRole('button', { name: 'Sign Up' }).click();

      // 'Check Your Email' with the token, then verify.
      await page.getByRole('heading', { name: 'Check Your Email' }).waitFor();
      const token = (await page.getByTestId('verification-token').textContent())?.trim();
      expect(token).toBeTruthy();
      await shot('06-check-your-email');
      await page.getByRole('button', { name: 'Verify Account (Test)' }).click();
      await page.waitForURL('**/login');
      await page.getByRole('heading', { name: 'Log in to Puente' }).waitFor();
      await shot('07-login');

      // Log in: the page reloads and shows the dashboard.
      await page.getByLabel('Email').fill(user.email);
      await page.getByLabel('Password', { exact: true }).fill(user.password);
      await page.getByRole('button', { name: 'Log In', exact: true }).click();
      await page.getByRole('heading', { name: `Welcome back, ${user.firstName}!` }).waitFor();
      await page.getByText('Not rated yet').waitFor();
      await page.getByText('No bank accounts yet').waitFor();
      expect(await page.title()).toMatch(/^Dashboard/);
      await toast(page, 'Login Successful').waitFor();
      await shot('08-dashboard');

      // Accounts: the warning, then the GBP dialog with a validation message on the way.
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Accounts' }).click();
      await page.getByText('You need both a GBP and a CLP account to create exchange requests.').waitFor();
      await page.getByRole('tab', { name: 'Add Account' }).click();
      await page.getByRole('button', { name: 'Add GBP Account' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('Bank name').fill('Monzo');
      await dialog.getByLabel('Account holder name').fill('Ana Rojas');
      await dialog.getByLabel('Account number').fill('1234');
      await dialog.getByRole('button', { name: 'Add Account' }).click();
      await dialog.getByText('Sort code is required for GBP accounts').waitFor();
      await dialog.getByText('Account number must be 8 digits for GBP accounts').waitFor();
      await shot('09-gbp-dialog-validation');
      await dialog.getByLabel('Account number').fill('31926819');
      await dialog.getByLabel('Sort code').fill('04-00-04');
      await dialog.getByRole('button', { name: 'Add Account' }).click();
      await toast(page, 'Account Created').waitFor();
      await dialog.waitFor({ state: 'detached' });
      await page.getByText('•••• 6819').waitFor();
      await shot('10-gbp-added');

      // The CLP account.
      await page.getByRole('tab', { name: 'Add Account' }).click();
      expect(await page.getByRole('button', { name: 'Account Added' }).isDisabled()).toBe(true);
      await page.getByRole('button', { name: 'Add CLP Account' }).click();
      await dialog.getByLabel('Bank name').fill('BancoEstado');
      await dialog.getByLabel('Account holder name').fill('Ana Rojas');
      await dialog.getByLabel('Account number').fill('00123456789');
      await dialog.getByLabel('RUT').fill('12.345.678-5');
      await dialog.getByRole('combobox', { name: 'Account type' }).click();
      await page.getByRole('option', { name: 'Cuenta Vista' }).click();
      await dialog.getByLabel('Email').fill('ana@example.cl');
      await shot('11-clp-dialog');
      await dialog.getByRole('button', { name: 'Add Account' }).click();
      await toast(page, 'Account Created').waitFor();
      await dialog.waitFor({ state: 'detached' });
      await page.getByText('•••• 6789').waitFor();
      await page.getByText('You need both a GBP and a CLP account to create exchange requests.').waitFor({ state: 'detached' });

      // Masked everywhere: the full numbers never appear.
      const text = await page.locator('body').innerText();
      expect(text).not.toContain('31926819');
      expect(text).not.toContain('00123456789');
      await shot('12-both-accounts');

      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click();
      await page.getByText('GBP · Monzo').waitFor();
      await page.getByText('CLP · BancoEstado').waitFor();
      expect(await page.locator('body').innerText()).not.toMatch(/31926819|00123456789/);
      await shot('13-dashboard-with-accounts');

      // Log out: the landing page, also on /dashboard.
      await page.getByRole('button', { name: 'Logout' }).click();
      await page.getByRole('heading', { name: HERO }).waitFor();
      await page.waitForURL((url) => url.pathname === '/');
      await shot('14-logged-out');
      await page.goto('/dashboard');
      await page.getByRole('heading', { name: HERO }).waitFor();
      expect(await page.getByRole('button', { name: 'Logout' }).count()).toBe(0);
      await shot('15-dashboard-as-visitor');

      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('shows an admin the monitoring page and the directory, in the dark theme too', async () => {
    const context = await running.browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL: running.app.url });
    const { page, problems, shot } = await watchedPage(context, folder);
    try {
      await page.goto('/login');
      await page.getByLabel('Email').fill(running.app.admin.email);
      await page.getByLabel('Password', { exact: true }).fill(running.app.admin.password);
      await page.getByRole('button', { name: 'Log In', exact: true }).click();
      await page.getByRole('heading', { name: /^Welcome back, / }).waitFor();

      // Attempts reach the audit service through the event bus: reload until Ana's sign-up is listed.
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' }).click();
      await page.getByRole('heading', { name: 'Admin Monitoring' }).waitFor();
      await expect.poll(async () => {
        await page.getByRole('tab', { name: 'Signup Attempts' }).click();
        const listed = await page.getByRole('table', { name: 'Signup attempts' }).getByText(user.email).count();
        if (listed === 0) await page.reload();
        return listed;
      }, { timeout: 15_000 }).toBeGreaterThan(0);
      for (const label of ['Signup failures', 'Login failures', 'Signup attempts', 'Login attempts']) {
        await page.getByText(label, { exact: true }).first().waitFor();
      }
      await shot('admin-01-signup-attempts');
      await page.getByRole('tab', { name: 'Login Attempts' }).click();
      await page.getByRole('table', { name: 'Login attempts' }).getByText(running.app.admin.email).first().waitFor();
      await shot('admin-02-login-attempts');

      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }).click();
      await page.getByRole('article', { name: `${user.firstName} ${user.lastName}` }).waitFor();
      await shot('admin-03-directory');

      await page.getByRole('button', { name: /^Theme:/ }).click();
      await page.getByRole('menuitem', { name: 'Dark' }).click();
      expect(await page.evaluate(() => localStorage.getItem('ui-theme'))).toBe('dark');
      await page.reload();
      await page.getByRole('article', { name: `${user.firstName} ${user.lastName}` }).waitFor();
      expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(15, 19, 24)');
      await shot('admin-04-directory-dark');
      await page.goto('/profile');
      await page.getByRole('tab', { name: 'Referrals' }).click();
      await page.getByText(`${user.firstName} ${user.lastName}`).waitFor();
      await shot('admin-05-profile-referrals-dark');

      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('works at 375 px wide', async () => {
    const context = await running.browser.newContext({ viewport: { width: 375, height: 812 }, baseURL: running.app.url, isMobile: true, hasTouch: true });
    const { page, problems, shot } = await watchedPage(context, folder);
    try {
      await page.goto('/');
      await page.getByRole('heading', { name: HERO }).waitFor();
      expect(await overflowsSideways(page)).toBe(false);
      await shot('mobile-01-landing');

      await page.goto('/login');
      await page.getByRole('heading', { name: 'Log in to Puente' }).waitFor();
      expect(await overflowsSideways(page)).toBe(false);
      await page.getByLabel('Email').fill(user.email);
      await page.getByLabel('Password', { exact: true }).fill(user.password);
      await page.getByRole('button', { name: 'Log In', exact: true }).click();
      await page.getByRole('heading', { name: `Welcome back, ${user.firstName}!` }).waitFor();
      expect(await overflowsSideways(page)).toBe(false);
      await shot('mobile-02-dashboard');

      await page.getByRole('button', { name: 'Open navigation' }).click();
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Accounts' }).waitFor();
      await shot('mobile-03-navigation');
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Accounts' }).click();
      await page.getByText('•••• 6819').waitFor();
      expect(await overflowsSideways(page)).toBe(false);
      await shot('mobile-04-accounts');

      await page.getByRole('button', { name: 'Edit GBP account' }).click();
      await page.getByRole('dialog').getByLabel('Bank name').fill('');
      await page.getByRole('dialog').getByRole('button', { name: 'Save Changes' }).click();
      await page.getByRole('dialog').getByText('Bank name is required').waitFor();
      await shot('mobile-05-edit-dialog');
      await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();

      await page.goto('/profile');
      await page.getByRole('heading', { name: `${user.firstName} ${user.lastName}` }).waitFor();
      expect(await overflowsSideways(page)).toBe(false);
      await shot('mobile-06-profile');

      await page.goto('/logout');
      await page.getByRole('heading', { name: HERO }).waitFor();
      await page.goto('/no-such-page');
      await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
      await shot('mobile-07-not-found');

      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("sends a visitor from the header's Log In through /api/login to the login page", async () => {
    const context = await running.browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL: running.app.url });
    const { page, problems } = await watchedPage(context, folder);
    try {
      await page.goto('/');
      await page.getByRole('banner').getByRole('link', { name: 'Log In' }).click();
      await page.waitForURL((url) => url.pathname === '/login');
      await page.getByRole('heading', { name: 'Log in to Puente' }).waitFor();
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
