import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { DisputeOutcomes, ExchangeRate, PublicUser } from '@puente/contracts';
import { ExchangeDetailsDialog, type DetailsNext } from './exchange-details-dialog.tsx';
import { REQUEST_CARD_ATTRIBUTE } from './exchange-request-card.tsx';
import { makeMatch, makeRequest } from '../testing.ts';
import { fakeApi, makeUser, signedIn } from '../../../testing/fake-api.ts';
import { findToast, renderWithRoutes } from '../../../testing/render.tsx';

const ana = makeUser({ id: 7 }); // the viewer
const next = () => ({ bankDetails: vi.fn<DetailsNext['bankDetails']>(), rate: vi.fn<DetailsNext['rate']>() });
const dialog = () => screen.getByRole('dialog');
const buttons = () => within(dialog()).getAllByRole('button').map((b) => b.textContent);

function open(rawId: string, user = ana, then = next()) {
  renderWithRoutes(<ExchangeDetailsDialog rawId={rawId} user={user} onClose={() => {}} next={then} />);
  return then;
}

describe('the exchange details dialog', () => {
  it("tells a visitor 'Authentication Required' with a link to log in", () => {
    fakeApi({});
    renderWithRoutes(<ExchangeDetailsDialog rawId="42" user={null} onClose={() => {}} next={next()} />);
    expect(within(dialog()).getByRole('heading').textContent).toBe('Authentication Required');
    expect(within(dialog()).getByRole('link', { name: 'Log In' }).getAttribute('href')).toBe('/login');
  });

  it("refuses a non-numeric id with 'Invalid exchange request ID', asking nothing", () => {
    const server = fakeApi(signedIn(ana));
    open('4x2');
    expect(within(dialog()).getByText('Invalid exchange request ID')).toBeTruthy();
    expect(server.calls.filter((c) => c.path.startsWith('/api/exchange'))).toEqual([]);
  });

  it("says 'Exchange Not Found' for a missing request and offers a refresh when the session expired", async () => {
    fakeApi({ ...signedIn(ana), 'GET /api/exchange-requests/42': { status: 404, body: { message: 'Exchange request not found', code: 'not_found' } } });
    open('42');
    expect(await within(dialog()).findByText('Exchange Not Found')).toBeTruthy();
  });

  it('offers a refresh when the session expired (401)', async () => {
    fakeApi({ ...signedIn(ana), 'GET /api/exchange-requests/42': { status: 401, body: { message: 'Not signed in', code: 'unauthorized' } } });
    open('42');
    expect(await within(dialog()).findByText(/Your session has expired/)).toBeTruthy();
    expect(within(dialog()).getByRole('button', { name: 'Refresh Page' })).toBeTruthy();
  });

  it("offers 'Accept Exchange' on someone else's open request, with its toasts", async () => {
    const request = makeRequest();
    const server = fakeApi({
      ...signedIn(ana), 'GET /api/exchange-requests/42': { body: request },
      'POST /api/exchange-matches': { status: 409, body: { message: 'This request has already been accepted', code: 'conflict' } },
    });
    open('42');
    fireEvent.click(await within(dialog()).findByRole('button', { name: 'Accept Exchange' }));
    expect((await findToast()).textContent).toContain('Failed to match exchange: This request has already been accepted');
    server.on({ 'POST /api/exchange-matches': { status: 201, body: makeMatch(request) } });
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Accept Exchange' }));
    await waitFor(async () => expect((await findToast()).textContent).toContain('Exchange Matched'));
    expect(server.callsTo('POST /api/exchange-matches').at(-1)?.body).toEqual({ exchangeRequestId: 42 });
    expect(within(dialog()).getByText('Reference to quote in your transfer: #42')).toBeTruthy();
  });

  it('shows the route\'s action on the poster (Block) to others, never to the poster', async () => {
    fakeApi({ ...signedIn(ana), 'GET /api/exchange-requests/42': { body: makeRequest() } });
    const then = { ...next(), posterAction: (poster: { id: number; name: string }) => <button type="button">{`Block ${poster.name} (${poster.id})`}</button> };
    const { unmount } = renderWithRoutes(<ExchangeDetailsDialog rawId="42" user={ana} onClose={() => {}} next={then} />);
    expect(await within(dialog()).findByRole('button', { name: 'Block Bea Soto (9)' })).toBeTruthy();
    unmount();
    fakeApi({ ...signedIn(ana), 'GET /api/exchange-requests/42': { body: makeRequest({ userId: 7 }) } });
    renderWithRoutes(<ExchangeDetailsDialog rawId="42" user={ana} onClose={() => {}} next={then} />);
    await within(dialog()).findByRole('button', { name: 'Send Notifications' });
    expect(within(dialog()).queryByRole('button', { name: /^Block/ })).toBeNull();
  });

  it("gives the owner of an open request 'Send Notifications', cancel and done, and no accept", async () => {
    const request = makeRequest({ userId: 7 });
    fakeApi({
      ...signedIn(ana), 'GET /api/exchange-requests/42': { body: request },
      'POST /api/exchange-requests/42/notify': { status: 500, body: { message: 'boom', code: 'internal' } },
    });
    open('42');
    await within(dialog()).findByRole('button', { name: 'Send Notifications' });
    expect(buttons()).toEqual(['Send Notifications', 'Mark as Done', 'Cancel Request', 'Close']);
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Send Notifications' }));
    expect((await findToast()).textContent).toContain('Failed to send notifications');
  });

  it("asks the owner to approve a pending match, then opens the bank details", async () => {
    const request = makeRequest({ userId: 7, status: 'matched' });
    const match = makeMatch(request, { matchedById: 9, matcherName: 'Bea Soto' });
    fakeApi({
      ...signedIn(ana), 'GET /api/exchange-requests/42': { body: request }, 'GET /api/exchange-matches/request/42': { body: match },
      'PUT /api/exchange-matches/5/confirm': { body: { ...match, status: 'confirmed' } },
    });
    const then = open('42');
    fireEvent.click(await within(dialog()).findByRole('button', { name: 'Approve Match & Share Bank Details' }));
    await waitFor(() => expect(then.bankDetails).toHaveBeenCalledWith(expect.objectContaining({ id: 5, status: 'confirmed' })));
    expect((await findToast()).textContent).toContain('Confirmed');
  });

  it('gives either party of a confirmed match completion and the bank details, then the rating of the other', async () => {
    const request = makeRequest({ status: 'confirmed' }); // Bea's request, accepted by Ana
    const match = makeMatch(request, { status: 'confirmed' });
    const server = fakeApi({
      ...signedIn(ana), 'GET /api/exchange-requests/42': { body: request }, 'GET /api/exchange-matches/request/42': { body: match },
      'PUT /api/exchange-matches/5/complete': { status: 500, body: { message: 'boom', code: 'internal' } },
    });
    const then = open('42');
    fireEvent.click(await within(dialog()).findByRole('button', { name: 'View Bank Details' }));
    expect(then.bankDetails).toHaveBeenCalledWith(match);
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Mark as Completed' }));
    expect((await findToast()).textContent).toContain('Failed to complete exchange');
    server.on({ 'PUT /api/exchange-matches/5/complete': { body: { ...match, status: 'completed' } } });
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Mark as Completed' }));
    await waitFor(() => expect(then.rate).toHaveBeenCalledWith(expect.objectContaining({ id: 5 }), { id: 9, name: 'Bea Soto' }));
  });

  it("keeps the trade, and the 'I received' question open over it, when a refresh fails (the network away); a request gone replaces it", async () => {
    const request = makeRequest({ status: 'confirmed' }); // Bea's request, accepted by Ana
    const match = makeMatch(request, { status: 'confirmed', paidByIds: [9] });
    const server = fakeApi({ ...signedIn(ana), 'GET /api/exchange-requests/42': { body: request }, 'GET /api/exchange-matches/request/42': { body: match } });
    const { queryClient } = renderWithRoutes(<ExchangeDetailsDialog rawId="42" user={ana} onClose={() => {}} next={next()} />);
    fireEvent.click(await screen.findByRole('button', { name: /^I received/ }));
    const question = await screen.findByRole('dialog', { name: /^Did .* arrive\?$/ });

    server.on({ 'GET /api/exchange-requests/42': 'network-error' });
    const asked = server.callsTo('GET /api/exchange-requests/42').length;
    await queryClient.refetchQueries();
    // The failure came and was drawn: the trade and the question over it are still there.
    await waitFor(() => expect(server.callsTo('GET /api/exchange-requests/42').length).toBe(asked + 1));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(question.isConnected).toBe(true);
    expect(screen.getByRole('button', { name: 'Mark as Completed', hidden: true })).toBeTruthy();

    server.on({ 'GET /api/exchange-requests/42': { status: 404, body: { message: 'Exchange request not found', code: 'not_found' } } });
    await queryClient.refetchQueries();
    expect(await screen.findByText('Exchange Not Found')).toBeTruthy();
  });

  it("offers 'Rate Exchange' on a completed exchange until the viewer has rated", async () => {
    const request = makeRequest({ status: 'completed' });
    const match = makeMatch(request, { status: 'completed' });
    const server = fakeApi({
      ...signedIn(ana), 'GET /api/exchange-requests/42': { body: request }, 'GET /api/exchange-matches/request/42': { body: match },
      'GET /api/ratings/exchange/5': { body: [] },
    });
    open('42');
    expect(await within(dialog()).findByRole('button', { name: 'Rate Exchange' })).toBeTruthy();
    expect(server.callsTo('GET /api/ratings/exchange/5')).toHaveLength(1);
  });
});

