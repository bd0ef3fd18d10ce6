/**
 * The in-exchange chat end to end, embedded and distributed (two gateway instances, Ana on one, Bob on the other): Ana and Bob trade through the gateway and write to each other; every
 * message, and the system message of each step ('I have paid' included), reaches both their sockets over /ws once,
 * and nothing reaches Carla, who is no party. What the chat route answers is what the sockets got.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ChatMessage, ChatMessageList, ExchangeMatch, ExchangeRequest } from '@puente/contracts';
import { appClient, describeWithInfra } from '@puente/testkit';
import { startDistributedApp, startEmbeddedApp, type RunningTestApp } from './testing/running-app.ts';
import { openLiveSocket as open, type LiveSocket } from './testing/live-socket.ts';
import { addBankAccounts, bankAccountsOf, onceAccountsKnown, traders } from './testing/traders.ts';

const ADMIN = { email: 'admin@puente.test', password: 'admin password 1', code: 'CHAT-CODE' };
const appEnv = {
  ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ADMIN_REFERRAL_CODE: ADMIN.code,
  BANK_ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`,
};

describe('the in-exchange chat end to end (embedded)', () => {
  chatEndToEnd(() => startEmbeddedApp('chat-e2e', appEnv));
});

describeWithInfra(['postgres', 'redis', 'kafka'], 'the in-exchange chat end to end (distributed, two gateway instances)', () => {
  // The mock broker does not answer a waiting fetch when records arrive (a real one does): short waits.
  chatEndToEnd(() => startDistributedApp('chat-e2e', { ...appEnv, KAFKA_FETCH_MAX_WAIT_MS: '100' }, { gateways: 2 }));
});

function chatEndToEnd(start: () => Promise<RunningTestApp>): void {
  let app: RunningTestApp;
  const sockets: LiveSocket[] = [];
  beforeAll(async () => { app = await start(); }, 120_000);
  afterAll(async () => {
    for (const s of sockets) s.socket.close();
    await app?.stop();
  }, 60_000);

  it('brings each message and each step of the trade to both parties\' sockets, once, and to nobody else', async () => {
    const [first, second = first] = app.gatewayUrls as [string, string?];
    const client = appClient(first);
    const ana = await client.signUp(traders.ana, ADMIN.code);
    const bob = await client.signUp(traders.bob, ADMIN.code);
    const carla = await client.signUp({ email: 'carla@puente.test', password: 'password3', firstName: 'Carla', lastName: 'Paz' }, ADMIN.code);
    await addBankAccounts(client, ana, bankAccountsOf.ana);
    await addBankAccounts(client, bob, bankAccountsOf.bob);
    const [anaSocket, bobSocket, carlaSocket] = [
      await open('ana', first, ana.cookie), await open('bob', second, bob.cookie), await open('carla', second, carla.cookie),
    ];
    sockets.push(anaSocket, bobSocket, carlaSocket);

    const request = ExchangeRequest.parse(await onceAccountsKnown(client, '/api/exchange-requests', ana, { fromCurrency: 'GBP', toCurrency: 'CLP', amount: 100, exchangeRate: 1275 }));
    const match = ExchangeMatch.parse(await onceAccountsKnown(client, '/api/exchange-matches', bob, { exchangeRequestId: request.id }));
    const chat = `/api/exchange-matches/${match.id}/messages`;
    const write = async (who: { cookie: string }, text: string) =>
      ChatMessage.parse(await client.json(chat, 201, { method: 'POST', cookie: who.cookie, body: { text } }));

    await write(bob, 'Hola Ana, I can send the pounds tonight');
    await client.json(`/api/exchange-matches/${match.id}/confirm`, 200, { method: 'PUT', cookie: ana.cookie });
    await write(ana, 'Approved: go ahead');
    const paid = ExchangeMatch.parse(await client.json(`/api/exchange-matches/${match.id}/paid`, 200, { method: 'PUT', cookie: bob.cookie }));
    expect(paid.paidByIds).toEqual([bob.id]);
    await client.json(`/api/exchange-matches/${match.id}/complete`, 200, { method: 'PUT', cookie: ana.cookie });

    const stored = ChatMessageList.parse(await client.json(chat, 200, { cookie: ana.cookie }));
    const said = stored.map((m) => (m.kind === 'system' ? `${m.event} by ${m.subjectId}` : `${m.authorId}: ${m.body}`));
    expect(said).toEqual([
      `accepted by ${bob.id}`, `${bob.id}: Hola Ana, I can send the pounds tonight`, `confirmed by ${ana.id}`,
      `${ana.id}: Approved: go ahead`, `paid by ${bob.id}`, `completed by ${ana.id}`,
      // Bob had not said his pounds arrived: he is asked.
      `receipt_asked by ${bob.id}`,
    ]);
    for (const s of [anaSocket, bobSocket]) {
      await vi.waitFor(() => expect(s.chat.length, s.name).toBeGreaterThanOrEqual(stored.length), { timeout: 15_000, interval: 20 });
      expect([s.name, [...s.chat].sort((a, b) => a.id - b.id)]).toEqual([s.name, stored]);
    }
    expect(carlaSocket.chat).toEqual([]);
    expect((await client.call(chat, { cookie: carla.cookie })).status).toBe(404);
  }, 240_000);
}
