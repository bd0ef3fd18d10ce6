import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { BankDetailsMessages, BankDetailsRefusal, Rating } from '@puente/contracts';
import { chooseLanguage, i18n } from '../../../lib/i18n.ts';
import { COPY_FEEDBACK_MS, MatchConfirmedDialog } from './match-confirmed-dialog.tsx';
import { RateExchangeDialog } from './rate-exchange-dialog.tsx';
import { TradeDialogs } from './trade-dialogs.tsx';
import { makeMatch, makeMatchAccounts, makeRequest } from '../testing.ts';
import { fakeApi, makeUser, signedIn } from '../../../testing/fake-api.ts';
import { findToast, renderWithRoutes } from '../../../testing/render.tsx';

const ana = makeUser({ id: 7 });
const dialog = () => screen.getByRole('dialog');

describe('the bank details dialog', () => {
  it("shows the amount to send, the reference and both accounts, and copies with 'Copied' for 2 s", async () => {
    fakeApi({ ...signedIn(ana), 'GET /api/exchange-matches/5/accounts': { body: makeMatchAccounts(false) } });
    const writeText = vi.fn(async () => {});
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    renderWithRoutes(<MatchConfirmedDialog matchId={5} onClose={() => {}} />);
    // Ana accepted Bea's £100 request: she sends its conversion to Bea's CLP account and receives the pounds.
    expect((await within(dialog()).findByTestId('amount-to-send')).textContent).toBe('Send $127,550 CLP to Bea Soto');
    expect(within(dialog()).getByTestId('transfer-reference').textContent).toBe('#42');
    const partner = within(dialog()).getByRole('region', { name: "Bea Soto's account" });
    expect(partner.textContent).toContain('00123456789');
    expect(partner.textContent).toContain('12.345.678-5');
    expect(partner.textContent).toContain('Vista account (Cuenta Vista)');
    const mine = within(dialog()).getByRole('region', { name: 'Your account (you receive £100.00)' });
    expect(mine.textContent).toContain('31926819');
    expect(mine.textContent).toContain('04-00-04');

    vi.useFakeTimers({ shouldAdvanceTime: true });
    const copy = within(partner).getByRole('button', { name: 'Copy Account number' });
    fireEvent.click(copy);
    await waitFor(() => expect(copy.textContent).toBe('Copied'));
    expect(writeText).toHaveBeenCalledWith('00123456789');
    await act(async () => { vi.advanceTimersByTime(COPY_FEEDBACK_MS + 10); });
    expect(copy.textContent).toBe('Copy');
  });

  it('shows the RUT as 12.345.678-5 and the account type in the bank\'s words, in Spanish too', async () => {
    fakeApi({ ...signedIn(ana), 'GET /api/exchange-matches/5/accounts': { body: makeMatchAccounts(false) } });
    await act(() => chooseLanguage('es'));
    renderWithRoutes(<MatchConfirmedDialog matchId={5} onClose={() => {}} />);
    const partner = await within(dialog()).findByRole('region', { name: 'Cuenta de Bea Soto' });
    expect(partner.textContent).toContain('RUT12.345.678-5');
    expect(partner.textContent).toContain('Tipo de cuentaCuenta Vista');
    expect(partner.textContent).not.toContain('vista');
  });

  it("says 'Could not copy text' when the clipboard refuses", async () => {
    fakeApi({ ...signedIn(ana), 'GET /api/exchange-matches/5/accounts': { body: makeMatchAccounts(true) } });
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText: async () => { throw new Error('denied'); } } });
    renderWithRoutes(<MatchConfirmedDialog matchId={5} onClose={() => {}} />);
    expect((await within(dialog()).findByTestId('amount-to-send')).textContent).toBe('Send £100.00 to Ana Rojas');
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Copy Reference' }));
    expect((await findToast()).textContent).toContain('Could not copy text');
  });
});

