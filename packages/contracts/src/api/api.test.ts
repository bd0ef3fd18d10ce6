import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  AdminUserView,
  AdminVerificationRequest,
  ChangePasswordRequest,
  ForgotPasswordRequest,
  GoogleLoginFailures,
  GoogleLoginQuery,
  IdentityMessages,
  Referral,
  ResetPasswordRequest,
  UserProfileUpdate,
  VerificationRequestIdParams,
  VerificationRequestResponse,
  AttemptsQuery,
  BankAccount,
  BankAccountCreate,
  BankAccountUpdate,
  CurrentUser,
  ErrorBody,
  ExchangeMatch,
  ExchangeMatchCreate,
  ExchangeRate,
  ExchangeRequest,
  ExchangeRequestCreate,
  ExchangeRequestIdParam,
  ExchangeRequestIdParams,
  ExchangeRequestsQuery,
  FailureStatsQuery,
  HealthResponse,
  IdParam,
  LiveMessage,
  LoginAttempt,
  LoginFailureStat,
  LoginRequest,
  MatchAccountsResponse,
  MatchesByRequestParams,
  Notification,
  NotificationCount,
  Plan,
  PublicUser,
  Rating,
  RatingCreate,
  ReferralCodeParams,
  SignupAttempt,
  SignupFailureStat,
  SignupForm,
  SignupRequest,
  SignupRequestResponse,
  SignupVerifyRequest,
  SubscriptionInfo,
  SubscriptionPlans,
  TransactionHistoryItem,
  ValidationMessages,
  VerificationTypeParams,
  fieldErrors,
  messagesByField,
} from './index.ts';

const messages = messagesByField;

/** The first message (what the web app shows). */
function firstMessage(schema: z.ZodType, input: unknown): string | undefined {
  const result = schema.safeParse(input);
  return result.success ? undefined : fieldErrors(result.error).message;
}

const now = '2025-03-01T12:00:00.000Z';

describe('login', () => {
  it('parses a good payload, trimming the email', () => {
    expect(LoginRequest.parse({ email: ' ana@example.com ', password: 'x' })).toEqual({
      email: 'ana@example.com',
      password: 'x',
    });
  });

  it("gives the spec's messages", () => {
    expect(messages(LoginRequest, { email: 'not-an-email', password: '' })).toEqual({
      email: ['Please enter a valid email address'],
      password: ['Password is required'],
    });
    expect(messages(LoginRequest, {})).toEqual({
      email: ['Please enter a valid email address'],
      password: ['Password is required'],
    });
  });
});

describe('sign-up', () => {
  const good = {
    email: 'ana@example.com',
    password: 'correct horse',
    firstName: ' Ana ',
    lastName: 'Rojas',
    referralCode: ' ABC123 ',
  };

  it('parses a good request, trimming names and the referral code', () => {
    expect(SignupRequest.parse(good)).toEqual({ ...good, firstName: 'Ana', referralCode: 'ABC123' });
  });

  it("gives the spec's messages, all at once", () => {
    expect(
      messages(SignupRequest, { email: 'ana@', password: '1234567', firstName: ' ', lastName: '', referralCode: '  ' }),
    ).toEqual({
      email: ['Please enter a valid email address'],
      password: ['Password must be at least 8 characters'],
      firstName: ['First name is required'],
      lastName: ['Last name is required'],
      referralCode: [ValidationMessages.referralCodeRequired],
    });
    expect(messages(SignupRequest, {})).toEqual({
      email: ['Please enter a valid email address'],
      password: ['Password must be at least 8 characters'],
      firstName: ['First name is required'],
      lastName: ['Last name is required'],
      referralCode: ['Referral code is required'],
    });
  });

  it("the form adds \"Passwords don't match\" on confirmPassword", () => {
    const form = { email: good.email, password: good.password, firstName: 'Ana', lastName: 'Rojas' };
    expect(SignupForm.parse({ ...form, confirmPassword: good.password })).toEqual({
      ...form,
      confirmPassword: good.password,
    });
    expect(messages(SignupForm, { ...form, confirmPassword: 'something else' })).toEqual({
      confirmPassword: ["Passwords don't match"],
    });
    // Also alongside other errors.
    expect(messages(SignupForm, { ...form, firstName: '', confirmPassword: 'x' })).toEqual({
      firstName: ['First name is required'],
      confirmPassword: ["Passwords don't match"],
    });
  });

  it('verify needs a token', () => {
    expect(SignupVerifyRequest.parse({ token: 'abc' })).toEqual({ token: 'abc' });
    expect(firstMessage(SignupVerifyRequest, { token: ' ' })).toBe(ValidationMessages.verificationTokenRequired);
  });
});

