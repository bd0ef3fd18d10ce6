/**
 * Every transition of a request, a match and a dispute, walked as the product drives it (routes as the right user,
 * the trade timers on a moved clock): each polled route whose answer changed for ana (requester), bob (matcher) or
 * cy (looking on) answers a new ETag, and every other one the same ETag. Blocks and the users' cards are walked in
 * versions-after-blocks-and-cards.test.ts. The version table under test: domain/market-version.ts.
 */
import { describe, expect, it } from 'vitest';
import { describeWithInfra } from '@puente/testkit';
import * as requestTransitions from './domain/request-transitions.ts';
import * as matchTransitions from './domain/match-transitions.ts';
import * as disputeTransitions from './domain/dispute-transitions.ts';
import * as receiptTransitions from './domain/receipt-transitions.ts';
import { titleOf, useWalk, type Name, type Scenario, type Walk } from './testing/polled-walk.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const everyone: Name[] = ['ana', 'bob', 'cy'];

/** Exports that change nothing themselves: the transitions that call them are walked. */
const NOT_TRANSITIONS: Record<string, string> = {
  NOTIFY_EVERY_MS: 'a constant',
  matchTerms: 'the terms events carry',
  mayNotifyTakers: 'a check (notifyTakers makes it)',
  REQUEST_NOT_OPEN: 'a refusal\'s message',
  matchParties: 'the parties events carry',
  mayAccept: 'a check (acceptRequest makes it)',
  mayOpenDispute: 'a check (openDispute makes it)',
  checkSanction: 'a check (resolveDispute makes it)',
  mayDenyReceipt: 'a check (denyReceipt makes it)',
  ReceiptRefusals: 'refusals\' messages',
};

/** A request's moves that follow its match's, made by (and walked with) that match's transition. */
const FOLLOWING: Record<string, string> = {
  requestTaken: 'acceptRequest',
  requestConfirmed: 'confirmMatch',
  requestCompletedByMatch: 'completeMatch',
  requestCancelledWithMatch: 'resolveDispute',
  reopenRequest: 'cancelMatch',
};

/** Ana's request accepted by bob, approved unless told otherwise. */
async function trade(w: Walk, confirmed = true) {
  const request = await w.post('ana');
  const match = await w.accept('bob', request.id);
  if (confirmed) await w.act('ana', match.id, 'confirm');
  return { request, match };
}

