import { defineEntity, p } from '@mikro-orm/postgresql';
import { Currency } from '@puente/contracts';

/**
 * Which bank accounts each user has, by currency, as the accounts service announces them (no account details).
 * A user has both accounts when a GBP and a CLP row exist.
 */
export const AccountCurrencySchema = defineEntity({
  name: 'AccountCurrency',
  tableName: 'account_currency',
  properties: {
    accountId: p.integer().primary().autoincrement(false),
    userId: p.integer().index(),
    currency: p.enum(Currency.options),
  },
});
export class AccountCurrency extends AccountCurrencySchema.class {}
AccountCurrencySchema.setClass(AccountCurrency);
