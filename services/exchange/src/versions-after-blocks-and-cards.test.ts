/**
 * Blocks made and lifted, and every event the exchange consumes (the users' cards, their deletion, and what no list
 * shows), walked as the product drives them: each polled route whose answer changed for the users involved or one
 * looking on answers a new ETag, and every other one the same ETag. The trades are walked in
 * versions-after-transitions.test.ts; the version table under test is domain/market-version.ts.
 */
import { describe, expect, it } from 'vitest';
import type { EventEnvelope } from '@puente/contracts';
import { makeEvent } from '@puente/platform';
import { describeWithInfra } from '@puente/testkit';
import * as blocks from './domain/blocks.ts';
import { exchangeVersions } from './domain/market-version.ts';
import type { ChatFiles } from './domain/chat-attachments.ts';
import { consumers } from './events/consumers.ts';
import { CAST, titleOf, useWalk, type Name, type Scenario, type Walk } from './testing/polled-walk.ts';
import { rated, renamed, tierChanged } from './testing/traders.ts';

const everyone: Name[] = ['ana', 'bob', 'cy'];

/** Exports of blocks.ts that change nothing: reads, a filter, a lock. */
const NOT_TRANSITIONS: Record<string, string> = {
  BlockSchema: 'the table', Block: 'its entity', lockPair: 'a lock (block takes it)', blockBetween: 'a read', hasBlocks: 'a read',
  notBlockedWith: 'the market\'s filter', blockedEitherWay: 'a read', blockedBy: 'a read', keptViewerKeys: 'a read (the kept keys to set)',
};

/** The version table's local changes, by a scenario making them; or why none does. */
const LOCAL_CHANGES: Record<string, { walkedBy: string } | { notWalked: string }> = {
  blockChanged: { walkedBy: 'block' },
  // Its keys are a card's, as the registration's (walked); the job reads identity's users over HTTP.
  cardsFilled: { notWalked: 'the backfill of cards needs identity running' },
};

let nextAccountId = 90_000;
const accountAdded = (userId: number, currency: 'GBP' | 'CLP', accountId = nextAccountId++) =>
  makeEvent('bankAccountAdded', accountId, { accountId, userId, currency });

/** Ana's request accepted by bob (pending), and bob's own open request: his card shows in the market. */
async function matcherPosting(w: Walk) {
  const request = await w.post('ana');
  await w.accept('bob', request.id);
  await w.post('bob', 50);
}

/** Ana has an open request (her card shows in the market): an event changing nothing shown leaves every list. */
const changesNothing = (name: string, event: () => EventEnvelope): Scenario => ({
  name, variant: 'no list shows it',
  run: async (w) => {
    await w.post('ana');
    await w.transition(() => w.svc.deliver(event()), { changes: {} });
  },
});

