/**
 * The app shell: the skip link, and the trade's dialogs on every signed-in page (spec section 4): the bank details
 * popup once a match is confirmed and the rating after completion open where the user is, live or at the next poll,
 * and `?requestId=` opens a request's details on any signed-in page.
 */
import { describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { BlockedUser, Notification } from '@puente/contracts';
import { chooseLanguage } from '../../lib/i18n.ts';
import { AppShell } from './app-shell.tsx';
import { makeMatch, makeMatchAccounts, makeRequest } from '../../features/exchange/testing.ts';
import { fakeApi, makeUser, signedIn, visitor } from '../../testing/fake-api.ts';
import { FakeWebSocket } from '../../testing/fake-websocket.ts';
import { renderApp, renderWithRoutes } from '../../testing/render.tsx';

// Bea (9) posted £100 GBP → CLP; Ana (7) accepted it.
const ana = makeUser({ id: 7 });
const request = makeRequest();
const pending = makeMatch(makeRequest({ status: 'matched' }));
const confirmed = makeMatch(makeRequest({ status: 'confirmed' }), { status: 'confirmed', confirmedAt: new Date().toISOString() });
const live = () => FakeWebSocket.sockets.at(-1)!;
const path = (router: ReturnType<typeof renderApp>['router']) => router.state.location.pathname + router.state.location.search;

describe('the app shell', () => {
  it("offers keyboard users a link past the header to the page, in the user's language", async () => {
    fakeApi(visitor);
    renderWithRoutes(<AppShell />);
    expect((await screen.findByRole('link', { name: 'Skip to content' })).getAttribute('href')).toBe('#main');
    await act(() => chooseLanguage('es'));
    expect(screen.getByRole('link', { name: 'Saltar al contenido' }).getAttribute('href')).toBe('#main');
  });
});

describe("the trade's dialogs on every signed-in page", () => {
  it('opens the bank details on /history when a match is confirmed, without leaving the page', async () => {
    fakeApi({
      ...signedIn(ana), 'GET /api/exchange-matches': { body: [confirmed] },
      'GET /api/exchange-matches/5/accounts': { body: makeMatchAccounts(false) },
    });
    const { router } = renderApp('/history');
    const popup = await screen.findByRole('dialog', { name: 'Exchange Match Confirmed' });
    expect((await within(popup).findByTestId('amount-to-send')).textContent).toBe('Send $127,550 CLP to Bea Soto');
    expect(path(router)).toBe('/history');
  });

  it('opens it on /profile as soon as the live match_success refresh shows the match confirmed', async () => {
    const server = fakeApi({
      ...signedIn(ana), 'GET /api/exchange-matches': { body: [pending] },
      'GET /api/exchange-matches/5/accounts': { body: makeMatchAccounts(false) },
    });
    const { router } = renderApp('/profile');
    await screen.findByRole('heading', { name: 'Ana Rojas' });
    await waitFor(() => expect(server.callsTo('GET /api/exchange-matches')).toHaveLength(1));
    expect(screen.queryByRole('dialog')).toBeNull();
    server.on({ 'GET /api/exchange-matches': { body: [confirmed] } });
    act(() => live().receive({ type: 'match_success', data: { matchId: 5, requestId: 42 } }));
    expect(await screen.findByRole('dialog', { name: 'Exchange Match Confirmed' })).toBeTruthy();
    expect(path(router)).toBe('/profile');
  });

  it('offers the counterpart the rating on /history when the completion arrives live', async () => {
    // Ana posted this one; Bea accepted it and marked it completed.
    const own = makeRequest({ userId: 7, status: 'confirmed' });
    const mine = { ...makeMatch(own, { matchedById: 9, matcherName: 'Bea Soto' }), status: 'confirmed' as const };
    localStorage.setItem('puente-bank-details-shown:7', '[5]');
    const server = fakeApi({
      ...signedIn(ana), 'GET /api/exchange-matches': { body: [mine] }, 'GET /api/ratings/exchange/5': { body: [] },
    });
    const { router } = renderApp('/history');
    await waitFor(() => expect(server.callsTo('GET /api/exchange-matches')).toHaveLength(1));
    const completedAt = new Date().toISOString();
    server.on({ 'GET /api/exchange-matches': { body: [{ ...mine, status: 'completed', completedAt, completedById: 9 }] } });
    const notification = Notification.parse({
      id: 3, type: 'exchange_completed', content: 'The exchange on exchange request #42 was completed', params: null, read: false, referenceId: 42, createdAt: completedAt,
    });
    act(() => live().receive({ type: 'new_notification', notification }));
    const rating = await screen.findByRole('dialog', { name: 'Rate Exchange' });
    expect(within(rating).getByText('How was your exchange with Bea Soto?')).toBeTruthy();
    expect(path(router)).toBe('/history');
  });

  it('opens the details of ?requestId= on /history, and Close leaves /history as it was', async () => {
    fakeApi({
      ...signedIn(ana), 'GET /api/exchange-matches': { body: [] },
      'GET /api/exchange-requests/42': { body: request }, 'GET /api/exchange-matches/request/42': { status: 404, body: { message: 'No match' } },
    });
    const { router } = renderApp('/history?requestId=42');
    const details = await screen.findByRole('dialog', { name: 'Exchange #42' });
    expect(await within(details).findByRole('button', { name: 'Accept Exchange' })).toBeTruthy();
    fireEvent.click(within(details).getAllByRole('button', { name: 'Close' })[0]!);
    await waitFor(() => expect(path(router)).toBe('/history'));
    expect(screen.queryByRole('dialog', { name: 'Exchange #42' })).toBeNull();
  });

  it("offers Block on the poster of someone else's request, and closes the details once blocked", async () => {
    const server = fakeApi({
      ...signedIn(ana), 'GET /api/exchange-matches': { body: [] },
      'GET /api/exchange-requests/42': { body: request }, 'GET /api/exchange-matches/request/42': { status: 404, body: { message: 'No match' } },
      'POST /api/blocked-users': { status: 201, body: BlockedUser.parse({ userId: 9, firstName: 'Bea', lastName: 'Soto', profileImageUrl: null, blockedAt: new Date().toISOString() }) },
    });
    const { router } = renderApp('/users?requestId=42');
    const details = await screen.findByRole('dialog', { name: 'Exchange #42' });
    fireEvent.click(await within(details).findByRole('button', { name: 'Block Bea Soto' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Block Bea Soto?' })).getByRole('button', { name: 'Block' }));
    await waitFor(() => expect(path(router)).toBe('/users'));
    expect(server.callsTo('POST /api/blocked-users')[0]?.body).toEqual({ userId: 9 });
  });

  it('reads no trades for a visitor, whose details come from the landing page', async () => {
    const server = fakeApi({ ...visitor });
    renderApp('/history');
    await screen.findByRole('heading', { name: 'Swap British pounds and Chilean pesos with people, not banks' });
    expect(server.callsTo('GET /api/exchange-matches')).toHaveLength(0);
    expect(FakeWebSocket.sockets).toHaveLength(0);
  });
});
