import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ExchangeDetailsDialog, type DetailsNext } from './exchange-details-dialog.tsx';
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