describe("each viewer's side of the request", () => {
  // Bea (9) posted £200 GBP → CLP at 1290 (her approximate receive amount: $258,000 CLP); the market is at 1275.5.
  const posted = (overrides = {}) => makeRequest({ amount: 200, exchangeRate: 1290, ...overrides });
  const market = { 'GET /api/exchange-rate': { body: ExchangeRate.parse({ gbpToClp: 1275.5, lastUpdated: new Date().toISOString() }) } };
  const terms = () => within(dialog()).getByTestId('details-terms');

  it('tells a taker what they pay and receive: the pesos out, the pounds in, and the rate against the market', async () => {
    fakeApi({ ...signedIn(ana), ...market, 'GET /api/exchange-requests/42': { body: posted() } });
    open('42');
    expect((await within(dialog()).findByTestId('request-sides')).textContent).toBe('You pay $258,000 CLP · You receive £200.00');
    await waitFor(() => expect(within(terms()).getByTestId('request-rate').textContent).toBe('Rate 1290.0000 · 1.1% above the market rate'));
    expect(dialog().textContent).not.toMatch(/Receive \(approx\.\)/);
  });

  it('tells the requester what they pay and their approximate receive amount', async () => {
    fakeApi({ ...signedIn(ana), ...market, 'GET /api/exchange-requests/42': { body: posted({ userId: 7 }) } });
    open('42');
    expect((await within(dialog()).findByTestId('request-sides')).textContent).toBe('You pay £200.00 · You receive $258,000 CLP');
  });

  it("says it once to a party, in the trade's header", async () => {
    const request = posted({ status: 'confirmed' });
    fakeApi({
      ...signedIn(ana), 'GET /api/exchange-requests/42': { body: request },
      'GET /api/exchange-matches/request/42': { body: makeMatch(request, { status: 'confirmed' }) }, 'GET /api/exchange-matches/5/messages': { body: [] },
    });
    open('42');
    expect((await within(dialog()).findByTestId('trade-sides')).textContent).toBe('You pay $258,000 CLP · You receive £200.00');
    expect(within(dialog()).queryByTestId('request-sides')).toBeNull();
    expect(within(terms()).getByTestId('request-rate').textContent).toBe('Rate 1290.0000');
  });
});

