import { z } from 'zod';
/**
 * User-supplied text: control characters and lone surrogates are refused (PostgreSQL cannot store NUL in text nor
 * a lone surrogate in JSON, so they must be a 400, not a 500), text is trimmed and NFC-normalised, and passwords are
 * kept exactly as typed.
 */
import { describe, expect, it } from 'vitest';
import {
  type ApiRoute,
  ApiRoutes,
  AttemptsQuery,
  BankAccountCreate,
  BankAccountMessages as B,
  BankAccountUpdate,
  ChangePasswordRequest,
  EmailAddress,
  GoogleLoginQuery,
  IdentityMessages as IM,
  LoginRequest,
  NewPassword,
  ReferralCodeParams,
  ResetPasswordRequest,
  SignupRequest,
  UserProfileUpdate,
  ValidationMessages as M,
  isSafeText,
  messagesByField,
  optionalText,
  requestFields,
  requiredText,
  safeText,
} from './index.ts';

const NUL = 'a\u0000b';
const LONE_SURROGATE = 'a\ud800b';
/** Other control characters: bell, escape, DEL, a C1 control (NEL), a line break inside one-line text. */
const OTHER_CONTROLS = ['a\u0007b', 'a\u001bb', 'a\u007fb', 'a\u0085b', 'a\nb', 'a\tb'];
const messages = messagesByField;

describe('isSafeText', () => {
  it('refuses control characters and lone surrogates, and allows tabs and line breaks only in multi-line text', () => {
    for (const value of [NUL, LONE_SURROGATE, '\udc00', 'x\ud800', ...OTHER_CONTROLS]) expect([value, isSafeText(value)]).toEqual([value, false]);
    for (const value of ['Ana', 'José', 'Ñuñoa 😀', '北京', 'a\u00a0b']) expect([value, isSafeText(value)]).toEqual([value, true]);
    expect(isSafeText('line one\r\nline two\ttabbed', { multiline: true })).toBe(true);
    for (const value of [NUL, LONE_SURROGATE, 'a\u0007b', 'a\u0085b']) expect(isSafeText(value, { multiline: true })).toBe(false);
  });
});

describe('text fields', () => {
  it('trims, then refuses what is left with the field message, then NFC-normalises', () => {
    const name = requiredText('Name is required', { invalid: 'Name is not allowed' });
    expect(name.parse('  Jose\u0301 \n')).toBe('Jos\u00e9');
    expect(name.parse('\u212b')).toBe('\u00c5'); // Angstrom sign to its NFC form
    for (const value of [NUL, LONE_SURROGATE, ...OTHER_CONTROLS]) expect(messages(name, value)).toEqual({ '': ['Name is not allowed'] });
    expect(messages(name, '  ')).toEqual({ '': ['Name is required'] });
    expect(messages(name, 5)).toEqual({ '': ['Name is required'] });
    expect(messages(safeText(), NUL)).toEqual({ '': [M.textInvalidCharacters] });
    expect(messages(optionalText(), LONE_SURROGATE)).toEqual({ '': [M.textInvalidCharacters] });
    expect(optionalText().parse('')).toBeUndefined();
  });

  it('keeps tabs and line breaks in multi-line text, refusing other control characters', () => {
    const comment = safeText({ multiline: true });
    expect(comment.parse(' Great trade.\r\n\tThanks! ')).toBe('Great trade.\r\n\tThanks!');
    expect(messages(comment, 'a\u0000b')).toEqual({ '': [M.textInvalidCharacters] });
  });

  it('names the field in the message for names, referral codes and bank details', () => {
    for (const value of [NUL, LONE_SURROGATE]) {
      expect(messages(UserProfileUpdate, { firstName: value, lastName: value })).toEqual({
        firstName: [IM.firstNameInvalidCharacters], lastName: [IM.lastNameInvalidCharacters],
      });
      expect(messages(ReferralCodeParams, { code: value })).toEqual({ code: [IM.referralCodeInvalidCharacters] });
      expect(messages(BankAccountUpdate, { bankName: value, accountNumber: value, accountHolder: value })).toEqual({
        bankName: [B.bankNameInvalidCharacters], accountNumber: [B.accountNumberInvalidCharacters],
        accountHolder: [B.accountHolderInvalidCharacters],
      });
      expect(messages(EmailAddress, `ana${value}@example.com`)).toEqual({ '': [M.emailInvalid] });
      expect(messages(AttemptsQuery, { email: value })).toEqual({ email: [M.textInvalidCharacters] });
    }
    const clp = {
      currency: 'CLP', bankName: 'BancoEstado', accountNumber: '987654321', accountHolder: 'Ana', accountType: 'vista',
      rut: `12.345.678-5${'\u0000'}`, email: `ana@example.cl${'\ud800'}`, iban: '\u0007',
    };
    expect(messages(BankAccountCreate, clp)).toEqual({ rut: [B.rutInvalid], email: [M.bankAccountEmailInvalid], iban: [B.ibanInvalid] });
  });

  it('NFC-normalises names on sign-up and edits', () => {
    const signup = SignupRequest.parse({
      email: 'ana@example.com', password: 'password1', firstName: 'Zo\u00eb', lastName: 'Mun\u0303oz', referralCode: 'ABC',
    });
    expect([signup.firstName, signup.lastName]).toEqual(['Zo\u00eb', 'Mu\u00f1oz']);
    expect(UserProfileUpdate.parse({ lastName: 'Mun\u0303oz' })).toEqual({ lastName: 'Mu\u00f1oz' });
  });

  it('ignores a hostile referral code on the Google sign-in link (the link still works, without the code)', () => {
    expect(GoogleLoginQuery.safeParse({ referralCode: NUL }).success).toBe(false);
    expect(GoogleLoginQuery.parse({ referralCode: ' ABC ' })).toEqual({ referralCode: 'ABC' });
  });
});

