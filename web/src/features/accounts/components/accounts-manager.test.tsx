import { describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { BankAccount } from '@puente/contracts';
import { chooseLanguage } from '../../../lib/i18n.ts';
import { AccountsManager } from './accounts-manager.tsx';
import { AccountsOverview } from './accounts-overview.tsx';
import { fakeApi, makeUser, signedIn } from '../../../testing/fake-api.ts';
import { findToast, renderWithRoutes } from '../../../testing/render.tsx';

const gbp: BankAccount = { id: 1, currency: 'GBP', bankName: 'Monzo', accountNumber: '31926819', accountHolder: 'Ana Rojas', sortCode: '040004', rut: null, accountType: null, email: null, iban: null, holderMatchesName: true };
const clp: BankAccount = { id: 2, currency: 'CLP', bankName: 'BancoEstado', accountNumber: '00123456789', accountHolder: 'Ana Rojas', rut: '12345678-5', accountType: 'vista', email: 'ana@example.cl', sortCode: null, iban: null, holderMatchesName: true };

const dialog = () => screen.getByRole('dialog');
const inDialog = (label: string) => within(dialog()).getByLabelText(new RegExp(`^${label}`), { selector: 'input' });
const fill = (label: string, value: string) => fireEvent.change(inDialog(label), { target: { value } });
const helper = (label: string) => document.getElementById(inDialog(label).getAttribute('aria-describedby') ?? '')?.textContent?.replace(/\u200b/g, '').trim();

async function openAddDialog(currency: 'GBP' | 'CLP') {
  fireEvent.click(await screen.findByRole('tab', { name: 'Add Account' }));
  fireEvent.click(screen.getByRole('button', { name: `Add ${currency} Account` }));
  await screen.findByRole('dialog');
}

describe('the accounts page', () => {
  it('warns while a currency is missing, and disables the add card of an existing one as Account Added', async () => {
    fakeApi({ ...signedIn(), 'GET /api/bank-accounts': { body: [gbp] } });
    renderWithRoutes(<AccountsManager />);
    expect(await screen.findByText('Missing CLP account')).toBeTruthy();
    expect(screen.getByText(/You need both a GBP and a CLP account to create exchange requests/)).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'My Accounts' }).getAttribute('aria-selected')).toBe('true');
    fireEvent.click(screen.getByRole('tab', { name: 'Add Account' }));
    const added = screen.getByRole('button', { name: 'Account Added' }) as HTMLButtonElement;
    expect(added.disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Add CLP Account' }) as HTMLButtonElement).disabled).toBe(false);
    expect(screen.getByText('Security note')).toBeTruthy();
    expect(screen.getByText('Your bank details are shared only when both parties confirm an exchange.')).toBeTruthy();
  });

  it('masks account numbers to their last 4 characters and shows no warning with both accounts', async () => {
    fakeApi({ ...signedIn(), 'GET /api/bank-accounts': { body: [gbp, clp] } });
    const { container } = renderWithRoutes(<AccountsManager />);
    expect(await screen.findByText('•••• 6819')).toBeTruthy();
    expect(screen.getByText('•••• 6789')).toBeTruthy();
    expect(screen.getByText('04-00-04')).toBeTruthy();
    expect(container.textContent).not.toContain('31926819');
    expect(container.textContent).not.toContain('00123456789');
    expect(screen.queryByText(/You need both a GBP and a CLP account/)).toBeNull();
  });

  it("shows the RUT as 12.345.678-5 and the account type in the bank's words, in English and in Spanish", async () => {
    fakeApi({ ...signedIn(), 'GET /api/bank-accounts': { body: [gbp, clp] } });
    renderWithRoutes(<AccountsManager />);
    const card = await screen.findByRole('article', { name: 'CLP account at BancoEstado' });
    expect(card.textContent).toContain('RUT12.345.678-5');
    expect(card.textContent).toContain('Account typeVista account (Cuenta Vista)');
    await act(() => chooseLanguage('es'));
    const tarjeta = screen.getByRole('article', { name: /BancoEstado/ });
    expect(tarjeta.textContent).toContain('RUT12.345.678-5');
    expect(tarjeta.textContent).toContain('Tipo de cuentaCuenta Vista');
  });

  it("flags an account whose holder is not the user's name, and only that one (none while the name is unknown)", async () => {
    const other = { ...gbp, accountHolder: 'Pedro Silva', holderMatchesName: false };
    fakeApi({ ...signedIn(), 'GET /api/bank-accounts': { body: [other, { ...clp, holderMatchesName: null }] } });
    renderWithRoutes(<AccountsManager />);
    const flagged = await screen.findByRole('article', { name: 'GBP account at Monzo' });
    expect(within(flagged).getByRole('alert').textContent).toBe(
      'Not in your nameThe account holder "Pedro Silva" does not match your profile name. Send and receive money only through accounts in your own name: your exchange partners are warned when the names differ. If this is your account, write the holder name as your bank shows it.',
    );
    expect(within(screen.getByRole('article', { name: 'CLP account at BancoEstado' })).queryByRole('alert')).toBeNull();
  });

  it('opens the number pad for account numbers and sort codes: inputmode on the <input> itself', async () => {
    fakeApi({ ...signedIn(), 'GET /api/bank-accounts': { body: [] } });
    renderWithRoutes(<AccountsManager />);
    await openAddDialog('GBP');
    for (const label of ['Account number', 'Sort code']) expect([label, inDialog(label).getAttribute('inputmode')]).toEqual([label, 'numeric']);
    expect(inDialog('Bank name').getAttribute('inputmode')).toBeNull();
    expect(dialog().querySelector('div[inputmode]')).toBeNull();
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await openAddDialog('CLP');
    expect(inDialog('Account number').getAttribute('inputmode')).toBe('numeric');
    expect(inDialog('RUT').getAttribute('inputmode')).toBeNull(); // its check digit may be K
  });

  it('shows the GBP messages of spec section 5 in the dialog', async () => {
    const server = fakeApi({ ...signedIn(), 'GET /api/bank-accounts': { body: [] } });
    renderWithRoutes(<AccountsManager />);
    await openAddDialog('GBP');
    expect(within(dialog()).queryByLabelText(/^RUT/)).toBeNull();
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Add Account' }));
    await waitFor(() => expect(helper('Bank name')).toBe('Bank name is required'));
    expect(helper('Account number')).toBe('Account number is required');
    expect(helper('Account holder name')).toBe('Account holder name is required');
    expect(helper('Sort code')).toBe('Sort code is required for GBP accounts');
    expect(server.callsTo('POST /api/bank-accounts')).toHaveLength(0);
  });

  it('shows the CLP messages of spec section 5, including the email ones', async () => {
    fakeApi({ ...signedIn(), 'GET /api/bank-accounts': { body: [] } });
    renderWithRoutes(<AccountsManager />);
    await openAddDialog('CLP');
    expect(within(dialog()).queryByLabelText(/^Sort code/)).toBeNull();
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Add Account' }));
    await waitFor(() => expect(helper('RUT')).toBe('RUT is required for CLP accounts'));
    expect(helper('Email')).toBe('Email is required for CLP accounts');
    expect(within(dialog()).getByText('Account type is required for CLP accounts')).toBeTruthy();
    fill('Email', 'not-an-email');
    await waitFor(() => expect(helper('Email')).toBe('Invalid email'));
  });

  it('sends only the fields of the currency, then shows Account Created', async () => {
    const server = fakeApi({
      ...signedIn(),
      'GET /api/bank-accounts': { body: [] },
      'POST /api/bank-accounts': { status: 201, body: gbp },
    });
    renderWithRoutes(<AccountsManager />);
    await openAddDialog('GBP');
    fill('Bank name', 'Monzo');
    fill('Account holder name', 'Ana Rojas');
    fill('Account number', '3192 6819');
    fill('Sort code', '04-00-04');
    server.on({ 'GET /api/bank-accounts': { body: [gbp] } });
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Add Account' }));
    const toast = await findToast();
    expect(within(toast).getByText('Account Created')).toBeTruthy();
    expect(server.callsTo('POST /api/bank-accounts')[0]?.body).toEqual({
      currency: 'GBP', bankName: 'Monzo', accountHolder: 'Ana Rojas', accountNumber: '31926819', sortCode: '040004',
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByText('•••• 6819')).toBeTruthy();
  });

  it("shows 'Failed to create account: ...' with the server's message and marks its fields", async () => {
    fakeApi({
      ...signedIn(),
      'GET /api/bank-accounts': { body: [] },
      'POST /api/bank-accounts': { status: 409, body: { message: 'You already have a GBP account', code: 'bank_account_exists' } },
    });
    renderWithRoutes(<AccountsManager />);
    await openAddDialog('GBP');
    fill('Bank name', 'Monzo');
    fill('Account holder name', 'Ana Rojas');
    fill('Account number', '31926819');
    fill('Sort code', '040004');
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Add Account' }));
    expect(await screen.findByText('Failed to create account: You already have a GBP account')).toBeTruthy();
    expect(screen.getByRole('dialog')).toBeTruthy();
  });

  it('edits only bank name, account number and holder, keeping the currency', async () => {
    const server = fakeApi({
      ...signedIn(),
      'GET /api/bank-accounts': { body: [clp] },
      'PUT /api/bank-accounts/2': { body: { ...clp, bankName: 'Banco de Chile' } },
    });
    renderWithRoutes(<AccountsManager />);
    fireEvent.click(await screen.findByRole('button', { name: 'Edit CLP account' }));
    expect(within(dialog()).getByText('Edit CLP Account')).toBeTruthy();
    expect(within(dialog()).queryByLabelText(/^RUT/)).toBeNull();
    fill('Bank name', '');
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(helper('Bank name')).toBe('Bank name is required'));
    fill('Bank name', 'Banco de Chile');
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Account Updated')).toBeTruthy();
    expect(server.callsTo('PUT /api/bank-accounts/2')[0]?.body).toEqual({ bankName: 'Banco de Chile', accountNumber: '00123456789', accountHolder: 'Ana Rojas' });
  });

  it("asks 'Are you sure you want to delete this account?' before deleting", async () => {
    const server = fakeApi({
      ...signedIn(),
      'GET /api/bank-accounts': { body: [gbp] },
      'DELETE /api/bank-accounts/1': { status: 500, body: { message: 'Something failed on our side' } },
    });
    renderWithRoutes(<AccountsManager />);
    fireEvent.click(await screen.findByRole('button', { name: 'Delete GBP account' }));
    expect(within(dialog()).getByText('Are you sure you want to delete this account?')).toBeTruthy();
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(server.callsTo('DELETE /api/bank-accounts/1')).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: 'Delete GBP account' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Failed to delete account: Something failed on our side')).toBeTruthy();

    server.on({ 'DELETE /api/bank-accounts/1': { status: 204 }, 'GET /api/bank-accounts': { body: [] } });
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Account Deleted')).toBeTruthy();
    expect(await screen.findByText('You have not added any bank accounts yet.')).toBeTruthy();
  });
});

