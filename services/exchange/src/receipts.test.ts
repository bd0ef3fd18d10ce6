/**
 * Both sides confirm what they received: a party's 'I received' on a confirmed match, the question put to the other
 * party when one completes (yes, no with a dispute after completion, or the 72-hour window lapsing as yes in the
 * trade timers' sweep), the refusals, and an admin's resolution of a dispute opened after completion.
 */
import { expect, it } from 'vitest';
import { ChatMessageList, Dispute, DisputeDetail, DisputeOutcomes, ExchangeMatch, ExchangeRequest, RECEIPT_WINDOW_HOURS } from '@puente/contracts';
import { describeWithInfra } from '@puente/testkit';
import { ok, publishedPayloads, refusal, trader, useExchangeService } from './testing/traders.ts';
import { sweepTradeTimers } from './jobs/sweep-trade-timers.ts';

type Headers = Record<string, string>;
const HOUR_MS = 3_600_000;
const MATCH_NOT_FOUND = { message: 'Exchange match not found', code: 'not_found' };
const ANSWERED = { message: 'You have already answered whether you received the money', code: 'receipt_answered' };
const WINDOW_PASSED = { message: 'The 72 hours to answer have passed: the money counts as received', code: 'receipt_window_passed' };
const NOT_ASKED = { message: 'This match is completed: only the party asked whether they received their money can dispute it', code: 'receipt_not_asked' };
const FROZEN = { message: 'This exchange is under dispute: it is on hold until an admin resolves it', code: 'match_disputed' };