describe("the poster's record", () => {
  const bea = PublicUser.parse({
    id: 9, firstName: 'Bea', lastName: 'Soto', profileImageUrl: null, trustRating: 4.5, ratingCount: 3, transactionCount: 3, trustLevel: 'Silver',
    emailVerified: true, phoneVerified: true, idVerified: false, bankVerified: false, createdAt: '2026-01-01T00:00:00.000Z',
    completionRate: 100, averageCompletionMinutes: 30,
  });
  const records = {
    'GET /api/users/9': { body: bea },
    'GET /api/users/9/dispute-outcomes': { body: DisputeOutcomes.parse({ completed: 0, cancelled: 0, warnings: 0, suspensions: 0 }) },
  };

  it("shows whoever would take an open request its poster's record, right above 'Accept Exchange', which it describes", async () => {
    fakeApi({ ...signedIn(ana), ...records, 'GET /api/exchange-requests/42': { body: makeRequest() } });
    open('42');
    const record = await within(dialog()).findByRole('region', { name: "Bea Soto's record" });
    expect(record.textContent).toContain('4.5/5 from 3 ratings');
    expect(record.textContent).toContain('3 completed trades');
    const accept = within(dialog()).getByRole('button', { name: 'Accept Exchange' });
    const described = document.getElementById(accept.getAttribute('aria-describedby')!)!;
    expect(described.contains(record)).toBe(true);
    expect(described.textContent).toContain('Posted by Bea Soto: check their record before you accept');
  });

  it('is not shown to the poster, nor once the request is taken', async () => {
    const server = fakeApi({ ...signedIn(ana), ...records, 'GET /api/exchange-requests/42': { body: makeRequest({ userId: 7 }) } });
    const { unmount } = renderWithRoutes(<ExchangeDetailsDialog rawId="42" user={ana} onClose={() => {}} next={next()} />);
    await within(dialog()).findByRole('button', { name: 'Send Notifications' });
    expect(within(dialog()).queryByTestId('trader-record')).toBeNull();
    unmount();
    const request = makeRequest({ status: 'matched' });
    server.on({
      'GET /api/exchange-requests/42': { body: request }, 'GET /api/exchange-matches/request/42': { body: makeMatch(request, { matchedById: 11, matcherName: 'Cris Vega' }) },
    });
    open('42');
    await within(dialog()).findByText('Accepted by Cris Vega');
    expect(within(dialog()).queryByTestId('trader-record')).toBeNull();
    expect(server.callsTo('GET /api/users/9')).toHaveLength(0);
  });

  it("gives the focus to the request's card when the card that opened it is gone (accepted, it moved to Active Requests)", async () => {
    fakeApi({ ...signedIn(ana), 'GET /api/exchange-requests/42': { body: makeRequest() } });
    /** The market's card opens the request; once it has closed, the request's card is in another list. */
    function Page() {
      const [open, setOpen] = useState(false);
      return open
        ? <ExchangeDetailsDialog rawId="42" user={ana} onClose={() => setOpen(false)} next={next()} />
        : <>
          <button type="button">Create Exchange</button>
          <button type="button" {...{ [REQUEST_CARD_ATTRIBUTE]: 42 }} onClick={() => setOpen(true)}>#42 in Active Requests</button>
        </>;
    }
    renderWithRoutes(<Page />);
    fireEvent.click(screen.getByRole('button', { name: '#42 in Active Requests' }));
    fireEvent.click(await within(dialog()).findByRole('button', { name: 'Close' }));
    await waitFor(() => expect(document.activeElement?.textContent).toBe('#42 in Active Requests'));
  });
});