const SCENARIOS: Scenario[] = [
  {
    name: 'postRequest',
    run: (w) => w.transition(() => w.post('ana'), { changes: { requests: everyone, myRequests: ['ana'] } }),
  },
  {
    name: 'postRequest', variant: 'by a user cy blocked',
    run: async (w) => {
      await w.block('cy', 'bob');
      await w.transition(() => w.post('bob'), {
        changes: { requests: ['ana', 'bob'], myRequests: ['bob'] },
        exceptions: [{ route: 'requests', viewers: ['cy'], why: 'the market has one version for everyone: a request her blocks hide moves it too' }],
      });
    },
  },
  {
    name: 'cancelRequest', variant: 'an open one, once declined: the declined match shows it too',
    run: async (w) => {
      const { request, match } = await trade(w, false);
      await w.act('ana', match.id, 'cancel');
      await w.transition(() => w.request('ana', request.id, 'cancel'), { changes: { requests: everyone, myRequests: ['ana'], matches: ['ana', 'bob'] } });
    },
  },
  {
    name: 'cancelRequest', variant: 'a matched one, its pending match called off with it',
    run: async (w) => {
      const { request } = await trade(w, false);
      await w.transition(() => w.request('ana', request.id, 'cancel'), {
        changes: { myRequests: ['ana'], matches: ['ana', 'bob'] },
        exceptions: [{ route: 'requests', viewers: everyone, why: 'requestCancelled does not say whether the request was open: the market moves for a matched one too' }],
      });
    },
  },
  {
    name: 'completeRequestByOwner',
    run: async (w) => {
      const request = await w.post('ana');
      await w.transition(() => w.request('ana', request.id, 'complete'), { changes: { requests: everyone, myRequests: ['ana'] } });
    },
  },
  {
    name: 'notifyTakers', variant: 'no list shows when takers were told',
    run: async (w) => {
      const request = await w.post('ana');
      await w.transition(() => w.request('ana', request.id, 'notify'), { changes: {} });
    },
  },
  {
    name: 'expireRequest',
    run: async (w) => {
      await w.post('ana');
      w.advance(31 * DAY);
      await w.transition(async () => expect(await w.sweep()).toEqual({ expiredMatches: 0, reminders: 0, expiredRequests: 1, lapsedReceipts: 0 }),
        { changes: { requests: everyone, myRequests: ['ana'] } });
    },
  },
  {
    name: 'acceptRequest',
    run: async (w) => {
      const request = await w.post('ana');
      await w.transition(() => w.accept('bob', request.id), { changes: { requests: everyone, myRequests: ['ana'], matches: ['ana', 'bob'] } });
    },
  },
  {
    name: 'confirmMatch', variant: 'the matcher\'s own open request shows his first completion rate',
    run: async (w) => {
      const { match } = await trade(w, false);
      await w.post('bob');
      await w.transition(() => w.act('ana', match.id, 'confirm'), {
        changes: { requests: everyone, myRequests: ['ana', 'bob'], matches: ['ana', 'bob'] },
      });
    },
  },
  {
    name: 'confirmMatch', variant: 'a second one with none completed: the completion rate stays 0',
    run: async (w) => {
      const second = await w.post('ana');
      await trade(w);
      await w.post('bob');
      w.advance(DAY); // a free plan's two exchanges a day
      const match = await w.accept('bob', second.id);
      await w.transition(() => w.act('ana', match.id, 'confirm'), { changes: { myRequests: ['ana'], matches: ['ana', 'bob'] } });
    },
  },
  {
    name: 'cancelMatch', variant: 'declined by the requester: the request reopens',
    run: async (w) => {
      const { match } = await trade(w, false);
      await w.transition(() => w.act('ana', match.id, 'cancel'), { changes: { requests: everyone, myRequests: ['ana'], matches: ['ana', 'bob'] } });
    },
  },
  {
    name: 'cancelMatch', variant: 'withdrawn by the matcher: the request reopens',
    run: async (w) => {
      const { match } = await trade(w, false);
      await w.transition(() => w.act('bob', match.id, 'cancel'), { changes: { requests: everyone, myRequests: ['ana'], matches: ['ana', 'bob'] } });
    },
  },
  {
    name: 'completeMatch', variant: 'neither party has an open request: the market stays',
    run: async (w) => {
      const { match } = await trade(w);
      await w.transition(() => w.act('bob', match.id, 'complete'), { changes: { myRequests: ['ana'], matches: ['ana', 'bob'] } });
    },
  },
  {
    name: 'completeMatch', variant: 'the requester\'s other open request shows her new trade record',
    run: async (w) => {
      await w.post('ana', 50);
      const { match } = await trade(w);
      await w.transition(() => w.act('bob', match.id, 'complete'), { changes: { requests: everyone, myRequests: ['ana'], matches: ['ana', 'bob'] } });
    },
  },
  {
    name: 'expireMatch',
    run: async (w) => {
      await trade(w, false);
      w.advance(25 * HOUR);
      await w.transition(async () => expect(await w.sweep()).toEqual({ expiredMatches: 1, reminders: 0, expiredRequests: 0, lapsedReceipts: 0 }),
        { changes: { requests: everyone, myRequests: ['ana'], matches: ['ana', 'bob'] } });
    },
  },
  {
    name: 'markPaymentSent',
    run: async (w) => {
      const { match } = await trade(w);
      await w.transition(() => w.act('bob', match.id, 'paid'), { changes: { matches: ['ana', 'bob'] } });
    },
  },
  {
    name: 'markPaymentSent', variant: 'again: nothing changes',
    run: async (w) => {
      const { match } = await trade(w);
      await w.act('bob', match.id, 'paid');
      await w.transition(() => w.act('bob', match.id, 'paid'), { changes: {} });
    },
  },
  {
    name: 'remindCompletion', variant: 'no list shows the reminders sent',
    run: async (w) => {
      await trade(w);
      w.advance(13 * HOUR);
      await w.transition(async () => expect(await w.sweep({ completionReminderHours: [12] })).toEqual({ expiredMatches: 0, reminders: 1, expiredRequests: 0, lapsedReceipts: 0 }),
        { changes: {} });
    },
  },
  {
    name: 'openDispute',
    run: async (w) => {
      const { match } = await trade(w);
      await w.transition(() => w.dispute('bob', match.id), { changes: { matches: ['ana', 'bob'] } });
    },
  },
  {
    name: 'resolveDispute', variant: 'completed',
    run: async (w) => {
      const { match } = await trade(w);
      const dispute = await w.dispute('bob', match.id);
      await w.transition(() => w.resolve(dispute.id, 'completed'), { changes: { myRequests: ['ana'], matches: ['ana', 'bob'] } });
    },
  },
  {
    name: 'resolveDispute', variant: 'cancelled: the request ends with its match',
    run: async (w) => {
      const { match } = await trade(w);
      const dispute = await w.dispute('ana', match.id);
      await w.transition(() => w.resolve(dispute.id, 'cancelled'), { changes: { myRequests: ['ana'], matches: ['ana', 'bob'] } });
    },
  },
  {
    name: 'confirmReceipt', variant: 'a party of a confirmed match received',
    run: async (w) => {
      const { match } = await trade(w);
      await w.transition(() => w.act('bob', match.id, 'received'), { changes: { matches: ['ana', 'bob'] } });
    },
  },
  {
    name: 'confirmReceipt', variant: 'again: nothing changes',
    run: async (w) => {
      const { match } = await trade(w);
      await w.act('bob', match.id, 'received');
      await w.transition(() => w.act('bob', match.id, 'received'), { changes: {} });
    },
  },
  {
    name: 'confirmReceipt', variant: 'the yes of the party asked after completion',
    run: async (w) => {
      const { match } = await trade(w);
      await w.act('bob', match.id, 'complete');
      await w.transition(() => w.act('ana', match.id, 'received'), { changes: { matches: ['ana', 'bob'] } });
    },
  },
  {
    name: 'askForReceipt', variant: 'a party completes, the other is asked with it',
    run: async (w) => {
      const { match } = await trade(w);
      await w.transition(() => w.act('ana', match.id, 'complete'), { changes: { myRequests: ['ana'], matches: ['ana', 'bob'] } });
    },
  },
  {
    name: 'denyReceipt', variant: 'the asked party\'s no opens a dispute after completion',
    run: async (w) => {
      const { match } = await trade(w);
      await w.act('bob', match.id, 'complete');
      await w.transition(() => w.dispute('ana', match.id), { changes: { matches: ['ana', 'bob'] } });
    },
  },
  {
    name: 'lapseReceipt',
    run: async (w) => {
      const { match } = await trade(w);
      await w.act('bob', match.id, 'complete');
      w.advance(73 * HOUR);
      await w.transition(async () => expect(await w.sweep()).toEqual({ expiredMatches: 0, reminders: 0, expiredRequests: 0, lapsedReceipts: 1 }),
        { changes: { matches: ['ana', 'bob'] } });
    },
  },
  {
    name: 'resolveDispute', variant: 'after completion, completed: the match and the records stay',
    run: async (w) => {
      const { match } = await trade(w);
      await w.act('bob', match.id, 'complete');
      const dispute = await w.dispute('ana', match.id);
      await w.transition(() => w.resolve(dispute.id, 'completed'), { changes: { matches: ['ana', 'bob'] } });
    },
  },
  {
    name: 'resolveDispute', variant: 'after completion, cancelled: the requester\'s card gives the completion back',
    run: async (w) => {
      const { match } = await trade(w);
      await w.act('bob', match.id, 'complete');
      const dispute = await w.dispute('ana', match.id);
      await w.transition(() => w.resolve(dispute.id, 'cancelled'), { changes: { myRequests: ['ana'], matches: ['ana', 'bob'] } });
    },
  },
];

describe('the trade transitions walked', () => {
  it('has a scenario for every export of the transition modules but the checks and helpers named', () => {
    const walked = new Set(SCENARIOS.map((s) => s.name));
    const exports = Object.keys({ ...requestTransitions, ...matchTransitions, ...disputeTransitions, ...receiptTransitions });
    expect(exports.filter((name) => !walked.has(name) && !NOT_TRANSITIONS[name] && !walked.has(FOLLOWING[name] ?? ''))).toEqual([]);
    expect([...Object.keys(NOT_TRANSITIONS), ...Object.keys(FOLLOWING)].filter((name) => !exports.includes(name))).toEqual([]);
  });
});

describeWithInfra(['postgres'], 'ETags after the trade transitions', () => {
  const walk = useWalk();
  for (const scenario of SCENARIOS) it(titleOf(scenario), () => walk.run(scenario.run));
});