describeWithInfra(['postgres'], 'receipt confirmations', () => {
  const exchange = useExchangeService();
  let nextUser = 1;
  const user = (firstName: string) => trader(exchange.svc, nextUser++, { firstName });
  const { call } = exchange;
  const admin = () => exchange.svc.as({ kind: 'user', userId: 900, role: 'admin' });
  const post = async (headers: Headers) =>
    ExchangeRequest.parse(await ok(call('POST', '/exchange-requests', headers, { fromCurrency: 'GBP', toCurrency: 'CLP', amount: 100, exchangeRate: 1275 }), 201));
  const act = async (headers: Headers, matchId: number, action: 'confirm' | 'complete' | 'received') =>
    ExchangeMatch.parse(await ok(call('PUT', `/exchange-matches/${matchId}/${action}`, headers)));
  const received = (headers: Headers, matchId: number) => call('PUT', `/exchange-matches/${matchId}/received`, headers);
  const dispute = (headers: Headers, matchId: number) =>
    call('POST', `/exchange-matches/${matchId}/dispute`, headers, { reason: 'no_payment', statement: 'No pesos arrived in my account' });
  const readMatch = async (headers: Headers, matchId: number) =>
    ExchangeMatch.array().parse(await ok(call('GET', '/exchange-matches?limit=100', headers))).find((m) => m.id === matchId)!;
  const sweep = () => sweepTradeTimers(exchange.svc.ctx, { matchApprovalHours: 24, completionReminderHours: [], requestExpiryDays: 30 }, exchange.now);
  const chat = async (headers: Headers, matchId: number) =>
    ChatMessageList.parse(await ok(call('GET', `/exchange-matches/${matchId}/messages`, headers)))
      .map((m) => (m.kind === 'system' ? `${m.event} by ${m.subjectId ?? 'nobody'}` : m.body));
  const eventsOf = async <N extends 'matchReceiptConfirmed' | 'matchReceiptAsked' | 'disputeOpened' | 'matchCompleted' | 'matchCancelled'>(name: N, matchId: number) =>
    (await publishedPayloads(exchange.svc, name)).filter((e) => e.matchId === matchId);

  /** Ana (GBP → CLP, £100) and Bruno, approved: Ana receives 127,500 CLP, Bruno £100. */
  async function trade() {
    const ana = await user('Ana');
    const bruno = await user('Bruno');
    const request = await post(ana.headers);
    const match = ExchangeMatch.parse(await ok(call('POST', '/exchange-matches', bruno.headers, { exchangeRequestId: request.id }), 201));
    await act(ana.headers, match.id, 'confirm');
    const parties = { matchId: match.id, requestId: request.id, requesterId: ana.userId, matcherId: bruno.userId };
    const terms = { fromCurrency: 'GBP', toCurrency: 'CLP', amount: '100.00', exchangeRate: '1275.0000' };
    return { ana, bruno, request, match, parties, terms };
  }
  /** A trade Bruno completed at `completedAt`: Ana is asked. */
  async function completedByBruno() {
    const t = await trade();
    const completedAt = exchange.now;
    const completed = await act(t.bruno.headers, t.match.id, 'complete');
    return { ...t, completed, completedAt, dueAt: new Date(completedAt.getTime() + RECEIPT_WINDOW_HOURS * HOUR_MS) };
  }

  it('lets each party of a confirmed match say they received, once, with its event and chat message', async () => {
    const { ana, bruno, match, parties, terms } = await trade();
    const brunoAt = exchange.now.toISOString();
    const first = await act(bruno.headers, match.id, 'received');
    expect(first).toMatchObject({ status: 'confirmed', receipts: [{ userId: bruno.userId, at: brunoAt, automatic: false }], receiptQuestion: null, completedById: null });
    exchange.advance(60_000);
    expect(await act(bruno.headers, match.id, 'received')).toEqual(first);
    const anaAt = exchange.now.toISOString();
    const both = await act(ana.headers, match.id, 'received');
    expect(both.receipts).toEqual([{ userId: bruno.userId, at: brunoAt, automatic: false }, { userId: ana.userId, at: anaAt, automatic: false }]);
    expect(await readMatch(ana.headers, match.id)).toEqual(both);
    expect(await eventsOf('matchReceiptConfirmed', match.id)).toEqual([
      { ...parties, ...terms, receivedById: bruno.userId, automatic: false },
      { ...parties, ...terms, receivedById: ana.userId, automatic: false },
    ]);
    expect(await chat(ana.headers, match.id)).toEqual([
      `accepted by ${bruno.userId}`, `confirmed by ${ana.userId}`, `received by ${bruno.userId}`, `received by ${ana.userId}`,
    ]);
    const messages = ChatMessageList.parse(await ok(call('GET', `/exchange-matches/${match.id}/messages`, bruno.headers)));
    expect(messages.at(-1)!.body).toBe('Ana\'s money is marked received');
  });

  it('refuses a pending match (409) and anyone not a party, an admin too (404, as the other match routes); a visitor 401', async () => {
    const ana = await user('Ana');
    const bruno = await user('Bruno');
    const request = await post(ana.headers);
    const pending = ExchangeMatch.parse(await ok(call('POST', '/exchange-matches', bruno.headers, { exchangeRequestId: request.id }), 201));
    expect(refusal(await received(bruno.headers, pending.id), 409)).toEqual({
      message: 'This match is pending: only a confirmed or completed match can be marked received', code: 'conflict',
    });
    const outsider = await user('Cata');
    expect(refusal(await received(outsider.headers, pending.id), 404)).toEqual(MATCH_NOT_FOUND);
    expect(refusal(await received(await admin(), pending.id), 404)).toEqual(MATCH_NOT_FOUND);
    expect(refusal(await received(bruno.headers, 999_999), 404)).toEqual(MATCH_NOT_FOUND);
    expect(refusal(await received({}, pending.id), 401).code).toBe('unauthorized');
    expect(await eventsOf('matchReceiptConfirmed', pending.id)).toEqual([]);
  });

  it('asks the other party when one completes: due 72 hours later, with its event and chat message', async () => {
    const { ana, bruno, match, parties, terms, completed, completedAt, dueAt } = await completedByBruno();
    expect(completed).toMatchObject({
      status: 'completed', completedAt: completedAt.toISOString(), completedById: bruno.userId, receipts: [],
      receiptQuestion: { askedId: ana.userId, askedAt: completedAt.toISOString(), dueAt: dueAt.toISOString(), answer: null, answeredAt: null },
    });
    expect(await readMatch(ana.headers, match.id)).toEqual(completed);
    expect(await eventsOf('matchReceiptAsked', match.id)).toEqual([
      { ...parties, ...terms, askedId: ana.userId, completedById: bruno.userId, dueAt: dueAt.toISOString() },
    ]);
    expect((await chat(bruno.headers, match.id)).slice(-2)).toEqual([`completed by ${bruno.userId}`, `receipt_asked by ${ana.userId}`]);
  });

  it('asks nobody when the other party already said they received', async () => {
    const { ana, bruno, match } = await trade();
    await act(ana.headers, match.id, 'received');
    const completed = await act(bruno.headers, match.id, 'complete');
    expect(completed).toMatchObject({ status: 'completed', completedById: bruno.userId, receiptQuestion: null });
    expect(await eventsOf('matchReceiptAsked', match.id)).toEqual([]);
    expect((await chat(ana.headers, match.id)).at(-1)).toBe(`completed by ${bruno.userId}`);
    // Nobody asked: no dispute after completion either.
    expect(refusal(await dispute(ana.headers, match.id), 409).message).toBe('This match is completed: only a confirmed match can be disputed');
  });

  it('takes the asked party\'s yes once; the completer\'s \'I received\' changes nothing; a second answer is refused', async () => {
    const { ana, bruno, match, parties, terms, completed } = await completedByBruno();
    expect(await act(bruno.headers, match.id, 'received')).toEqual(completed);
    exchange.advance(5 * HOUR_MS);
    const yes = await act(ana.headers, match.id, 'received');
    const at = exchange.now.toISOString();
    expect(yes).toEqual({
      ...completed, receipts: [{ userId: ana.userId, at, automatic: false }],
      receiptQuestion: { ...completed.receiptQuestion!, answer: 'yes', answeredAt: at },
    });
    expect(await eventsOf('matchReceiptConfirmed', match.id)).toEqual([{ ...parties, ...terms, receivedById: ana.userId, automatic: false }]);
    expect(refusal(await received(ana.headers, match.id), 409)).toEqual(ANSWERED);
    expect(refusal(await dispute(ana.headers, match.id), 409)).toEqual(ANSWERED);
    expect(refusal(await dispute(bruno.headers, match.id), 409)).toEqual(NOT_ASKED);
    expect((await chat(ana.headers, match.id)).at(-1)).toBe(`received by ${ana.userId}`);
  });

  it('takes the asked party\'s no as a dispute after completion: the match stays completed and frozen, the chat open to an admin', async () => {
    const { ana, bruno, match, parties, completed } = await completedByBruno();
    exchange.advance(10 * HOUR_MS);
    expect(refusal(await dispute(bruno.headers, match.id), 409)).toEqual(NOT_ASKED);
    const opened = Dispute.parse(await ok(dispute(ana.headers, match.id), 201));
    const at = exchange.now.toISOString();
    expect(opened).toEqual({
      id: opened.id, matchId: match.id, exchangeRequestId: parties.requestId, openedById: ana.userId, reason: 'no_payment',
      statement: 'No pesos arrived in my account', status: 'open', openedAt: at, outcome: null, adminNote: null, sanction: null, resolvedAt: null,
    });
    expect(await readMatch(bruno.headers, match.id)).toEqual({
      ...completed, receiptQuestion: { ...completed.receiptQuestion!, answer: 'no', answeredAt: at },
      dispute: { id: opened.id, reason: 'no_payment', status: 'open', openedById: ana.userId, openedAt: at, outcome: null },
    });
    expect(await eventsOf('disputeOpened', match.id)).toEqual([
      { ...parties, disputeId: opened.id, openedById: ana.userId, reason: 'no_payment', afterCompletion: true },
    ]);
    expect((await chat(await admin(), match.id)).slice(-3)).toEqual([`completed by ${bruno.userId}`, `receipt_asked by ${ana.userId}`, `disputed by ${ana.userId}`]);
    expect(refusal(await received(ana.headers, match.id), 409)).toEqual(FROZEN);
    expect(refusal(await dispute(ana.headers, match.id), 409)).toEqual(ANSWERED);
    // The window passing changes nothing: the dispute decides.
    exchange.advance(RECEIPT_WINDOW_HOURS * HOUR_MS);
    await sweep();
    expect((await readMatch(ana.headers, match.id)).receiptQuestion?.answer).toBe('no');
    expect(await eventsOf('matchReceiptConfirmed', match.id)).toEqual([]);
  });

  it('lapses an unanswered question at 72 hours in the sweep: an automatic receipt at dueAt; answers after dueAt are refused', async () => {
    const { ana, bruno, match, parties, terms, completed, dueAt } = await completedByBruno();
    exchange.advance(RECEIPT_WINDOW_HOURS * HOUR_MS - 60_000);
    await sweep();
    expect(await readMatch(ana.headers, match.id)).toEqual(completed);
    exchange.advance(60_000);
    // Due, not yet swept: too late all the same.
    expect(refusal(await dispute(ana.headers, match.id), 409)).toEqual(WINDOW_PASSED);
    expect(refusal(await received(ana.headers, match.id), 409)).toEqual(WINDOW_PASSED);
    exchange.advance(30_000);
    expect((await sweep()).lapsedReceipts).toBeGreaterThanOrEqual(1);
    const lapsed = await readMatch(bruno.headers, match.id);
    expect(lapsed).toEqual({
      ...completed, receipts: [{ userId: ana.userId, at: dueAt.toISOString(), automatic: true }],
      receiptQuestion: { ...completed.receiptQuestion!, answer: 'lapsed', answeredAt: dueAt.toISOString() },
    });
    expect(await eventsOf('matchReceiptConfirmed', match.id)).toEqual([{ ...parties, ...terms, receivedById: ana.userId, automatic: true }]);
    expect((await chat(ana.headers, match.id)).at(-1)).toBe(`received by ${ana.userId}`);
    expect(refusal(await dispute(ana.headers, match.id), 409)).toEqual(WINDOW_PASSED);
    expect(refusal(await received(ana.headers, match.id), 409)).toEqual(WINDOW_PASSED);
    await sweep();
    expect(await eventsOf('matchReceiptConfirmed', match.id)).toHaveLength(1);
  });

  it.each(['completed', 'cancelled'] as const)('resolves a dispute after completion as %s: the match stays completed, the trade records as decided', async (outcome) => {
    const { ana, bruno, match } = await completedByBruno();
    // Each one's other open request shows their card (its trade record) to the other.
    const shown = [{ reader: bruno, request: await post(ana.headers) }, { reader: ana, request: await post(bruno.headers) }];
    const cards = () => Promise.all(shown.map(async ({ reader, request }) =>
      ExchangeRequest.parse(await ok(call('GET', `/exchange-requests/${request.id}`, reader.headers))).user));
    const before = await cards();
    for (const card of before) expect(card).toMatchObject({ transactionCount: 1, completionRate: 100 });
    const opened = Dispute.parse(await ok(dispute(ana.headers, match.id), 201));
    const resolved = Dispute.parse(await ok(call('POST', `/admin/disputes/${opened.id}/resolve`, await admin(), { outcome, note: 'Decided on the bank statements' })));
    expect(resolved).toMatchObject({ status: 'resolved', outcome });
    expect(await readMatch(ana.headers, match.id)).toMatchObject({
      status: 'completed', completedById: bruno.userId, dispute: { id: opened.id, status: 'resolved', outcome },
      receiptQuestion: { askedId: ana.userId, answer: 'no' },
    });
    expect(await eventsOf('matchCompleted', match.id)).toHaveLength(1);
    expect(await eventsOf('matchCancelled', match.id)).toEqual([]);
    const after = await cards();
    const records = [ana, bruno].map(async (who) => DisputeOutcomes.parse(await ok(call('GET', `/users/${who.userId}/dispute-outcomes`, who.headers))));
    for (const counts of await Promise.all(records)) expect(counts).toMatchObject({ [outcome]: 1 });
    const detail = DisputeDetail.parse(await ok(call('GET', `/admin/disputes/${opened.id}`, await admin())));
    if (outcome === 'completed') {
      expect(after).toEqual(before);
      for (const party of [detail.requester, detail.matcher]) expect(party).toMatchObject({ matchesCompleted: 1, matchesCancelled: 0 });
    } else {
      for (const card of after) expect(card).toMatchObject({ transactionCount: 0, completionRate: 0, averageCompletionMinutes: null });
      // The admins' view of each party counts it as the dispute decided.
      for (const party of [detail.requester, detail.matcher]) expect(party).toMatchObject({ matchesCompleted: 0, matchesCancelled: 1 });
    }
    expect(refusal(await received(ana.headers, match.id), 409)).toEqual(ANSWERED);
  });
});
