/**
 * The trade lock (a party's accounts frozen while a match is pending or confirmed, from the exchange service's
 * events) and the account-currencies snapshot other services fill their projections from.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountCurrencyList, BankAccount, BankAccountList, ErrorBody, MatchAccountsSnapshot, type EventEnvelope } from '@puente/contracts';
import { makeEvent, type Party } from '@puente/platform';
import { startTestService, type TestService } from '@puente/platform/testing';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { AccountsSettings, accountsService } from './app.ts';
import { TradeLock } from './domain/trade-lock.ts';

const settings = () => AccountsSettings.parse({ BANK_ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`, PROJECTION_BACKFILL: 'off' });

const gbp = { currency: 'GBP', bankName: 'Monzo', accountNumber: '31926819', accountHolder: 'Ana Rojas', sortCode: '04-00-04' };
const clp = {
  currency: 'CLP', bankName: 'BancoEstado', accountNumber: '987654321', accountHolder: 'Ana Rojas',
  rut: '12.345.678-5', accountType: 'vista', email: 'ana@example.cl',
};
const edit = { bankName: 'Lloyds', accountNumber: '87654321', accountHolder: 'Ana M. Rojas' };
const IN_EXCHANGE = { message: 'This account is part of an exchange in progress', code: 'account_in_exchange' };

/** The exchange service's events for one match, as it would publish them. */
function matchEvents(matchId: number, requesterId: number, matcherId: number) {
  const parties = { matchId, requestId: matchId + 1000, requesterId, matcherId };
  const agreed = { ...parties, fromCurrency: 'GBP', toCurrency: 'CLP', amount: '100.00', exchangeRate: '1275.0000' } as const;
  return {
    matchId,
    created: () => makeEvent('matchCreated', matchId, agreed),
    confirmed: () => makeEvent('matchConfirmed', matchId, agreed),
    completed: () => makeEvent('matchCompleted', matchId, agreed),
    cancelled: () => makeEvent('matchCancelled', matchId, { ...parties, cancelledById: matcherId, reason: 'withdrawn' }),
    expired: () => makeEvent('matchExpired', matchId, parties),
  };
}

