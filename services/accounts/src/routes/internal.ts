import type { FastifyInstance } from 'fastify';
import { LockMode } from '@mikro-orm/postgresql';
import { Routes } from '@puente/contracts';
import { serve } from '@puente/platform';
import { BankAccount, toBankAccountViews } from '../domain/bank-account.ts';
import { lockForMatch } from '../domain/trade-lock.ts';
import { personalDataOf } from '../domain/personal-data.ts';
import type { BankCipher } from '../domain/encryption.ts';

/**
 * Routes for other services only (never proxied by the gateway; a service token is required).
 *
 * GET /internal/match-accounts?userIds=3,7[&lockForMatch=12] — every bank account of the two parties of a match,
 * with full values and their owner's id. Only the exchange service may call it, and it does so only for a match
 * that is confirmed or completed (the spec's rule for showing bank details; the exchange service owns matches and
 * checks it), asking for the lock while the match is confirmed.
 *
 * GET /internal/account-currencies?afterId=0&limit=500 — which user has an account in which currency (no details),
 * by account id: the exchange and notification services page through it to fill their projections, then follow
 * the bank-account events.
 *
 * GET /internal/personal-data/bank-accounts?userId=7 — the user's accounts, full values, for their data download
 * (identity composes it for the signed-in user only).
 */
export function internalRoutes(cipher: BankCipher) {
  return async (app: FastifyInstance): Promise<void> => {
    /**
     * With lockForMatch the lock is written before the accounts are read, and they are read FOR SHARE: an edit in
     * flight finishes first (and is what is shown), and any later edit finds the lock (409).
     */
    serve(app, Routes.accounts.matchAccounts, async (request) => {
      const { userIds, lockForMatch: matchId } = request.query;
      const accounts = await request.em.transactional(async (tx) => {
        if (matchId) await lockForMatch(tx, { matchId, requesterId: userIds[0]!, matcherId: userIds[1]! });
        return tx.find(BankAccount, { userId: { $in: userIds } }, { orderBy: { userId: 'asc', currency: 'asc' }, lockMode: LockMode.PESSIMISTIC_READ });
      });
      request.log.info({ caller: request.caller, userIds, matchId, accounts: accounts.length }, 'bank details released for a match');
      const views = await toBankAccountViews(request.em, cipher, accounts);
      return views.map((view, i) => ({ userId: accounts[i]!.userId, ...view }));
    });

    serve(app, Routes.accounts.accountCurrencies, async (request) => {
      const { afterId, limit } = request.query;
      const accounts = await request.em.find(BankAccount, { id: { $gt: afterId } }, {
        fields: ['id', 'userId', 'currency'], orderBy: { id: 'asc' }, limit,
      });
      return accounts.map((a) => ({ accountId: a.id, userId: a.userId, currency: a.currency }));
    });

    serve(app, Routes.accounts.personalData, async (request) => personalDataOf(request.em, cipher, request.query.userId));
  };
}
