/**
 * The copy of a match's parties' accounts (domain/match-snapshot.ts): taken when the match is confirmed, sealed for
 * that match, given to the exchange service unchanged by later edits, and deleted once no longer needed (called off,
 * a party's deletion, the chat's window after completion).
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BankAccount, BankAccountList, CHAT_OPEN_DAYS_AFTER_COMPLETION, MatchAccountsSnapshot, type EventEnvelope } from '@puente/contracts';
import { makeEvent } from '@puente/platform';
import { startTestService, type TestService } from '@puente/platform/testing';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { AccountsSettings, accountsService } from './app.ts';
import { MatchAccountSnapshot, purgeExpiredSnapshots } from './domain/match-snapshot.ts';

const settings = () => AccountsSettings.parse({ BANK_ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`, PROJECTION_BACKFILL: 'off' });
const DAY_MS = 86_400_000;

const gbp = { currency: 'GBP', bankName: 'Monzo', accountNumber: '31926819', accountHolder: 'Ana Rojas', sortCode: '04-00-04', iban: 'GB82WEST12345698765432' };
const clp = {
  currency: 'CLP', bankName: 'BancoEstado', accountNumber: '987654321', accountHolder: 'Ana Rojas',
  rut: '12.345.678-5', accountType: 'vista', email: 'ana@example.cl',
};
const edit = { bankName: 'Lloyds', accountNumber: '87654321', accountHolder: 'Ana M. Rojas' };

describeWithInfra(['postgres'], 'accounts: the copy of the accounts a confirmed match shows', () => {
  const db = useFreshDatabase('accounts_match_snapshot');
  let svc: TestService;
  let nextUser = 100;
  let nextMatch = 500;
  beforeAll(async () => { svc = await startTestService(accountsService(settings()), db.url); });
  afterAll(async () => { await svc?.stop(); });

  const newUser = () => { nextUser += 1; return nextUser; };
  async function call(userId: number, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) {
    const headers = await svc.as({ kind: 'user', userId, role: 'user' });
    return svc.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  }
  const add = async (userId: number, payload: object) => {
    const res = await call(userId, 'POST', '/bank-accounts', payload);
    expect(res.statusCode, res.body).toBe(201);
    return BankAccount.parse(res.json());
  };
  async function parties() {
    const [requester, matcher] = [newUser(), newUser()];
    return {
      requester: { userId: requester, gbp: await add(requester, gbp), clp: await add(requester, clp) },
      matcher: { userId: matcher, gbp: await add(matcher, { ...gbp, accountNumber: '11223344', accountHolder: 'Bo Lee' }), clp: await add(matcher, { ...clp, accountHolder: 'Bo Lee' }) },
    };
  }
  /** The exchange service's events for a £100 GBP → CLP match between the two. */
  function match(requesterId: number, matcherId: number) {
    nextMatch += 1;
    const matchId = nextMatch;
    const parties = { matchId, requestId: matchId + 1000, requesterId, matcherId };
    const agreed = { ...parties, fromCurrency: 'GBP', toCurrency: 'CLP', amount: '100.00', exchangeRate: '1275.0000' } as const;
    return {
      matchId,
      created: () => makeEvent('matchCreated', matchId, agreed),
      confirmed: () => makeEvent('matchConfirmed', matchId, agreed),
      completed: (at = new Date()): EventEnvelope => ({ ...makeEvent('matchCompleted', matchId, agreed), occurredAt: at.toISOString() }),
      cancelled: () => makeEvent('matchCancelled', matchId, { ...parties, cancelledById: matcherId, reason: 'dispute-cancelled' }),
      expired: () => makeEvent('matchExpired', matchId, parties),
      /** What the exchange service is given for it. */
      copy: async () => {
        const res = await svc.app.inject({
          method: 'GET', url: `/internal/match-accounts?matchId=${matchId}&userIds=${requesterId},${matcherId}&fromCurrency=GBP&toCurrency=CLP`,
          headers: await svc.as({ kind: 'service', service: 'exchange' }),
        });
        expect(res.statusCode, res.body).toBe(200);
        return MatchAccountsSnapshot.parse(res.json());
      },
    };
  }
  const rowsOf = (matchId: number) => svc.ctx.orm.em.fork().find(MatchAccountSnapshot, { matchId }, { orderBy: { userId: 'asc' } });

  it('copies each party\'s account in the currency they receive when the match is confirmed, sealed at rest', async () => {
    const { requester, matcher } = await parties();
    const m = match(requester.userId, matcher.userId);
    await svc.deliver(m.created(), m.confirmed());
    const rows = await rowsOf(m.matchId);
    expect(rows.map((r) => [r.userId, r.role, r.accountId, r.expiresAt ?? null])).toEqual([
      [requester.userId, 'requester', requester.clp.id, null], [matcher.userId, 'matcher', matcher.gbp.id, null],
    ]);
    const stored = JSON.stringify(rows);
    for (const detail of ['987654321', '12345678-5', '11223344', '040004', 'GB82WEST12345698765432']) expect([detail, stored.includes(detail)]).toEqual([detail, false]);
    expect(rows.every((r) => r.accountNumberSealed.startsWith('k1:'))).toBe(true);

    // The requester sends pounds and receives pesos: her CLP account; the matcher receives pounds: his GBP account.
    expect(await m.copy()).toEqual({
      matchId: m.matchId, takenAt: expect.any(String),
      requester: { userId: requester.userId, payout: requester.clp, payer: { accountHolder: 'Ana Rojas', holderMatchesName: null } },
      matcher: { userId: matcher.userId, payout: matcher.gbp, payer: { accountHolder: 'Bo Lee', holderMatchesName: null } },
    });
  });

  it('gives the same copy after the match completes, whatever either party edits since', async () => {
    const { requester, matcher } = await parties();
    const m = match(requester.userId, matcher.userId);
    await svc.deliver(m.created(), m.confirmed());
    const before = await m.copy();
    await svc.deliver(m.completed());
    for (const [userId, account] of [[requester.userId, requester.clp], [matcher.userId, matcher.gbp], [matcher.userId, matcher.clp]] as const) {
      const res = await call(userId, 'PUT', `/bank-accounts/${account.id}`, { ...edit, accountNumber: account.currency === 'GBP' ? '87654321' : '555666777' });
      expect(res.statusCode, res.body).toBe(200);
    }
    expect(BankAccountList.parse((await call(requester.userId, 'GET', '/bank-accounts')).json()).find((a) => a.id === requester.clp.id))
      .toMatchObject({ bankName: 'Lloyds', accountNumber: '555666777' });
    expect(await m.copy()).toEqual(before);
  });

  for (const end of ['cancelled', 'expired'] as const) {
    it(`deletes the copy at once when the match is ${end}, and never takes another`, async () => {
      const { requester, matcher } = await parties();
      const m = match(requester.userId, matcher.userId);
      await svc.deliver(m.created(), m.confirmed());
      expect(await rowsOf(m.matchId)).toHaveLength(2);
      await svc.deliver(m[end]());
      expect(await rowsOf(m.matchId)).toEqual([]);
      // A confirmation published again, and a read, find the match ended: nothing is copied again.
      await svc.deliver(m.confirmed());
      expect(await m.copy()).toBeNull();
      expect(await rowsOf(m.matchId)).toEqual([]);
    });
  }

  it(`keeps a completed match's copy ${CHAT_OPEN_DAYS_AFTER_COMPLETION} days, then gives it no more, and the daily purge deletes it`, async () => {
    const { requester, matcher } = await parties();
    const recent = match(requester.userId, matcher.userId);
    const old = match(requester.userId, matcher.userId);
    const now = new Date();
    await svc.deliver(recent.created(), recent.confirmed(), recent.completed(now));
    await svc.deliver(old.created(), old.confirmed(), old.completed(new Date(now.getTime() - (CHAT_OPEN_DAYS_AFTER_COMPLETION + 1) * DAY_MS)));
    const expiresAt = new Date(now.getTime() + CHAT_OPEN_DAYS_AFTER_COMPLETION * DAY_MS);
    expect((await rowsOf(recent.matchId)).map((r) => r.expiresAt)).toEqual([expiresAt, expiresAt]);
    expect(await recent.copy()).not.toBeNull();
    expect(await old.copy()).toBeNull();

    expect(await purgeExpiredSnapshots(svc.ctx.orm.em.fork(), now)).toBeGreaterThanOrEqual(2);
    expect(await rowsOf(old.matchId)).toEqual([]);
    expect(await rowsOf(recent.matchId)).toHaveLength(2);
    await purgeExpiredSnapshots(svc.ctx.orm.em.fork(), expiresAt);
    expect(await rowsOf(recent.matchId)).toEqual([]);
    expect(await recent.copy()).toBeNull();
  });

  it('copies nothing for a confirmation arriving after the match ended', async () => {
    const { requester, matcher } = await parties();
    const m = match(requester.userId, matcher.userId);
    await svc.deliver(m.created(), m.completed(), m.confirmed());
    expect(await rowsOf(m.matchId)).toEqual([]);
    expect(await m.copy()).toBeNull();
  });

  describe('a party deleting their account', () => {
    it('takes the copies of their matches with it, the partner\'s rows too, and no other match\'s', async () => {
      const { requester, matcher } = await parties();
      const third = newUser();
      await add(third, { ...gbp, accountHolder: 'Cy' });
      await add(third, { ...clp, accountHolder: 'Cy' });
      const theirs = match(requester.userId, matcher.userId);
      const other = match(third, matcher.userId);
      await svc.deliver(theirs.created(), theirs.confirmed(), theirs.completed(), other.created(), other.confirmed());
      await svc.deliver(makeEvent('userDeleted', requester.userId, { userId: requester.userId }));
      expect(await rowsOf(theirs.matchId)).toEqual([]);
      expect(await theirs.copy()).toBeNull();
      expect(await rowsOf(other.matchId)).toHaveLength(2);
    });
  });
});