describe('identity beyond the spec: passwords, profile, Google, verification review', () => {
  it('forgot, reset and change password use the sign-up password rule', () => {
    expect(ForgotPasswordRequest.parse({ email: ' ana@example.com ' })).toEqual({ email: 'ana@example.com' });
    expect(firstMessage(ForgotPasswordRequest, { email: 'ana' })).toBe('Please enter a valid email address');
    expect(messages(ResetPasswordRequest, { token: ' ', password: 'short' })).toEqual({
      token: [IdentityMessages.resetTokenRequired],
      password: ['Password must be at least 8 characters'],
    });
    // The proof is optional here: which one the account gives is the service's to say (identity-reauthentication.ts).
    expect(messages(ChangePasswordRequest, { newPassword: 'x'.repeat(201) })).toEqual({
      newPassword: ['Password must be at most 200 characters'],
    });
    expect(messages(ChangePasswordRequest, { currentPassword: '', totpCode: '12345', newPassword: 'long enough' })).toEqual({
      currentPassword: ['Current password is required'],
      totpCode: ['Enter the 6-digit code from your authenticator app'],
    });
    expect(ChangePasswordRequest.parse({ totpCode: ' 123 456 ', newPassword: 'long enough' })).toEqual({ totpCode: '123456', newPassword: 'long enough' });
    expect(ChangePasswordRequest.parse({ currentPassword: ' old ', newPassword: ' new password ' })).toEqual({
      currentPassword: ' old ',
      newPassword: ' new password ',
    });
  });

  it('editing the name needs at least one of first and last name, each non-blank', () => {
    expect(UserProfileUpdate.parse({ firstName: ' Ana ', email: 'x@y.z' })).toEqual({ firstName: 'Ana' });
    expect(firstMessage(UserProfileUpdate, {})).toBe('Send a first name or a last name to update');
    expect(messages(UserProfileUpdate, { firstName: '', lastName: 'x'.repeat(101) })).toEqual({
      firstName: ['First name is required'],
      lastName: ['Last name must be at most 100 characters'],
    });
  });

  it('the Google start keeps a referral code only when one is given', () => {
    expect(GoogleLoginQuery.parse({ referralCode: ' ABC ' })).toEqual({ referralCode: 'ABC' });
    expect(GoogleLoginQuery.parse({ referralCode: '' })).toEqual({});
    expect(GoogleLoginQuery.parse({})).toEqual({});
    expect(Object.keys(GoogleLoginFailures)).toContain('google_not_configured');
  });

  it('sign-up answers carry the token only where it is exposed; referrals carry the name', () => {
    expect(SignupRequestResponse.parse({ message: 'Check your email' })).toEqual({ message: 'Check your email' });
    expect(Referral.parse({ id: 1, referredId: 2, createdAt: now, firstName: 'Ana', lastName: 'Rojas' })).toBeTruthy();
    expect(Referral.safeParse({ id: 1, referredId: 2, createdAt: now }).success).toBe(false);
  });

  it('verification requests and their admin review', () => {
    expect(VerificationRequestResponse.parse({ message: 'ok', id: null, type: 'bank', status: 'approved' })).toBeTruthy();
    expect(VerificationRequestIdParams.parse({ id: '7' })).toEqual({ id: 7 });
    expect(firstMessage(VerificationRequestIdParams, { id: 'x' })).toBe('Invalid verification request ID');
    const item = {
      id: 1, userId: 2, type: 'id', status: 'pending', createdAt: now, decidedAt: null,
      firstName: 'Ana', lastName: 'Rojas', email: 'ana@example.com', document: null,
    };
    expect(AdminVerificationRequest.parse(item)).toEqual(item);
    expect(AdminVerificationRequest.safeParse({ ...item, status: 'maybe' }).success).toBe(false);
  });
});

