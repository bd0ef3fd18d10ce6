import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { MatchAccountsResponse } from '@puente/contracts';
import { MatchConfirmedDialog } from './match-confirmed-dialog.tsx';
import { makeMatchAccounts } from '../testing.ts';
import { fakeApi, makeUser, signedIn } from '../../../testing/fake-api.ts';
import { renderWithRoutes } from '../../../testing/render.tsx';

const dialog = () => screen.getByRole('dialog');
const open = async (accounts: MatchAccountsResponse) => {
  fakeApi({ ...signedIn(makeUser({ id: 7 })), 'GET /api/exchange-matches/5/accounts': { body: MatchAccountsResponse.parse(accounts) } });
  renderWithRoutes(<MatchConfirmedDialog matchId={5} onClose={() => {}} />);
  return within(dialog()).findByTestId('expected-payer');
};

describe('the payer-name check in the bank details', () => {
  it("tells each party whose name the money must come from, with no warning when every holder is the user's name", async () => {
    expect((await open(makeMatchAccounts(false))).textContent).toBe(
      'Pay only from an account in your own name; expect the money from Bea Soto. If it comes from anyone else, do not mark the exchange completed.',
    );
    expect(within(dialog()).queryByTestId('partner-holder-mismatch')).toBeNull();
    expect(within(dialog()).queryByTestId('my-holder-mismatch')).toBeNull();
  });

  it("warns when the partner's or the user's own account holder differs from their profile name", async () => {
    const bea = makeMatchAccounts(true);
    const payer = await open({
      ...bea,
      myAccount: { ...bea.myAccount, accountHolder: 'Soto Ltd', holderMatchesName: false },
      expectedPayer: { accountHolder: 'Carla Díaz', holderMatchesName: false },
    });
    expect(payer.textContent).toContain('expect the money from Carla Díaz.');
    expect(within(dialog()).getByTestId('partner-holder-mismatch').textContent).toBe(
      "Ana Rojas's account holder name differs from their profile name. Check whose name the money comes from before you mark the exchange completed.",
    );
    expect(within(dialog()).getByTestId('my-holder-mismatch').textContent).toBe(
      'The holder of your account, "Soto Ltd", differs from your profile name, so Ana Rojas is warned about it. Exchange only through accounts in your own name.',
    );
  });

  it('names no payer once the partner\'s paying account is gone (after completion), and still shows the details', async () => {
    fakeApi({ ...signedIn(makeUser({ id: 7 })), 'GET /api/exchange-matches/5/accounts': { body: { ...makeMatchAccounts(false), expectedPayer: null } } });
    renderWithRoutes(<MatchConfirmedDialog matchId={5} onClose={() => {}} />);
    expect(await within(dialog()).findByRole('region', { name: "Bea Soto's account" })).toBeTruthy();
    expect(within(dialog()).queryByTestId('expected-payer')).toBeNull();
  });
});
