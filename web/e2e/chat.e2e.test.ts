/**
 * The in-exchange chat in real headless Chromium: Ana's request accepted by Bea and approved (set up through the
 * API); both open the exchange, write to each other and see the other's message arrive live without reloading;
 * Ana attaches a PDF with a caption; Bea says 'I have paid' with a proof of payment (a PNG made here), and Ana sees
 * the proof, opens it, and is told to check her bank. Screenshots go to web/e2e/screenshots/chat/; any uncaught page
 * error or unexpected console error fails the test.
 */
import { crc32, deflateSync } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { chromiumAvailable } from './app-server.ts';
import { screenshotFolder, signedInContext, useAppAndBrowser, watchedPage, type WatchedPage } from './browser.ts';

/** The live channel's delivery, or at worst the chat's fallback read (15 s), on a busy 2-core machine. */
const LIVE = { timeout: 20_000 };

interface Trader { name: string; cookie: string; context: BrowserContext; page: Page; watched: WatchedPage }

/** A PNG of `size`×`size` pixels of one colour: a receipt's stand-in a browser can draw. */
function png(size: number, [r, g, b]: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: size }, () => [r, g, b]).flat())]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: size }, () => row)));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', pixels), chunk('IEND', Buffer.alloc(0))]);
}
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

describe.skipIf(!chromiumAvailable())('two traders chat during an exchange (browser)', () => {
  const running = useAppAndBrowser();
  const folder = screenshotFolder('chat');
  const traders: Trader[] = [];

  async function api(path: string, init: { method?: string; body?: unknown; cookie?: string } = {}) {
    const headers: Record<string, string> = { origin: running.app.url };
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    if (init.cookie) headers.cookie = init.cookie;
    const method = init.method ?? (init.body === undefined ? 'GET' : 'POST');
    const res = await fetch(`${running.app.url}${path}`, { method, headers, ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }) });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res;
  }

  async function trader(firstName: string, lastName: string, digits: string): Promise<Trader> {
    const email = `${firstName.toLowerCase()}.chat.${Date.now()}@example.com`;
    const password = 'correct horse battery';
    const signup = await (await api('/api/signup/request', { body: { email, password, firstName, lastName, referralCode: running.app.admin.referralCode } })).json() as { verificationToken: string };
    await api('/api/signup/verify', { body: { token: signup.verificationToken } });
    const login = await api('/api/auth/login', { body: { email, password } });
    const cookie = login.headers.getSetCookie().find((c) => c.startsWith('puente_session='))!.split(';')[0]!;
    await api('/api/bank-accounts', { cookie, body: { currency: 'GBP', bankName: 'Monzo', accountNumber: `${digits}926819`, accountHolder: `${firstName} ${lastName}`, sortCode: '04-00-04' } });
    await api('/api/bank-accounts', { cookie, body: { currency: 'CLP', bankName: 'BancoEstado', accountNumber: `${digits}3456789`, accountHolder: `${firstName} ${lastName}`, rut: '12.345.678-5', accountType: 'vista', email: `${firstName.toLowerCase()}@example.cl` } });
    const context = await signedInContext(running, cookie);
    const watched = await watchedPage(context, folder);
    const t: Trader = { name: firstName, cookie, context, page: watched.page, watched };
    traders.push(t);
    return t;
  }

  /** Retries a setup call until the services have heard of the new users' accounts (events). */
  const eventually = <T>(attempt: () => Promise<T>): Promise<T> => vi.waitFor(attempt, { timeout: 10_000, interval: 250 });

  it('shows each party the other\'s messages live, the steps of the trade, and the partner\'s \'I have paid\'', async () => {
    const ana = await trader('Ana', 'Rojas', '31');
    const bea = await trader('Bea', 'Soto', '42');
    try {
      const created = async (path: string, cookie: string, body: unknown) => (await (await api(path, { cookie, body })).json()) as { id: number };
      const request = await eventually(() => created('/api/exchange-requests', ana.cookie, { fromCurrency: 'GBP', toCurrency: 'CLP', amount: 100, exchangeRate: 1275 }));
      const match = await eventually(() => created('/api/exchange-matches', bea.cookie, { exchangeRequestId: request.id }));
      await api(`/api/exchange-matches/${match.id}/confirm`, { method: 'PUT', cookie: ana.cookie });

      // The bank details open by themselves once the match is confirmed (spec section 4): closed, then the exchange.
      for (const t of [ana, bea]) {
        await t.page.goto('/dashboard');
        await t.page.getByRole('dialog', { name: 'Exchange Match Confirmed' }).getByRole('button', { name: 'Close' }).click(LIVE);
        await t.page.goto(`/dashboard?requestId=${request.id}`);
      }
      const chatOf = (t: Trader) => t.page.getByRole('dialog', { name: `Exchange #${request.id}` }).getByRole('region', { name: 'Chat' });
      const [anaChat, beaChat] = [chatOf(ana), chatOf(bea)];
      // The message box, the trade's actions and its timeline sit around the chat, in the trade's dialog.
      const tradeOf = (t: Trader) => t.page.getByRole('dialog', { name: `Exchange #${request.id}` });
      const [anaTrade, beaTrade] = [tradeOf(ana), tradeOf(bea)];
      await anaChat.getByText('Approved by you: bank details are shared').waitFor();
      await beaChat.getByText('Approved by Ana Rojas: bank details are shared').waitFor();
      await beaChat.getByText('Accepted by you').waitFor();

      // Ana writes; Bea sees it without reloading, and answers.
      await anaTrade.getByRole('textbox', { name: 'Write a message' }).fill('Hola Bea, send the pesos when you can');
      await anaTrade.getByRole('button', { name: 'Send' }).click();
      await beaChat.getByText('Hola Bea, send the pesos when you can').waitFor(LIVE);
      await beaTrade.getByRole('textbox', { name: 'Write a message' }).fill('Sending them now');
      await beaTrade.getByRole('button', { name: 'Send' }).click();
      await anaChat.getByText('Sending them now').waitFor(LIVE);
      await Promise.all([ana.watched.shot('01-chat-ana'), bea.watched.shot('01-chat-bea')]);

      // Ana attaches her bank's statement with the box's text as its caption: Bea sees a link to it.
      await anaTrade.getByRole('textbox', { name: 'Write a message' }).fill('My statement');
      await anaTrade.getByTestId('chat-attach-input').setInputFiles({ name: 'statement.pdf', mimeType: 'application/pdf', buffer: PDF });
      await beaChat.getByRole('link', { name: `statement.pdf (${(PDF.length / 1024).toFixed(1)} KB)` }).waitFor(LIVE);
      await beaChat.getByText('My statement').waitFor();

      // Bea has paid, with a proof: both see it; Ana sees the proof, opens it, and is told to check her bank.
      const receipt = png(48, [200, 30, 60]);
      await beaTrade.getByRole('button', { name: 'I have paid' }).click();
      const paying = bea.page.getByRole('dialog', { name: 'I have paid' });
      await paying.getByTestId('paid-proof-input').setInputFiles({ name: 'transfer.png', mimeType: 'image/png', buffer: receipt });
      await paying.getByText('transfer.png').waitFor();
      await bea.watched.shot('02-proof-picked');
      await paying.getByRole('button', { name: 'Mark as paid' }).click();
      await beaTrade.getByText('You marked your payment sent').first().waitFor();
      await anaChat.getByText('Payment marked sent by Bea Soto').waitFor(LIVE);
      await anaTrade.getByText('Bea Soto says they have paid: check your bank before marking the exchange completed.').waitFor(LIVE);
      const proof = anaChat.getByRole('img', { name: 'transfer.png' });
      await proof.waitFor(LIVE);
      // The browser drew it: fetched through the gateway with Ana's session.
      await expect.poll(() => proof.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), LIVE).toBe(48);
      await ana.watched.shot('03-partner-paid-with-proof');
      // Opening it answers the very bytes Bea sent, as a PNG never sniffed; an outsider's request is refused.
      const href = (await anaChat.getByRole('link', { name: /^transfer\.png/ }).getAttribute('href'))!;
      const opened = await ana.page.request.get(href);
      expect([opened.status(), opened.headers()['content-type'], opened.headers()['x-content-type-options']]).toEqual([200, 'image/png', 'nosniff']);
      expect(Buffer.from(await opened.body()).equals(receipt)).toBe(true);
      expect((await fetch(`${running.app.url}${href}`)).status).toBe(401);
      // Each message once, in the same order on both screens.
      const texts = async (t: Trader) => chatOf(t).getByTestId('chat-text').locator('p').allTextContents();
      expect(await texts(ana)).toEqual(['Hola Bea, send the pesos when you can', 'Sending them now']);
      expect(await texts(bea)).toEqual(await texts(ana));
      expect(traders.flatMap((t) => t.watched.problems)).toEqual([]);
    } catch (error) {
      await Promise.all(traders.map((t) => t.watched.shot(`failure-${t.name.toLowerCase()}`).catch(() => {})));
      throw new Error(`${(error as Error).message}\nproblems: ${JSON.stringify(traders.flatMap((t) => t.watched.problems))}\napp output:\n${running.app.output().slice(-3000)}`);
    }
  });
});
