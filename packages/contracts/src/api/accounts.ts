/**
 * Bank accounts: at most one GBP and one CLP account per user. Calls: /api/bank-accounts, /api/bank-accounts/{id}.
 *
 * Besides the spec's rules (section 5, messages in ValidationMessages) the schemas check what a bank would: a
 * Chilean RUT's modulo-11 check digit, a UK sort code of 6 digits, a UK account number of 8 digits, a CLP account
 * number of digits, an IBAN's mod-97 checksum. Those messages are ours (BankAccountMessages) and name the field.
 */
import { z } from 'zod';
import {
  Currency, Id, IsoDateTime, ValidationMessages as M, blankToUndefined, idParam, optionalText, requiredText, safeText,
} from './common.ts';

/** Our wording for the checks the spec does not list; each names the field it is about. */
export const BankAccountMessages = {
  bankNameTooLong: 'Bank name must be at most 100 characters',
  accountHolderTooLong: 'Account holder name must be at most 100 characters',
  gbpAccountNumberInvalid: 'Account number must be 8 digits for GBP accounts',
  clpAccountNumberInvalid: 'Account number must be at most 20 digits (spaces and hyphens allowed) for CLP accounts',
  rutInvalid: 'RUT is not valid: check the number and its check digit (e.g. 12.345.678-5)',
  sortCodeInvalid: 'Sort code must be 6 digits (e.g. 12-34-56)',
  ibanInvalid: 'IBAN is not valid: check the country code, check digits and account number',
  userIdsInvalid: 'userIds must be two different user ids, comma-separated',
  bankNameInvalidCharacters: 'Bank name contains characters that are not allowed',
  accountHolderInvalidCharacters: 'Account holder name contains characters that are not allowed',
  accountNumberInvalidCharacters: 'Account number contains characters that are not allowed',
} as const;
const B = BankAccountMessages;

export const ClpAccountType = z.enum(['rut', 'vista', 'current', 'debit', 'credit'], { error: M.accountTypeInvalid });
export type ClpAccountType = z.infer<typeof ClpAccountType>;

// ---------------------------------------------------------------------------------------------------------------
// Bank-grade checks and normal forms

/** A Chilean RUT as stored and shown: digits, a hyphen, the check digit (`12345678-5`, `9876543-K`). */
export function normalizeRut(rut: string): string {
  const compact = rut.replace(/[.\s-]/g, '').toUpperCase();
  return compact.length > 1 ? `${compact.slice(0, -1)}-${compact.slice(-1)}` : compact;
}

/** How a RUT may be written: `12.345.678-5`, `12345678-5` or `123456785`, the check digit `k` or `K`. */
const RUT_WRITTEN = /^(?:\d{1,3}(?:\.\d{3})+|\d+)-?[\dkK]$/;

/** A RUT as Chileans write it, `12.345.678-5` (dots in thousands); anything not written like a RUT as it is. */
export function formatRut(rut: string): string {
  const written = rut.trim();
  if (!RUT_WRITTEN.test(written)) return rut;
  const [body = '', digit = ''] = normalizeRut(written).split('-');
  return `${body.replace(/\B(?=(\d{3})+$)/g, '.')}-${digit}`;
}

/** The modulo-11 check digit of a RUT's number ('0'-'9' or 'K'). */
export function rutCheckDigit(body: string): string {
  let sum = 0;
  let factor = 2;
  for (let i = body.length - 1; i >= 0; i -= 1) {
    sum += Number(body[i]) * factor;
    factor = factor === 7 ? 2 : factor + 1;
  }
  const digit = 11 - (sum % 11);
  return digit === 11 ? '0' : digit === 10 ? 'K' : String(digit);
}

/**
 * A RUT written as `12.345.678-5`, `12345678-5` or `123456785` (the check digit may be `k` or `K`): a number of up to
 * 8 digits without a leading zero, and the right check digit.
 */
export function isValidRut(rut: string): boolean {
  const written = rut.trim();
  if (!RUT_WRITTEN.test(written)) return false;
  const [body = '', digit = ''] = normalizeRut(written).split('-');
  return /^[1-9]\d{0,7}$/.test(body) && rutCheckDigit(body) === digit;
}

/** A UK sort code as stored and shown: six digits without separators (`123456`). */
export function normalizeSortCode(sortCode: string): string {
  return sortCode.replace(/[\s-]/g, '');
}

