import type { FastifyInstance } from 'fastify';
import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/postgresql';
import { Routes, accountNumberProblem, normalizeAccountNumber, type Currency } from '@puente/contracts';
import { addToOutbox, conflict, fieldInvalid, makeEvent, notFound, requireUser, serve, type ServiceContext } from '@puente/platform';
import { BankAccount, reseal, sealNewAccount, toBankAccountViews } from '../domain/bank-account.ts';
import type { BankCipher } from '../domain/encryption.ts';
import { assertNotInExchange } from '../domain/trade-lock.ts';

const alreadyHave = (currency: Currency) => conflict(`You already have a ${currency} account`, 'bank_account_exists');
const NOT_FOUND = 'Bank account not found';
const routes = Routes.accounts;

/**
 * /api/bank-accounts: the signed-in user's own accounts, and only theirs (another user's id answers 404). Changes
 * and their events (ids, owner, currency; never details) are written in one transaction. While the user is a party
 * of a match in progress their accounts cannot be edited or deleted (409), so a payment cannot be redirected.
 */
export function bankAccountRoutes(ctx: ServiceContext, cipher: BankCipher) {
  return async (app: FastifyInstance): Promise<void> => {
    serve(app, routes.list, async (request) => {
      const { userId } = requireUser(request);
      const accounts = await request.em.find(BankAccount, { userId }, { orderBy: { id: 'asc' } });
      return toBankAccountViews(request.em, cipher, accounts);
    });

    serve(app, routes.create, async (request) => {
      const { userId } = requireUser(request);
      const input = request.body;
      if (await request.em.count(BankAccount, { userId, currency: input.currency }) > 0) throw alreadyHave(input.currency);
      try {
        const account = await ctx.transaction(async (tx) => {
          const created = tx.create(BankAccount, sealNewAccount(cipher, userId, input));
          await tx.flush();
          addToOutbox(tx, makeEvent('bankAccountAdded', created.id, { accountId: created.id, userId, currency: created.currency }));
          return created;
        });
        const [view] = await toBankAccountViews(request.em, cipher, [account]);
        return view!;
      } catch (err) {
        // Two creates raced past the check above: the unique index on (user_id, currency) lets one in.
        if (err instanceof UniqueConstraintViolationException) throw alreadyHave(input.currency);
        throw err;
      }
    });

    /**
     * Only bankName, accountNumber and accountHolder change (anything else sent is stripped by the contract), so the
     * currency never does. The account number is checked by its currency's rule once the account is found, and the
     * details are sealed again with the current key.
     */
    serve(app, routes.update, async (request) => {
      const { userId } = requireUser(request);
      const changes = request.body;
      const account = await ctx.transaction(async (tx) => {
        const found = await tx.findOne(BankAccount, { id: request.params.id, userId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
        if (!found) throw notFound(NOT_FOUND);
        await assertNotInExchange(tx, userId);
        const problem = accountNumberProblem(found.currency, changes.accountNumber);
        if (problem) throw fieldInvalid('accountNumber', problem);
        found.bankName = changes.bankName;
        found.accountHolder = changes.accountHolder;
        found.accountNumberSealed = cipher.seal('accountNumber', userId, normalizeAccountNumber(found.currency, changes.accountNumber));
        reseal(cipher, found);
        addToOutbox(tx, makeEvent('bankAccountUpdated', found.id, { accountId: found.id, userId, currency: found.currency }));
        return found;
      });
      const [view] = await toBankAccountViews(request.em, cipher, [account]);
      return view!;
    });

    serve(app, routes.remove, async (request) => {
      const { userId } = requireUser(request);
      await ctx.transaction(async (tx) => {
        const found = await tx.findOne(BankAccount, { id: request.params.id, userId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
        if (!found) throw notFound(NOT_FOUND);
        await assertNotInExchange(tx, userId);
        addToOutbox(tx, makeEvent('bankAccountRemoved', found.id, { accountId: found.id, userId, currency: found.currency }));
        tx.remove(found);
      });
    });
  };
}