describe('the bank details dialog, once they are no longer shared', () => {
  it('shows why in their place, in English and in Spanish, for a block, the 30 days after completion and a match called off', async () => {
    for (const key of ['blocked', 'expired', 'calledOff'] as const) {
      const refused = { message: BankDetailsMessages[key], code: BankDetailsRefusal[key] };
      fakeApi({ ...signedIn(ana), 'GET /api/exchange-matches/5/accounts': { status: 403, body: refused } });
      const { unmount } = renderWithRoutes(<MatchConfirmedDialog matchId={5} onClose={() => {}} />);
      const withheld = await within(dialog()).findByTestId('bank-details-withheld');
      expect(withheld.textContent).toBe(`Bank details are no longer shown${BankDetailsMessages[key]}`);
      expect(within(dialog()).queryByRole('region', { name: /account/ })).toBeNull();
      await act(() => chooseLanguage('es'));
      expect(withheld.textContent).toBe(`Los datos bancarios ya no se muestran${i18n.t(`errors:${BankDetailsRefusal[key]}`)}`);
      await act(() => chooseLanguage('en'));
      unmount();
    }
    expect(i18n.getFixedT('es')('errors:bank_details_blocked')).toBe('Los datos bancarios ya no se comparten: uno de ustedes bloqueó al otro.');
  });

  it('asks the server again each time it is opened: a block since is shown at once, not the details seen before', async () => {
    const server = fakeApi({ ...signedIn(ana), 'GET /api/exchange-matches/5/accounts': { body: makeMatchAccounts(false) } });
    function Reopenable() {
      const [open, setOpen] = useState(true);
      return open ? <MatchConfirmedDialog matchId={5} onClose={() => setOpen(false)} /> : <button type="button" onClick={() => setOpen(true)}>Open</button>;
    }
    renderWithRoutes(<Reopenable />);
    expect(await within(dialog()).findByTestId('amount-to-send')).toBeTruthy();
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Close' }));
    server.on({ 'GET /api/exchange-matches/5/accounts': { status: 403, body: { message: BankDetailsMessages.blocked, code: BankDetailsRefusal.blocked } } });
    fireEvent.click(await screen.findByRole('button', { name: 'Open' }));
    expect((await within(dialog()).findByTestId('bank-details-withheld')).textContent).toContain(BankDetailsMessages.blocked);
    expect(within(dialog()).queryByTestId('amount-to-send')).toBeNull();
    expect(server.callsTo('GET /api/exchange-matches/5/accounts')).toHaveLength(2);
  });
});

describe('the rating dialog', () => {
  it("starts at 4 stars ('Very Good'), names each rating, sends stars and comment", async () => {
    const rating = Rating.parse({ id: 1, exchangeMatchId: 5, fromUserId: 7, toUserId: 9, rating: 5, comment: 'Quick', createdAt: new Date().toISOString(), fromUser: { firstName: 'Ana' } });
    const server = fakeApi({ ...signedIn(ana), 'POST /api/ratings': { status: 201, body: rating } });
    renderWithRoutes(<RateExchangeDialog matchId={5} partner={{ id: 9, name: 'Bea Soto' }} onClose={() => {}} />);
    expect(within(dialog()).getByTestId('rating-word').textContent).toBe('Very Good');
    fireEvent.click(within(dialog()).getByRole('radio', { name: '5 Stars' }));
    expect(within(dialog()).getByTestId('rating-word').textContent).toBe('Excellent');
    fireEvent.change(within(dialog()).getByLabelText('Comment (optional)'), { target: { value: 'Quick' } });
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Submit Rating' }));
    expect((await findToast()).textContent).toContain('Rating Submitted');
    expect(server.callsTo('POST /api/ratings')[0]?.body).toEqual({ exchangeMatchId: 5, toUserId: 9, rating: 5, comment: 'Quick' });
  });

  it("says 'Already Rated' when the server has this user's rating already", async () => {
    fakeApi({ ...signedIn(ana), 'POST /api/ratings': { status: 409, body: { message: 'Already Rated', code: 'conflict' } } });
    renderWithRoutes(<RateExchangeDialog matchId={5} partner={{ id: 9, name: 'Bea Soto' }} onClose={() => {}} />);
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Submit Rating' }));
    expect((await findToast()).textContent).toContain('Already Rated');
  });
});

describe('dialogs that open by themselves', () => {
  it('opens the bank details once per user and match when a match is confirmed, remembered across reloads', async () => {
    const request = makeRequest();
    fakeApi({
      ...signedIn(ana), 'GET /api/exchange-matches': { body: [makeMatch(request, { status: 'confirmed' })] },
      'GET /api/exchange-matches/5/accounts': { body: makeMatchAccounts(false) },
    });
    const first = renderWithRoutes(<TradeDialogs user={ana} requestId={null} onCloseRequest={() => {}} />);
    expect(await screen.findByRole('heading', { name: 'Exchange Match Confirmed' })).toBeTruthy();
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    first.unmount();
    // A reload: the same match does not open it again; another user on this browser still gets it.
    renderWithRoutes(<TradeDialogs user={ana} requestId={null} onCloseRequest={() => {}} />);
    await new Promise((r) => setTimeout(r, 100));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(JSON.parse(localStorage.getItem('puente-bank-details-shown:7') ?? '[]')).toEqual([5]);
  });

  it('offers the counterpart the rating once, when they next see the exchange completed and have not rated', async () => {
    const request = makeRequest({ userId: 7, status: 'completed' }); // Ana's request, completed by Bea
    const server = fakeApi({
      ...signedIn(ana), 'GET /api/exchange-matches': { body: [makeMatch(request, { status: 'completed', matchedById: 9, matcherName: 'Bea Soto' })] },
      'GET /api/ratings/exchange/5': { body: [] },
    });
    renderWithRoutes(<TradeDialogs user={ana} requestId={null} onCloseRequest={() => {}} />);
    expect(await screen.findByText('How was your exchange with Bea Soto?')).toBeTruthy();
    expect(server.callsTo('GET /api/ratings/exchange/5')).toHaveLength(1);
  });
});
