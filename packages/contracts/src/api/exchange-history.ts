/**
 * Exchange: the transaction history, each completed exchange from the caller's side (GET /api/transaction-history):
 * completed matches and the requests their owner marked done ("completed requests move to history", spec section 4).
 */
import { z } from 'zod';
import { Currency, ExchangeRateValue, Id, IsoDateTime, Money, currencyDecimalsMessage, fitsCurrency } from './common.ts';
import { ExchangeRequestStatus } from './exchange.ts';

export const UserRole = z.enum(['requester', 'matcher']);
export type UserRole = z.infer<typeof UserRole>;

/**
 * One item of GET /api/transaction-history (completed exchanges). fromAmount fits fromCurrency, toAmount fits
 * toCurrency. A completed match: `id` and `exchangeMatchId` are the match's; otherUser may be missing or null (the
 * page then shows 'User information unavailable'). A request its owner marked done: `id` is the request's,
 * exchangeMatchId null, no otherUser (nobody traded with them), userRole 'requester', completedAt when it was marked.
 */
export const TransactionHistoryItem = z
  .object({
    id: Id,
    exchangeRequestId: Id,
    exchangeMatchId: Id.nullable(),
    fromCurrency: Currency,
    toCurrency: Currency,
    fromAmount: Money,
    toAmount: Money,
    exchangeRate: ExchangeRateValue,
    status: ExchangeRequestStatus,
    completedAt: IsoDateTime,
    userRole: UserRole,
    otherUser: z.object({ firstName: z.string(), lastName: z.string(), email: z.string() }).nullish(),
  })
  .superRefine((item, ctx) => {
    if (!fitsCurrency(item.fromCurrency, item.fromAmount)) {
      ctx.addIssue({ code: 'custom', path: ['fromAmount'], message: currencyDecimalsMessage(item.fromCurrency) });
    }
    if (!fitsCurrency(item.toCurrency, item.toAmount)) {
      ctx.addIssue({ code: 'custom', path: ['toAmount'], message: currencyDecimalsMessage(item.toCurrency) });
    }
  });
export type TransactionHistoryItem = z.infer<typeof TransactionHistoryItem>;

export const TransactionHistory = z.array(TransactionHistoryItem);
export type TransactionHistory = z.infer<typeof TransactionHistory>;