/** A UK sort code: 6 digits, optionally written in pairs (`12-34-56`, `12 34 56`). */
export function isValidSortCode(sortCode: string): boolean {
  return /^\d{2}([\s-]?)\d{2}\1\d{2}$/.test(sortCode.trim());
}

/** A UK account number as stored: 8 digits (spaces and hyphens a user types are dropped). */
export function normalizeGbpAccountNumber(accountNumber: string): string {
  return accountNumber.replace(/[\s-]/g, '');
}

export function isValidGbpAccountNumber(accountNumber: string): boolean {
  return /^\d{8}$/.test(normalizeGbpAccountNumber(accountNumber));
}

/** A Chilean account number: up to 20 digits; spaces and hyphens as banks print them are kept. */
export function isValidClpAccountNumber(accountNumber: string): boolean {
  return /^\d+(?:[\s-]\d+)*$/.test(accountNumber) && accountNumber.replace(/[\s-]/g, '').length <= 20;
}

/** An IBAN in its electronic form, as stored: upper case, no spaces (`GB33BUKB20201555555555`). */
export function normalizeIban(iban: string): string {
  return iban.replace(/\s/g, '').toUpperCase();
}

/** An IBAN: country code, two check digits, up to 30 letters or digits, and mod 97 of the rearranged number is 1. */
export function isValidIban(iban: string): boolean {
  const compact = normalizeIban(iban);
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(compact)) return false;
  const rearranged = compact.slice(4) + compact.slice(0, 4);
  let remainder = 0;
  for (const ch of rearranged) {
    const value = ch >= 'A' ? String(ch.charCodeAt(0) - 55) : ch; // A=10 ... Z=35
    for (const d of value) remainder = (remainder * 10 + Number(d)) % 97;
  }
  return remainder === 1;
}

/** The account-number rule of a currency: its message when `accountNumber` breaks it, else undefined. */
export function accountNumberProblem(currency: Currency, accountNumber: string): string | undefined {
  if (currency === 'GBP') return isValidGbpAccountNumber(accountNumber) ? undefined : B.gbpAccountNumberInvalid;
  return isValidClpAccountNumber(accountNumber) ? undefined : B.clpAccountNumberInvalid;
}

/** The account number as stored for its currency (GBP: 8 digits; CLP: as written, trimmed). */
export function normalizeAccountNumber(currency: Currency, accountNumber: string): string {
  return currency === 'GBP' ? normalizeGbpAccountNumber(accountNumber) : accountNumber;
}

const filled = (value: unknown): value is string => typeof value === 'string' && value !== '';

// ---------------------------------------------------------------------------------------------------------------
// Requests

type BankAccountCreateCommon = {
  bankName: string;
  accountNumber: string;
  accountHolder: string;
  iban?: string | undefined;
};

/** What POST /api/bank-accounts hands to the service: only the fields of the account's currency. */
export type GbpBankAccountCreate = BankAccountCreateCommon & { currency: 'GBP'; sortCode: string };
export type ClpBankAccountCreate = BankAccountCreateCommon & {
  currency: 'CLP';
  rut: string;
  accountType: ClpAccountType;
  email: string;
};

const bankName = requiredText(M.bankNameRequired, { invalid: B.bankNameInvalidCharacters }).max(100, B.bankNameTooLong);
const accountHolder = requiredText(M.accountHolderRequired, { invalid: B.accountHolderInvalidCharacters })
  .max(100, B.accountHolderTooLong);
const accountNumber = requiredText(M.accountNumberRequired, { invalid: B.accountNumberInvalidCharacters });

const BankAccountCreateFields = z.object({
  currency: Currency,
  bankName,
  accountNumber,
  accountHolder,
  // A control character in these is simply an invalid value: their own message says which field.
  rut: optionalText({ invalid: B.rutInvalid }),
  accountType: z.preprocess(blankToUndefined, ClpAccountType.optional()),
  email: z.preprocess(
    blankToUndefined,
    safeText({ invalid: M.bankAccountEmailInvalid })
      .pipe(z.email({ error: M.bankAccountEmailInvalid }).max(254, M.bankAccountEmailInvalid))
      .optional(),
  ),
  sortCode: optionalText({ invalid: B.sortCodeInvalid }),
  iban: optionalText({ invalid: B.ibanInvalid }),
});

