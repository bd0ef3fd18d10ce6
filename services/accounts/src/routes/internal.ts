import type { FastifyInstance } from 'fastify';
import { Routes } from '@puente/contracts';
import { serve } from '@puente/platform';
import { BankAccount } from '../domain/bank-account.ts';
import { snapshotFor } from '../domain/match-snapshot.ts';
import { personalDataOf } from '../domain/personal-data.ts';
import type { BankCipher } from '../domain/encryption.ts';

/**
 * Routes for other services only (never proxied by the gateway; a service token is required).
 *
 * GET /internal/match-accounts?matchId=12&userIds=3,7&fromCurrency=GBP&toCurrency=CLP — the copy of the match's
 * parties' accounts taken when it was confirmed (domain/match-snapshot.ts), full values, or null when there is none
 * to give. Only the exchange service may call it, and it does so only for a match whose details may be shown (it
 * owns matches and blocks and checks them).
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
    serve(app, Routes.accounts.matchAccounts, async (request) => {
      const { matchId, userIds: [requesterId, matcherId], fromCurrency, toCurrency } = request.query;
      const terms = { matchId, requesterId: requesterId!, matcherId: matcherId!, fromCurrency, toCurrency };
      const snapshot = await request.em.transactional((tx) => snapshotFor(tx, cipher, terms, new Date()));
      request.log.info({ caller: request.caller, matchId, given: snapshot !== null }, 'bank details released for a match');
      return snapshot;
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