describe("the dashboard's accounts section", () => {
  it('has a Manage link and three states: none, one (add the other currency), both', async () => {
    const server = fakeApi({ ...signedIn(), 'GET /api/bank-accounts': { body: [] } });
    const first = renderWithRoutes(<AccountsOverview />);
    expect(await screen.findByText('No bank accounts yet')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Manage' }).getAttribute('href')).toBe('/accounts');
    first.unmount();

    server.on({ 'GET /api/bank-accounts': { body: [clp] } });
    const second = renderWithRoutes(<AccountsOverview />);
    expect(await screen.findByText('Add your GBP account to start exchanging.')).toBeTruthy();
    expect(screen.getByText('•••• 6789')).toBeTruthy();
    second.unmount();

    server.on({ 'GET /api/bank-accounts': { body: [gbp, clp] } });
    renderWithRoutes(<AccountsOverview />);
    expect(await screen.findByText('GBP · Monzo')).toBeTruthy();
    expect(screen.queryByText(/to start exchanging/)).toBeNull();
  });

  it("counts the user's hasBothAccounts as having both", async () => {
    fakeApi({ ...signedIn(makeUser({ hasBothAccounts: true })), 'GET /api/bank-accounts': { body: [gbp] } });
    renderWithRoutes(<AccountsOverview />);
    expect(await screen.findByText('GBP · Monzo')).toBeTruthy();
    await new Promise((r) => setTimeout(r, 20));
    expect(screen.queryByText(/to start exchanging/)).toBeNull();
  });
});
