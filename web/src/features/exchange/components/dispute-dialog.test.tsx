import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Dispute } from '@puente/contracts';
import { DisputeBanner, OpenDisputeButton } from './dispute-dialog.tsx';
import { makeMatch, makeRequest } from '../testing.ts';
import { fakeApi, signedIn, makeUser } from '../../../testing/fake-api.ts';
import { findToast, renderWithRoutes } from '../../../testing/render.tsx';

// Bea (1) posted the request; Ana (7) accepted it.
const ana = makeUser({ id: 7 });
const at = new Date().toISOString();
const dispute: Dispute = {
  id: 3, matchId: 5, exchangeRequestId: 42, openedById: 7, reason: 'no_payment', statement: 'Nothing arrived', status: 'open',
  openedAt: at, outcome: null, adminNote: null, sanction: null, resolvedAt: null,
};
const summary = { id: 3, reason: 'no_payment', status: 'open', openedById: 7, openedAt: at, outcome: null } as const;

describe('disputes in a trade', () => {
  it('opens a dispute with a reason and a statement, and asks for both first', async () => {
    const server = fakeApi({ ...signedIn(ana), 'POST /api/exchange-matches/5/dispute': { status: 201, body: dispute } });
    renderWithRoutes(<OpenDisputeButton match={makeMatch(makeRequest({ userId: 1 }), { status: 'confirmed' })} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Open a dispute' }));
    const form = await screen.findByRole('dialog', { name: 'Open a dispute' });
    fireEvent.click(within(form).getByRole('button', { name: 'Open dispute' }));
    expect(await within(form).findByText('Choose a reason for the dispute')).toBeTruthy();
    expect(within(form).getByText('Describe what happened')).toBeTruthy();
    expect(server.callsTo('POST /api/exchange-matches/5/dispute')).toHaveLength(0);
    fireEvent.mouseDown(within(form).getByRole('combobox', { name: 'Reason' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Wrong amount' }));
    fireEvent.change(within(form).getByRole('textbox', { name: 'What happened' }), { target: { value: ' Only half arrived ' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Open dispute' }));
    expect((await findToast()).textContent).toContain('Dispute opened');
    expect(server.callsTo('POST /api/exchange-matches/5/dispute')[0]?.body).toEqual({ reason: 'wrong_amount', statement: 'Only half arrived' });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Open a dispute' })).toBeNull());
  });

  it('shows the partner a disputed match on hold with its reason, and each party how it ended', async () => {
    fakeApi({ ...signedIn(makeUser({ id: 1 })), 'GET /api/exchange-matches/5/dispute': { body: dispute } });
    const open = makeMatch(makeRequest({ userId: 1 }), { status: 'confirmed', dispute: summary });
    const { unmount } = renderWithRoutes(<DisputeBanner match={open} userId={1} partnerName="Ana Rojas" />);
    const banner = await screen.findByTestId('dispute-banner');
    expect(banner.textContent).toContain('This exchange is under dispute');
    expect(banner.textContent).toContain('Reason: No payment received (opened by Ana Rojas)');
    unmount();

    fakeApi({ ...signedIn(ana), 'GET /api/exchange-matches/5/dispute': { body: { ...dispute, status: 'resolved', outcome: 'cancelled', sanction: { userId: 7, kind: 'suspension' } } } });
    const resolved = makeMatch(makeRequest({ userId: 1 }), { status: 'cancelled', dispute: { ...summary, status: 'resolved', outcome: 'cancelled' } });
    renderWithRoutes(<DisputeBanner match={resolved} userId={7} partnerName="Bea Soto" />);
    await waitFor(() => expect(screen.getByTestId('dispute-banner').textContent)
      .toBe('Dispute resolvedAn admin resolved the dispute: the exchange was cancelled. Your trading is suspended until an admin lifts it.'));
  });
});