describe('bank account create', () => {
  const gbp = {
    currency: 'GBP',
    bankName: 'Monzo',
    accountNumber: '12345678',
    accountHolder: 'Ana Rojas',
    sortCode: '04-00-04',
  };
  const clp = {
    currency: 'CLP',
    bankName: 'BancoEstado',
    accountNumber: '987654321',
    accountHolder: 'Ana Rojas',
    rut: '12.345.678-5',
    accountType: 'vista',
    email: 'ana@example.cl',
  };

  it('parses good payloads, keeping only the fields of the currency and normalising RUT and sort code', () => {
    expect(BankAccountCreate.parse({ ...gbp, rut: '1-9', email: '', iban: 'GB33BUKB20201555555555' })).toEqual({
      currency: 'GBP',
      bankName: 'Monzo',
      accountNumber: '12345678',
      accountHolder: 'Ana Rojas',
      sortCode: '040004',
      iban: 'GB33BUKB20201555555555',
    });
    expect(BankAccountCreate.parse({ ...clp, sortCode: '', iban: '' })).toEqual({ ...clp, rut: '12345678-5' });
  });

  it("gives the common messages whether a field is absent or blank", () => {
    const expected = {
      bankName: ['Bank name is required'],
      accountNumber: ['Account number is required'],
      accountHolder: ['Account holder name is required'],
    };
    expect(messages(BankAccountCreate, { currency: 'GBP', sortCode: '040004' })).toEqual(expected);
    expect(
      messages(BankAccountCreate, { currency: 'GBP', sortCode: '040004', bankName: '', accountNumber: ' ', accountHolder: '\t' }),
    ).toEqual(expected);
  });

  it('requires rut, accountType and email for CLP, absent or blank', () => {
    const expected = {
      rut: ['RUT is required for CLP accounts'],
      accountType: ['Account type is required for CLP accounts'],
      email: ['Email is required for CLP accounts'],
    };
    const { rut: _rut, accountType: _type, email: _email, ...common } = clp;
    expect(messages(BankAccountCreate, common)).toEqual(expected);
    expect(messages(BankAccountCreate, { ...common, rut: ' ', accountType: '', email: '' })).toEqual(expected);
  });

  it('requires sortCode for GBP, absent or blank', () => {
    const { sortCode: _sortCode, ...common } = gbp;
    expect(messages(BankAccountCreate, common)).toEqual({ sortCode: ['Sort code is required for GBP accounts'] });
    expect(messages(BankAccountCreate, { ...common, sortCode: '  ' })).toEqual({
      sortCode: ['Sort code is required for GBP accounts'],
    });
  });

  it("an email, if given, must be valid ('Invalid email')", () => {
    expect(messages(BankAccountCreate, { ...clp, email: 'ana@' })).toEqual({ email: ['Invalid email'] });
    expect(messages(BankAccountCreate, { ...gbp, email: 'nope' })).toEqual({ email: ['Invalid email'] });
  });

  it('reports every missing field of a CLP account at once, the first one as message', () => {
    expect(firstMessage(BankAccountCreate, { currency: 'CLP' })).toBe('Bank name is required');
    expect(Object.keys(messages(BankAccountCreate, { currency: 'CLP' }))).toEqual([
      'bankName',
      'accountNumber',
      'accountHolder',
      'rut',
      'accountType',
      'email',
    ]);
  });

  it('accepts only GBP or CLP and the five account types', () => {
    expect(messages(BankAccountCreate, { ...gbp, currency: 'EUR' })).toEqual({
      currency: [ValidationMessages.currencyInvalid],
    });
    expect(messages(BankAccountCreate, { ...clp, accountType: 'savings' })).toEqual({
      accountType: [ValidationMessages.accountTypeInvalid],
    });
  });
});

describe('bank account update', () => {
  it('keeps only bankName, accountNumber and accountHolder; other keys are stripped, not errors', () => {
    expect(
      BankAccountUpdate.parse({
        bankName: ' Lloyds ',
        accountNumber: '87654321',
        accountHolder: 'Ana Rojas',
        currency: 'CLP',
        sortCode: '309634',
        id: 4,
      }),
    ).toEqual({ bankName: 'Lloyds', accountNumber: '87654321', accountHolder: 'Ana Rojas' });
  });

  it("gives the spec's messages", () => {
    expect(messages(BankAccountUpdate, { bankName: '', accountHolder: ' ' })).toEqual({
      bankName: ['Bank name is required'],
      accountNumber: ['Account number is required'],
      accountHolder: ['Account holder name is required'],
    });
  });
});

