/**
 * An admin's read of a match's chat or of one of its attachments is recorded (adminChatRead, for the audit service)
 * when the admin is not a party and no dispute of the match is open; a party's own read and an admin's read during an
 * open dispute are not. The rule itself (chatReadBy) as a plain unit test first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatMessage, Dispute, ExchangeMatch } from '@puente/contracts';
import { startTestService, type TestService } from '@puente/platform/testing';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { ExchangeSettings, exchangeService } from './app.ts';
import { chatReadBy } from './domain/admin-reads.ts';
import { ok, publishedPayloads, trader, useExchangeService } from './testing/traders.ts';

type Headers = Record<string, string>;
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

describe('chatReadBy', () => {
  const match = { id: 5, requesterId: 1, matcherId: 2 };
  const at = new Date('2026-03-10T12:00:00.000Z');
  const types = (c: ReturnType<typeof chatReadBy>) => c.events.map((e) => [e.type, e.payload]);

  it('records an admin who is not a party, outside an open dispute', () => {
    expect(types(chatReadBy(match, { userId: 9, admin: true, name: 'Puente Admin' }, { what: 'attachment', attachmentId: 3 }, false, at))).toEqual([
      ['exchange.chat.admin-read', { adminId: 9, adminName: 'Puente Admin', matchId: 5, what: 'attachment', attachmentId: 3, at: at.toISOString() }],
    ]);
  });

  it('records nothing for a party (an admin\'s own trade included), a non-admin, or during an open dispute', () => {
    expect(types(chatReadBy(match, { userId: 1, admin: true, name: '' }, { what: 'chat' }, false, at))).toEqual([]);
    expect(types(chatReadBy(match, { userId: 9, admin: false, name: '' }, { what: 'chat' }, false, at))).toEqual([]);
    expect(types(chatReadBy(match, { userId: 9, admin: true, name: '' }, { what: 'chat' }, true, at))).toEqual([]);
  });
});

describeWithInfra(['postgres'], 'admins\' reads of a chat', () => {
  const exchange = useExchangeService();
  let nextUser = 1;
  const user = (firstName: string) => trader(exchange.svc, nextUser++, { firstName });
  const { call } = exchange;
  const reads = () => publishedPayloads(exchange.svc, 'adminChatRead');

  /** Ana's request accepted by Bruno and approved, Bruno's proof of payment in its chat. */
  async function trade() {
    const ana = await user('Ana');
    const bruno = await user('Bruno');
    const request = await ok(call('POST', '/exchange-requests', ana.headers, { fromCurrency: 'GBP', toCurrency: 'CLP', amount: 100, exchangeRate: 1275 }), 201) as { id: number };
    const match = ExchangeMatch.parse(await ok(call('POST', '/exchange-matches', bruno.headers, { exchangeRequestId: request.id }), 201));
    await ok(call('PUT', `/exchange-matches/${match.id}/confirm`, ana.headers));
    const boundary = '----admin-reads';
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="paid.png"\r\nContent-Type: image/png\r\n\r\n`),
      PNG, Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const proof = ChatMessage.parse(await ok(exchange.svc.app.inject({
      method: 'POST', url: `/exchange-matches/${match.id}/attachments`, headers: { ...bruno.headers, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload,
    }), 201));
    return { ana, bruno, match, attachmentId: proof.attachment!.id };
  }
  const readChat = (headers: Headers, matchId: number) => ok(call('GET', `/exchange-matches/${matchId}/messages`, headers));
  const openFile = async (headers: Headers, matchId: number, attachmentId: number) => {
    const res = await call('GET', `/exchange-matches/${matchId}/attachments/${attachmentId}`, headers);
    expect(res.statusCode, res.body).toBe(200);
  };

  it('records an admin\'s read of the chat and of a proof of payment outside a dispute: who, which match, what, when', async () => {
    const admin = await trader(exchange.svc, 900, { firstName: 'Olga', lastName: 'Admin' });
    const adminHeaders = await exchange.svc.as({ kind: 'user', userId: admin.userId, role: 'admin' });
    const { match, attachmentId } = await trade();
    const before = (await reads()).length;
    await readChat(adminHeaders, match.id);
    await openFile(adminHeaders, match.id, attachmentId);
    expect((await reads()).slice(before)).toEqual([
      { adminId: 900, adminName: 'Olga Admin', matchId: match.id, what: 'chat', at: exchange.now.toISOString() },
      { adminId: 900, adminName: 'Olga Admin', matchId: match.id, what: 'attachment', attachmentId, at: exchange.now.toISOString() },
    ]);
  });

  it('records neither the parties\' own reads nor an admin\'s during an open dispute; once it is resolved, it does again', async () => {
    const adminHeaders = await exchange.svc.as({ kind: 'user', userId: 901, role: 'admin' });
    const { ana, bruno, match, attachmentId } = await trade();
    const before = (await reads()).length;
    await readChat(ana.headers, match.id);
    await openFile(ana.headers, match.id, attachmentId);
    await readChat(bruno.headers, match.id);
    const opened = Dispute.parse(await ok(call('POST', `/exchange-matches/${match.id}/dispute`, bruno.headers, { reason: 'no_payment', statement: 'Nothing arrived in my account' }), 201));
    await readChat(adminHeaders, match.id);
    await openFile(adminHeaders, match.id, attachmentId);
    expect((await reads()).slice(before)).toEqual([]);

    await ok(call('POST', `/admin/disputes/${opened.id}/resolve`, adminHeaders, { outcome: 'completed', note: 'The payment arrived' }));
    await readChat(adminHeaders, match.id);
    expect((await reads()).slice(before).map((r) => [r.adminId, r.matchId, r.what])).toEqual([[901, match.id, 'chat']]);
  });

  it('records nothing when the admin reads their own trade\'s chat', async () => {
    const ana = await user('Ana');
    const admin = await user('Adela');
    const adminHeaders = await exchange.svc.as({ kind: 'user', userId: admin.userId, role: 'admin' });
    const request = await ok(call('POST', '/exchange-requests', ana.headers, { fromCurrency: 'GBP', toCurrency: 'CLP', amount: 100, exchangeRate: 1275 }), 201) as { id: number };
    const match = ExchangeMatch.parse(await ok(call('POST', '/exchange-matches', adminHeaders, { exchangeRequestId: request.id }), 201));
    const before = (await reads()).length;
    await readChat(adminHeaders, match.id);
    expect((await reads()).slice(before)).toEqual([]);
  });
});

describeWithInfra(['postgres'], 'admins\' reads of a chat in production', () => {
  const db = useFreshDatabase('exchange');
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService(exchangeService(ExchangeSettings.parse({ PROJECTION_BACKFILL: 'off' })), db.url, { adminsNeedTwoFactor: true });
  });
  afterAll(async () => { await svc?.stop(); });
  const call = async (method: 'GET' | 'POST' | 'PUT', url: string, headers: Headers, payload?: object) =>
    svc.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

  it('lets an admin read a chat only in a session signed in with two-factor sign-in: without it, the outsider\'s 404 and nothing recorded', async () => {
    const ana = await trader(svc, 1, { firstName: 'Ana' });
    const bruno = await trader(svc, 2, { firstName: 'Bruno' });
    const request = await ok(call('POST', '/exchange-requests', ana.headers, { fromCurrency: 'GBP', toCurrency: 'CLP', amount: 100, exchangeRate: 1275 }), 201) as { id: number };
    const match = ExchangeMatch.parse(await ok(call('POST', '/exchange-matches', bruno.headers, { exchangeRequestId: request.id }), 201));
    const without = await call('GET', `/exchange-matches/${match.id}/messages`, await svc.as({ kind: 'user', userId: 900, role: 'admin' }));
    expect(without.statusCode).toBe(404);
    expect(await publishedPayloads(svc, 'adminChatRead')).toEqual([]);
    await ok(call('GET', `/exchange-matches/${match.id}/messages`, await svc.as({ kind: 'user', userId: 900, role: 'admin', twoFactor: true })));
    expect((await publishedPayloads(svc, 'adminChatRead')).map((r) => [r.adminId, r.matchId, r.what])).toEqual([[900, match.id, 'chat']]);
  });
});