describe('passwords', () => {
  const typed = '  pa\u0301ss wörd\t ';

  it('are kept exactly as typed: no trimming, no normalising', () => {
    expect(LoginRequest.parse({ email: 'ana@example.com', password: typed }).password).toBe(typed);
    expect(NewPassword.parse(typed)).toBe(typed);
    expect(ChangePasswordRequest.parse({ currentPassword: typed, newPassword: typed })).toEqual({ currentPassword: typed, newPassword: typed });
    expect(ResetPasswordRequest.parse({ token: 'tok', password: typed }).password).toBe(typed);
    expect(SignupRequest.parse({ email: 'a@b.co', password: typed, firstName: 'A', lastName: 'B', referralCode: 'C' }).password).toBe(typed);
  });

  it('refuse NUL and lone surrogates, and nothing else', () => {
    for (const value of ['password\u0000', '\ud800password', 'password\udfff']) {
      expect(messages(LoginRequest, { email: 'ana@example.com', password: value })).toEqual({ password: [M.passwordInvalidCharacters] });
      expect(messages(NewPassword, value)).toEqual({ '': [M.passwordInvalidCharacters] });
      expect(messages(ChangePasswordRequest, { currentPassword: value, newPassword: value })).toEqual({
        currentPassword: [M.passwordInvalidCharacters], newPassword: [M.passwordInvalidCharacters],
      });
    }
    expect(NewPassword.parse('bell\u0007and escape\u001b')).toBe('bell\u0007and escape\u001b');
    expect(messages(LoginRequest, { email: 'ana@example.com', password: '' })).toEqual({ password: [M.passwordRequired] });
  });
});

describe('every request schema of ApiRoutes', () => {
  // Internal routes take what another service sends, and Stripe's webhook is checked by its signature, not a schema.
  const validated = (ApiRoutes as readonly ApiRoute[]).filter((route) => route.access !== 'internal' && !(route.body instanceof z.ZodUnknown));
  const schemas = validated.flatMap((route) => (['body', 'params', 'query'] as const).flatMap((part) => {
    const schema = route[part];
    return schema ? [{ name: `${route.method} ${route.path} ${part}`, schema }] : [];
  }));

  it('has fields', () => {
    expect(schemas.length).toBeGreaterThan(20);
    for (const { name, schema } of schemas) expect([name, requestFields(schema).length > 0]).toEqual([name, true]);
  });


  it.each([['NUL', NUL], ['a lone surrogate', LONE_SURROGATE]])('refuses %s in every field, with a message for that field', (_what, value) => {
    const accepted: string[] = [];
    for (const { name, schema } of schemas) {
      for (const field of requestFields(schema)) {
        if ((messages(schema, { [field]: value })[field] ?? []).length === 0) accepted.push(`${name} ${field}`);
      }
    }
    expect(accepted).toEqual([]);
  });
});