describe('exchange request create', () => {
  const good = { fromCurrency: 'GBP', toCurrency: 'CLP', amount: 500, exchangeRate: 1187.5432 };

  it('parses good payloads in both directions', () => {
    expect(ExchangeRequestCreate.parse(good)).toEqual(good);
    expect(ExchangeRequestCreate.parse({ ...good, amount: 10.5 })).toEqual({ ...good, amount: 10.5 });
    const clp = { fromCurrency: 'CLP', toCurrency: 'GBP', amount: 250000, exchangeRate: 1187.5 };
    expect(ExchangeRequestCreate.parse(clp)).toEqual(clp);
  });

  it("'Amount must be positive' for zero, negative, missing or non-numeric amounts", () => {
    for (const amount of [0, -5, undefined, '500', null]) {
      expect(messages(ExchangeRequestCreate, { ...good, amount })).toEqual({ amount: ['Amount must be positive'] });
    }
  });

  it('the target must be the other currency', () => {
    expect(messages(ExchangeRequestCreate, { ...good, toCurrency: 'GBP' })).toEqual({
      toCurrency: [ValidationMessages.currenciesMustDiffer],
    });
    expect(messages(ExchangeRequestCreate, { ...good, toCurrency: 'USD' })).toEqual({
      toCurrency: [ValidationMessages.currencyInvalid],
    });
  });

  it('amount fits the source currency; the rate is positive with at most 4 decimals', () => {
    expect(firstMessage(ExchangeRequestCreate, { ...good, amount: 10.555 })).toBe(ValidationMessages.gbpAmountDecimals);
    expect(
      firstMessage(ExchangeRequestCreate, { fromCurrency: 'CLP', toCurrency: 'GBP', amount: 100.5, exchangeRate: 1 }),
    ).toBe(ValidationMessages.clpAmountWhole);
    expect(firstMessage(ExchangeRequestCreate, { ...good, exchangeRate: 0 })).toBe(ValidationMessages.exchangeRatePositive);
    expect(firstMessage(ExchangeRequestCreate, { ...good, exchangeRate: 1187.54321 })).toBe(
      ValidationMessages.exchangeRateDecimals,
    );
  });
});

describe('ids in paths and bodies', () => {
  it("'Invalid exchange request ID' unless the id is numeric", () => {
    for (const id of ['abc', '1.5', '-3', '0', '', '12abc', '1e3']) {
      expect(firstMessage(ExchangeRequestIdParam, id)).toBe('Invalid exchange request ID');
    }
    expect(ExchangeRequestIdParams.parse({ id: '42' })).toEqual({ id: 42 });
    expect(MatchesByRequestParams.parse({ requestId: '7' })).toEqual({ requestId: 7 });
    expect(messages(MatchesByRequestParams, { requestId: 'x' })).toEqual({ requestId: ['Invalid exchange request ID'] });
  });

  it("the generic id parameter says 'Invalid id'", () => {
    expect(IdParam.parse('12')).toBe(12);
    expect(firstMessage(IdParam, 'twelve')).toBe('Invalid id');
    expect(firstMessage(IdParam, '99999999999999999999')).toBe('Invalid id');
  });

  it('a match is created from a request id', () => {
    expect(ExchangeMatchCreate.parse({ exchangeRequestId: 3 })).toEqual({ exchangeRequestId: 3 });
    expect(firstMessage(ExchangeMatchCreate, { exchangeRequestId: 'three' })).toBe('Invalid exchange request ID');
  });

  it('other path parameters', () => {
    expect(VerificationTypeParams.parse({ type: 'phone' })).toEqual({ type: 'phone' });
    expect(firstMessage(VerificationTypeParams, { type: 'passport' })).toBe(ValidationMessages.verificationTypeInvalid);
    expect(ReferralCodeParams.parse({ code: ' ABC ' })).toEqual({ code: 'ABC' });
  });
});

