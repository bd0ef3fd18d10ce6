import type { FastifyInstance } from 'fastify';
import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/postgresql';
import { BankAccountCreate, IdParams, bankAccountUpdateFor, type Currency } from '@puente/contracts';
import { addToOutbox, conflict, makeEvent, notFound, parse, requireUser, type ServiceContext } from '@puente/platform';
import { BankAccount, reseal, sealNewAccount, toBankAccountView } from '../domain/bank-account.ts';
import type { BankCipher } from '../domain/encryption.ts';

const alreadyHave = (currency: Currency) => conflict(`You already have a ${currency} account`, 'bank_account_exists');
const NOT_FOUND = 'Bank account not found';

/**
 * /api/bank-accounts: the signed-in user's own accounts, and only theirs (another user's id answers 404). Changes
 * and their events (ids, owner, currency; never details) are written in one transaction.
 */
export function bankAccountRoutes(ctx: ServiceContext, cipher: BankCipher) {
  return async (app: FastifyInstance): Promise<void> => {
    /** GET /api/bank-accounts: the caller's accounts with full values (the web app masks them). */
    app.get('/bank-accounts', async (request) => {
      const { userId } = requireUser(request);
      const accounts = await request.em.find(BankAccount, { userId }, { orderBy: { id: 'asc' } });
      return accounts.map((a) => toBankAccountView(cipher, a));
    });

    /** POST /api/bank-accounts: 201 with the account; 409 when the caller already has one in that currency. */
    app.post('/bank-accounts', async (request, reply) => {
      const { userId } = requireUser(request);
      const input = parse(BankAccountCreate, request.body);
      if (await request.em.count(BankAccount, { userId, currency: input.currency }) > 0) throw alreadyHave(input.currency);
      try {
        const account = await ctx.transaction(async (tx) => {
          const created = tx.create(BankAccount, sealNewAccount(cipher, userId, input));
          await tx.flush();
          addToOutbox(tx, makeEvent('bankAccountAdded', created.id, { accountId: created.id, userId, currency: created.currency }));
          return created;
        });
        return reply.status(201).send(toBankAccountView(cipher, account));
      } catch (err) {
        // Two creates raced past the check above: the unique index on (user_id, currency) lets one in.
        if (err instanceof UniqueConstraintViolationException) throw alreadyHave(input.currency);
        throw err;
      }
    });

    /**
     * PUT /api/bank-accounts/{id}: changes bankName, accountNumber and accountHolder only; anything else sent is
     * ignored, so the currency never changes. The details are sealed again with the current key.
     */
    app.put('/bank-accounts/:id', async (request) => {
      const { userId } = requireUser(request);
      const { id } = parse(IdParams, request.params);
      const account = await ctx.transaction(async (tx) => {
        const found = await tx.findOne(BankAccount, { id, userId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
        if (!found) throw notFound(NOT_FOUND);
        const changes = parse(bankAccountUpdateFor(found.currency), request.body);
        found.bankName = changes.bankName;
        found.accountHolder = changes.accountHolder;
        found.accountNumberSealed = cipher.seal('accountNumber', userId, changes.accountNumber);
        reseal(cipher, found);
        addToOutbox(tx, makeEvent('bankAccountUpdated', found.id, { accountId: found.id, userId, currency: found.currency }));
        return found;
      });
      return toBankAccountView(cipher, account);
    });

    /** DELETE /api/bank-accounts/{id}: 204. */
    app.delete('/bank-accounts/:id', async (request, reply) => {
      const { userId } = requireUser(request);
      const { id } = parse(IdParams, request.params);
      await ctx.transaction(async (tx) => {
        const found = await tx.findOne(BankAccount, { id, userId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
        if (!found) throw notFound(NOT_FOUND);
        addToOutbox(tx, makeEvent('bankAccountRemoved', found.id, { accountId: found.id, userId, currency: found.currency }));
        tx.remove(found);
      });
      return reply.status(204).send();
    });
  };
}
