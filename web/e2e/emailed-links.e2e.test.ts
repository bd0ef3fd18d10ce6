/**
 * The emailed links, in real headless Chromium against Puente as `npm start` runs it, its log at debug: the
 * verification email's link verifies the account, the reset email's link opens the reset page, and the new password
 * signs in. Each token is in its link's fragment: no request the browser made names it, and the app's log, which
 * records every request, holds neither. A link of the older form (`?token=…`, in emails sent before) still resets
 * the password: the page moves the token out of the address, and the log names the parameter, its value redacted.
 * Screenshots go to web/e2e/screenshots/emailed-links/.
 */
import { describe, expect, it, vi } from 'vitest';
import type { Page } from 'playwright-core';
import { mailsIn, type FolderMail } from '@puente/testkit';
import { chromiumAvailable } from './app-server.ts';
import { screenshotFolder, useAppAndBrowser, watchedPage } from './browser.ts';

describe.skipIf(!chromiumAvailable())('emailed links (browser)', () => {
  const running = useAppAndBrowser({ LOG_LEVEL: 'debug' });
  const folder = screenshotFolder('emailed-links');

  /** The `count`-th email of a kind to `to`, and its link to `page` with the token in the fragment. */
  async function emailed(to: string, kind: string, page: string, count = 1): Promise<{ mail: FolderMail; link: URL; token: string }> {
    const mail = await vi.waitFor(async () => {
      const found = (await mailsIn(running.app.mailDir)).filter((m) => m.to === to && m.kind === kind);
      expect(found.length).toBeGreaterThanOrEqual(count);
      return found[count - 1]!;
    }, { timeout: 15_000, interval: 100 });
    const href = new RegExp(`(https?://\\S+/${page}#token=[\\w-]{43})`).exec(mail.text)?.[1];
    expect(href, mail.text).toBeDefined();
    const link = new URL(href!);
    return { mail, link, token: new URLSearchParams(link.hash.slice(1)).get('token')! };
  }

  async function setNewPassword(page: Page, password: string): Promise<void> {
    await page.getByLabel('New password', { exact: true }).fill(password);
    await page.getByLabel('Confirm new password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
  }

  async function logIn(page: Page, email: string, password: string, firstName: string): Promise<void> {
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Log In', exact: true }).click();
    await page.getByRole('heading', { name: `Welcome back, ${firstName}!` }).waitFor();
  }

  it('verifies and resets from the emailed links, with no token in any request\'s URL or in the log', async () => {
    const user = { email: `lena.${Date.now()}@example.com`, password: 'first password 1', firstName: 'Lena', lastName: 'Soto' };
    const signup = await fetch(`${running.app.url}/api/signup/request`, {
      method: 'POST', headers: { origin: running.app.url, 'content-type': 'application/json' },
      body: JSON.stringify({ ...user, referralCode: running.app.admin.referralCode }),
    });
    expect(signup.status).toBe(201);

    const context = await running.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const { page, problems, shot } = await watchedPage(context, folder);
    // Every URL the browser asked for, as sent (a fragment never is).
    const requested: string[] = [];
    page.on('request', (request) => { const url = new URL(request.url()); url.hash = ''; requested.push(url.href); });
    try {
      // The verification email's link verifies on arrival and goes to the login page.
      const verification = await emailed(user.email, 'verification', 'verify-email');
      await page.goto(verification.link.href);
      await page.waitForURL((url) => url.pathname === '/login');
      await shot('01-verified');

      // Forgot password, from the login page.
      await page.getByRole('link', { name: 'Forgot password?' }).click();
      // The login page's own Email field is there until the new page replaces it.
      await page.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
      await page.getByLabel('Email').fill(user.email);
      await page.getByRole('button', { name: 'Send reset link' }).click();
      await page.getByText('If an account exists for this email, we have sent it a link to reset the password.').first().waitFor();
      const reset = await emailed(user.email, 'password-reset', 'reset-password');
      expect(reset.mail.text).not.toContain('?token=');

      // The reset email's link opens the reset page; the new password signs in, the old one no longer does.
      await page.goto(reset.link.href);
      await page.getByRole('form', { name: 'Choose a new password' }).waitFor();
      await shot('02-reset-page');
      await setNewPassword(page, 'second password 2');
      const refused = await fetch(`${running.app.url}/api/auth/login`, {
        method: 'POST', headers: { origin: running.app.url, 'content-type': 'application/json' },
        body: JSON.stringify({ email: user.email, password: user.password }),
      });
      expect(refused.status).toBe(401);
      await logIn(page, user.email, 'second password 2', user.firstName);
      await shot('03-signed-in');

      // A link as emails sent before carried it: it still works, and the token leaves the address at once.
      await page.getByRole('button', { name: 'Logout' }).click();
      await page.waitForURL((url) => url.pathname === '/');
      const again = await fetch(`${running.app.url}/api/auth/forgot-password`, {
        method: 'POST', headers: { origin: running.app.url, 'content-type': 'application/json' }, body: JSON.stringify({ email: user.email }),
      });
      expect(again.status).toBe(200);
      const older = await emailed(user.email, 'password-reset', 'reset-password', 2);
      await page.goto(`${older.link.origin}/reset-password?token=${older.token}`);
      await page.waitForURL((url) => url.search === '' && url.hash === `#token=${older.token}`);
      await setNewPassword(page, 'third password 3');
      await logIn(page, user.email, 'third password 3', user.firstName);

      const tokens = [verification.token, reset.token, older.token];
      const log = running.app.output();
      // The log records requests (so it would have shown a token in one), the older link's with its value redacted.
      expect(log).toContain('"url":"/verify-email"');
      expect(log).toContain('"url":"/reset-password"');
      expect(log).toContain('"url":"/reset-password?token=REDACTED"');
      for (const token of tokens) expect(log, 'a token in the log').not.toContain(token);
      // Only the older link, typed here as it was sent, put one in a URL.
      expect(requested.filter((url) => tokens.some((token) => url.includes(token))))
        .toEqual([`${older.link.origin}/reset-password?token=${older.token}`]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