describe('rating create', () => {
  it('parses a good payload; comment optional', () => {
    expect(RatingCreate.parse({ exchangeMatchId: 1, toUserId: 2, rating: 4, comment: ' Great ' })).toEqual({
      exchangeMatchId: 1,
      toUserId: 2,
      rating: 4,
      comment: 'Great',
    });
    expect(RatingCreate.parse({ exchangeMatchId: 1, toUserId: 2, rating: 5, comment: '' })).toEqual({
      exchangeMatchId: 1,
      toUserId: 2,
      rating: 5,
    });
  });

  it('rating is a whole number from 1 to 5', () => {
    for (const rating of [0, 6, 3.5, undefined]) {
      expect(messages(RatingCreate, { exchangeMatchId: 1, toUserId: 2, rating })).toEqual({
        rating: [ValidationMessages.ratingRange],
      });
    }
  });
});

describe('admin attempts query', () => {
  it('defaults limit and offset, treats blanks as no filter', () => {
    expect(AttemptsQuery.parse({ email: ' ', from: '', to: '2025-03-01' })).toEqual({
      limit: 50,
      offset: 0,
      to: '2025-03-01',
    });
    expect(AttemptsQuery.parse({ email: 'Ana@Example.com', from: now, limit: '500', offset: '20' })).toEqual({
      email: 'Ana@Example.com',
      from: now,
      limit: 500,
      offset: 20,
    });
  });

  it('refuses bad limits and dates', () => {
    expect(messages(AttemptsQuery, { limit: '501', offset: '-1', from: 'yesterday' })).toEqual({
      limit: [ValidationMessages.limitInvalid],
      offset: [ValidationMessages.offsetInvalid],
      from: [ValidationMessages.dateInvalid],
    });
    // A date-time must say its offset (UTC unless told); an impossible date is refused.
    expect(messages(AttemptsQuery, { from: '2025-03-01T10:00:00', to: '2025-02-30' })).toEqual({
      from: [ValidationMessages.dateInvalid],
      to: [ValidationMessages.dateInvalid],
    });
  });

  it('failure stats take the same email and date filters, without pagination', () => {
    expect(FailureStatsQuery.parse({ email: ' ana@example.com ', from: '2025-03-01', to: '', limit: '5' })).toEqual({
      email: 'ana@example.com',
      from: '2025-03-01',
    });
    expect(messages(FailureStatsQuery, { to: 'tomorrow' })).toEqual({ to: [ValidationMessages.dateInvalid] });
  });
});

describe('fieldErrors', () => {
  it('builds the api-conventions error body: first message, every field by dotted path', () => {
    const result = BankAccountCreate.safeParse({ currency: 'CLP', bankName: 'B', accountNumber: '1', accountHolder: 'H' });
    expect(result.success).toBe(false);
    if (result.success) return;
    const body = fieldErrors(result.error);
    expect(ErrorBody.parse(body)).toEqual(body);
    expect(body).toEqual({
      message: 'RUT is required for CLP accounts',
      errors: [
        { field: 'rut', message: 'RUT is required for CLP accounts' },
        { field: 'accountType', message: 'Account type is required for CLP accounts' },
        { field: 'email', message: 'Email is required for CLP accounts' },
      ],
    });
    const nested = HealthResponse.safeParse({ status: 'ok', services: 'all good' });
    expect(nested.success || fieldErrors(nested.error).errors[0]?.field).toBe('services');
  });
});

