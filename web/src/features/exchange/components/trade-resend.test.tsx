/**
 * Resending a trade's actions after an error (lib/idempotency.ts): accepting a request, rating the partner and
 * opening a dispute reach the server under their first key as long as nothing was changed, and under a new one
 * once something was.
 */
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Rating, type Dispute } from '@puente/contracts';
import { ExchangeDetailsDialog } from './exchange-details-dialog.tsx';
import { OpenDisputeButton } from './dispute-dialog.tsx';
import { RateExchangeDialog } from './rate-exchange-dialog.tsx';
import { makeMatch, makeRequest } from '../testing.ts';
import { fakeApi, idempotencyKeyOf, makeUser, signedIn, type FakeApi, type Handler } from '../../../testing/fake-api.ts';
import { findToast, findToastSaying, renderWithRoutes } from '../../../testing/render.tsx';

// Bea (1) posted the request; Ana (7) accepts it.
const ana = makeUser({ id: 7 });
const unavailable: Handler = { status: 503, body: { message: 'Service temporarily unavailable, please try again', code: 'service_unavailable' } };
const dialog = () => screen.getByRole('dialog');

/** Presses `button` in the dialog and waits for the server to have had one more call to `route`. */
async function press(server: FakeApi, route: string, button: string) {
  const before = server.callsTo(route).length;
  fireEvent.click(await within(dialog()).findByRole('button', { name: button }));
  await waitFor(() => expect(server.callsTo(route)).toHaveLength(before + 1));
  await waitFor(() => expect(within(dialog()).getByRole('button', { name: button }).hasAttribute('disabled')).toBe(false));
}


/** The keys of the calls to `route`, each present. */
function keys(server: FakeApi, route: string) {
  const sent = server.callsTo(route).map(idempotencyKeyOf);
  for (const key of sent) expect(key).toBeTruthy();
  return sent;
}

describe('resending a trade action', () => {
  it('accepts a request again after a network error under the same key', async () => {
    const ACCEPT = 'POST /api/exchange-matches';
    const server = fakeApi({ ...signedIn(ana), 'GET /api/exchange-requests/42': { body: makeRequest() }, [ACCEPT]: 'network-error' });
    renderWithRoutes(<ExchangeDetailsDialog rawId="42" user={ana} onClose={() => {}} next={{ bankDetails: vi.fn(), rate: vi.fn() }} />);
    await press(server, ACCEPT, 'Accept Exchange');
    expect((await findToast()).textContent).toContain('Failed to match exchange');
    await press(server, ACCEPT, 'Accept Exchange');
    const [first, again] = keys(server, ACCEPT);
    expect(again).toBe(first);
    expect(server.callsTo(ACCEPT).map((c) => c.body)).toEqual([{ exchangeRequestId: 42 }, { exchangeRequestId: 42 }]);
  });

  it('submits a rating again after a 5xx under the same key, and other stars under a new one', async () => {
    const RATE = 'POST /api/ratings';
    const server = fakeApi({ ...signedIn(ana), [RATE]: unavailable });
    renderWithRoutes(<RateExchangeDialog matchId={5} partner={{ id: 1, name: 'Bea Soto' }} onClose={() => {}} />);
    await press(server, RATE, 'Submit Rating');
    await press(server, RATE, 'Submit Rating');
    fireEvent.click(within(dialog()).getByRole('radio', { name: '5 Stars' }));
    const rating = Rating.parse({ id: 1, exchangeMatchId: 5, fromUserId: 7, toUserId: 1, rating: 5, comment: null, createdAt: new Date().toISOString(), fromUser: { firstName: 'Ana' } });
    server.on({ [RATE]: { status: 201, body: rating } });
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Submit Rating' }));
    await findToastSaying('Rating Submitted');
    const [first, again, edited] = keys(server, RATE);
    expect(again).toBe(first);
    expect(edited).not.toBe(first);
    expect(server.callsTo(RATE).map((c) => (c.body as { rating: number }).rating)).toEqual([4, 4, 5]);
  });

  it("says a rating still being answered is not 'Already Rated'", async () => {
    fakeApi({ ...signedIn(ana), 'POST /api/ratings': { status: 409, body: { message: 'This request was already received and is being processed, or was done: refresh to see its result', code: 'idempotency_key_in_use' } } });
    renderWithRoutes(<RateExchangeDialog matchId={5} partner={{ id: 1, name: 'Bea Soto' }} onClose={() => {}} />);
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Submit Rating' }));
    const shown = await findToast();
    expect(shown.textContent).toContain('This was already sent, with other details or still being processed.');
    expect(shown.textContent).not.toContain('Already Rated');
  });

  it('opens a dispute again after a 5xx under the same key, and with an edited statement under a new one', async () => {
    const DISPUTE = 'POST /api/exchange-matches/5/dispute';
    const server = fakeApi({ ...signedIn(ana), [DISPUTE]: unavailable });
    renderWithRoutes(<OpenDisputeButton match={makeMatch(makeRequest({ userId: 1 }), { status: 'confirmed' })} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Open a dispute' }));
    const form = await screen.findByRole('dialog', { name: 'Open a dispute' });
    fireEvent.mouseDown(within(form).getByRole('combobox', { name: 'Reason' }));
    fireEvent.click(await screen.findByRole('option', { name: 'No payment received' }));
    const statement = within(form).getByRole('textbox', { name: 'What happened' });
    fireEvent.change(statement, { target: { value: 'Nothing arrived' } });
    await press(server, DISPUTE, 'Open dispute');
    await press(server, DISPUTE, 'Open dispute');
    fireEvent.change(statement, { target: { value: 'Nothing arrived by Friday' } });
    const dispute: Dispute = {
      id: 3, matchId: 5, exchangeRequestId: 42, openedById: 7, reason: 'no_payment', statement: 'Nothing arrived by Friday', status: 'open',
      openedAt: new Date().toISOString(), outcome: null, adminNote: null, sanction: null, resolvedAt: null,
    };
    server.on({ [DISPUTE]: { status: 201, body: dispute } });
    fireEvent.click(within(form).getByRole('button', { name: 'Open dispute' }));
    await findToastSaying('Dispute opened');
    const [first, again, edited] = keys(server, DISPUTE);
    expect(again).toBe(first);
    expect(edited).not.toBe(first);
  });
});
