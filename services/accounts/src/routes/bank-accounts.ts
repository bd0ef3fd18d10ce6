import type { FastifyInstance } from 'fastify';
import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/postgresql';
import { Routes, type Currency } from '@puente/contracts';
import { changed, conflict, notFound, requireUser, serve, type ServiceContext } from '@puente/platform';
import { BankAccount, toBankAccountViews } from '../domain/bank-account.ts';
import { addBankAccount, removeBankAccount, updateBankAccount } from '../domain/bank-account-changes.ts';
import type { BankCipher } from '../domain/encryption.ts';
import { assertNotInExchange } from '../domain/trade-lock.ts';

const alreadyHave = (currency: Currency) => conflict(`You already have a ${currency} account`, 'bank_account_exists');
const NOT_FOUND = 'Bank account not found';
const routes = Routes.accounts;

/**
 * /api/bank-accounts: the signed-in user's own accounts, and only theirs (another user's id answers 404). Each
 * change (domain/bank-account-changes.ts) and its event are written in one transaction. While the user is a party
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
        const account = await ctx.change((tx) => addBankAccount(tx, cipher, userId, input));
        const [view] = await toBankAccountViews(request.em, cipher, [account]);
        return view!;
      } catch (err) {
        // Two creates raced past the check above: the unique index on (user_id, currency) lets one in.
        if (err instanceof UniqueConstraintViolationException) throw alreadyHave(input.currency);
        throw err;
      }
    });

    /** Anything but bankName, accountNumber and accountHolder is stripped by the contract. */
    serve(app, routes.update, async (request) => {
      const { userId } = requireUser(request);
      const changes = request.body;
      const account = await ctx.change(async (tx) => {
        const found = await tx.findOne(BankAccount, { id: request.params.id, userId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
        if (!found) throw notFound(NOT_FOUND);
        await assertNotInExchange(tx, userId);
        return changed(found, ...updateBankAccount(cipher, found, changes));
      });
      const [view] = await toBankAccountViews(request.em, cipher, [account]);
      return view!;
    });

    serve(app, routes.remove, async (request) => {
      const { userId } = requireUser(request);
      await ctx.change(async (tx) => {
        const found = await tx.findOne(BankAccount, { id: request.params.id, userId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
        if (!found) throw notFound(NOT_FOUND);
        await assertNotInExchange(tx, userId);
        return changed(undefined, ...removeBankAccount(tx, found));
      });
    });
  };
}