/**
 * POST /api/bank-accounts (and the web's add-account form). Blank strings count as absent, so a missing required
 * field gives the spec's message whether it was left out or sent as ''. The parsed value keeps only the fields of
 * the account's currency: GBP gets sortCode, CLP gets rut, accountType and email; iban is optional for both. RUT,
 * sort code, GBP account number and IBAN come out normalised (`12345678-5`, `123456`, `12345678`,
 * `GB33BUKB20201555555555`).
 */
export const BankAccountCreate = BankAccountCreateFields.superRefine((account, ctx) => {
  // The spec's rules: the fields a currency needs.
  if (account.currency === 'CLP') {
    if (account.rut === undefined) ctx.addIssue({ code: 'custom', path: ['rut'], message: M.rutRequired });
    if (account.accountType === undefined) {
      ctx.addIssue({ code: 'custom', path: ['accountType'], message: M.accountTypeRequired });
    }
    if (account.email === undefined) ctx.addIssue({ code: 'custom', path: ['email'], message: M.clpEmailRequired });
  } else if (account.sortCode === undefined) {
    ctx.addIssue({ code: 'custom', path: ['sortCode'], message: M.sortCodeRequired });
  }
  // What a bank would check, on the fields that are there (a missing one already has its message).
  if (filled(account.accountNumber)) {
    const problem = accountNumberProblem(account.currency, account.accountNumber);
    if (problem) ctx.addIssue({ code: 'custom', path: ['accountNumber'], message: problem });
  }
  if (account.currency === 'CLP' && filled(account.rut) && !isValidRut(account.rut)) {
    ctx.addIssue({ code: 'custom', path: ['rut'], message: B.rutInvalid });
  }
  if (account.currency === 'GBP' && filled(account.sortCode) && !isValidSortCode(account.sortCode)) {
    ctx.addIssue({ code: 'custom', path: ['sortCode'], message: B.sortCodeInvalid });
  }
  if (filled(account.iban) && !isValidIban(account.iban)) {
    ctx.addIssue({ code: 'custom', path: ['iban'], message: B.ibanInvalid });
  }
}, {
  // Run whenever the currency itself is valid, so every missing or malformed field is reported at once.
  when: (payload) => !payload.issues.some((issue) => issue.path?.[0] === 'currency'),
}).transform((account): GbpBankAccountCreate | ClpBankAccountCreate => {
  const common: BankAccountCreateCommon = {
    bankName: account.bankName,
    accountNumber: normalizeAccountNumber(account.currency, account.accountNumber),
    accountHolder: account.accountHolder,
    ...(account.iban === undefined ? {} : { iban: normalizeIban(account.iban) }),
  };
  if (account.currency === 'GBP') {
    return { ...common, currency: 'GBP', sortCode: normalizeSortCode(account.sortCode ?? '') };
  }
  return {
    ...common,
    currency: 'CLP',
    rut: normalizeRut(account.rut ?? ''),
    // Present: the refinement above guarantees it for CLP.
    accountType: account.accountType ?? 'rut',
    email: account.email ?? '',
  };
});
export type BankAccountCreate = z.infer<typeof BankAccountCreate>;
/** What a client may send to POST /api/bank-accounts (before trimming and normalising). */
export type BankAccountCreateInput = z.input<typeof BankAccountCreate>;

/**
 * PUT /api/bank-accounts/{id}: only bankName, accountNumber and accountHolder change. Any other key sent with it
 * (currency, rut, ...) is stripped, not an error.
 */
export const BankAccountUpdate = z.object({
  bankName,
  accountNumber,
  accountHolder,
});
export type BankAccountUpdate = z.infer<typeof BankAccountUpdate>;

/**
 * BankAccountUpdate for an account of `currency` (the service knows it once it has found the account): adds the
 * currency's account-number rule and normal form.
 */
export function bankAccountUpdateFor(currency: Currency) {
  return BankAccountUpdate.superRefine((update, ctx) => {
    const problem = accountNumberProblem(currency, update.accountNumber);
    if (problem) ctx.addIssue({ code: 'custom', path: ['accountNumber'], message: problem });
  }).transform((update): BankAccountUpdate => ({
    ...update,
    accountNumber: normalizeAccountNumber(currency, update.accountNumber),
  }));
}

