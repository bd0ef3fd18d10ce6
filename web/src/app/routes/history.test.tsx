import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { TransactionHistoryItem } from '@puente/contracts';
import { makeMatch, makeRequest } from '../../features/exchange/testing.ts';
import { fakeApi, makeUser, signedIn } from '../../testing/fake-api.ts';
import { renderApp } from '../../testing/render.tsx';

const ana = makeUser({ id: 7, subscriptionTier: 'premium' });
const poster = { firstName: 'Ana', lastName: 'Rojas', profileImageUrl: null, trustRating: null, transactionCount: 0, completionRate: null, averageCompletionMinutes: null, memberSince: '2026-01-01T00:00:00.000Z' };
/** Ana's own request #id. */
const mine = (id: number, status: 'open' | 'matched' | 'confirmed' | 'completed' | 'cancelled' = 'open') => makeRequest({ id, userId: 7, status, user: poster });
const markedDone = TransactionHistoryItem.parse({
  id: 30, exchangeRequestId: 30, exchangeMatchId: null, fromCurrency: 'GBP', toCurrency: 'CLP', fromAmount: 20, toAmount: 25_510,
  exchangeRate: 1275.5, status: 'completed', completedAt: '2026-05-04T10:20:00.000Z', userRole: 'requester',
});

function history({ requests = [mine(51), mine(52, 'matched'), mine(53), mine(54, 'confirmed'), mine(55), mine(56), mine(30, 'completed'), mine(31, 'cancelled')], matches = [] as ReturnType<typeof makeMatch>[] } = {}) {
  return fakeApi({
    ...signedIn(ana),
    'GET /api/exchange-requests/user': { body: requests, headers: { 'x-total-count': String(requests.length) } },
    'GET /api/exchange-matches': { body: matches, headers: { 'x-total-count': String(matches.length) } },
    'GET /api/transaction-history': { body: [markedDone], headers: { 'x-total-count': '1' } },
  });
}

describe('/history', () => {
  it('lists every exchange in progress above the completed ones, under headings in order', async () => {
    // Bea's #60 Ana accepted (pending) is in progress; #61 whose match Ana's was cancelled is not.
    const beas = makeRequest({ id: 60, status: 'matched' });
    const cancelled = makeRequest({ id: 61, status: 'open' });
    history({ matches: [makeMatch(beas, { id: 5 }), makeMatch(cancelled, { id: 6, status: 'cancelled' })] });
    renderApp('/history');
    const inProgress = await screen.findByRole('region', { name: 'In progress' });
    await waitFor(() => expect(within(inProgress).getAllByRole('article')).toHaveLength(7));
    expect(within(inProgress).getAllByRole('article').map((card) => card.getAttribute('aria-label')))
      .toEqual([60, 56, 55, 54, 53, 52, 51].map((id) => `View exchange #${id}`));
    expect(within(inProgress).getByRole('article', { name: 'View exchange #60' }).textContent).toContain('Accepted by you');

    const completed = screen.getByRole('region', { name: 'Completed' });
    expect((await within(completed).findByRole('article', { name: 'Reference #30' })).textContent).toContain('Marked done by you');
    expect(screen.getAllByRole('heading').filter((h) => /^H[1-3]$/.test(h.tagName)).map((h) => `${h.tagName} ${h.textContent}`).slice(0, 3))
      .toEqual(['H1 History', 'H2 In progress', 'H2 Completed']);
  });

  it('opens a request\'s details from its card (a focusable button): ?requestId= on the current page', async () => {
    history();
    const { router } = renderApp('/history');
    const sixth = await screen.findByRole('button', { name: /#51/ });
    sixth.focus();
    expect(document.activeElement).toBe(sixth);
    fireEvent.click(sixth);
    await waitFor(() => expect(router.state.location.search).toBe('?requestId=51'));
    expect(router.state.location.pathname).toBe('/history');
  });

  it('says when nothing is in progress', async () => {
    history({ requests: [mine(30, 'completed')] });
    renderApp('/history');
    const inProgress = await screen.findByRole('region', { name: 'In progress' });
    expect((await within(inProgress).findByText(/Nothing in progress/)).textContent)
      .toBe('Nothing in progress. Requests you post or accept are listed here until they complete.');
    expect(within(inProgress).queryByRole('article')).toBeNull();
  });
});
