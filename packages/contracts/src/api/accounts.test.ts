import { describe, expect, it } from 'vitest';
import {
  BankAccountCreate,
  BankAccountMessages as B,
  MatchAccountsQuery,
  bankAccountUpdateFor,
  fieldErrors,
  isValidIban,
  formatRut,
  isValidRut,
  rutCheckDigit,
  messagesByField,
} from './index.ts';

const messages = messagesByField;

const gbp = { currency: 'GBP', bankName: 'Monzo', accountNumber: '12345678', accountHolder: 'Ana Rojas', sortCode: '04-00-04' };
const clp = {
  currency: 'CLP', bankName: 'BancoEstado', accountNumber: '987654321', accountHolder: 'Ana Rojas',
  rut: '12.345.678-5', accountType: 'vista', email: 'ana@example.cl',
};

describe('RUT check digit (modulo 11)', () => {
  it('computes known check digits, including 0 and K', () => {
    expect(rutCheckDigit('12345678')).toBe('5');
    expect(rutCheckDigit('11111111')).toBe('1');
    expect(rutCheckDigit('10000004')).toBe('0');
    expect(rutCheckDigit('10000013')).toBe('K');
  });

  it('accepts the dotted, plain and compact forms, and k in either case', () => {
    for (const rut of ['12.345.678-5', '12345678-5', '123456785', ' 12.345.678-5 ', '10.000.013-k', '10000013-K', '1.234.567-4']) {
      expect([rut, isValidRut(rut)]).toEqual([rut, true]);
    }
  });

  it('refuses a wrong check digit, letters, misplaced dots, a leading zero or too many digits', () => {
    for (const rut of ['12.345.678-4', '12345678-K', '12.34.5678-5', 'ABC', '012345678-5', '123.456.789-2', '-5', '']) {
      expect([rut, isValidRut(rut)]).toEqual([rut, false]);
    }
  });
});

describe('RUT as shown', () => {
  it('writes the number with dots in thousands and a hyphen before the check digit, from any accepted form', () => {
    expect(['12345678-5', '123456785', '12.345.678-5', ' 10000013-k ', '1234567-4', '9-9'].map(formatRut))
      .toEqual(['12.345.678-5', '12.345.678-5', '12.345.678-5', '10.000.013-K', '1.234.567-4', '9-9']);
  });

  it('leaves what is not shaped like a RUT as it is', () => {
    expect(['', 'abc', '12-34-56', '1.2345-6'].map(formatRut)).toEqual(['', 'abc', '12-34-56', '1.2345-6']);
  });
});

describe('IBAN (mod 97)', () => {
  it('accepts valid IBANs, with or without spaces, any case', () => {
    for (const iban of ['GB33BUKB20201555555555', 'GB82 WEST 1234 5698 7654 32', 'de89370400440532013000', 'NO9386011117947']) {
      expect([iban, isValidIban(iban)]).toEqual([iban, true]);
    }
  });

  it('refuses a wrong checksum or a malformed one', () => {
    for (const iban of ['GB34BUKB20201555555555', 'GB82WEST12345698765433', '33GBBUKB20201555555555', 'GB33', 'GB33BUKB2020155555555!']) {
      expect([iban, isValidIban(iban)]).toEqual([iban, false]);
    }
  });
});

describe('bank account create: bank-grade checks', () => {
  it('stores normal forms: RUT 12345678-5, sort code and GBP account number as digits, IBAN compact and upper case', () => {
    expect(BankAccountCreate.parse({ ...gbp, sortCode: '12 34 56', accountNumber: '1234 5678', iban: 'gb82 west 1234 5698 7654 32' }))
      .toMatchObject({ sortCode: '123456', accountNumber: '12345678', iban: 'GB82WEST12345698765432' });
    expect(BankAccountCreate.parse({ ...clp, rut: '10000013-k', accountNumber: '00-123-45678-09' }))
      .toMatchObject({ rut: '10000013-K', accountNumber: '00-123-45678-09' });
  });

  it('names the field of each failed check, all at once', () => {
    expect(messages(BankAccountCreate, { ...clp, rut: '12.345.678-4', iban: 'GB34BUKB20201555555555', accountNumber: '12AB' })).toEqual({
      accountNumber: [B.clpAccountNumberInvalid],
      rut: [B.rutInvalid],
      iban: [B.ibanInvalid],
    });
    expect(messages(BankAccountCreate, { ...gbp, sortCode: '12-34-5', accountNumber: '1234567' })).toEqual({
      accountNumber: [B.gbpAccountNumberInvalid],
      sortCode: [B.sortCodeInvalid],
    });
    expect(messages(BankAccountCreate, { ...gbp, sortCode: '12-3456-' })).toEqual({ sortCode: [B.sortCodeInvalid] });
  });

  it("keeps the spec's message alone for a missing field, and puts it first", () => {
    expect(messages(BankAccountCreate, { ...gbp, accountNumber: ' ', sortCode: '1' })).toEqual({
      accountNumber: ['Account number is required'],
      sortCode: [B.sortCodeInvalid],
    });
    expect(fieldErrors(BankAccountCreate.safeParse({ ...gbp, bankName: '', sortCode: '1' }).error!).message).toBe('Bank name is required');
  });

  it('checks only the fields of the currency: a GBP account ignores a bad RUT', () => {
    expect(BankAccountCreate.safeParse({ ...gbp, rut: 'nonsense' }).success).toBe(true);
    expect(BankAccountCreate.safeParse({ ...clp, sortCode: 'nonsense' }).success).toBe(true);
  });

  it('limits the length of names', () => {
    expect(messages(BankAccountCreate, { ...gbp, bankName: 'x'.repeat(101), accountHolder: 'y'.repeat(101) })).toEqual({
      bankName: [B.bankNameTooLong],
      accountHolder: [B.accountHolderTooLong],
    });
  });
});

describe('bank account update for a currency', () => {
  it('applies the account-number rule of the account and strips other keys', () => {
    const body = { bankName: 'Lloyds', accountNumber: '8765-4321', accountHolder: 'Ana', currency: 'CLP', rut: '1-9' };
    expect(bankAccountUpdateFor('GBP').parse(body)).toEqual({ bankName: 'Lloyds', accountNumber: '87654321', accountHolder: 'Ana' });
    expect(messages(bankAccountUpdateFor('GBP'), { ...body, accountNumber: '123' })).toEqual({ accountNumber: [B.gbpAccountNumberInvalid] });
    expect(bankAccountUpdateFor('CLP').parse({ ...body, accountNumber: '123' })).toMatchObject({ accountNumber: '123' });
  });
});

describe('internal match-accounts query', () => {
  const terms = { matchId: '12', fromCurrency: 'GBP', toCurrency: 'CLP' };
  it('takes a match, its two different parties and its two currencies', () => {
    expect(MatchAccountsQuery.parse({ ...terms, userIds: '3, 7' })).toEqual({ matchId: 12, userIds: [3, 7], fromCurrency: 'GBP', toCurrency: 'CLP' });
    for (const userIds of [undefined, '', '3', '3,3', '3,7,9', '3,x']) {
      expect(MatchAccountsQuery.safeParse({ ...terms, userIds }).success).toBe(false);
    }
    for (const bad of [{ matchId: undefined }, { matchId: 'x' }, { fromCurrency: 'EUR' }, { toCurrency: 'GBP' }]) {
      expect(MatchAccountsQuery.safeParse({ ...terms, userIds: '3,7', ...bad }).success).toBe(false);
    }
  });
});
