/**
 * Building blocks shared by every HTTP contract: ids, money, timestamps, the error body and the messages the spec
 * quotes word for word (spec section 5). See /docs api-conventions for the decisions behind each shape.
 */
import { z } from 'zod';

/** Every validation message a request schema can produce. Spec section 5 wording where the spec gives one. */
export const ValidationMessages = {
  // Login and sign-up (spec section 5)
  emailInvalid: 'Please enter a valid email address',
  passwordRequired: 'Password is required',
  passwordTooShort: 'Password must be at least 8 characters',
  firstNameRequired: 'First name is required',
  lastNameRequired: 'Last name is required',
  passwordsDontMatch: "Passwords don't match",
  // Our wording: the spec only says the code must be non-empty after trimming.
  referralCodeRequired: 'Referral code is required',
  verificationTokenRequired: 'Verification token is required',
  verificationTypeInvalid: 'Verification type must be one of email, phone, id, bank',
  // Bank accounts (spec section 5)
  currencyInvalid: 'Currency must be GBP or CLP',
  bankNameRequired: 'Bank name is required',
  accountNumberRequired: 'Account number is required',
  accountHolderRequired: 'Account holder name is required',
  bankAccountEmailInvalid: 'Invalid email',
  rutRequired: 'RUT is required for CLP accounts',
  accountTypeRequired: 'Account type is required for CLP accounts',
  accountTypeInvalid: 'Account type must be one of rut, vista, current, debit, credit',
  clpEmailRequired: 'Email is required for CLP accounts',
  sortCodeRequired: 'Sort code is required for GBP accounts',
  // Exchange requests (spec section 5)
  amountPositive: 'Amount must be positive',
  gbpAmountDecimals: 'GBP amounts can have at most 2 decimals',
  clpAmountWhole: 'CLP amounts must be whole pesos',
  currenciesMustDiffer: 'The target currency must be the other currency',
  exchangeRatePositive: 'Exchange rate must be a positive number',
  exchangeRateDecimals: 'Exchange rate can have at most 4 decimals',
  minAmountInvalid: 'minAmount must be a number of 0 or more',
  maxAmountInvalid: 'maxAmount must be a number of 0 or more',
  amountFilterNeedsCurrency: 'minAmount and maxAmount need fromCurrency (amounts are in the request\'s own currency)',
  amountRangeInvalid: 'maxAmount must not be below minAmount',
  minTrustInvalid: 'minTrust must be a trust rating from 0 to 5',
  // Ratings
  ratingRange: 'Rating must be a whole number from 1 to 5',
  commentTooLong: 'Comment must be at most 1000 characters',
  // Ids (path parameters and ids in bodies)
  idInvalid: 'Invalid id',
  exchangeRequestIdInvalid: 'Invalid exchange request ID',
  exchangeMatchIdInvalid: 'Invalid exchange match ID',
  userIdInvalid: 'Invalid user ID',
  // Admin attempt queries
  dateInvalid: 'Dates must be ISO dates (YYYY-MM-DD) or ISO date-times',
  limitInvalid: 'limit must be a whole number from 1 to 500',
  offsetInvalid: 'offset must be a whole number of 0 or more',
  // Text a user typed: control characters or broken UTF-16 (fields may give their own wording)
  textInvalidCharacters: 'Text contains characters that are not allowed',
  passwordInvalidCharacters: 'Password contains characters that are not allowed',
} as const;

const M = ValidationMessages;

// ---------------------------------------------------------------------------------------------------------------
// Scalars

export const Currency = z.enum(['GBP', 'CLP'], { error: M.currencyInvalid });
export type Currency = z.infer<typeof Currency>;

/** The other currency of the pair: the target of a request is always the other currency (spec section 5). */
export function otherCurrency(currency: Currency): Currency {
  return currency === 'GBP' ? 'CLP' : 'GBP';
}

/** Entity ids are positive (safe) integers in the API. */
export const Id = z.number().int().positive();
export type Id = z.infer<typeof Id>;

/** ISO 8601 date-time in UTC (`2025-01-31T12:00:00.000Z`), as `Date.prototype.toISOString` writes it. */
export const IsoDateTime = z.iso.datetime();
export type IsoDateTime = z.infer<typeof IsoDateTime>;

export const SubscriptionTier = z.enum(['free', 'premium']);
export type SubscriptionTier = z.infer<typeof SubscriptionTier>;

// ---------------------------------------------------------------------------------------------------------------
// Money: JSON numbers in major units. GBP at most 2 decimals, CLP whole pesos, exchange rates at most 4 decimals.

export const CurrencyDecimals = { GBP: 2, CLP: 0 } as const satisfies Record<Currency, number>;

