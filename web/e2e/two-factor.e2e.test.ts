/**
 * Two-factor sign-in, in real headless Chromium against Puente as `npm start` runs it: a signed-in user turns it on
 * from the profile (the setup key read off the page, the code computed here as an authenticator app would, and the
 * current password), saves the recovery codes, logs out, logs in with the password and is asked for a code; a wrong
 * code is refused, the right one signs in; the profile's login history shows both. Turning it off asks for the current
 * password again (a wrong one is refused on its field) and takes a recovery code. Screenshots go to
 * web/e2e/screenshots/two-factor/.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumAvailable } from './app-server.ts';
import { screenshotFolder, signedInContext, useAppAndBrowser, watchedPage } from './browser.ts';

/**
 * The code an authenticator app shows (RFC 6238: HMAC-SHA1, 30 s, 6 digits), written here apart from identity's own
 * so that the test checks the service against an independent reading of the RFC.
 */
function authenticatorCode(base32Secret: string, atMs: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  const bits = [...base32Secret].map((c) => alphabet.indexOf(c).toString(2).padStart(5, '0')).join('');
  const key = Buffer.from(bits.match(/.{8}/g)!.map((b) => parseInt(b, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(atMs / 30_000)));
  const mac = createHmac('sha1', key).update(counter).digest();
  const offset = mac[19]! & 0x0f;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

describe.skipIf(!chromiumAvailable())('two-factor sign-in (browser)', () => {
  const running = useAppAndBrowser();
  const folder = screenshotFolder('two-factor');
  const toast = (page: Page, title: string) => page.getByRole('region', { name: 'Notifications (F8)', includeHidden: true }).getByText(title, { exact: true });

  /** A browser-like API call for the setup (the gateway wants the app's Origin on writes). */
  async function api(path: string, body: unknown) {
    const res = await fetch(`${running.app.url}${path}`, {
      method: 'POST', headers: { origin: running.app.url, 'content-type': 'application/json' }, body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res;
  }

  it('turns it on from the profile, then asks for the code at the next login', async () => {
    const user = { email: `tess.${Date.now()}@example.com`, password: 'correct horse battery', firstName: 'Tess', lastName: 'Vidal' };
    const signup = await (await api('/api/signup/request', { ...user, referralCode: running.app.admin.referralCode })).json() as { verificationToken: string };
    await api('/api/signup/verify', { token: signup.verificationToken });
    const login = await api('/api/auth/login', { email: user.email, password: user.password });
    const context = await signedInContext(running, login.headers.getSetCookie().find((c) => c.startsWith('puente_session='))!);
    const { page, problems, shot } = await watchedPage(context, folder);
    try {
      // Turn it on: the setup key off the page, a code from it, the password.
      await page.goto('/profile');
      const card = page.getByRole('region', { name: 'Two-factor sign-in' });
      await card.getByText('Off', { exact: true }).waitFor();
      await card.getByRole('button', { name: 'Turn on' }).click();
      const secret = (await card.getByLabel('Setup key').textContent())!.replace(/\s/g, '');
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      expect(await card.getByRole('link', { name: /^otpauth:\/\/totp\/Puente/ }).getAttribute('href')).toContain(`secret=${secret}`);
      await shot('01-setup');
      const form = card.getByRole('form', { name: 'Turn on' });
      await form.getByLabel('Current password', { exact: true }).fill(user.password);
      await form.getByLabel('Code from the app').fill(authenticatorCode(secret, Date.now()));
      await form.getByRole('button', { name: 'Turn on' }).click();
      const codes = card.getByRole('list', { name: 'Save your recovery codes' });
      await codes.waitFor();
      const recoveryCodes = await codes.getByRole('listitem').allTextContents();
      expect(recoveryCodes).toHaveLength(10);
      await shot('02-recovery-codes');
      await card.getByRole('button', { name: 'I have saved them' }).click();
      await card.getByText('10 recovery codes left').waitFor();
      await card.getByText('On', { exact: true }).waitFor();

      // Log out, and in again: the password alone is not enough.
      await page.getByRole('button', { name: 'Logout' }).click();
      await page.waitForURL((url) => url.pathname === '/');
      await page.goto('/login');
      await page.getByLabel('Email').fill(user.email);
      await page.getByLabel('Password', { exact: true }).fill(user.password);
      await page.getByRole('button', { name: 'Log In' }).click();
      const step = page.getByRole('form', { name: 'Enter your authentication code' });
      await step.waitFor();
      await shot('03-code-step');

      // A wrong code, then the app's next one (the one the setup used is spent).
      await step.getByLabel('Authentication code').fill(authenticatorCode(secret, Date.now() + 10 * 30_000));
      await step.getByRole('button', { name: 'Verify' }).click();
      await toast(page, 'Login Failed').waitFor();
      await page.getByText('That code is not right. Check your authenticator app and try again.').first().waitFor();
      await step.getByLabel('Authentication code').fill(authenticatorCode(secret, Date.now() + 30_000));
      await step.getByRole('button', { name: 'Verify' }).click();
      await page.getByRole('button', { name: 'Logout' }).waitFor();

      // The login history: the wrong code and the sign-in, newest first.
      await page.goto('/profile');
      const history = page.getByRole('list', { name: 'Login history' });
      await history.waitFor();
      await expect.poll(async () => (await history.getByRole('listitem').allTextContents()).slice(0, 2).map((t) => t.split(/\d/)[0]))
        .toEqual(['Signed in', 'Failed (wrong authentication code)']);
      await shot('04-login-history');

      // Off: the session alone is not enough; a wrong current password is refused on its field.
      const twoFactor = page.getByRole('region', { name: 'Two-factor sign-in' });
      await twoFactor.getByRole('button', { name: 'Turn off' }).click();
      const off = twoFactor.getByRole('form', { name: 'Turn off' });
      await off.getByLabel('Current password', { exact: true }).fill('not my password');
      await off.getByLabel('Code from the app').fill(recoveryCodes[0]!);
      await off.getByRole('button', { name: 'Turn off' }).click();
      await off.getByText('Current password is incorrect').first().waitFor();
      await shot('05-off-wrong-password');
      await off.getByLabel('Current password', { exact: true }).fill(user.password);
      await off.getByRole('button', { name: 'Turn off' }).click();
      await twoFactor.getByText('Off', { exact: true }).waitFor();
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
