/**
 * The admin monitoring page (beyond the spec) in real headless Chromium, against Puente started as a new user starts it.
 * Through the API two people sign up and trade once (posted → matched → confirmed → completed), one mistypes her
 * password, the other asks for two verifications, and a visitor tries a wrong referral code. In the browser the
 * admin sees the charts drawn with those numbers (today's sign-ups and logins, the failure reasons, the funnel),
 * filters the attempt lists by one email and downloads each as CSV: the file's rows are the list's rows, in order,
 * field by field. Then they approve one verification request waiting for review and reject the other.
 * Screenshots go to web/e2e/screenshots/admin-monitoring/; an uncaught page error or console error fails the test.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it, vi } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { LoginAttemptCsvColumns, SignupAttemptCsvColumns } from '@puente/contracts';
import { appClient, type AppClient } from '@puente/testkit';
import { parse as parseCsv } from 'csv-parse/sync';
import { formatDateTime } from '../src/utils/format.ts';
import { chromiumAvailable } from './app-server.ts';
import { screenshotFolder, signedInContext, signUpTrader, useAppAndBrowser, watchedPage } from './browser.ts';

const today = new Date().toISOString().slice(0, 10);

describe.skipIf(!chromiumAvailable())('admin monitoring (browser)', () => {
  const running = useAppAndBrowser();
  const folder = screenshotFolder('admin-monitoring');
  let client: AppClient;

  const trader = (firstName: string, n: number) => signUpTrader(client, running.app, { firstName, lastName: 'Soto', n });

  /** A chart's numbers as its table for screen readers has them, without the header row. */
  async function numbers(figure: Locator): Promise<string[][]> {
    return figure.locator('table tbody tr').evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('td')].map((c) => c.textContent ?? '')));
  }

  /** How many bars a chart draws with a size (a zero is a bar of no height). */
  async function barsDrawn(figure: Locator): Promise<number> {
    return figure.locator('.MuiBarChart-element').evaluateAll((bars) => bars.filter((bar) => bar.getBoundingClientRect().height > 0 && bar.getBoundingClientRect().width > 0).length);
  }

  /** The rows of the list the tab shows, cell by cell, as the admin reads them. */
  async function listed(page: Page, name: string): Promise<string[][]> {
    return page.getByRole('table', { name }).locator('tbody tr').evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('td')].map((c) => c.textContent ?? '')));
  }

  /** Clicks 'Export CSV' and reads the file the browser saved: its name and its rows, header first. */
  async function exported(page: Page): Promise<{ name: string; rows: string[][] }> {
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    return { name: download.suggestedFilename(), rows: parseCsv(await readFile(await download.path(), 'utf8')) };
  }

  it('draws the charts with the day\'s numbers, exports the filtered lists as the page shows them, and reviews verifications', async () => {
    client = appClient(running.app.url);
    const ana = await trader('Ana', 1);
    const bea = await trader('Bea', 2);
    // Ana mistypes her password once; a visitor tries a code nobody gave out.
    expect((await client.login(ana.email, 'not her password')).res.status).toBe(401);
    const refused = await client.call('/api/signup/request', { body: { email: `eve.${Date.now()}@example.com`, password: 'long enough 1', firstName: 'Eve', lastName: 'Moss', referralCode: 'NOBODY-GAVE-THIS' } });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    // One exchange all the way: posted, matched, confirmed, completed (once exchange knows both accounts).
    const request = await vi.waitFor(async () => (await client.json('/api/exchange-requests', 201, { cookie: ana.cookie, body: { fromCurrency: 'GBP', toCurrency: 'CLP', amount: 100, exchangeRate: 1275 } })) as { id: number }, { timeout: 30_000, interval: 250 });
    const match = await vi.waitFor(async () => (await client.json('/api/exchange-matches', 201, { cookie: bea.cookie, body: { exchangeRequestId: request.id } })) as { id: number }, { timeout: 30_000, interval: 250 });
    await client.json(`/api/exchange-matches/${match.id}/confirm`, 200, { method: 'PUT', cookie: ana.cookie });
    await client.json(`/api/exchange-matches/${match.id}/complete`, 200, { method: 'PUT', cookie: bea.cookie });

    // Bea asks to have her phone and her ID verified.
    for (const type of ['phone', 'bank']) await client.json(`/api/users/verification/${type}`, 201, { cookie: bea.cookie, body: {} });

    const { cookie: adminCookie } = await client.login(running.app.admin.email, running.app.admin.password);
    // The audit service learns of attempts from identity's events: wait until all of them are recorded (the five
    // sign-up steps: Ana's and Bea's request and verify, Eve's refused request; Ana's two logins).
    const total = async (path: string) => Number((await client.call(path, { cookie: adminCookie! })).headers.get('x-total-count'));
    await vi.waitFor(async () => {
      expect(await total('/api/admin/signup-attempts')).toBe(5);
      expect(await total(`/api/admin/login-attempts?email=${encodeURIComponent(ana.email)}`)).toBe(2);
    }, { timeout: 30_000, interval: 250 });

    // Through the gateway the file comes as the audit service writes it: no length known before the end.
    const file = await client.call('/api/admin/signup-attempts/export', { cookie: adminCookie! });
    expect([file.status, file.headers.get('content-type'), file.headers.get('content-length'), file.headers.get('transfer-encoding')])
      .toEqual([200, 'text/csv; charset=utf-8', null, 'chunked']);
    expect(parseCsv(await file.text())).toHaveLength(1 + 5);

    const context = await signedInContext(running, adminCookie!, { acceptDownloads: true });
    const { page, problems, shot } = await watchedPage(context, folder);
    try {
      await page.goto('/admin');

      // The charts, drawn (bars in the SVG) and with today's numbers behind them.
      const signups = page.getByRole('figure', { name: 'Signups per day' });
      await expect.poll(() => barsDrawn(signups), { timeout: 10_000 }).toBeGreaterThan(0);
      const signupDays = await numbers(signups);
      expect(signupDays).toHaveLength(30);
      const [, completed, pending, failed] = signupDays.at(-1)!.map(Number);
      expect([signupDays.at(-1)![0], completed, pending]).toEqual([today, 2, 2]);
      expect(failed).toBeGreaterThanOrEqual(1);
      const logins = page.getByRole('figure', { name: 'Logins per day' });
      await expect.poll(() => barsDrawn(logins), { timeout: 10_000 }).toBeGreaterThan(0);
      const [day, succeeded, loginFailures] = (await numbers(logins)).at(-1)!;
      expect([day, Number(succeeded) >= 3, Number(loginFailures) >= 1]).toEqual([today, true, true]);
      const reasons = page.getByRole('figure', { name: 'Failure reasons' });
      await expect.poll(() => barsDrawn(reasons), { timeout: 10_000 }).toBeGreaterThan(0);
      expect((await numbers(reasons)).map(([reason]) => reason)).toEqual(expect.arrayContaining([expect.stringMatching(/^Login password: /), expect.stringMatching(/^Signup request: /)]));
      const funnel = page.getByRole('figure', { name: 'Exchange funnel' });
      await expect.poll(() => barsDrawn(funnel), { timeout: 10_000 }).toBeGreaterThan(0);
      expect(await numbers(funnel)).toEqual([['Posted', '1'], ['Matched', '1'], ['Confirmed', '1'], ['Completed', '1']]);
      expect(await barsDrawn(funnel)).toBe(4);
      await shot('01-charts');

      // The lists filtered to Ana's email, each exported: the file's rows are the list's, in the list's order.
      await page.getByLabel('Email', { exact: true }).fill(ana.email);
      await page.getByLabel('Date from').fill(today);
      await page.getByRole('button', { name: 'Apply' }).click();

      await page.getByRole('tab', { name: 'Login Attempts' }).click();
      await page.getByRole('table', { name: 'Login attempts' }).locator('tbody tr').nth(1).waitFor();
      const loginRows = await listed(page, 'Login attempts');
      expect(loginRows.map((r) => r[3])).toEqual(['failed', 'success']);
      await shot('02-login-attempts');
      const loginFile = await exported(page);
      expect(loginFile.name).toBe(`login-attempts-${today}.csv`);
      expect(loginFile.rows[0]).toEqual([...LoginAttemptCsvColumns]);
      const loginCell = (row: string[], column: typeof LoginAttemptCsvColumns[number]) => row[LoginAttemptCsvColumns.indexOf(column)]!;
      expect(loginFile.rows.slice(1).map((row) => [
        formatDateTime(loginCell(row, 'createdAt')), loginCell(row, 'email'), loginCell(row, 'method'), loginCell(row, 'status'),
        loginCell(row, 'failureReason') || '—', loginCell(row, 'ipAddress') || '—', loginCell(row, 'userAgent') || '—',
      ])).toEqual(loginRows);

      await page.getByRole('tab', { name: 'Signup Attempts' }).click();
      await page.getByRole('table', { name: 'Signup attempts' }).locator('tbody tr').nth(1).waitFor();
      const signupRows = await listed(page, 'Signup attempts');
      expect(signupRows.map((r) => [r[2], r[3]])).toEqual([['verify', 'completed'], ['request', 'pending']]);
      const signupFile = await exported(page);
      expect(signupFile.name).toBe(`signup-attempts-${today}.csv`);
      const signupCell = (row: string[], column: typeof SignupAttemptCsvColumns[number]) => row[SignupAttemptCsvColumns.indexOf(column)]!;
      expect(signupFile.rows.slice(1).map((row) => [
        formatDateTime(signupCell(row, 'createdAt')), signupCell(row, 'email'), signupCell(row, 'step'), signupCell(row, 'status'),
        signupCell(row, 'failureReason') || '—', signupCell(row, 'referralCode') || '—', signupCell(row, 'ipAddress') || '—', signupCell(row, 'userAgent') || '—',
      ])).toEqual(signupRows);
      await shot('03-signup-attempts');

      // Bea's two requests wait for review: the phone approved, the ID rejected; her profile follows.
      const review = page.getByRole('table', { name: 'Verification requests' });
      await review.getByRole('button', { name: 'Approve Phone verification for Bea Soto' }).click();
      await page.getByText('Verification approved').waitFor();
      await review.getByRole('button', { name: 'Reject Bank verification for Bea Soto' }).click();
      await page.getByText('No verification requests are waiting for review.').waitFor();
      await shot('04-verification-reviewed');
      const beaNow = (await client.json('/api/auth/user', 200, { cookie: bea.cookie })) as { phoneVerified: boolean; idVerified: boolean };
      expect([beaNow.phoneVerified, beaNow.idVerified]).toEqual([true, false]);

      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
