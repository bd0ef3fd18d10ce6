/**
 * Disputes: opened by either party of a confirmed match (and only then, once), the match frozen while open (no
 * completion, call-off, 'I have paid' or reminder; the chat stays open), the admins' queue and detail, resolution
 * (completed or cancelled, as a party's completion or a cancellation publishes), warnings and suspensions (which
 * stop posting and accepting until lifted), and the outcome counts a profile shows.
 */
import { beforeAll, expect, it } from 'vitest';
import {
  ChatMessageList, Dispute, DisputeDetail, DisputeOutcomes, DisputeQueue, ExchangeMatch, ExchangeRequest, ResolvedDisputeSnapshot,
} from '@puente/contracts';
import { describeWithInfra } from '@puente/testkit';
import { ok, publishedPayloads, refusal, trader, useExchangeService } from './testing/traders.ts';
import { sweepTradeTimers } from './jobs/sweep-trade-timers.ts';

type Headers = Record<string, string>;
const MATCH_NOT_FOUND = { message: 'Exchange match not found', code: 'not_found' };
const FROZEN = { message: 'This exchange is under dispute: it is on hold until an admin resolves it', code: 'match_disputed' };
const SUSPENDED = {
  message: 'Your trading is suspended after a dispute: you cannot post or accept exchange requests until an admin lifts the suspension',
  code: 'trading_suspended',
};
const HOUR_MS = 3_600_000;

