/**
 * Bank accounts: at most one GBP and one CLP account per user. Calls: /api/bank-accounts, /api/bank-accounts/{id}.
 */
import { z } from 'zod';
import { Currency, Id, ValidationMessages as M, blankToUndefined, optionalText, requiredText } from './common.ts';

export const ClpAccountType = z.enum(['rut', 'vista', 'current', 'debit', 'credit'], { error: M.accountTypeInvalid });
export type ClpAccountType = z.infer<typeof ClpAccountType>;

/** A Chilean RUT as stored and shown: digits, a hyphen, the check digit (`12345678-5`, `9876543-K`). */
export function normalizeRut(rut: string): string {
  const compact = rut.replace(/[.\s-]/g, '').toUpperCase();
  return compact.length > 1 ? `${compact.slice(0, -1)}-${compact.slice(-1)}` : compact;
}

/** A UK sort code as stored and shown: six digits without separators (`123456`). */
export function normalizeSortCode(sortCode: string): string {
  return sortCode.replace(/[\s-]/g, '');
}

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

const BankAccountCreateFields = z.object({
  currency: Currency,
  bankName: requiredText(M.bankNameRequired),
  accountNumber: requiredText(M.accountNumberRequired),
  accountHolder: requiredText(M.accountHolderRequired),
  rut: optionalText(),
  accountType: z.preprocess(blankToUndefined, ClpAccountType.optional()),
  email: z.preprocess(blankToUndefined, z.string().trim().pipe(z.email({ error: M.bankAccountEmailInvalid })).optional()),
  sortCode: optionalText(),
  iban: optionalText(),
});

/**
 * POST /api/bank-accounts (and the web's add-account form). Blank strings count as absent, so a missing required
 * field gives the spec's message whether it was left out or sent as ''. The parsed value keeps only the fields of
 * the account's currency: GBP gets sortCode, CLP gets rut, accountType and email; iban is optional for both. RUT and
 * sort code come out normalised (`12345678-5`, `123456`).
 */
export const BankAccountCreate = BankAccountCreateFields.superRefine((account, ctx) => {
  if (account.currency === 'CLP') {
    if (account.rut === undefined) ctx.addIssue({ code: 'custom', path: ['rut'], message: M.rutRequired });
    if (account.accountType === undefined) {
      ctx.addIssue({ code: 'custom', path: ['accountType'], message: M.accountTypeRequired });
    }
    if (account.email === undefined) ctx.addIssue({ code: 'custom', path: ['email'], message: M.clpEmailRequired });
  } else if (account.sortCode === undefined) {
    ctx.addIssue({ code: 'custom', path: ['sortCode'], message: M.sortCodeRequired });
  }
}, {
  // Run whenever the currency itself is valid, so every missing field is reported at once.
  when: (payload) => !payload.issues.some((issue) => issue.path?.[0] === 'currency'),
}).transform((account): GbpBankAccountCreate | ClpBankAccountCreate => {
  const common: BankAccountCreateCommon = {
    bankName: account.bankName,
    accountNumber: account.accountNumber,
    accountHolder: account.accountHolder,
    ...(account.iban === undefined ? {} : { iban: account.iban }),
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
  bankName: requiredText(M.bankNameRequired),
  accountNumber: requiredText(M.accountNumberRequired),
  accountHolder: requiredText(M.accountHolderRequired),
});
export type BankAccountUpdate = z.infer<typeof BankAccountUpdate>;

/**
 * A bank account as its owner reads it (GET /api/bank-accounts, and the answer to POST and PUT): full values, RUT
 * and sort code normalised; fields that do not apply to the currency are absent or null.
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
});
export type BankAccount = z.infer<typeof BankAccount>;

/** GET /api/bank-accounts */
export const BankAccountList = z.array(BankAccount);
export type BankAccountList = z.infer<typeof BankAccountList>;
