import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { BankAccountMessages, type BankAccountCreate } from '@puente/contracts';
import { describe, expect, it } from 'vitest';
import { BankAccount, sealNewAccount } from './bank-account.ts';
import { addBankAccount, removeBankAccount, updateBankAccount } from './bank-account-changes.ts';
import { bankCipher, parseEncryptionKeys } from './encryption.ts';
import { refusal } from '@puente/platform/testing';

const OWNER = 7;
const oldKey = `old:${randomBytes(32).toString('base64')}`;
const newKey = `new:${randomBytes(32).toString('base64')}`;
const oldCipher = bankCipher(parseEncryptionKeys(oldKey));
const cipher = bankCipher(parseEncryptionKeys(`${newKey},${oldKey}`));

const gbp: BankAccountCreate = { currency: 'GBP', bankName: 'Monzo', accountNumber: '31926819', accountHolder: 'Ana Rojas', sortCode: '040004' };

/** A stored GBP account, its details sealed with the old key. */
const anAccount = () => Object.assign(new BankAccount(), { id: 5, ...sealNewAccount(oldCipher, OWNER, gbp) });

describe('bank account changes', () => {
  it('add: the account is stored with its details sealed for its owner, then announced with the id it got', async () => {
    const stored: BankAccount[] = [];
    const em = {
      create: (_entity: unknown, data: object) => { const a = Object.assign(new BankAccount(), data); stored.push(a); return a; },
      flush: async () => { for (const a of stored) a.id = 11; }, // the id the database gives it
    };
    const { value, events } = await addBankAccount(em as unknown as EntityManager, cipher, OWNER, gbp);
    expect(stored).toEqual([value]);
    expect(value).toMatchObject({ id: 11, userId: OWNER, currency: 'GBP', bankName: 'Monzo', accountHolder: 'Ana Rojas' });
    expect(cipher.open('accountNumber', OWNER, value.accountNumberSealed)).toBe('31926819');
    expect(value.accountNumberSealed.startsWith('new:')).toBe(true);
    expect(events).toMatchObject([{ type: 'accounts.bank-account.added', aggregateId: '11', payload: { accountId: 11, userId: OWNER, currency: 'GBP' } }]);
  });

  it('update: the name, holder and number change (normalised), every detail is sealed again with the current key', () => {
    const account = anAccount();
    const events = updateBankAccount(cipher, account, { bankName: 'Lloyds', accountNumber: '8765 4321', accountHolder: 'Ana M. Rojas' });
    expect(account).toMatchObject({ currency: 'GBP', bankName: 'Lloyds', accountHolder: 'Ana M. Rojas' });
    expect(cipher.open('accountNumber', OWNER, account.accountNumberSealed)).toBe('87654321');
    expect(account.sortCodeSealed!.startsWith('new:')).toBe(true);
    expect(cipher.open('sortCode', OWNER, account.sortCodeSealed!)).toBe('040004');
    expect(events).toMatchObject([{ type: 'accounts.bank-account.updated', aggregateId: '5', payload: { accountId: 5, userId: OWNER, currency: 'GBP' } }]);
  });

  it('update: refused (400) for a number its currency does not allow, the account left as it was', () => {
    const account = anAccount();
    const before = { ...account };
    expect(refusal(() => updateBankAccount(cipher, account, { bankName: 'Lloyds', accountNumber: '123', accountHolder: 'Ana' }))).toEqual({
      status: 400, code: 'validation_failed', message: BankAccountMessages.gbpAccountNumberInvalid,
    });
    expect({ ...account }).toEqual(before);
  });

  it('remove: the account is marked for deletion and its removal announced', () => {
    const removed: BankAccount[] = [];
    const account = anAccount();
    const events = removeBankAccount({ remove: (a: BankAccount) => removed.push(a) } as unknown as EntityManager, account);
    expect(removed).toEqual([account]);
    expect(events).toMatchObject([{ type: 'accounts.bank-account.removed', aggregateId: '5', payload: { accountId: 5, userId: OWNER, currency: 'GBP' } }]);
  });
});
