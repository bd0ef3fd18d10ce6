/**
 * The live channel end to end: two users with several open sockets each (two sessions for Ana), through the
 * gateway's /ws, while they trade through its HTTP API on the real services. Each step reaches every socket of the
 * user it concerns, quickly, and nothing reaches the other user; logging a session out closes its sockets (4401)
 * and leaves the other session's open. Embedded (one gateway), and distributed with two gateway instances, each
 * user's sockets spread over both.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ExchangeMatch, ExchangeRequest } from '@puente/contracts';
import { appClient, describeWithInfra } from '@puente/testkit';
import { startDistributedApp, startEmbeddedApp, type RunningTestApp } from './testing/running-app.ts';
import { openLiveSocket as open, said, type LiveSocket as Socket } from './testing/live-socket.ts';
import { addBankAccounts, bankAccountsOf, onceAccountsKnown, traders } from './testing/traders.ts';

const ADMIN = { email: 'admin@puente.test', password: 'admin password 1', code: 'LIVE-CODE' };
const appEnv = {
  ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ADMIN_REFERRAL_CODE: ADMIN.code,
  BANK_ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`,
};
/** Close code of a socket whose session ended (gateway/src/live.ts). */
const SESSION_ENDED = 4401;

describe('the live channel end to end (embedded)', () => {
  liveEndToEnd(() => startEmbeddedApp('live-e2e', appEnv), { withinMs: 1_000 });
});

describeWithInfra(['postgres', 'redis', 'kafka'], 'the live channel end to end (distributed, two gateway instances)', () => {
  // The mock broker does not answer a waiting fetch when records arrive (a real one does): short waits.
  liveEndToEnd(() => startDistributedApp('live-e2e', { ...appEnv, KAFKA_FETCH_MAX_WAIT_MS: '100' }, { gateways: 2 }), { withinMs: 1_000 });
});

function liveEndToEnd(start: () => Promise<RunningTestApp>, { withinMs }: { withinMs: number }): void {
  let app: RunningTestApp;
  const sockets: Socket[] = [];
  beforeAll(async () => { app = await start(); }, 120_000);
  afterAll(async () => {
    for (const s of sockets) s.socket.close();
    await app?.stop();
  }, 60_000);

  it('brings each step to every socket of the user it concerns, within the bound, and nothing to the other user', async () => {
    const [first, second = first] = app.gatewayUrls as [string, string?];
    const client = appClient(first);
    const ana = await client.signUp(traders.ana, ADMIN.code);
    const bob = await client.signUp(traders.bob, ADMIN.code);
    await addBankAccounts(client, ana, bankAccountsOf.ana);
    await addBankAccounts(client, bob, bankAccountsOf.bob);
    // Ana's second session (another browser); sessions live in Redis, so a cookie works on either instance.
    const { cookie: anaOther } = await client.login(ana.email, ana.password);
    const anaSockets = [
      await open('ana (session 1) on the first instance', first, ana.cookie),
      await open('ana (session 1) on the second instance', second, ana.cookie),
      await open('ana (session 2) on the first instance', first, anaOther!),
    ];
    const bobSockets = [await open('bob on the first instance', first, bob.cookie), await open('bob on the second instance', second, bob.cookie)];
    sockets.push(...anaSockets, ...bobSockets);

    const delays: number[] = [];
    /** Waits until each socket has `count` messages; records how long each took after `since`. */
    async function arrived(of: Socket[], count: number, since: number) {
      for (const s of of) {
        await vi.waitFor(() => expect(s.got.length, s.name).toBeGreaterThanOrEqual(count), { timeout: withinMs + 30_000, interval: 10 });
        delays.push(...s.got.slice(count - 1, count).map((g) => g.at - since));
      }
    }

    const request = ExchangeRequest.parse(await onceAccountsKnown(client, '/api/exchange-requests', ana, { fromCurrency: 'GBP', toCurrency: 'CLP', amount: 100, exchangeRate: 1275 }));
    const match = ExchangeMatch.parse(await onceAccountsKnown(client, '/api/exchange-matches', bob, { exchangeRequestId: request.id }));
    let since = Date.now();
    await arrived(anaSockets, 1, since);

    since = Date.now();
    await client.json(`/api/exchange-matches/${match.id}/confirm`, 200, { method: 'PUT', cookie: ana.cookie });
    await arrived(anaSockets, 2, since);
    await arrived(bobSockets, 2, since);

    // Ana ends her second session: its socket closes at once; her first session's sockets stay open.
    const out = await client.call('/api/auth/logout', { method: 'POST', cookie: anaOther! });
    expect(out.status).toBe(200);
    expect(await anaSockets[2]!.closed).toBe(SESSION_ENDED);
    expect(anaSockets.slice(0, 2).map((s) => s.socket.readyState)).toEqual([WebSocket.OPEN, WebSocket.OPEN]);

    since = Date.now();
    await client.json(`/api/exchange-matches/${match.id}/complete`, 200, { method: 'PUT', cookie: bob.cookie });
    // Bob completed before Ana said her pesos arrived: she is told, and asked whether they did (either order).
    await arrived(anaSockets.slice(0, 2), 4, since);

    const ids = `${match.id}/${request.id}`;
    for (const s of anaSockets.slice(0, 2)) {
      const steps = said(s);
      expect([s.name, [...steps.slice(0, 2), ...steps.slice(2).sort()]]).toEqual([s.name, [
        `exchange_match ${request.id}`, `match_success ${ids}`, `exchange_completed ${request.id}`, `receipt_question ${request.id}`,
      ]]);
    }
    expect(said(anaSockets[2]!)).toEqual([`exchange_match ${request.id}`, `match_success ${ids}`]);
    for (const s of bobSockets) {
      // The two of one step may come in either order (two events); nothing of Ana's.
      expect([s.name, said(s).sort()]).toEqual([s.name, [`exchange_confirmed ${request.id}`, `match_success ${ids}`]]);
    }
    // match_success carries the two ids only: never bank details.
    for (const s of [...anaSockets, ...bobSockets]) {
      for (const { message } of s.got) if (message.type === 'match_success') expect(Object.keys(message.data).sort()).toEqual(['matchId', 'requestId']);
    }
    console.log(`live channel delays (ms) after each HTTP answer: ${delays.join(', ')}`);
    expect(Math.max(...delays)).toBeLessThan(withinMs);
  }, 240_000);
}
