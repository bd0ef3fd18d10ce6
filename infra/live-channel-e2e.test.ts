/**
 * The live channel end to end: two users with several open sockets each (two sessions for Ana), through the
 * gateway's /ws, while they trade through its HTTP API on the real services. Each step reaches every socket of the
 * user it concerns, quickly, and nothing reaches the other user; logging a session out closes its sockets (4401)
 * and leaves the other session's open. Embedded (one gateway), and distributed with two gateway instances, each
 * user's sockets spread over both.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BankAccount, ExchangeMatch, ExchangeRequest, LiveMessage, type BankAccountCreateInput } from '@puente/contracts';
import { describeWithInfra } from '@puente/testkit';
import { startDistributedApp, startEmbeddedApp, type RunningTestApp } from './testing/running-app.ts';
import { appClient, type SignedIn } from './testing/app-client.ts';

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

/** One open /ws socket and what it received, each message with when it arrived. */
interface Socket { name: string; got: { message: LiveMessage; at: number }[]; closed: Promise<number>; socket: WebSocket }

function open(name: string, gatewayUrl: string, cookie: string): Promise<Socket> {
  const socket = new WebSocket(`${gatewayUrl.replace(/^http/, 'ws')}/ws`, { headers: { cookie, origin: gatewayUrl } } as never);
  const got: Socket['got'] = [];
  socket.onmessage = (e) => { got.push({ message: LiveMessage.parse(JSON.parse(String(e.data))), at: Date.now() }); };
  const closed = new Promise<number>((resolve) => { socket.onclose = (e) => resolve(e.code); });
  return new Promise((resolve, reject) => {
    socket.onopen = () => resolve({ name, got, closed, socket });
    socket.onerror = () => reject(new Error(`${name}: the socket did not open`));
  });
}

/** What a socket's messages say, in order: the notification type and request, or match_success with its ids. */
const said = (s: Socket) => s.got.map(({ message: m }) => (m.type === 'match_success'
  ? `match_success ${m.data.matchId}/${m.data.requestId}` : `${m.notification.type} ${m.notification.referenceId}`));

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
    const viaBus = { timeout: 60_000, interval: 200 };
    const ana = await client.signUp({ email: 'ana@puente.test', password: 'password1', firstName: 'Ana', lastName: 'Diaz' }, ADMIN.code);
    const bob = await client.signUp({ email: 'bob@puente.test', password: 'password2', firstName: 'Bob', lastName: 'Lee' }, ADMIN.code);
    const accounts: Record<string, BankAccountCreateInput[]> = {
      [ana.id]: [
        { currency: 'GBP', bankName: 'Monzo', accountNumber: '31926819', accountHolder: 'Ana Diaz', sortCode: '04-00-04' },
        { currency: 'CLP', bankName: 'BancoEstado', accountNumber: '987654321', accountHolder: 'Ana Diaz', rut: '12.345.678-5', accountType: 'vista', email: 'ana@example.cl' },
      ],
      [bob.id]: [
        { currency: 'GBP', bankName: 'Barclays', accountNumber: '55779911', accountHolder: 'Bob Lee', sortCode: '20-32-53' },
        { currency: 'CLP', bankName: 'Banco de Chile', accountNumber: '001234567809', accountHolder: 'Bob Lee', rut: '9.876.543-3', accountType: 'current', email: 'bob@example.cl' },
      ],
    };
    for (const user of [ana, bob]) {
      for (const body of accounts[user.id]!) BankAccount.parse(await client.json('/api/bank-accounts', 201, { cookie: user.cookie, body }));
    }
    // Ana's second session (another browser); sessions live in Redis, so a cookie works on either instance.
    const { cookie: anaOther } = await client.login(ana.email, ana.password);
    const anaSockets = [
      await open('ana (session 1) on the first instance', first, ana.cookie),
      await open('ana (session 1) on the second instance', second, ana.cookie),
      await open('ana (session 2) on the first instance', first, anaOther!),
    ];
    const bobSockets = [await open('bob on the first instance', first, bob.cookie), await open('bob on the second instance', second, bob.cookie)];
    sockets.push(...anaSockets, ...bobSockets);

    /** Posts (or accepts) once the exchange service has heard of the caller's accounts. */
    const onceKnown = (path: string, user: SignedIn, body: unknown) => vi.waitFor(async () => {
      const res = await client.call(path, { cookie: user.cookie, body });
      if (res.status === 403) throw new Error(`${path}: 403 ${await res.text()}`);
      expect(res.status, await res.clone().text()).toBe(201);
      return res.json();
    }, viaBus);
    const delays: number[] = [];
    /** Waits until each socket has `count` messages; records how long each took after `since`. */
    async function arrived(of: Socket[], count: number, since: number) {
      for (const s of of) {
        await vi.waitFor(() => expect(s.got.length, s.name).toBeGreaterThanOrEqual(count), { timeout: withinMs + 30_000, interval: 10 });
        delays.push(...s.got.slice(count - 1, count).map((g) => g.at - since));
      }
    }

    const request = ExchangeRequest.parse(await onceKnown('/api/exchange-requests', ana, { fromCurrency: 'GBP', toCurrency: 'CLP', amount: 100, exchangeRate: 1275 }));
    const match = ExchangeMatch.parse(await onceKnown('/api/exchange-matches', bob, { exchangeRequestId: request.id }));
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
    await arrived(anaSockets.slice(0, 2), 3, since);

    const ids = `${match.id}/${request.id}`;
    for (const s of anaSockets.slice(0, 2)) {
      expect([s.name, said(s)]).toEqual([s.name, [`exchange_match ${request.id}`, `match_success ${ids}`, `exchange_completed ${request.id}`]]);
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