describeWithInfra(['postgres'], 'exchange disputes', () => {
  const exchange = useExchangeService();
  let nextUser = 1;
  let admin: Headers;
  const user = (firstName?: string) => trader(exchange.svc, nextUser++, firstName ? { firstName } : {});
  const { call } = exchange;
  const post = (headers: Headers) => call('POST', '/exchange-requests', headers, { fromCurrency: 'GBP', toCurrency: 'CLP', amount: 100, exchangeRate: 1275 });
  const act = (headers: Headers, matchId: number, action: 'confirm' | 'complete' | 'cancel' | 'paid') => call('PUT', `/exchange-matches/${matchId}/${action}`, headers);
  const dispute = (headers: Headers, matchId: number, body: object = { reason: 'no_payment', statement: '  I sent £100 on Monday and nothing came back  ' }) =>
    call('POST', `/exchange-matches/${matchId}/dispute`, headers, body);
  const resolve = (headers: Headers, disputeId: number, body: object) => call('POST', `/admin/disputes/${disputeId}/resolve`, headers, body);
  const detail = async (disputeId: number) => DisputeDetail.parse(await ok(call('GET', `/admin/disputes/${disputeId}`, admin)));

  /** Ana's request accepted by Bruno; confirmed unless told otherwise. */
  async function trade(confirm = true) {
    const ana = await user('Ana');
    const bruno = await user('Bruno');
    const request = ExchangeRequest.parse(await ok(post(ana.headers), 201));
    const match = ExchangeMatch.parse(await ok(call('POST', '/exchange-matches', bruno.headers, { exchangeRequestId: request.id }), 201));
    if (confirm) await ok(act(ana.headers, match.id, 'confirm'));
    return { ana, bruno, match, request };
  }
  async function disputed() {
    const t = await trade();
    const opened = Dispute.parse(await ok(dispute(t.bruno.headers, t.match.id), 201));
    return { ...t, opened };
  }

  beforeAll(async () => { admin = await exchange.svc.as({ kind: 'user', userId: 900, role: 'admin' }); });

  it('lets either party of a confirmed match open one, with the reason and the statement trimmed; the match shows it', async () => {
    const first = await trade();
    const opened = Dispute.parse(await ok(dispute(first.bruno.headers, first.match.id), 201));
    expect(opened).toEqual({
      id: opened.id, matchId: first.match.id, exchangeRequestId: first.request.id, openedById: first.bruno.userId, reason: 'no_payment',
      statement: 'I sent £100 on Monday and nothing came back', status: 'open', openedAt: exchange.now.toISOString(),
      outcome: null, adminNote: null, sanction: null, resolvedAt: null,
    });
    for (const who of [first.ana, first.bruno]) {
      expect(Dispute.parse(await ok(call('GET', `/exchange-matches/${first.match.id}/dispute`, who.headers)))).toEqual(opened);
      const [match] = ExchangeMatch.array().parse(await ok(call('GET', '/exchange-matches', who.headers)));
      expect(match!.status).toBe('confirmed');
      expect(match!.dispute).toEqual({ id: opened.id, reason: 'no_payment', status: 'open', openedById: first.bruno.userId, openedAt: opened.openedAt, outcome: null });
    }
    const second = await trade();
    const byRequester = Dispute.parse(await ok(dispute(second.ana.headers, second.match.id, { reason: 'third_party_payment', statement: 'Paid from a stranger\'s account' }), 201));
    expect(byRequester.openedById).toBe(second.ana.userId);
    const events = (await publishedPayloads(exchange.svc, 'disputeOpened')).filter((e) => [first.match.id, second.match.id].includes(e.matchId));
    expect(events.map((e) => [e.disputeId, e.openedById, e.reason])).toEqual([
      [opened.id, first.bruno.userId, 'no_payment'], [byRequester.id, second.ana.userId, 'third_party_payment'],
    ]);
    const chat = ChatMessageList.parse(await ok(call('GET', `/exchange-matches/${first.match.id}/messages`, first.ana.headers)));
    expect(chat.at(-1)).toMatchObject({ kind: 'system', event: 'disputed', subjectId: first.bruno.userId, body: 'Bruno opened a dispute: the exchange is on hold until an admin resolves it' });
  });

  it('answers an outsider (and an admin opening one) as for a match they cannot see; a visitor 401', async () => {
    const { match } = await trade();
    const outsider = await user();
    expect(refusal(await dispute(outsider.headers, match.id), 404)).toEqual(MATCH_NOT_FOUND);
    expect(refusal(await call('GET', `/exchange-matches/${match.id}/dispute`, outsider.headers), 404)).toEqual(MATCH_NOT_FOUND);
    expect(refusal(await dispute(admin, match.id), 404)).toEqual(MATCH_NOT_FOUND);
    expect(refusal(await dispute({}, match.id), 401).code).toBe('unauthorized');
  });

  it('refuses a match not confirmed, a second dispute, and a missing reason or statement', async () => {
    const pending = await trade(false);
    expect(refusal(await dispute(pending.bruno.headers, pending.match.id), 409)).toEqual({
      message: 'This match is pending: only a confirmed match can be disputed', code: 'conflict',
    });
    const { ana, bruno, match } = await trade();
    expect(refusal(await dispute(ana.headers, match.id, { reason: 'no_payment', statement: '   ' }), 400).message).toBe('Describe what happened');
    expect(refusal(await dispute(ana.headers, match.id, { reason: 'late', statement: 'x' }), 400).message).toBe('Choose a reason for the dispute');
    expect(refusal(await dispute(ana.headers, match.id, { reason: 'other', statement: 'x'.repeat(4001) }), 400).message)
      .toBe('The statement must be at most 4000 characters');
    await ok(dispute(ana.headers, match.id), 201);
    expect(refusal(await dispute(bruno.headers, match.id), 409)).toEqual({ message: 'A dispute is already open for this match', code: 'dispute_exists' });
    const completed = await trade();
    await ok(act(completed.ana.headers, completed.match.id, 'complete'));
    // Only the party asked whether they received their money disputes a completed match (receipts.test.ts).
    expect(refusal(await dispute(completed.ana.headers, completed.match.id), 409)).toEqual({
      message: 'This match is completed: only the party asked whether they received their money can dispute it', code: 'receipt_not_asked',
    });
  });

  it('freezes the match: no completion, call-off or payment mark (409 match_disputed), no reminder; the chat stays open', async () => {
    const { ana, bruno, match } = await disputed();
    for (const [who, action] of [[ana, 'complete'], [bruno, 'complete'], [bruno, 'cancel'], [ana, 'paid'], [ana, 'confirm']] as const) {
      expect(refusal(await act(who.headers, match.id, action), 409)).toEqual(FROZEN);
    }
    await ok(call('POST', `/exchange-matches/${match.id}/messages`, ana.headers, { text: 'Here is my bank statement' }), 201);
    exchange.advance(49 * HOUR_MS);
    await sweepTradeTimers(exchange.svc.ctx, { matchApprovalHours: 24, completionReminderHours: [12, 48], requestExpiryDays: 30 }, exchange.now);
    expect((await publishedPayloads(exchange.svc, 'matchCompletionReminded')).filter((e) => e.matchId === match.id)).toEqual([]);
  });

  it('gives admins the queue, open ones first then resolved, newest first, with a status filter; others 403', async () => {
    const older = await disputed();
    exchange.advance(60_000);
    const newer = await disputed();
    exchange.advance(60_000);
    const done = await disputed();
    await ok(resolve(admin, done.opened.id, { outcome: 'completed', note: 'Both sides confirmed the payment' }));
    const queue = await call('GET', '/admin/disputes?limit=500', admin);
    const all = DisputeQueue.parse(queue.json());
    const ours = all.filter((d) => [older.opened.id, newer.opened.id, done.opened.id].includes(d.id)).map((d) => d.id);
    expect(ours).toEqual([newer.opened.id, older.opened.id, done.opened.id]);
    expect(all.findIndex((d) => d.status === 'resolved')).toBeGreaterThan(all.findLastIndex((d) => d.status === 'open'));
    expect(queue.headers['x-total-count']).toBe(String(all.length));
    const first = all.find((d) => d.id === newer.opened.id)!;
    expect([first.requester, first.matcher]).toEqual([
      { userId: newer.ana.userId, firstName: 'Ana', lastName: 'Tester' }, { userId: newer.bruno.userId, firstName: 'Bruno', lastName: 'Tester' },
    ]);
    const resolved = DisputeQueue.parse(await ok(call('GET', '/admin/disputes?status=resolved', admin)));
    expect(resolved.every((d) => d.status === 'resolved')).toBe(true);
    expect(resolved.map((d) => d.id)).toContain(done.opened.id);
    for (const url of ['/admin/disputes', `/admin/disputes/${newer.opened.id}`]) {
      expect(refusal(await call('GET', url, newer.ana.headers), 403).code).toBe('forbidden');
      expect((await call('GET', url, {})).statusCode).toBe(401);
    }
    expect(refusal(await resolve(newer.bruno.headers, newer.opened.id, { outcome: 'completed', note: 'Mine' }), 403).code).toBe('forbidden');
    expect(refusal(await call('DELETE', `/admin/trading-suspensions/${newer.bruno.userId}`, newer.bruno.headers), 403).code).toBe('forbidden');
  });

  it('shows an admin the dispute, the match and its terms, and both parties\' history; the chat through its route', async () => {
    const earlier = await disputed();
    await ok(resolve(admin, earlier.opened.id, { outcome: 'cancelled', note: 'No proof of payment', sanction: { userId: earlier.bruno.userId, kind: 'warning' } }));
    // The same two trade again, and once more complete a trade without trouble.
    const request = ExchangeRequest.parse(await ok(post(earlier.ana.headers), 201));
    const match = ExchangeMatch.parse(await ok(call('POST', '/exchange-matches', earlier.bruno.headers, { exchangeRequestId: request.id }), 201));
    await ok(act(earlier.ana.headers, match.id, 'confirm'));
    const now = Dispute.parse(await ok(dispute(earlier.ana.headers, match.id, { reason: 'wrong_amount', statement: 'Only half arrived' }), 201));
    const seen = await detail(now.id);
    expect(seen.dispute).toEqual(now);
    expect(seen.match).toMatchObject({ id: match.id, status: 'confirmed', exchangeRequest: { id: request.id, amount: 100, exchangeRate: 1275, fromCurrency: 'GBP' } });
    expect(seen.requester).toMatchObject({
      userId: earlier.ana.userId, firstName: 'Ana', matchesCompleted: 0, matchesCancelled: 1, warnings: 0, suspended: false,
      disputes: [{ id: earlier.opened.id, matchId: earlier.match.id, reason: 'no_payment', status: 'resolved', outcome: 'cancelled', openedByThem: false, sanctionOnThem: null }],
    });
    expect(seen.matcher).toMatchObject({
      userId: earlier.bruno.userId, firstName: 'Bruno', matchesCancelled: 1, warnings: 1, suspended: false,
      disputes: [{ id: earlier.opened.id, openedByThem: true, sanctionOnThem: 'warning' }],
    });
    const chat = ChatMessageList.parse(await ok(call('GET', `/exchange-matches/${match.id}/messages`, admin)));
    expect(chat.at(-1)?.event).toBe('disputed');
    expect(refusal(await call('GET', '/admin/disputes/999999', admin), 404)).toEqual({ message: 'Dispute not found', code: 'not_found' });
  });

  it('resolves as completed: the match and request complete as a party\'s completion does, both parties are told', async () => {
    const { ana, bruno, match, opened } = await disputed();
    const resolved = Dispute.parse(await ok(resolve(admin, opened.id, { outcome: 'completed', note: '  Bank statement shows the transfer  ' })));
    expect(resolved).toMatchObject({ status: 'resolved', outcome: 'completed', adminNote: 'Bank statement shows the transfer', sanction: null, resolvedAt: exchange.now.toISOString() });
    const [after] = ExchangeMatch.array().parse(await ok(call('GET', '/exchange-matches', ana.headers)));
    expect(after).toMatchObject({ id: match.id, status: 'completed', exchangeRequest: { status: 'completed' }, dispute: { status: 'resolved', outcome: 'completed' } });
    const completed = (await publishedPayloads(exchange.svc, 'matchCompleted')).filter((e) => e.matchId === match.id);
    expect(completed).toHaveLength(1);
    expect(completed[0]).toMatchObject({ requesterId: ana.userId, matcherId: bruno.userId, amount: '100.00', exchangeRate: '1275.0000' });
    expect(completed[0]!.completedById).toBeUndefined();
    const told = (await publishedPayloads(exchange.svc, 'disputeResolved')).filter((e) => e.matchId === match.id);
    expect(told).toEqual([{ matchId: match.id, requestId: match.exchangeRequestId, requesterId: ana.userId, matcherId: bruno.userId, disputeId: opened.id, outcome: 'completed', sanction: null }]);
    const history = await ok(call('GET', '/transaction-history', bruno.headers)) as { exchangeMatchId: number }[];
    expect(history.map((h) => h.exchangeMatchId)).toContain(match.id);
    const chat = ChatMessageList.parse(await ok(call('GET', `/exchange-matches/${match.id}/messages`, bruno.headers)));
    expect(chat.at(-1)).toMatchObject({ event: 'dispute_resolved', subjectId: null, body: 'An admin resolved the dispute' });
    expect(refusal(await resolve(admin, opened.id, { outcome: 'cancelled', note: 'Again' }), 409)).toEqual({ message: 'This dispute is already resolved', code: 'dispute_resolved' });
  });

  it('resolves as cancelled: the match and its request end, the request does not go back to the market', async () => {
    const { ana, bruno, match, request, opened } = await disputed();
    await ok(resolve(admin, opened.id, { outcome: 'cancelled', note: 'Nothing was paid' }));
    const [after] = ExchangeMatch.array().parse(await ok(call('GET', '/exchange-matches', bruno.headers)));
    expect(after).toMatchObject({ id: match.id, status: 'cancelled', exchangeRequest: { status: 'cancelled' } });
    const market = ExchangeRequest.array().parse(await ok(call('GET', '/exchange-requests?limit=500', (await user()).headers)));
    expect(market.map((r) => r.id)).not.toContain(request.id);
    // Its parties still find it from the request, to see how it ended.
    expect(ExchangeMatch.parse(await ok(call('GET', `/exchange-matches/request/${request.id}`, ana.headers))))
      .toMatchObject({ id: match.id, status: 'cancelled', dispute: { status: 'resolved', outcome: 'cancelled' } });
    const cancelled = (await publishedPayloads(exchange.svc, 'matchCancelled')).filter((e) => e.matchId === match.id);
    expect(cancelled).toEqual([{ matchId: match.id, requestId: request.id, requesterId: ana.userId, matcherId: bruno.userId, cancelledById: 900, reason: 'dispute-cancelled' }]);
  });

  it('refuses a sanction for someone not a party, and a resolution without a note', async () => {
    const { opened } = await disputed();
    expect(refusal(await resolve(admin, opened.id, { outcome: 'completed', note: 'x', sanction: { userId: 777, kind: 'warning' } }), 400).message)
      .toBe('A sanction must be for one of the two parties');
    expect(refusal(await resolve(admin, opened.id, { outcome: 'completed', note: ' ' }), 400).message).toBe('A note on the decision is required');
    expect(refusal(await resolve(admin, opened.id, { outcome: 'refunded', note: 'x' }), 400).message).toBe('Outcome must be completed or cancelled');
  });

  it('suspends a party from posting and accepting until an admin lifts it; a warning stops nothing', async () => {
    const { ana, bruno, opened } = await disputed();
    await ok(resolve(admin, opened.id, { outcome: 'cancelled', note: 'Third-party payment', sanction: { userId: bruno.userId, kind: 'suspension' } }));
    expect(refusal(await post(bruno.headers), 403)).toEqual(SUSPENDED);
    const open = ExchangeRequest.parse(await ok(post(ana.headers), 201));
    expect(refusal(await call('POST', '/exchange-matches', bruno.headers, { exchangeRequestId: open.id }), 403)).toEqual(SUSPENDED);
    expect((await detail(opened.id)).matcher.suspended).toBe(true);
    expect((await call('DELETE', `/admin/trading-suspensions/${bruno.userId}`, admin)).statusCode).toBe(204);
    expect(refusal(await call('DELETE', `/admin/trading-suspensions/${bruno.userId}`, admin), 404).message).toBe('This user\'s trading is not suspended');
    await ok(call('POST', '/exchange-matches', bruno.headers, { exchangeRequestId: open.id }), 201);
    exchange.advance(24 * HOUR_MS); // a new day on the free plan's count
    await ok(post(bruno.headers), 201);

    const warned = await disputed();
    await ok(resolve(admin, warned.opened.id, { outcome: 'completed', note: 'Late but paid', sanction: { userId: warned.ana.userId, kind: 'warning' } }));
    await ok(post(warned.ana.headers), 201);
  });

  it('counts a user\'s dispute outcomes and sanctions for anyone to read', async () => {
    const first = await disputed();
    await ok(resolve(admin, first.opened.id, { outcome: 'completed', note: 'Paid', sanction: { userId: first.bruno.userId, kind: 'warning' } }));
    const request = ExchangeRequest.parse(await ok(post(first.ana.headers), 201));
    const match = ExchangeMatch.parse(await ok(call('POST', '/exchange-matches', first.bruno.headers, { exchangeRequestId: request.id }), 201));
    await ok(act(first.ana.headers, match.id, 'confirm'));
    const second = Dispute.parse(await ok(dispute(first.ana.headers, match.id), 201));
    const outcomes = async (userId: number) => DisputeOutcomes.parse(await ok(call('GET', `/users/${userId}/dispute-outcomes`, {})));
    expect(await outcomes(first.bruno.userId)).toEqual({ completed: 1, cancelled: 0, warnings: 1, suspensions: 0 }); // the open one is not counted
    await ok(resolve(admin, second.id, { outcome: 'cancelled', note: 'Not paid', sanction: { userId: first.bruno.userId, kind: 'suspension' } }));
    expect(await outcomes(first.bruno.userId)).toEqual({ completed: 1, cancelled: 1, warnings: 1, suspensions: 1 });
    expect(await outcomes(first.ana.userId)).toEqual({ completed: 1, cancelled: 1, warnings: 0, suspensions: 0 });
    expect(await outcomes(999_999)).toEqual({ completed: 0, cancelled: 0, warnings: 0, suspensions: 0 });

    // Identity's snapshot for its directory: resolved disputes only, by id, a page after afterId.
    const identity = await exchange.svc.as({ kind: 'service', service: 'identity' });
    const snapshot = async (query: string) => ResolvedDisputeSnapshot.parse(await ok(call('GET', `/internal/resolved-disputes?${query}`, identity)));
    const all = await snapshot('afterId=0&limit=1000');
    expect(all.filter((d) => [first.opened.id, second.id].includes(d.disputeId))).toEqual([
      { disputeId: first.opened.id, requesterId: first.ana.userId, matcherId: first.bruno.userId, outcome: 'completed', sanction: { userId: first.bruno.userId, kind: 'warning' } },
      { disputeId: second.id, requesterId: first.ana.userId, matcherId: first.bruno.userId, outcome: 'cancelled', sanction: { userId: first.bruno.userId, kind: 'suspension' } },
    ]);
    expect(await snapshot(`afterId=${first.opened.id}&limit=1`)).toEqual(all.filter((d) => d.disputeId > first.opened.id).slice(0, 1));
    expect((await call('GET', '/internal/resolved-disputes', admin)).statusCode).toBe(403); // for identity only
  });
});
