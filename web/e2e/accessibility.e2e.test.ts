/**
 * WCAG 2.2 AA: axe-core finds no violation (tags wcag2a, wcag2aa, wcag21a, wcag21aa, wcag22aa) on any page
 * of the router, for a visitor, a user and an admin, in English and Spanish, in light and dark mode, nor with any
 * dialog or popup open (create exchange, the bell, the language menu, someone else's open request and one's own, mark
 * as done, a request awaiting approval, the trade with its chat and its bank details, 'I have paid', 'I received', a
 * dispute, a completed trade with its receipt question and the rating, block, a bank account's add, edit and delete,
 * the profile's invite, verification, name, password, account deletion, referrals and two-factor setup, no accounts
 * yet, the admin's monitoring tabs and dispute detail). The language is set as the header's switch sets it
 * (`ui-language`, and the account's language for a signed-in user); the theme follows the system's (`ui-theme` is
 * 'system' by default, and follows a change live), so each state is scanned in the scheme the page shows, then again
 * once the emulated scheme is switched (the colour rules: all the switch changes), without loading it twice. The
 * three roles run side by side, the user's pages in two parts, each part on a page of its own.
 * A failure lists each violating element once per state: rule, impact, selector, page, the looks it failed in and
 * axe's reason. Screenshots (every state in English light mode, and any state with a violation) go to
 * web/e2e/screenshots/accessibility/.
 */
import { setTimeout } from 'node:timers/promises';
import { describe, expect, it, vi, type TestContext } from 'vitest';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import AxeBuilder from '@axe-core/playwright';
import i18next, { type TFunction } from 'i18next';
import { appClient, type AppClient, type SignedIn } from '@puente/testkit';
import { CreateSubscriptionResponse } from '@puente/contracts';
import { en } from '../src/locales/en/index.ts';
import { es } from '../src/locales/es/index.ts';
import { chromiumAvailable } from './app-server.ts';
import { screenshotFolder, signedInContext, signUpTrader, useAppAndBrowser, watchedPage, type WatchedPage } from './browser.ts';

const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
/** What a change of scheme can change: the colours (the markup, which every other rule reads, stays as it was). */
const SCHEME_RULES = ['color-contrast', 'link-in-text-block'];
const LANGUAGES = ['en', 'es'] as const;
const SCHEMES = ['light', 'dark'] as const;
type Language = (typeof LANGUAGES)[number];
type Scheme = (typeof SCHEMES)[number];
const SOON = { timeout: 15_000 };
/** A role's pages four times over on a busy 2-core machine (the other browser suites may be running too). */
const ALL_LOOKS = 900_000;
/** How many times a dialog is opened for its scan before one that closes by itself each time fails the test. */
const DIALOG_TRIES = 5;
/** A scan takes seconds, 20 s at worst on a slow machine: one still running after this is stuck (a hung page). */
const SCAN_BOUND = 120_000;

/** The app's own catalogues, to find buttons by the words the reader sees in either language. */
const catalogues = i18next.createInstance();
void catalogues.init({ resources: { en, es }, lng: 'en', fallbackLng: 'en', ns: Object.keys(en), interpolation: { escapeValue: false }, initAsync: false });

/**
 * Where a scan happens: who, in which language, on which page, with what open; `scheme`, the one the page shows now;
 * `doing`, the step under way (what a timeout reports).
 */
interface Scanner { role: string; watched: WatchedPage; page: Page; t: TFunction; language: Language; scheme: Scheme; doing: string }
type Violations = Awaited<ReturnType<AxeBuilder['analyze']>>['violations'];

