/**
 * The field messages of the contracts' schemas (the ones the forms validate with and the server answers), by group:
 * English is the contracts' own text, so a form shows the server's words; Spanish translates them by key.
 */
import {
  BankAccountMessages, DisputeMessages, IdentityMessages, ReauthenticationMessages, SupportMessages, TwoFactorMessages, ValidationMessages,
} from '@puente/contracts';

export default { common: ValidationMessages, bankAccounts: BankAccountMessages, identity: IdentityMessages, twoFactor: TwoFactorMessages,
  reauthentication: ReauthenticationMessages, support: SupportMessages, disputes: DisputeMessages };