/** True when `value` is finite and has no more than `decimals` decimal places (tolerant of binary float noise). */
export function hasAtMostDecimals(value: number, decimals: number): boolean {
  return Number.isFinite(value) && Number(value.toFixed(decimals)) === value;
}

/** True when `amount` is representable in `currency` (2 decimals for GBP, whole pesos for CLP). */
export function fitsCurrency(currency: Currency, amount: number): boolean {
  return hasAtMostDecimals(amount, CurrencyDecimals[currency]);
}

/** The message for an amount that does not fit its currency. */
export function currencyDecimalsMessage(currency: Currency): string {
  return currency === 'GBP' ? M.gbpAmountDecimals : M.clpAmountWhole;
}

/** Money on the bus: a decimal string in major units (GBP '12.50', CLP '255000'), never a float. */
export const DecimalString = z.string().regex(/^\d+(\.\d+)?$/);
export type DecimalString = z.infer<typeof DecimalString>;

/** A non-negative amount of either currency; objects holding a currency check the decimals with `fitsCurrency`. */
export const Money = z.number().nonnegative();
export type Money = z.infer<typeof Money>;

export const GbpAmount = z.number().nonnegative().refine((v) => fitsCurrency('GBP', v), M.gbpAmountDecimals);
export type GbpAmount = z.infer<typeof GbpAmount>;

export const ClpAmount = z.number().int(M.clpAmountWhole).nonnegative();
export type ClpAmount = z.infer<typeof ClpAmount>;

/** A rate (CLP per GBP, e.g. 1187.5432): positive, at most 4 decimals. */
export const ExchangeRateValue = z
  .number({ error: M.exchangeRatePositive })
  .positive(M.exchangeRatePositive)
  .refine((v) => hasAtMostDecimals(v, 4), M.exchangeRateDecimals);
export type ExchangeRateValue = z.infer<typeof ExchangeRateValue>;

/** Average rating: 0-5 with one decimal, or null before the first rating. */
export const TrustRating = z
  .number()
  .min(0)
  .max(5)
  .refine((v) => hasAtMostDecimals(v, 1), 'trustRating has one decimal')
  .nullable();
export type TrustRating = z.infer<typeof TrustRating>;

/** A count (ratings, transactions, notifications): a whole number of 0 or more. */
export const Count = z.number().int().nonnegative();
export type Count = z.infer<typeof Count>;

// ---------------------------------------------------------------------------------------------------------------
// Text helpers for request bodies, path parameters and queries
//
// Every string a user supplies goes through `safeText()` (or, for passwords, `passwordText()`): PostgreSQL refuses
// NUL in text and lone surrogates in JSON, so such input must be a 400 here, not a 500 from the database.

/** Unicode control characters (C0, DEL, C1). */
const CONTROL_CHARACTERS = /\p{Cc}/u;
/** The same, except tab, line feed and carriage return (multi-line text such as a comment). */
const CONTROL_CHARACTERS_BUT_LINE_BREAKS = /(?![\t\n\r])\p{Cc}/u;

export interface TextOptions {
  /** The message for characters that are not allowed (default: ValidationMessages.textInvalidCharacters). */
  invalid?: string;
  /** Allow tabs and line breaks inside the text (other control characters are still refused). */
  multiline?: boolean;
}

/** True when `value` is well-formed UTF-16 (no lone surrogate) and has no control characters (see TextOptions). */
export function isSafeText(value: string, opts: Pick<TextOptions, 'multiline'> = {}): boolean {
  return value.isWellFormed() && !(opts.multiline ? CONTROL_CHARACTERS_BUT_LINE_BREAKS : CONTROL_CHARACTERS).test(value);
}

/** True when a password can be hashed and compared as typed: no NUL, no lone surrogate. */
export function isSafePassword(value: string): boolean {
  return value.isWellFormed() && !value.includes('\u0000');
}

/**
 * A text a user typed: trimmed (so stray edge whitespace, tabs and newlines go), then refused with `invalid` if it
 * still holds a control character or a lone surrogate, then NFC-normalised (so 'é' typed either way is one string).
 * `required` is the message when the value is missing or not a string. Chain `.min()`/`.max()` as needed.
 */
export function safeText(opts: TextOptions & { required?: string } = {}) {
  return z.string(opts.required === undefined ? undefined : { error: opts.required })
    .trim()
    .refine((value) => isSafeText(value, opts), { message: opts.invalid ?? M.textInvalidCharacters, abort: true })
    .normalize('NFC');
}

/**
 * A password: kept exactly as typed (no trimming, no normalising, so existing passwords keep working), but refused
 * when it holds NUL or a lone surrogate. `required` is the message when it is missing or not a string.
 */
