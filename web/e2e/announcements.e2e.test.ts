/**
 * Changes announced on the live channel, in real headless Chromium against Puente: Ana has her dashboard open; Bea
 * posts a request right after one of Ana's polls of the market, and its card shows on Ana's market before her next
 * poll was due, brought by the socket's `versions` message (the time is printed). Then Ana's socket is killed (every
 * /ws connection of her browser goes through the test, which closes it and each reconnection): Cy's request still
 * shows within a poll. Screenshots go to web/e2e/screenshots/announcements/; any uncaught page error or unexpected
 * console error fails the test.
 */
import { describe, expect, it, vi } from 'vitest';
import type { Request, WebSocketRoute } from 'playwright-core';
import { LiveMessage, Routes } from '@puente/contracts';
import type { SignedIn } from '@puente/testkit';
import { chromiumAvailable } from './app-server.ts';
import { screenshotFolder, signedInContext, suiteTraders, useAppAndBrowser, watchedPage } from './browser.ts';

/** The app's polls (web/src/lib/query-client.ts DATA_REFRESH_MS). */
const POLL_MS = 3_000;
/** One poll and the time to answer it, on a busy 2-core machine. */
const WITHIN_A_POLL = { timeout: 10_000 };

const isMarketPoll = (request: Request) => request.method() === 'GET' && new URL(request.url()).pathname === Routes.exchange.requests.path;

describe.skipIf(!chromiumAvailable())('changes announced on the live channel (browser)', () => {
  const running = useAppAndBrowser();
  const folder = screenshotFolder('announcements');
  const { client, trader } = suiteTraders(running);

  /** Posts a £100 request for `who`, retried until the exchange service has heard of their accounts (events). */
  const post = (who: SignedIn) => vi.waitFor(async () => (await client().json(Routes.exchange.createRequest.path, 201, {
    cookie: who.cookie, body: { fromCurrency: 'GBP', toCurrency: 'CLP', amount: 100, exchangeRate: 1275 },
  })) as { id: number }, { timeout: 20_000, interval: 250 });

  it('shows another user\'s new request at once through the socket, and within a poll once the socket is killed', async () => {
    const ana = await trader('Ana', 'Rojas');
    const bea = await trader('Bea', 'Soto');
    const cy = await trader('Cy', 'Vidal');
    const context = await signedInContext(running, ana.cookie);
    // Every /ws connection of Ana's browser passes through here: what the server says is recorded and passed on,
    // until the test kills the socket; then it closes each reconnection as it opens.
    /** When the page was told that the market changed. */
    const announced: number[] = [];
    /** Each socket's page side and server side. */
    const sockets: [WebSocketRoute, WebSocketRoute][] = [];
    let killed = false;
    await context.routeWebSocket(/\/ws$/, (ws) => {
      if (killed) return void ws.close({ code: 1011, reason: 'killed by the test' });
      const server = ws.connectToServer();
      server.onMessage((message) => {
        if (killed) return; // the page's side is closed: nothing reaches it (the server's may still be closing)
        const live = LiveMessage.parse(JSON.parse(String(message)));
        if (live.type === 'versions' && live.routes.includes(Routes.exchange.requests.path)) announced.push(Date.now());
        ws.send(message);
      });
      sockets.push([ws, server]);
    });
    const { page, problems, shot } = await watchedPage(context, folder);
    const card = (id: number) => page.getByRole('article', { name: `View exchange #${id}` });
    try {
      await page.goto('/dashboard');
      await page.getByRole('heading', { name: 'Welcome back, Ana!' }).waitFor();
      await vi.waitFor(() => expect(sockets).toHaveLength(1));
      // Bea's first request, once the services know her: it shows, one way or the other.
      await card((await post(bea)).id).waitFor(WITHIN_A_POLL);
      await shot('01-first-request');

      // Right after a poll of the market, Bea posts again: the next poll is due in 3 s.
      const polled = await page.waitForRequest(isMarketPoll);
      const pollAt = Date.now();
      const heardBefore = announced.length;
      const postAt = Date.now();
      const second = await post(bea);
      await card(second.id).waitFor(WITHIN_A_POLL);
      const shownAt = Date.now();
      console.info(`Bea's request reached Ana's open market ${shownAt - postAt} ms after Bea posted it (${shownAt - pollAt} ms after Ana's`
        + ` last poll, ${polled.url()}), through the socket`);
      expect(announced.length).toBeGreaterThan(heardBefore);
      expect(shownAt - pollAt).toBeLessThan(POLL_MS);
      await shot('02-shown-through-the-socket');

      // The socket killed (and every reconnection): the polls still bring Cy's request.
      killed = true;
      await Promise.all(sockets.flat().map((side) => side.close({ code: 1011, reason: 'killed by the test' })));
      const heardBeforeKill = announced.length;
      const third = await post(cy);
      const postedAt = Date.now();
      await card(third.id).waitFor(WITHIN_A_POLL);
      console.info(`with the socket killed, Cy's request reached Ana's open market ${Date.now() - postedAt} ms after it was posted, through the 3 s poll`);
      expect(announced).toHaveLength(heardBeforeKill);
      await shot('03-shown-through-the-poll');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);
});
