/** Chromium for the browser tests: pages that record every uncaught error and unexpected console error, screenshots. */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { appClient, type AppClient, type SignedIn } from '@puente/testkit';
import { CHROMIUM_ARGS, CHROMIUM_PATH, startApp, webDir, type RunningApp } from './app-server.ts';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

/**
 * A suite's app and browser: Puente (with `env` over its settings) and Chromium started before
 * its tests, both stopped after.
 */
export function useAppAndBrowser(env: Record<string, string> = {}): { app: RunningApp; browser: Browser } {
  const running = {} as { app: RunningApp; browser: Browser };
  beforeAll(async () => {
    running.app = await startApp(env);
    running.browser = await launchChromium();
  });
  afterAll(async () => {
    await running.browser?.close();
    await running.app?.stop();
  });
  return running;
}

/**
 * A browser context signed in with `cookie` (`puente_session=...`, as the login answered it): a desktop viewport on
 * the app, unless `options` say otherwise.
 */
export async function signedInContext(running: { app: RunningApp; browser: Browser }, cookie: string, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  const context = await running.browser.newContext({ viewport: { width: 1280, height: 900 }, baseURL: running.app.url, ...options });
  const [name, value] = cookie.split(';')[0]!.split('=') as [string, string];
  await context.addCookies([{ name, value, url: running.app.url }]);
  return context;
}

/**
 * The browser's own console line for a 4xx answer the app expects (a visitor's 401 from GET /api/auth/user, a 404 of
 * a call whose service is not there yet). Every other console error fails the test.
 */
const EXPECTED_4XX = /^Failed to load resource: the server responded with a status of 4\d\d\b/;

export interface WatchedPage {
  page: Page;
  /** Uncaught page errors and unexpected console errors seen so far. */
  problems: string[];
  /** Saves `<folder>/<name>.png` (full page). */
  shot: (name: string) => Promise<void>;
}

/** A screenshot folder named after the test: web/e2e/screenshots/<name>, emptied first. */
export function screenshotFolder(name: string): string {
  const folder = join(webDir, 'e2e', 'screenshots', name);
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  return folder;
}

export async function watchedPage(context: BrowserContext, folder: string): Promise<WatchedPage> {
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`uncaught error on ${page.url()}: ${error.stack ?? error.message}`));
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const text = message.text();
    if (EXPECTED_4XX.test(text)) return;
    problems.push(`console error on ${page.url()}: ${text}`);
  });
  return {
    page,
    problems,
    shot: async (name) => {
      await page.screenshot({ path: join(folder, `${name}.png`), fullPage: true, animations: 'disabled' });
    },
  };
}

/** True when the page is wider than the viewport (something overflows sideways). */
export async function overflowsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
}

/**
 * A trader ready to exchange: signed up with the admin's referral code, with a GBP account (Monzo, `<n>1926819`) and a
 * CLP account (BancoEstado, `<n>3456789`). `n` keeps each trader's account numbers apart; `emailTag` goes into the
 * email (`ana.dispute.<time>@example.com`) where a suite tells its users apart by it.
 */
export async function signUpTrader(client: AppClient, app: RunningApp, who: { firstName: string; lastName: string; n: number; emailTag?: string }): Promise<SignedIn> {
  const { firstName, lastName, n, emailTag } = who;
  const email = `${[firstName.toLowerCase(), emailTag, Date.now()].filter((part) => part !== undefined).join('.')}@example.com`;
  const person = await client.signUp({ email, password: 'correct horse battery', firstName, lastName }, app.admin.referralCode);
  const accountHolder = `${firstName} ${lastName}`;
  await client.json('/api/bank-accounts', 201, { cookie: person.cookie, body: { currency: 'GBP', bankName: 'Monzo', accountNumber: `${n}1926819`, accountHolder, sortCode: '04-00-04' } });
  await client.json('/api/bank-accounts', 201, {
    cookie: person.cookie,
    body: { currency: 'CLP', bankName: 'BancoEstado', accountNumber: `${n}3456789`, accountHolder, rut: '12.345.678-5', accountType: 'vista', email: `${firstName.toLowerCase()}@example.cl` },
  });
  return person;
}

/**
 * A suite's traders: each signed up as signUpTrader does, numbered in order, through one client made once the app
 * is running (`client()` also serves the suite's own calls).
 */
export function suiteTraders(running: { app: RunningApp }): { client(): AppClient; trader(firstName: string, lastName: string): Promise<SignedIn> } {
  let client: AppClient | undefined;
  let n = 0;
  const clientOf = () => (client ??= appClient(running.app.url));
  return {
    client: clientOf,
    trader(firstName, lastName) {
      n += 1;
      return signUpTrader(clientOf(), running.app, { firstName, lastName, n });
    },
  };
}
