import { defineEntity, p } from '@mikro-orm/postgresql';
import { Currency, ExchangeRequestStatus, MinTrustLevel } from '@puente/contracts';

/**
 * An exchange request: the poster sends `amount` of fromCurrency and wants the other currency at `exchangeRate`
 * (always CLP per GBP). Amounts and rates are exact decimals (domain/money.ts). `openSince` is when it last became
 * open (posted, or reopened after a match ended): the expiry timer counts from it.
 */
export const ExchangeRequestSchema = defineEntity({
  name: 'ExchangeRequest',
  tableName: 'exchange_request',
  properties: {
    id: p.integer().primary().autoincrement(),
    userId: p.integer(),
    fromCurrency: p.enum(Currency.options),
    toCurrency: p.enum(Currency.options),
    /** Major units: GBP with 2 decimals, CLP whole (stored with .00). */
    amount: p.decimal('string').precision(14).scale(2),
    exchangeRate: p.decimal('string').precision(12).scale(4),
    status: p.enum(ExchangeRequestStatus.options),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
    openSince: p.datetime(),
    /** When the owner last sent notifications about it (at most once an hour). */
    notifiedAt: p.datetime().nullable(),
    /** Who may take it (api/exchange-access.ts): a minimum trust level, null for anyone; ID-verified users only. */
    minTrustLevel: p.enum(MinTrustLevel.options).nullable(),
    verifiedOnly: p.boolean().default(false),
    /** When its owner marked it done (completed with no match): its time in the history. Null otherwise. */
    markedDoneAt: p.datetime().nullable(),
  },
  indexes: [
    { name: 'exchange_request_status_id_index', properties: ['status', 'id'] },
    { name: 'exchange_request_user_id_created_at_index', properties: ['userId', 'createdAt'] },
  ],
});
export class ExchangeRequest extends ExchangeRequestSchema.class {}
ExchangeRequestSchema.setClass(ExchangeRequest);

/** Statuses in which a request still has a trade ahead of it: the dashboard's active requests. */
export const ACTIVE_REQUEST_STATUSES = ['open', 'matched', 'confirmed'] as const;