describeWithInfra(['postgres'], 'accounts trade lock and snapshot', () => {
  const db = useFreshDatabase('accounts_trade_lock');
  let svc: TestService;
  let nextUser = 100;
  let nextMatch = 1;
  beforeAll(async () => { svc = await startTestService(accountsService(settings()), db.url); });
  afterAll(async () => { await svc?.stop(); });

  const newUser = () => { nextUser += 1; return nextUser; };
  const newMatch = (requesterId: number, matcherId: number) => { nextMatch += 1; return matchEvents(nextMatch, requesterId, matcherId); };
  const deliver = (...events: EventEnvelope[]) => svc.deliver(...events);
  async function call(userId: number, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) {
    const headers = await svc.as({ kind: 'user', userId, role: 'user' });
    return svc.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  }
  const add = async (userId: number, payload: object) => {
    const res = await call(userId, 'POST', '/bank-accounts', payload);
    expect(res.statusCode).toBe(201);
    return BankAccount.parse(res.json());
  };
  const list = async (userId: number) => BankAccountList.parse((await call(userId, 'GET', '/bank-accounts')).json());
  const update = (userId: number, id: number) => call(userId, 'PUT', `/bank-accounts/${id}`, edit);
  const remove = (userId: number, id: number) => call(userId, 'DELETE', `/bank-accounts/${id}`);
  const errorOf = (res: { json(): unknown }) => ErrorBody.parse(res.json());

  /** Both edit and delete of `id` answer the 409, and the account is left as it was. */
  async function expectLocked(userId: number, account: BankAccount) {
    for (const res of [await update(userId, account.id), await remove(userId, account.id)]) {
      expect(res.statusCode).toBe(409);
      expect(errorOf(res)).toEqual(IN_EXCHANGE);
    }
    expect((await list(userId)).find((a) => a.id === account.id)).toEqual(account);
  }
  /** Edit then delete of `id` go through again. */
  async function expectUnlocked(userId: number, account: BankAccount) {
    const updated = await update(userId, account.id);
    expect(updated.statusCode).toBe(200);
    expect(BankAccount.parse(updated.json())).toEqual({ ...account, ...edit });
    expect((await remove(userId, account.id)).statusCode).toBe(204);
  }
  /** A party with a GBP and a CLP account. */
  async function partyWithAccounts() {
    const userId = newUser();
    return { userId, gbp: await add(userId, gbp), clp: await add(userId, clp) };
  }

  describe('editing and deleting while a match is in progress', () => {
    it('refuses both parties with 409 while pending and while confirmed, and allows again once completed', async () => {
      const requester = await partyWithAccounts();
      const matcher = newUser();
      const matcherGbp = await add(matcher, gbp);
      const match = newMatch(requester.userId, matcher);

      await deliver(match.created());
      await expectLocked(requester.userId, requester.gbp);
      await expectLocked(requester.userId, requester.clp);
      await expectLocked(matcher, matcherGbp);

      await deliver(match.confirmed());
      await expectLocked(requester.userId, requester.gbp);
      await expectLocked(matcher, matcherGbp);
      // The lock is checked before the account number's currency rule: no hint about the details is given.
      const shortNumber = await call(requester.userId, 'PUT', `/bank-accounts/${requester.gbp.id}`, { ...edit, accountNumber: '123' });
      expect(errorOf(shortNumber)).toEqual(IN_EXCHANGE);

      await deliver(match.completed());
      await expectUnlocked(requester.userId, requester.gbp);
      await expectUnlocked(requester.userId, requester.clp);
      await expectUnlocked(matcher, matcherGbp);
    });

    for (const end of ['cancelled', 'expired'] as const) {
      it(`allows editing and deleting again once a pending match is ${end}`, async () => {
        const requester = newUser();
        const matcher = newUser();
        const [r, m] = [await add(requester, gbp), await add(matcher, clp)];
        const match = newMatch(requester, matcher);
        await deliver(match.created());
        await expectLocked(requester, r);
        await expectLocked(matcher, m);
        await deliver(match[end]());
        await expectUnlocked(requester, r);
        await expectUnlocked(matcher, m);
      });
    }

    it('writes nothing and announces nothing for a refused change', async () => {
      const user = newUser();
      const account = await add(user, gbp);
      await deliver(newMatch(user, newUser()).created());
      await expectLocked(user, account);
      await svc.ctx.relay.flush();
      await svc.bus.drain();
      const types = svc.published().filter((e) => e.aggregateId === String(account.id)).map((e) => e.type);
      expect([...new Set(types)]).toEqual(['accounts.bank-account.added']);
    });

    it('stays locked while any of the user\'s matches is in progress', async () => {
      const user = newUser();
      const account = await add(user, gbp);
      const first = newMatch(user, newUser());
      const second = newMatch(newUser(), user);
      await deliver(first.created(), second.created(), first.cancelled());
      await expectLocked(user, account);
      await deliver(second.confirmed(), second.completed());
      await expectUnlocked(user, account);
    });

    it('still lets a party add an account, which is then locked too', async () => {
      const user = newUser();
      await add(user, gbp);
      await deliver(newMatch(user, newUser()).created());
      const added = await add(user, clp);
      await expectLocked(user, added);
    });
  });

  describe('locked when the exchange service reads the details, before any event', () => {
    const details = async (userIds: [number, number], matchId: number) => {
      const headers = await svc.as({ kind: 'service', service: 'exchange' });
      const query = `matchId=${matchId}&userIds=${userIds.join(',')}&fromCurrency=GBP&toCurrency=CLP`;
      const res = await svc.app.inject({ method: 'GET', url: `/internal/match-accounts?${query}`, headers });
      expect(res.statusCode).toBe(200);
      return MatchAccountsSnapshot.parse(res.json());
    };

    it('locks both parties from the read on, until the match ends', async () => {
      const requester = await partyWithAccounts();
      const matcher = await partyWithAccounts();
      const match = newMatch(requester.userId, matcher.userId);
      const copy = await details([requester.userId, matcher.userId], match.matchId);
      expect([copy?.requester.payout.id, copy?.matcher.payout.id]).toEqual([requester.clp.id, matcher.gbp.id]);
      await expectLocked(requester.userId, requester.gbp);
      await expectLocked(matcher.userId, matcher.clp);
      // The match's events arrive later, and its end releases the lock as usual.
      await deliver(match.created(), match.confirmed(), match.completed());
      await expectUnlocked(requester.userId, requester.gbp);
      await expectUnlocked(matcher.userId, matcher.clp);
    });

    it('neither locks nor copies for a match already ended here: its accounts may have changed since', async () => {
      const requester = await partyWithAccounts();
      const matcher = await partyWithAccounts();
      const ended = newMatch(requester.userId, matcher.userId);
      await deliver(ended.created(), ended.completed());
      expect(await details([requester.userId, matcher.userId], ended.matchId)).toBeNull();
      await expectUnlocked(requester.userId, requester.clp);
    });
  });

  describe('who the lock applies to', () => {
    it("answers 404, never 409, for another user's account or a missing one, whoever is locked", async () => {
      const party = newUser();
      const outsider = newUser();
      const partyAccount = await add(party, gbp);
      const outsiderAccount = await add(outsider, gbp);
      await deliver(newMatch(party, newUser()).created());
      for (const [caller, id] of [[party, outsiderAccount.id], [outsider, partyAccount.id], [party, 999_999]] as const) {
        for (const res of [await update(caller, id), await remove(caller, id)]) {
          expect([caller, id, res.statusCode]).toEqual([caller, id, 404]);
          expect(errorOf(res)).toEqual({ message: 'Bank account not found', code: 'not_found' });
        }
      }
      await expectLocked(party, partyAccount);
    });

    it('leaves a third user, not a party of the match, free to edit and delete', async () => {
      const [requester, matcher, third] = [newUser(), newUser(), newUser()];
      await add(requester, gbp);
      await add(matcher, clp);
      const thirdGbp = await add(third, gbp);
      await deliver(newMatch(requester, matcher).confirmed());
      await expectUnlocked(third, thirdGbp);
    });
  });

  describe('events arriving again or out of order', () => {
    const lockOf = (matchId: number) => svc.ctx.orm.em.fork().findOneOrFail(TradeLock, { matchId });

    it('an ended match never locks again: a redelivered or late create or confirm leaves it ended', async () => {
      const requester = newUser();
      const account = await add(requester, gbp);
      const match = newMatch(requester, newUser());
      const created = match.created();
      await deliver(created, match.completed());
      // The same envelope again (the inbox drops it), then a create and a confirm published again with new ids.
      await deliver(created, match.created(), match.confirmed());
      expect((await lockOf(match.matchId)).active).toBe(false);
      await expectUnlocked(requester, account);
    });

    it('an end arriving before its create is kept, and the create then does not lock', async () => {
      const [requester, matcher] = [newUser(), newUser()];
      const account = await add(matcher, clp);
      const match = newMatch(requester, matcher);
      await deliver(match.expired());
      expect(await lockOf(match.matchId)).toMatchObject({ requesterId: requester, matcherId: matcher, active: false });
      await deliver(match.created());
      expect((await lockOf(match.matchId)).active).toBe(false);
      await expectUnlocked(matcher, account);
    });

    it('a confirm arriving without its create locks, and a redelivered end stays an end', async () => {
      const requester = newUser();
      const account = await add(requester, gbp);
      const match = newMatch(requester, newUser());
      await deliver(match.confirmed(), match.confirmed());
      await expectLocked(requester, account);
      const cancelled = match.cancelled();
      await deliver(cancelled, cancelled, match.cancelled());
      await expectUnlocked(requester, account);
    });
  });

  describe('GET /internal/account-currencies (exchange and notification services)', () => {
    const snapshot = async (query: string, service: Party = 'exchange') => svc.app.inject({
      method: 'GET', url: `/internal/account-currencies${query}`, headers: await svc.as({ kind: 'service', service }),
    });
    const page = async (query: string, service?: Party) => {
      const res = await snapshot(query, service);
      expect(res.statusCode).toBe(200);
      return AccountCurrencyList.parse(res.json());
    };

    it('pages through every account by id: owner and currency only, never details', async () => {
      const [ana, bo] = [newUser(), newUser()];
      const anaGbp = await add(ana, gbp);
      const boClp = await add(bo, clp);
      const anaClp = await add(ana, clp);
      const mine = [
        { accountId: anaGbp.id, userId: ana, currency: 'GBP' },
        { accountId: boClp.id, userId: bo, currency: 'CLP' },
        { accountId: anaClp.id, userId: ana, currency: 'CLP' },
      ];
      const before = anaGbp.id - 1;
      expect(await page(`?afterId=${before}&limit=2`)).toEqual(mine.slice(0, 2));
      expect(await page(`?afterId=${boClp.id}&limit=2`, 'notification')).toEqual(mine.slice(2));
      expect(await page(`?afterId=${anaClp.id}`)).toEqual([]);
      // Without afterId it starts at the first account; ids ascend across the whole table.
      const all = await page('?limit=1000');
      expect(all.map((a) => a.accountId)).toEqual([...all.map((a) => a.accountId)].sort((a, b) => a - b));
      expect(all.slice(-3)).toEqual(mine);
      const raw = (await snapshot('')).body;
      for (const detail of ['31926819', '987654321', 'Monzo', 'Ana Rojas', '12345678-5']) expect(raw).not.toContain(detail);
      expect(Object.keys(JSON.parse(raw)[0] as object).sort()).toEqual(['accountId', 'currency', 'userId']);
    });

    it('refuses users, admins, other services and nobody with 403, and a bad page with 400', async () => {
      for (const headers of [
        await svc.as({ kind: 'user', userId: 1, role: 'user' }),
        await svc.as({ kind: 'user', userId: 1, role: 'admin' }),
        await svc.as({ kind: 'service', service: 'rating' }),
        {},
      ]) {
        const res = await svc.app.inject({ method: 'GET', url: '/internal/account-currencies', headers });
        expect(res.statusCode).toBe(403);
        expect(res.body).not.toContain('accountId');
      }
      for (const query of ['?limit=0', '?limit=1001', '?afterId=-1', '?afterId=x']) {
        expect([query, (await snapshot(query)).statusCode]).toEqual([query, 400]);
      }
    });
  });
});