export function passwordText(required: string) {
  return z.string({ error: required })
    .refine(isSafePassword, { message: M.passwordInvalidCharacters, abort: true });
}

/**
 * A required text field (see `safeText`): `message` both when it is missing (or not a string) and when it is empty
 * after trimming.
 */
export function requiredText(message: string, opts: TextOptions = {}) {
  return safeText({ ...opts, required: message }).min(1, message);
}

/** `undefined` for absent, null and blank strings, so forms can send '' for a field they do not use. */
export function blankToUndefined(value: unknown): unknown {
  if (value === null) return undefined;
  if (typeof value === 'string' && value.trim() === '') return undefined;
  return value;
}

/** An optional text field (see `safeText`); blank, null and absent all become `undefined`. */
export function optionalText(opts: TextOptions = {}) {
  return z.preprocess(blankToUndefined, safeText(opts).optional());
}

// ---------------------------------------------------------------------------------------------------------------
// Ids in paths and bodies

/**
 * A path-parameter id: a string of digits (or a number) coerced to a positive safe integer; anything else gives
 * `message`.
 */
export function idParam(message: string) {
  return z.preprocess(
    (value) => (typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value),
    z.number({ error: message }).int({ error: message }).positive({ error: message }),
  );
}

/** An id in a JSON body: a positive safe integer; anything else gives `message`. */
export function bodyId(message: string) {
  return z.number({ error: message }).int({ error: message }).positive({ error: message });
}

/** Generic id path parameter (bank accounts, notifications, ...). */
export const IdParam = idParam(M.idInvalid);
export type IdParam = z.infer<typeof IdParam>;

/** Route params `{ id }` with the generic message. */
export const IdParams = z.object({ id: IdParam });
export type IdParams = z.infer<typeof IdParams>;

// ---------------------------------------------------------------------------------------------------------------
// Lists

/** `limit` (default 50, max 500) and `offset` (default 0) from a query string. */
export const PaginationQuery = z.object({
  limit: z.coerce.number({ error: M.limitInvalid }).int(M.limitInvalid).min(1, M.limitInvalid).max(500, M.limitInvalid).default(50),
  offset: z.coerce.number({ error: M.offsetInvalid }).int(M.offsetInvalid).min(0, M.offsetInvalid).default(0),
});
export type PaginationQuery = z.infer<typeof PaginationQuery>;

/**
 * Internal snapshot pages (a service filling a projection of another's data): rows with an id above `afterId`,
 * in id order, at most `limit` (default 500, max 1000). The caller asks again after the last id until a short page.
 */
export const SnapshotQuery = z.object({
  afterId: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(1000).default(500),
});
export type SnapshotQuery = z.infer<typeof SnapshotQuery>;

/**
 * Internal routes answering one service's section of a user's data download (`?userId=7`): the owner calls them for
 * the signed-in user only, so the user id is all they take.
 */
export const PersonalDataQuery = z.object({ userId: idParam(M.userIdInvalid) });
export type PersonalDataQuery = z.infer<typeof PersonalDataQuery>;

// ---------------------------------------------------------------------------------------------------------------
// Bodies every service shares

/** `{ message }`: answers to actions (notify, logout, verify, cancel) and the minimal error body. */
export const Message = z.object({ message: z.string() });
export type Message = z.infer<typeof Message>;

export const FieldError = z.object({ field: z.string(), message: z.string() });
export type FieldError = z.infer<typeof FieldError>;

/** Every error body: `{ message, code?, errors? }`. */
export const ErrorBody = z.object({
  message: z.string(),
  code: z.string().optional(),
  errors: z.array(FieldError).optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/**
 * The error body for a failed validation: `message` is the first issue's message (the web app shows it as it is),
 * `errors` lists every issue with its path joined by '.' ('' for the whole body).
 */
export function fieldErrors(error: z.ZodError): { message: string; errors: { field: string; message: string }[] } {
  const errors = error.issues.map((issue) => ({ field: issue.path.map(String).join('.'), message: issue.message }));
  return { message: errors[0]?.message ?? 'Invalid input', errors };
}

/** Every message a parse gives, grouped by field ('' for the root); {} when the input is valid. */
export function messagesByField(schema: { safeParse(input: unknown): { success: boolean; error?: z.ZodError } }, input: unknown): Record<string, string[]> {
  const result = schema.safeParse(input);
  if (result.success || !result.error) return {};
  const byField: Record<string, string[]> = {};
  for (const { field, message } of fieldErrors(result.error).errors) (byField[field] ??= []).push(message);
  return byField;
}
