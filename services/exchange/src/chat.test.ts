/**
 * A match's chat and 'I have paid': who may read and post, the window after completion, the system message at
 * each change of the match (in order, with its event for the live channel) and the payment marks.
 */
import { describe, expect, it } from 'vitest';
import { ChatMessage, ChatMessageList, ExchangeMatch, ExchangePersonalData } from '@puente/contracts';
import { makeEvent } from '@puente/platform';
import { describeWithInfra } from '@puente/testkit';
import { ok, publishedPayloads, refusal, trader, useExchangeService } from './testing/traders.ts';
import { sweepTradeTimers } from './jobs/sweep-trade-timers.ts';

type Headers = Record<string, string>;
const MATCH_NOT_FOUND = { message: 'Exchange match not found', code: 'not_found' };
const DAY_MS = 86_400_000;

describeWithInfra(['postgres'], 'exchange chat', () => {
  const exchange = useExchangeService();
  let nextUser = 1;
  const user = (firstName?: string) => trader(exchange.svc, nextUser++, firstName ? { firstName } : {});
  const { call } = exchange;
  const messages = async (headers: Headers, matchId: number, query = '') =>
    ChatMessageList.parse(await ok(call('GET', `/exchange-matches/${matchId}/messages${query}`, headers)));
  const write = (headers: Headers, matchId: number, text: unknown) => call('POST', `/exchange-matches/${matchId}/messages`, headers, { text });
  const act = async (headers: Headers, matchId: number, action: 'confirm' | 'complete' | 'cancel' | 'paid') =>
    ExchangeMatch.parse(await ok(call('PUT', `/exchange-matches/${matchId}/${action}`, headers)));

  /** Ana's request accepted by Bruno: a pending match. */
  async function trade() {
    const ana = await user('Ana');
    const bruno = await user('Bruno');
    const request = await ok(call('POST', '/exchange-requests', ana.headers, { fromCurrency: 'GBP', toCurrency: 'CLP', amount: 100, exchangeRate: 1275 }), 201) as { id: number };
    const match = ExchangeMatch.parse(await ok(call('POST', '/exchange-matches', bruno.headers, { exchangeRequestId: request.id }), 201));
    return { ana, bruno, match };
  }
  const said = (list: ChatMessage[]) => list.map((m) => (m.kind === 'system' ? `${m.event} by ${m.subjectId ?? 'nobody'}` : `${m.authorId}: ${m.body}`));

  describe('posting and reading', () => {
    it('keeps the parties\' messages in order, trimmed, after the system message of the accept; `after` reads only what is new', async () => {
      const { ana, bruno, match } = await trade();
      const posted = ChatMessage.parse(await ok(write(bruno.headers, match.id, '  Hola Ana, I will send the pounds today  '), 201));
      expect(posted).toEqual({
        id: posted.id, matchId: match.id, kind: 'text', authorId: bruno.userId, body: 'Hola Ana, I will send the pounds today', attachment: null,
        event: null, subjectId: null, createdAt: exchange.now.toISOString(),
      });
      await ok(write(ana.headers, match.id, 'Great, thanks'), 201);
      const all = await messages(ana.headers, match.id);
      expect(said(all)).toEqual([`accepted by ${bruno.userId}`, `${bruno.userId}: Hola Ana, I will send the pounds today`, `${ana.userId}: Great, thanks`]);
      expect(all[0]!.body).toBe('Bruno accepted the exchange request');
      expect(await messages(bruno.headers, match.id)).toEqual(all);
      expect(said(await messages(bruno.headers, match.id, `?after=${posted.id}`))).toEqual([`${ana.userId}: Great, thanks`]);
      const page = await call('GET', `/exchange-matches/${match.id}/messages?limit=1&offset=1`, ana.headers);
      expect(page.headers['x-total-count']).toBe('3');
      expect(ChatMessageList.parse(page.json())).toEqual([all[1]]);
    });

    it('stores two messages posted at once, both, in the order of their ids', async () => {
      const { ana, bruno, match } = await trade();
      const [a, b] = await Promise.all([write(ana.headers, match.id, 'one'), write(bruno.headers, match.id, 'two')]);
      const ids = [ChatMessage.parse(a!.json()).id, ChatMessage.parse(b!.json()).id].sort((x, y) => x - y);
      expect((await messages(ana.headers, match.id)).slice(1).map((m) => m.id)).toEqual(ids);
    });

    it('publishes each message with both parties\' ids, for the live channel', async () => {
      const { ana, bruno, match } = await trade();
      const posted = ChatMessage.parse(await ok(write(ana.headers, match.id, 'Sent'), 201));
      const events = (await publishedPayloads(exchange.svc, 'chatMessagePosted')).filter((e) => e.matchId === match.id);
      expect(events.map((e) => [e.requesterId, e.matcherId, e.message.kind])).toEqual([[ana.userId, bruno.userId, 'system'], [ana.userId, bruno.userId, 'text']]);
      expect(events[1]!.message).toEqual(posted);
    });

    it('refuses an empty, blank or too long message, and one with characters that cannot be stored', async () => {
      const { ana, match } = await trade();
      for (const text of ['', '   ', undefined]) {
        expect(refusal(await write(ana.headers, match.id, text), 400)).toMatchObject({ message: 'Message is required', code: 'validation_failed' });
      }
      expect(refusal(await write(ana.headers, match.id, 'x'.repeat(2001)), 400).message).toBe('Message must be at most 2000 characters');
      expect(refusal(await write(ana.headers, match.id, 'a\u0000b'), 400).message).toBe('Message contains characters that cannot be sent');
      await ok(write(ana.headers, match.id, 'x'.repeat(2000)), 201);
    });
  });

  describe('who may', () => {
    it('answers an outsider as for a match they cannot see; an admin reads but may not post', async () => {
      const { ana, match } = await trade();
      await ok(write(ana.headers, match.id, 'For us only'), 201);
      const outsider = await user();
      expect(refusal(await call('GET', `/exchange-matches/${match.id}/messages`, outsider.headers), 404)).toEqual(MATCH_NOT_FOUND);
      expect(refusal(await write(outsider.headers, match.id, 'Hi'), 404)).toEqual(MATCH_NOT_FOUND);
      expect(refusal(await call('GET', '/exchange-matches/999999/messages', outsider.headers), 404)).toEqual(MATCH_NOT_FOUND);
      const admin = await exchange.svc.as({ kind: 'user', userId: 900, role: 'admin' });
      expect(said(await messages(admin, match.id)).at(-1)).toBe(`${ana.userId}: For us only`);
      expect(refusal(await write(admin, match.id, 'Admin here'), 404)).toEqual(MATCH_NOT_FOUND);
      expect(refusal(await call('PUT', `/exchange-matches/${match.id}/paid`, admin), 404)).toEqual(MATCH_NOT_FOUND);
      expect((await call('GET', `/exchange-matches/${match.id}/messages`, {})).statusCode).toBe(401);
    });

    it('lets the parties post until 30 days after completion; then the chat is read-only', async () => {
      const { ana, bruno, match } = await trade();
      await act(ana.headers, match.id, 'confirm');
      await act(bruno.headers, match.id, 'complete');
      exchange.advance(30 * DAY_MS - 1000);
      await ok(write(ana.headers, match.id, 'Thanks, all received'), 201);
      exchange.advance(1000);
      expect(refusal(await write(bruno.headers, match.id, 'Too late'), 409)).toEqual({
        message: 'This chat is closed: messages can be posted until 30 days after the exchange is completed', code: 'chat_closed',
      });
      expect(said(await messages(bruno.headers, match.id)).at(-1)).toBe(`${ana.userId}: Thanks, all received`);
    });

    it('closes the chat of a match called off', async () => {
      const { ana, bruno, match } = await trade();
      await act(bruno.headers, match.id, 'cancel');
      expect(refusal(await write(ana.headers, match.id, 'Why?'), 409).code).toBe('chat_closed');
    });
  });

  describe('system messages', () => {
    it('tells both parties of each change, in order: accepted, confirmed, paid by each, completed, the other party asked about their money', async () => {
      const { ana, bruno, match } = await trade();
      await act(ana.headers, match.id, 'confirm');
      await act(bruno.headers, match.id, 'paid');
      await act(ana.headers, match.id, 'paid');
      await act(ana.headers, match.id, 'complete');
      const all = await messages(ana.headers, match.id);
      expect(said(all)).toEqual([
        `accepted by ${bruno.userId}`, `confirmed by ${ana.userId}`, `paid by ${bruno.userId}`, `paid by ${ana.userId}`, `completed by ${ana.userId}`,
        `receipt_asked by ${bruno.userId}`,
      ]);
      expect(all.map((m) => m.body)).toEqual([
        'Bruno accepted the exchange request', 'Ana approved the match: bank details are shared',
        'Bruno marked their payment sent: check your bank', 'Ana marked their payment sent: check your bank', 'Ana marked the exchange completed',
        'Bruno is asked whether the money due to them arrived (72 hours to answer)',
      ]);
      expect(all.every((m) => m.authorId === null)).toBe(true);
    });

    it('tells them when a pending match is declined, or the request behind it cancelled', async () => {
      const declined = await trade();
      await act(declined.ana.headers, declined.match.id, 'cancel');
      expect(said(await messages(declined.bruno.headers, declined.match.id))).toEqual([`accepted by ${declined.bruno.userId}`, `cancelled by ${declined.ana.userId}`]);
      const withdrawn = await trade();
      await ok(call('PATCH', `/exchange-requests/${withdrawn.match.exchangeRequestId}/cancel`, withdrawn.ana.headers));
      expect(said(await messages(withdrawn.bruno.headers, withdrawn.match.id)).at(-1)).toBe(`cancelled by ${withdrawn.ana.userId}`);
    });

    it('tells them when a pending match expires unapproved, by nobody', async () => {
      const { bruno, match } = await trade();
      exchange.advance(25 * 3_600_000);
      await sweepTradeTimers(exchange.svc.ctx, { matchApprovalHours: 24, completionReminderHours: [], requestExpiryDays: 30 }, exchange.now);
      const all = await messages(bruno.headers, match.id);
      expect(said(all)).toEqual([`accepted by ${bruno.userId}`, 'expired by nobody']);
      expect(all[1]!.body).toBe('The match expired: it was not approved in time');
    });
  });

  it('gives a user their messages in their data download; erases them once deleted, naming them as a deleted user', async () => {
    const { ana, bruno, match } = await trade();
    await ok(write(ana.headers, match.id, 'My number is on the way'), 201);
    const thanks = ChatMessage.parse(await ok(write(bruno.headers, match.id, 'Thanks Ana'), 201));
    const identity = await exchange.svc.as({ kind: 'service', service: 'identity' });
    const download = async (userId: number) => ExchangePersonalData.parse(
      await ok(exchange.svc.app.inject({ method: 'GET', url: `/internal/personal-data/trades?userId=${userId}`, headers: identity })));
    expect((await download(bruno.userId)).chatMessages).toEqual([thanks]);
    await exchange.svc.deliver(makeEvent('userDeleted', bruno.userId, { userId: bruno.userId }));
    const all = await messages(ana.headers, match.id);
    expect(all.map((m) => m.body)).toEqual([
      'Deleted user accepted the exchange request', 'My number is on the way', 'Deleted user called off the match',
    ]);
    expect((await download(bruno.userId)).chatMessages).toEqual([]);
  });

  describe('I have paid', () => {
    it('marks the caller\'s own payment once: a second mark changes nothing; the match shows who has paid', async () => {
      const { ana, bruno, match } = await trade();
      await act(ana.headers, match.id, 'confirm');
      expect((await act(bruno.headers, match.id, 'paid')).paidByIds).toEqual([bruno.userId]);
      expect((await act(bruno.headers, match.id, 'paid')).paidByIds).toEqual([bruno.userId]);
      const seen = (await messages(ana.headers, match.id)).filter((m) => m.event === 'paid');
      expect(seen).toHaveLength(1);
      exchange.advance(60_000);
      expect((await act(ana.headers, match.id, 'paid')).paidByIds).toEqual([bruno.userId, ana.userId]);
      const mine = ExchangeMatch.array().parse(await ok(call('GET', '/exchange-matches', ana.headers)));
      expect(mine.find((m) => m.id === match.id)?.paidByIds).toEqual([bruno.userId, ana.userId]);
      // Each mark is published once, for the other party's notification.
      const marked = (await publishedPayloads(exchange.svc, 'matchPaymentMarked')).filter((e) => e.matchId === match.id);
      expect(marked.map((e) => e.paidById)).toEqual([bruno.userId, ana.userId]);
    });

    it('is refused before approval and once completed (409), and to anyone but the parties (404)', async () => {
      const { ana, bruno, match } = await trade();
      expect(refusal(await call('PUT', `/exchange-matches/${match.id}/paid`, bruno.headers), 409)).toEqual({
        message: 'This match is pending: only a confirmed match can be marked paid', code: 'conflict',
      });
      const outsider = await user();
      expect(refusal(await call('PUT', `/exchange-matches/${match.id}/paid`, outsider.headers), 404)).toEqual(MATCH_NOT_FOUND);
      await act(ana.headers, match.id, 'confirm');
      await act(ana.headers, match.id, 'complete');
      expect(refusal(await call('PUT', `/exchange-matches/${match.id}/paid`, bruno.headers), 409).message)
        .toBe('This match is completed: only a confirmed match can be marked paid');
    });
  });
});