describe('response shapes', () => {
  const publicUser = {
    id: 1,
    firstName: 'Ana',
    lastName: 'Rojas',
    profileImageUrl: null,
    trustRating: 4.5,
    ratingCount: 2,
    transactionCount: 3,
    trustLevel: 'Silver',
    emailVerified: true,
    phoneVerified: false,
    idVerified: false,
    bankVerified: false,
    createdAt: now,
    completionRate: 66.7,
    averageCompletionMinutes: 38,
  };
  const gbpAccount = {
    id: 10,
    currency: 'GBP',
    bankName: 'Monzo',
    accountNumber: '12345678',
    accountHolder: 'Ana Rojas',
    sortCode: '040004',
    rut: null,
    holderMatchesName: true,
  };
  const clpAccount = {
    id: 11,
    currency: 'CLP',
    bankName: 'BancoEstado',
    accountNumber: '987654321',
    accountHolder: 'Ana Rojas',
    rut: '12345678-5',
    accountType: 'vista',
    email: 'ana@example.cl',
    holderMatchesName: null,
  };

  it('users: current, public (strict: no private keys), admin directory', () => {
    // The trade record is on the public views only; the current user is the spec's User.
    const { completionRate: _rate, averageCompletionMinutes: _minutes, ...userFields } = publicUser;
    const user = {
      ...userFields,
      email: 'ana@example.com',
      subscriptionTier: 'free',
      hasBothAccounts: true,
      role: 'user',
      trustScore: 48.5,
      language: 'es',
    };
    expect(CurrentUser.parse(user)).toEqual(user);
    expect(CurrentUser.safeParse({ ...user, language: 'fr' }).success).toBe(false);
    expect(CurrentUser.safeParse({ ...user, trustRating: 4.25 }).success).toBe(false);
    expect(CurrentUser.safeParse({ ...user, trustRating: null, trustLevel: 'Diamond' }).success).toBe(false);
    expect(PublicUser.parse(publicUser)).toEqual(publicUser);
    expect(PublicUser.safeParse({ ...publicUser, email: 'ana@example.com' }).success).toBe(false);
    expect(PublicUser.parse({ ...publicUser, completionRate: null, averageCompletionMinutes: null })).toBeTruthy();
    expect(PublicUser.safeParse({ ...publicUser, completionRate: 100.1 }).success).toBe(false);
    expect(PublicUser.safeParse({ ...publicUser, averageCompletionMinutes: 37.5 }).success).toBe(false);
    const admin = { ...publicUser, email: 'ana@example.com', role: 'admin', subscriptionTier: 'premium' };
    expect(AdminUserView.parse(admin)).toEqual(admin);
    expect(SignupRequestResponse.parse({ verificationToken: 'tok' })).toEqual({ verificationToken: 'tok' });
  });

  it('bank accounts', () => {
    expect(BankAccount.parse(gbpAccount)).toEqual(gbpAccount);
    expect(BankAccount.parse(clpAccount)).toEqual(clpAccount);
    // The payer-name flag is always said (null: the owner's name is not known yet).
    const { holderMatchesName: _flag, ...unflagged } = gbpAccount;
    expect(BankAccount.safeParse(unflagged).success).toBe(false);
  });

  it('exchange rate, requests, matches, match accounts and history', () => {
    expect(ExchangeRate.parse({ gbpToClp: 1187.5432, lastUpdated: now })).toBeTruthy();
    expect(ExchangeRate.safeParse({ gbpToClp: 1187.5432, lastUpdated: 'yesterday' }).success).toBe(false);
    const request = {
      id: 5,
      userId: 1,
      fromCurrency: 'GBP',
      toCurrency: 'CLP',
      amount: 500,
      exchangeRate: 1187.5432,
      status: 'open',
      createdAt: now,
      user: {
        firstName: 'Ana', lastName: 'Rojas', profileImageUrl: null, trustRating: null, transactionCount: 0,
        completionRate: null, averageCompletionMinutes: null, memberSince: now,
      },
    };
    expect(ExchangeRequest.parse(request)).toEqual(request);
    expect(ExchangeRequest.safeParse({ ...request, fromCurrency: 'CLP', toCurrency: 'GBP', amount: 10.5 }).success).toBe(
      false,
    );
    const { user: _poster, ...summary } = request;
    const match = {
      id: 9, exchangeRequestId: 5, matchedById: 2, matcherName: 'Ben Smith', status: 'pending', createdAt: now,
      exchangeRequest: { ...summary, status: 'matched' }, paidByIds: [], confirmedAt: null, payments: [], receipts: [], completedAt: null, completedById: null, receiptQuestion: null,
    };
    expect(ExchangeMatch.parse(match)).toEqual(match);
    // Beyond the spec's statuses: a match called off or expired, a request expired.
    expect(ExchangeMatch.parse({ ...match, status: 'expired' }).status).toBe('expired');
    expect(ExchangeMatch.parse({ ...match, status: 'cancelled' }).status).toBe('cancelled');
    expect(ExchangeRequest.parse({ ...request, status: 'expired' }).status).toBe('expired');
    expect(ExchangeMatch.safeParse({ ...match, status: 'declined' }).success).toBe(false);
    const accounts = {
      exchangeDetails: { id: 5, amount: 500, exchangeRate: 1187.5432, fromCurrency: 'GBP', toCurrency: 'CLP', status: 'confirmed' },
      myAccount: gbpAccount,
      partnerAccount: clpAccount,
      partnerDetails: {
        firstName: 'Ben',
        lastName: 'Smith',
        profileImageUrl: 'https://example.com/ben.png',
        verificationLevel: 'partial',
        transactionCount: 1,
        trustRating: 5,
      },
      isRequestor: true,
      expectedPayer: { accountHolder: 'BEN SMITH JONES', holderMatchesName: true },
    };
    expect(MatchAccountsResponse.parse(accounts)).toEqual(accounts);
    expect(MatchAccountsResponse.parse({ ...accounts, expectedPayer: null }).expectedPayer).toBeNull();
    const { expectedPayer: _payer, ...withoutPayer } = accounts;
    expect(MatchAccountsResponse.safeParse(withoutPayer).success).toBe(false);
    const item = {
      id: 9,
      exchangeRequestId: 5,
      exchangeMatchId: 9,
      fromCurrency: 'GBP',
      toCurrency: 'CLP',
      fromAmount: 500,
      toAmount: 593772,
      exchangeRate: 1187.5432,
      status: 'completed',
      completedAt: now,
      userRole: 'matcher',
      otherUser: { firstName: 'Ana', lastName: 'Rojas', email: 'ana@example.com' },
    };
    expect(TransactionHistoryItem.parse(item)).toEqual(item);
    expect(TransactionHistoryItem.parse({ ...item, otherUser: null })).toBeTruthy();
    expect(TransactionHistoryItem.parse({ ...item, exchangeMatchId: null, otherUser: undefined, userRole: 'requester' })).toBeTruthy(); // marked done
    expect(TransactionHistoryItem.safeParse({ ...item, toAmount: 593771.6 }).success).toBe(false);
  });

  it('the market list query: filters, order and paging', () => {
    expect(ExchangeRequestsQuery.parse({})).toEqual({ limit: 50, offset: 0, sort: 'newest' });
    // Query strings: numbers as text, blanks ignored (a form's empty filter).
    expect(ExchangeRequestsQuery.parse({ fromCurrency: 'CLP', minAmount: '1000', maxAmount: '', minTrust: '4.5', sort: 'trust', limit: '10' }))
      .toEqual({ fromCurrency: 'CLP', minAmount: 1000, minTrust: 4.5, sort: 'trust', limit: 10, offset: 0 });
    const problems = (query: Record<string, string>) => messagesByField(ExchangeRequestsQuery, query);
    expect(problems({ minAmount: '10' })).toEqual({ minAmount: [ValidationMessages.amountFilterNeedsCurrency] });
    expect(problems({ fromCurrency: 'GBP', minAmount: '10', maxAmount: '5' })).toEqual({ maxAmount: [ValidationMessages.amountRangeInvalid] });
    expect(problems({ fromCurrency: 'GBP', minAmount: '-1' })).toEqual({ minAmount: [ValidationMessages.minAmountInvalid] });
    expect(problems({ minTrust: '6' })).toEqual({ minTrust: [ValidationMessages.minTrustInvalid] });
    expect(problems({ sort: 'cheapest' })).toHaveProperty('sort');
  });

  it('ratings, notifications, live messages', () => {
    const rating = { id: 1, exchangeMatchId: 9, fromUserId: 2, toUserId: 1, rating: 4, comment: null, createdAt: now, fromUser: { firstName: 'Ben' } };
    expect(Rating.parse(rating)).toEqual(rating);
    const params = { amount: '500.00', fromCurrency: 'GBP', toCurrency: 'CLP' };
    const notification = { id: 3, type: 'exchange_match', content: 'Ben accepted your request', params, read: false, referenceId: 5, createdAt: now };
    expect(Notification.parse(notification)).toEqual(notification);
    // One stored before params is listed with null; a value the contract does not know, or a wrong one, is refused.
    expect(Notification.parse({ ...notification, params: null }).params).toBeNull();
    expect(Notification.safeParse({ ...notification, params: { ...params, name: 'Ben' } }).success).toBe(false);
    expect(Notification.safeParse({ ...notification, params: { stars: 6 } }).success).toBe(false);
    expect(NotificationCount.parse({ count: 12 })).toEqual({ count: 12 });
    expect(LiveMessage.parse({ type: 'new_notification', notification })).toEqual({ type: 'new_notification', notification });
    const data = { matchId: 9, requestId: 5 };
    expect(LiveMessage.parse({ type: 'match_success', data })).toEqual({ type: 'match_success', data });
    expect(LiveMessage.safeParse({ type: 'something_else' }).success).toBe(false);
  });

  it('subscription plans carry the spec numbers, info parses', () => {
    expect(Plan.parse(SubscriptionPlans.free)).toEqual(SubscriptionPlans.free);
    expect(Plan.parse(SubscriptionPlans.premium)).toEqual(SubscriptionPlans.premium);
    expect(SubscriptionPlans.premium.priceGbpPerMonth).toBe(9.99);
    expect(SubscriptionPlans.free.maxPerExchange).toEqual({ GBP: 200, CLP: 255000 });
    expect(SubscriptionPlans.premium.maxPerExchange).toEqual({ GBP: 10000, CLP: 12750000 });
    const info = {
      tier: 'free',
      status: 'none',
      currentPeriodEnd: null,
      cancelAtPeriodEnd: false,
      plan: SubscriptionPlans.free,
      payments: 'test',
      paymentNotice: 'Test mode — no real payment',
      publishableKey: null,
    };
    expect(SubscriptionInfo.parse(info)).toEqual(info);
    // Usage is the exchange service's alone (GET /api/exchange-requests/limits): a usage field is not part of info.
    expect(SubscriptionInfo.parse({ ...info, usage: { exchangesToday: 1 } })).toEqual(info);
  });

  it('admin attempts and failure stats', () => {
    const signup = {
      id: 1,
      email: 'ana@',
      step: 'request',
      status: 'failed',
      failureReason: 'invalid email',
      referralCode: 'ABC',
      ipAddress: '203.0.113.7',
      userAgent: 'Mozilla/5.0',
      inputAltered: false,
      createdAt: now,
    };
    expect(SignupAttempt.parse(signup)).toEqual(signup);
    const login = { ...signup, method: 'password', status: 'success', failureReason: null };
    expect(LoginAttempt.parse(login)).toBeTruthy();
    // The attempt events always carry an email (as typed), and their statuses and steps or methods.
    expect(LoginAttempt.safeParse({ ...login, email: null }).success).toBe(false);
    expect(LoginAttempt.safeParse({ ...login, status: 'pending' }).success).toBe(false);
    expect(SignupAttempt.safeParse({ ...signup, status: 'success' }).success).toBe(false);
    expect(SignupFailureStat.parse({ step: 'verify', failureReason: 'expired token', count: 3 })).toBeTruthy();
    // A failure the event recorded without a reason is counted under null.
    expect(LoginFailureStat.parse({ method: 'google', failureReason: null, count: 1 })).toBeTruthy();
    expect(LoginFailureStat.safeParse({ method: 'password', failureReason: 'wrong password', count: '3' }).success).toBe(false);
  });

  it('gateway health covers all seven services, and the saturation of each', () => {
    const services = {
      identity: 'ok',
      accounts: 'ok',
      exchange: 'ok',
      rating: 'down',
      notification: 'ok',
      subscription: 'ok',
      audit: 'ok',
    };
    const idle = { inFlight: 0, queued: 0, limit: 32, shed: { refused: 0, held: 0 } };
    const saturation = { ...Object.fromEntries(Object.keys(services).map((name) => [name, idle])), exchange: { inFlight: 32, queued: 5, limit: 32, shed: { refused: 12, held: 40 } } };
    const users = { served: 8000, limit: 7200, refused: 310 };
    expect(HealthResponse.parse({ status: 'degraded', services, saturation, users })).toEqual({ status: 'degraded', services, saturation, users });
    expect(HealthResponse.parse({ status: 'ok', services, saturation, users: null }).users).toBeNull();
    expect(HealthResponse.safeParse({ status: 'ok', services: { identity: 'ok' }, saturation, users }).success).toBe(false);
    expect(HealthResponse.safeParse({ status: 'degraded', services, saturation: { exchange: idle }, users }).success).toBe(false);
    expect(HealthResponse.safeParse({ status: 'degraded', services, saturation, users: { served: 1, limit: -1, refused: 0 } }).success).toBe(false);
  });
});