describe.skipIf(!chromiumAvailable())('accessibility, WCAG 2.2 AA (browser)', () => {
  const running = useAppAndBrowser();
  const folder = screenshotFolder('accessibility');
  /** Each violating element by role, state, rule and selector: the looks (language, scheme) it failed in, and why. */
  const violating = new Map<string, { looks: string[]; why: string }>();
  let client: AppClient;
  let scans = 0;

  const trader = (firstName: string, n: number): Promise<SignedIn> => signUpTrader(client, running.app, { firstName, lastName: 'Reyes', n });

  /** Retries a setup call until the services have heard of the new users and accounts (events). */
  const eventually = <T>(attempt: () => Promise<T>): Promise<T> => vi.waitFor(attempt, { timeout: 15_000, interval: 250 });
  const post = (who: SignedIn, amount: number) => eventually(async () => (await client.json('/api/exchange-requests', 201, {
    cookie: who.cookie, body: { fromCurrency: 'GBP', toCurrency: 'CLP', amount, exchangeRate: 1275 },
  })) as { id: number });
  const take = (who: SignedIn, requestId: number) => eventually(async () => (await client.json('/api/exchange-matches', 201, { cookie: who.cookie, body: { exchangeRequestId: requestId } })) as { id: number });
  const put = (who: SignedIn, matchId: number, step: string) => client.json(`/api/exchange-matches/${matchId}/${step}`, 200, { method: 'PUT', cookie: who.cookie });

  /** Ana's world: every kind of request and trade she can open, a dispute for the admin, a verification, a support request. */
  interface World { ana: SignedIn; bea: SignedIn; adminCookie: string; own: number; others: number; pending: number; trading: number; completed: number; matchIds: number[] }
  let world: Promise<World> | undefined;
  function setUp(): Promise<World> {
    world ??= (async () => {
      client = appClient(running.app.url);
      const [ana, bea, cleo, dani, eli] = [await trader('Ana', 1), await trader('Bea', 2), await trader('Cleo', 3), await trader('Dani', 4), await trader('Eli', 5)];
      // Premium (paid with the test card), so Ana may take part in four exchanges today; the others stay within two.
      const { clientSecret } = CreateSubscriptionResponse.parse(await client.json('/api/create-subscription', 200, { cookie: ana.cookie, body: {} }));
      await client.json('/api/subscription/test-checkout/confirm', 200, { cookie: ana.cookie, body: { clientSecret, cardNumber: '4242424242424242', expiry: '12/34' } });
      const own = (await post(ana, 120)).id;
      const trading = (await post(ana, 150)).id;
      const completed = (await post(bea, 110)).id;
      const others = (await post(cleo, 130)).id;
      const pending = (await post(cleo, 90)).id;
      const disputed = (await post(dani, 80)).id;
      const tradingMatch = (await take(bea, trading)).id;
      await put(ana, tradingMatch, 'confirm');
      await client.json(`/api/exchange-matches/${tradingMatch}/messages`, 201, { cookie: bea.cookie, body: { text: 'Hola Ana, pesos sent this morning.' } });
      const completedMatch = (await take(ana, completed)).id;
      await put(bea, completedMatch, 'confirm');
      await put(bea, completedMatch, 'complete');
      const pendingMatch = (await take(ana, pending)).id;
      const disputedMatch = (await take(eli, disputed)).id;
      await put(dani, disputedMatch, 'confirm');
      await client.json(`/api/exchange-matches/${disputedMatch}/dispute`, 201, { cookie: eli.cookie, body: { reason: 'no_payment', statement: 'No pesos have arrived.' } });
      await client.json('/api/users/verification/phone', 201, { cookie: ana.cookie, body: {} });
      await client.json('/api/support-requests', 201, { cookie: ana.cookie, body: { subject: 'A question', message: 'How long does a verification take?' } });
      const { cookie: adminCookie } = await client.login(running.app.admin.email, running.app.admin.password);
      return { ana, bea, adminCookie: adminCookie!, own, others, pending, trading, completed, matchIds: [tradingMatch, completedMatch, pendingMatch, disputedMatch] };
    })();
    return world;
  }

  /** Waits for the data, the lazy chunks and the transitions (a dialog fading in is not yet its colours). */
  async function settled(page: Page): Promise<void> {
    await page.waitForLoadState('networkidle').catch(() => {});
    await page.waitForFunction(() => !document.querySelector('.MuiSkeleton-root'), null, { timeout: 5_000 }).catch(() => {});
    await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity), null, { timeout: 5_000 }).catch(() => {});
  }

  /**
   * The page's violations in both schemes as it is now: every WCAG 2.2 AA rule in the scheme it shows, once settled,
   * then the colour rules in the other (the page is left in that one). Each scheme's state is photographed in English
   * light mode, and with any violation.
   */
  async function analyze(s: Scanner, state: string): Promise<Map<Scheme, Violations>> {
    const found = new Map<Scheme, Violations>();
    for (const _ of SCHEMES) {
      if (found.size > 0) {
        s.scheme = s.scheme === 'light' ? 'dark' : 'light';
        await s.page.emulateMedia({ colorScheme: s.scheme });
        // Re-themed (CssBaseline's color-scheme follows the theme) before settled looks for the transitions it starts.
        await s.page.waitForFunction((scheme) => getComputedStyle(document.documentElement).colorScheme === scheme, s.scheme, SOON);
      }
      s.doing = `scanning ${state} in ${s.language} ${s.scheme}`;
      await settled(s.page);
      // Only violations are detailed (faster); the tags or rules after the options, which would otherwise replace them.
      const axe = new AxeBuilder({ page: s.page }).options({ resultTypes: ['violations'] });
      const stuck = setTimeout(SCAN_BOUND, undefined, { ref: false }).then(() => { throw new Error(`${s.role} · ${s.doing}: the scan had not ended after ${SCAN_BOUND / 1000} s`); });
      const { violations } = await Promise.race([(found.size === 0 ? axe.withTags(WCAG_22_AA) : axe.withRules(SCHEME_RULES)).analyze(), stuck]);
      found.set(s.scheme, violations);
      if ((s.language === 'en' && s.scheme === 'light') || violations.length > 0) {
        await s.watched.shot(`${s.role}-${s.language}-${s.scheme}-${state.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}`);
      }
    }
    return found;
  }

  /** Records each violating element once per state, with the looks it failed in. */
  function record(s: Scanner, state: string, found: Map<Scheme, Violations>): void {
    for (const [scheme, list] of found) {
      scans += 1;
      const look = `${s.language} ${scheme}`;
      for (const v of list) {
        for (const node of v.nodes) {
          const what = `${s.role} · ${state} (${new URL(s.page.url()).pathname})\n  ${v.id} (${v.impact}): ${v.help}\n  at ${node.target.join(' ')}`;
          const seen = violating.get(what) ?? { looks: [], why: (node.failureSummary ?? '').split('\n').slice(1).join(' ').trim() };
          seen.looks.push(look);
          violating.set(what, seen);
        }
      }
    }
  }

  const scan = async (s: Scanner, state: string) => record(s, state, await analyze(s, state));

  async function visit(s: Scanner, path: string, state = path): Promise<void> {
    s.doing = `loading ${path} in ${s.language}`;
    await s.page.goto(path, { waitUntil: 'networkidle' });
    await s.page.locator('main').first().waitFor(SOON);
    await scan(s, state);
  }

  /**
   * Opens a dialog (by its title's id, or any popup `opened` finds) with `trigger`, scans it, and closes it with
   * Escape; from `from` (loaded first) when given. A scan counts only if the dialog was still open after it: a trade's
   * refresh may re-create the button that holds a small dialog open. Five tries: a scan of both schemes takes 20 s and
   * more on a slow machine, and one CI run there saw the 'I received' question closed during each of three.
   */
  async function withDialog(s: Scanner, state: string, trigger: Locator, opened: string | Locator, from?: string): Promise<void> {
    const dialog = typeof opened === 'string' ? s.page.locator(`[role="dialog"][aria-labelledby="${opened}"]`) : opened;
    for (let attempt = 1; ; attempt++) {
      s.doing = `opening ${state} in ${s.language} (try ${attempt})`;
      if (from) await s.page.goto(from, { waitUntil: 'networkidle' });
      await trigger.click(SOON);
      await dialog.waitFor(SOON);
      const found = await analyze(s, state);
      if (await dialog.isVisible()) {
        record(s, state, found);
        await s.page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'detached', ...SOON });
        return;
      }
      if (attempt === DIALOG_TRIES) throw new Error(`${s.role} · ${state}: the dialog closed by itself during each of ${DIALOG_TRIES} scans`);
    }
  }

  const button = (s: Scanner, key: string, options: Record<string, unknown> = {}) => s.page.getByRole('button', { name: s.t(key, options), exact: true });

  /**
   * A role's run over both languages (each scan covers both schemes: analyze): its parts side by side, each on a page
   * of its own context, in one language at a time (a signed-in user's page takes the account's language). Should the
   * test time out, it says the step each part was at (`onTestFailed`, the test's own).
   */
  async function eachLook(
    role: string, newContext: () => Promise<BrowserContext>, account: { cookie: string } | null, parts: ((s: Scanner) => Promise<void>)[],
    onTestFailed: TestContext['onTestFailed'],
  ): Promise<void> {
    const contexts = await Promise.all(parts.map(() => newContext()));
    const watched = await Promise.all(contexts.map((context) => watchedPage(context, folder)));
    const scanners: Scanner[] = [];
    onTestFailed(() => { console.error(`${role} failed while ${parts.map((_, i) => `part ${i + 1} was ${scanners[i]?.doing ?? 'setting up'}`).join('; ')}`); });
    try {
      for (const language of LANGUAGES) {
        if (account) await client.json('/api/auth/user', 200, { method: 'PATCH', cookie: account.cookie, body: { language } });
        await Promise.all(parts.map(async (pages, i) => {
          const { page } = watched[i]!;
          await page.goto('/terms');
          await page.evaluate((l) => localStorage.setItem('ui-language', l), language);
          await page.emulateMedia({ colorScheme: 'light' });
          scanners[i] = { role, watched: watched[i]!, page, t: catalogues.getFixedT(language), language, scheme: 'light', doing: 'starting' };
          await pages(scanners[i]);
        }));
      }
      expect(watched.flatMap((w) => w.problems)).toEqual([]);
    } catch (error) {
      await Promise.all(watched.map((w, i) => w.shot(`failure-${role}-${i}`).catch(() => {})));
      throw new Error(`${(error as Error).message}\nproblems: ${JSON.stringify(watched.flatMap((w) => w.problems))}\napp output:\n${running.app.output().slice(-3000)}`);
    } finally {
      await Promise.all(contexts.map((context) => context.close()));
    }
  }

  /** Marks the trades' bank details and rating as already shown, so no dialog opens by itself over a page. */
  async function nothingOpensByItself(context: BrowserContext, userId: number, matchIds: number[]): Promise<void> {
    await context.addInitScript(({ key, ids }) => {
      localStorage.setItem(`puente-bank-details-shown:${key}`, JSON.stringify(ids));
      localStorage.setItem(`puente-rating-offered:${key}`, JSON.stringify(ids));
    }, { key: userId, ids: matchIds });
  }

  it.concurrent('a visitor\'s pages', async ({ onTestFailed }) => {
    const { ana } = await setUp();
    const context = () => running.browser.newContext({ viewport: { width: 1280, height: 900 }, baseURL: running.app.url });
    await eachLook('visitor', context, null, [async (s) => {
      for (const path of ['/', '/login', `/register/${running.app.admin.referralCode}`, '/forgot-password', '/reset-password?token=expired', '/verify-email?token=expired', '/users', `/users/${ana.id}`, '/terms', '/trust-and-safety', '/link-google', '/login-failed', '/no-such-page']) {
        await visit(s, path);
      }
    }], onTestFailed);
  }, ALL_LOOKS);

  it.concurrent('a user\'s pages and dialogs', async ({ onTestFailed }) => {
    const w = await setUp();
    const context = async () => {
      const signedIn = await signedInContext(running, w.ana.cookie);
      await nothingOpensByItself(signedIn, w.ana.id, w.matchIds);
      return signedIn;
    };
    // The trades on one page, the rest on another.
    await eachLook('user', context, w.ana, [async (s) => {
      await visit(s, '/dashboard');
      await withDialog(s, 'create exchange', button(s, 'exchange:create.button'), 'create-exchange-title');
      await withDialog(s, 'notifications open', s.page.getByRole('button', { name: s.t('notifications:bell') }), s.page.getByRole('dialog', { name: s.t('notifications:title') }));
      await withDialog(s, 'language menu open', s.page.locator('header button', { hasText: /^(EN|ES)$/ }), s.page.locator('#language-menu [role="menu"]'));

      await visit(s, `/dashboard?requestId=${w.others}`, 'someone else\'s open request');
      await visit(s, `/dashboard?requestId=${w.own}`, 'own open request');
      await withDialog(s, 'own open request + mark as done', button(s, 'exchange:details.markDone'), 'mark-done-title');
      await visit(s, `/dashboard?requestId=${w.pending}`, 'taken request awaiting approval');
      // Each of the trade's dialogs from the trade itself: Escape in one of them may close the trade too.
      const trade = `/dashboard?requestId=${w.trading}`;
      await visit(s, trade, 'trade with chat');
      await withDialog(s, 'trade + bank details', button(s, 'exchange:details.viewBankDetails'), 'match-confirmed-title', trade);
      await withDialog(s, 'trade + I have paid', button(s, 'exchange:chat.iHavePaid'), 'paid-dialog-title', trade);
      await withDialog(s, 'trade + I received', s.page.getByRole('button', { name: s.t('trade:received.button', { amount: '' }).trim() }), 'received-title', trade);
      await withDialog(s, 'trade + open a dispute', button(s, 'exchange:dispute.open'), 'open-dispute-title', trade);
      await visit(s, `/dashboard?requestId=${w.completed}`, 'completed trade');
      await withDialog(s, 'completed trade + rating', button(s, 'exchange:details.rate_action'), 'rate-exchange-title');
    }, async (s) => {
      await visit(s, '/users');
      await visit(s, `/users/${w.bea.id}`, 'another user\'s profile');
      await withDialog(s, 'another user\'s profile + block', s.page.getByRole('button', { name: s.t('users:block.blockName', { name: 'Bea Reyes' }) }), `block-${w.bea.id}-title`);

      await visit(s, '/accounts');
      await withDialog(s, 'accounts + edit', s.page.getByRole('button', { name: s.t('accounts:card.editLabel', { currency: 'GBP' }) }), 'account-dialog-title');
      await withDialog(s, 'accounts + delete', s.page.getByRole('button', { name: s.t('accounts:card.deleteLabel', { currency: 'CLP' }) }), 'delete-account-title');
      await s.page.locator('#tab-add').click();
      await scan(s, 'accounts, add tab');

      await visit(s, '/history');
      await visit(s, '/profile');
      await withDialog(s, 'profile + invite', button(s, 'profile:invite'), 'invite-title');
      await withDialog(s, 'profile + verification', button(s, 'profile:verification'), 'verification-title');
      await withDialog(s, 'profile + edit name', button(s, 'profile:editName'), 'edit-name-title');
      await withDialog(s, 'profile + change password', button(s, 'auth:change.button'), 'change-password-title');
      await withDialog(s, 'profile + delete account', button(s, 'profile:yourData.delete'), 'delete-account-title');
      await s.page.locator('#tab-referrals').click();
      await scan(s, 'profile, referrals tab');
      await s.page.locator('section[aria-labelledby="two-factor-title"]').getByRole('button', { name: s.t('auth:twoFactor.turnOn'), exact: true }).click();
      await s.page.getByRole('form', { name: s.t('auth:twoFactor.turnOn') }).waitFor(SOON);
      await scan(s, 'profile, two-factor setup');

      for (const path of ['/subscription', '/subscription/checkout', '/admin', '/analytics', '/help', '/terms', '/trust-and-safety', '/no-such-page']) await visit(s, path);
    }], onTestFailed);
  }, ALL_LOOKS);

  it.concurrent('an admin\'s pages', async ({ onTestFailed }) => {
    const { adminCookie } = await setUp();
    await eachLook('admin', () => signedInContext(running, adminCookie), { cookie: adminCookie }, [async (s) => {
      await visit(s, '/dashboard');
      await withDialog(s, 'create exchange without accounts', button(s, 'exchange:create.button'), 'account-required-title');
      await visit(s, '/admin');
      for (const tab of ['login-failures', 'signup-attempts', 'login-attempts']) {
        await s.page.locator(`#tab-${tab}`).click();
        await scan(s, `admin, ${tab} tab`);
      }
      await s.page.locator('section[aria-labelledby="disputes-title"] .MuiCardActionArea-root').first().click(SOON);
      await s.page.getByTestId('dispute-detail').waitFor(SOON);
      await scan(s, 'admin, dispute detail');
      await visit(s, '/accounts');
      await s.page.locator('#tab-add').click();
      await withDialog(s, 'accounts + add', button(s, 'accounts:addCurrencyAccount', { currency: 'GBP' }), 'account-dialog-title');
      for (const path of ['/users', '/analytics', '/profile', '/help', '/subscription', '/subscription/checkout']) await visit(s, path);
    }], onTestFailed);
  }, ALL_LOOKS);

  // Declared last, so it runs once the three looks above have scanned.
  it('finds no violation in any of them', () => {
    expect(scans).toBeGreaterThan(0);
    const report = [...violating].map(([what, { looks, why }]) => `${what}\n  in ${looks.join(', ')}: ${why}`);
    expect(violating.size, `${violating.size} violations in ${scans} scans:\n\n${report.join('\n\n')}\n`).toBe(0);
  });
});