// ---------------------------------------------------------------------------------------------------------------
// Responses

/**
 * A bank account as its owner reads it (GET /api/bank-accounts, and the answer to POST and PUT): full values, RUT
 * and sort code normalised; fields that do not apply to the currency are absent or null.
 *
 * holderMatchesName: whether accountHolder is the owner's profile name as banks write names (any case and accents,
 * extra middle names or a second surname allowed): money must come from an account in the trader's own name, so
 * false flags the account. Null while the accounts service does not know the owner's name yet (a moment after
 * sign-up).
 */
export const BankAccount = z.object({
  id: Id,
  currency: Currency,
  bankName: z.string(),
  accountNumber: z.string(),
  accountHolder: z.string(),
  rut: z.string().nullish(),
  accountType: ClpAccountType.nullish(),
  email: z.string().nullish(),
  sortCode: z.string().nullish(),
  iban: z.string().nullish(),
  holderMatchesName: z.boolean().nullable(),
});
export type BankAccount = z.infer<typeof BankAccount>;

/** GET /api/bank-accounts */
export const BankAccountList = z.array(BankAccount);
export type BankAccountList = z.infer<typeof BankAccountList>;

// ---------------------------------------------------------------------------------------------------------------
// Internal: GET /internal/match-accounts on the accounts service (service token of the exchange service only)

/**
 * `?matchId=12&userIds=3,7&fromCurrency=GBP&toCurrency=CLP`: a match whose bank details the exchange service is
 * about to show (it owns matches and has checked their state, parties and blocks), its two parties (requester first)
 * and its request's currencies. The accounts service answers the copy of the parties' accounts it took when the match
 * was confirmed; the parties and currencies let it take that copy at once should the confirmation not have reached
 * it yet.
 */
export const MatchAccountsQuery = z.object({
  matchId: idParam('matchId must be a match id'),
  userIds: z.preprocess(
    (value) => (typeof value === 'string' ? value.split(',').map((s) => s.trim()) : value),
    z.array(idParam(B.userIdsInvalid), { error: B.userIdsInvalid })
      .length(2, B.userIdsInvalid)
      .refine(([a, b]) => a !== b, B.userIdsInvalid),
  ),
  fromCurrency: Currency,
  toCurrency: Currency,
}).refine((q) => q.fromCurrency !== q.toCurrency, { message: M.currenciesMustDiffer, path: ['toCurrency'] });
export type MatchAccountsQuery = z.infer<typeof MatchAccountsQuery>;

/**
 * One party of a match as the copy holds them: `payout`, their account in the currency they receive (the one their
 * partner sends to), in full; `payer`, the holder of their account in the currency they pay (where the partner's
 * money must come from) and whether it is their profile name, or null when they had none.
 */
export const MatchPartyAccounts = z.object({
  userId: Id,
  payout: BankAccount,
  payer: z.object({ accountHolder: z.string(), holderMatchesName: z.boolean().nullable() }).nullable(),
});
export type MatchPartyAccounts = z.infer<typeof MatchPartyAccounts>;

/**
 * The answer: the parties' accounts as they were when the match was confirmed (takenAt). Null when there is no
 * copy to give: the match ended before one was taken, it was purged (a party deleted their account, or the match
 * was called off or completed long enough ago), or a party had no account in the currency they receive.
 */
export const MatchAccountsSnapshot = z.object({
  matchId: Id,
  takenAt: IsoDateTime,
  requester: MatchPartyAccounts,
  matcher: MatchPartyAccounts,
}).nullable();
export type MatchAccountsSnapshot = z.infer<typeof MatchAccountsSnapshot>;

/** GET /internal/account-currencies: which user has an account in which currency (no details), by account id. */
export const AccountCurrency = z.object({ accountId: Id, userId: Id, currency: Currency });
export type AccountCurrency = z.infer<typeof AccountCurrency>;

export const AccountCurrencyList = z.array(AccountCurrency);
export type AccountCurrencyList = z.infer<typeof AccountCurrencyList>;

/** The accounts service's section of a user's data download (GET /internal/personal-data/bank-accounts): their accounts, full values. */
export const AccountsPersonalData = z.object({ bankAccounts: BankAccountList });
export type AccountsPersonalData = z.infer<typeof AccountsPersonalData>;