const SCENARIOS: Scenario[] = [
  {
    name: 'block', variant: 'both have open requests: each stops seeing the other\'s',
    run: async (w) => {
      await w.post('ana');
      await w.post('bob');
      await w.transition(() => w.block('ana', 'bob'), { changes: { requests: ['ana', 'bob'] } });
    },
  },
  {
    name: 'block', variant: 'of a user with no open request',
    run: async (w) => {
      await w.post('ana');
      await w.transition(() => w.block('ana', 'cy'), {
        changes: { requests: ['cy'] },
        exceptions: [{
          route: 'requests', viewers: ['ana'],
          why: 'every block moves both viewer keys (by which the gateway knows whom to serve the shared market), and a first one takes her off the shared ETag',
        }],
      });
    },
  },
  {
    name: 'liftBlocks',
    run: async (w) => {
      await w.post('ana');
      await w.post('bob');
      await w.block('ana', 'bob');
      await w.transition(() => w.unblock('ana', 'bob'), { changes: { requests: ['ana', 'bob'] } });
    },
  },
  {
    name: 'userRegistered', variant: 'a new user: no list shows them yet',
    run: async (w) => {
      await w.reader('dee');
      await w.transition(() => w.join('dee'), { changes: {} });
    },
  },
  {
    name: 'userRegistered', variant: 'a poster heard of only by their accounts until now',
    run: async (w) => {
      await w.svc.deliver(accountAdded(CAST.dee, 'GBP'), accountAdded(CAST.dee, 'CLP'));
      await w.reader('dee');
      await w.post('dee');
      const registered = makeEvent('userRegistered', CAST.dee, { userId: CAST.dee, firstName: 'Dee', lastName: 'Late', role: 'user', referrerId: null });
      await w.transition(() => w.svc.deliver(registered), { changes: { requests: [...everyone, 'dee'], myRequests: ['dee'] } });
    },
  },
  {
    name: 'userProfileUpdated', variant: 'the matcher renamed: his card, and his name on both parties\' matches',
    run: async (w) => {
      await matcherPosting(w);
      await w.transition(() => renamed(w.svc, CAST.bob, 'Roberto'), { changes: { requests: everyone, myRequests: ['bob'], matches: ['ana', 'bob'] } });
    },
  },
  {
    name: 'userProfileUpdated', variant: 'a new picture only',
    run: async (w) => {
      await matcherPosting(w);
      const picture = makeEvent('userProfileUpdated', CAST.bob, { userId: CAST.bob, firstName: 'bob', lastName: 'Tester', profileImageUrl: 'https://cdn.puente.test/bob.png' });
      await w.transition(() => w.svc.deliver(picture), {
        changes: { requests: everyone, myRequests: ['bob'] },
        exceptions: [{ route: 'matches', viewers: ['ana', 'bob'], why: 'the event carries the whole profile, not what changed: the matches showing his name move too' }],
      });
    },
  },
  {
    name: 'ratingSubmitted', variant: 'his card, not the matches (which show no rating)',
    run: async (w) => {
      await matcherPosting(w);
      await w.transition(() => rated(w.svc, CAST.bob, '4.5000', 1), { changes: { requests: everyone, myRequests: ['bob'] } });
    },
  },
  {
    name: 'ratingSubmitted', variant: 'an older one, delivered late',
    run: async (w) => {
      await matcherPosting(w);
      await rated(w.svc, CAST.bob, '4.5000', 2);
      await w.transition(() => rated(w.svc, CAST.bob, '3.0000', 1), { changes: {} });
    },
  },
  {
    name: 'ratingStandingChanged', variant: 'a rating held by a dispute after completion clears his card\'s, not the matches',
    run: async (w) => {
      await matcherPosting(w);
      await rated(w.svc, CAST.bob, '4.5000', 1);
      await w.transition(() => w.svc.deliver(makeEvent('ratingStandingChanged', CAST.bob, { userId: CAST.bob, average: null, count: 0 })),
        { changes: { requests: everyone, myRequests: ['bob'] } });
    },
  },
  {
    name: 'userDeleted', variant: 'her open request cancelled, her acceptance withdrawn, her block lifted, her name gone',
    run: async (w) => {
      await w.post('ana');
      const bobs = await w.post('bob');
      await w.accept('ana', bobs.id);
      await w.block('ana', 'cy');
      await w.transition(() => w.svc.deliver(makeEvent('userDeleted', CAST.ana, { userId: CAST.ana })), {
        changes: { requests: everyone, myRequests: ['ana', 'bob'], matches: ['ana', 'bob'] },
      });
    },
  },
  changesNothing('userVerified', () => makeEvent('userVerified', CAST.ana, { userId: CAST.ana, kind: 'phone' })),
  changesNothing('bankAccountAdded', () => accountAdded(CAST.ana, 'GBP')),
  {
    name: 'bankAccountRemoved', variant: 'no list shows it',
    run: async (w) => {
      await w.post('ana');
      const accountId = nextAccountId++;
      await w.svc.deliver(accountAdded(CAST.ana, 'GBP', accountId));
      const removed = makeEvent('bankAccountRemoved', accountId, { accountId, userId: CAST.ana, currency: 'GBP' });
      await w.transition(() => w.svc.deliver(removed), { changes: {} });
    },
  },
  {
    name: 'subscriptionActivated', variant: 'no list shows the tier',
    run: async (w) => {
      await w.post('ana');
      await w.transition(() => tierChanged(w.svc, CAST.ana, 'premium'), { changes: {} });
    },
  },
  {
    name: 'subscriptionCancelled', variant: 'no list shows the tier',
    run: async (w) => {
      await w.post('ana');
      await tierChanged(w.svc, CAST.ana, 'premium');
      await w.transition(() => tierChanged(w.svc, CAST.ana, 'free'), { changes: {} });
    },
  },
];

describe('blocks and consumed events walked', () => {
  const walked = new Set(SCENARIOS.map((s) => s.name));

  it('has a scenario for block and liftBlocks, and names why the other exports of blocks.ts are none', () => {
    const exports = Object.keys(blocks);
    expect(exports.filter((name) => !walked.has(name) && !NOT_TRANSITIONS[name])).toEqual([]);
    expect(Object.keys(NOT_TRANSITIONS).filter((name) => !exports.includes(name))).toEqual([]);
  });

  it('has a scenario for every event the service consumes, and for the table\'s local changes', () => {
    expect(consumers({} as ChatFiles).map((c) => c.event).filter((name) => !walked.has(name))).toEqual([]);
    expect(Object.keys(exchangeVersions.local ?? {}).sort()).toEqual(Object.keys(LOCAL_CHANGES).sort());
    for (const [change, how] of Object.entries(LOCAL_CHANGES)) if ('walkedBy' in how) expect(walked, change).toContain(how.walkedBy);
  });
});

describeWithInfra(['postgres'], 'ETags after blocks and consumed events', () => {
  const walk = useWalk();
  for (const scenario of SCENARIOS) it(titleOf(scenario), () => walk.run(scenario.run));
});
