import { describe, expect, it } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { TransactionHistoryItem } from '@puente/contracts';
import { TransactionHistory } from './transaction-history.tsx';
import { fakeApi, signedIn } from '../../../testing/fake-api.ts';
import { renderWithRoutes } from '../../../testing/render.tsx';

const item = (id: number, overrides: Record<string, unknown> = {}) => TransactionHistoryItem.parse({
  id, exchangeRequestId: 40 + id, exchangeMatchId: id, fromCurrency: 'GBP', toCurrency: 'CLP', fromAmount: 100, toAmount: 127_550,
  exchangeRate: 1275.5, status: 'completed', completedAt: '2026-05-04T10:20:00.000Z', userRole: 'requester',
  otherUser: { firstName: 'Bea', lastName: 'Soto', email: 'bea@example.com' }, ...overrides,
});

describe('the history page', () => {
  it('shows each completed exchange: amounts, rate, role, the other user, when, the reference, completed highlighted', async () => {
    fakeApi({ ...signedIn(), 'GET /api/transaction-history': { body: [item(2)], headers: { 'x-total-count': '1' } } });
    renderWithRoutes(<TransactionHistory />);
    const card = await screen.findByRole('article', { name: 'Reference #42' });
    expect(within(card).getByTestId('history-sent').textContent).toBe('£100.00');
    expect(within(card).getByTestId('history-received').textContent).toBe('$127,550 CLP');
    expect(card.textContent).toContain('Rate 1275.5000');
    expect(card.textContent).toContain('You requested · with Bea Soto');
    expect(card.textContent).toContain('Completed 4 May 2026, 10:20 UTC');
    expect(card.textContent).toContain('#42');
    const status = within(card).getByTestId('history-status');
    expect(status.textContent).toBe('completed');
    expect(status.className).toMatch(/colorSuccess/);
  });

  it("says 'User information unavailable' when the other user is missing, and shows the matcher's side", async () => {
    fakeApi({ ...signedIn(), 'GET /api/transaction-history': { body: [item(3, { userRole: 'matcher', otherUser: null, fromCurrency: 'CLP', toCurrency: 'GBP', fromAmount: 127_550, toAmount: 100 })], headers: { 'x-total-count': '1' } } });
    renderWithRoutes(<TransactionHistory />);
    const card = await screen.findByRole('article', { name: 'Reference #43' });
    expect(card.textContent).toContain('You accepted · User information unavailable');
    expect(within(card).getByTestId('history-sent').textContent).toBe('$127,550 CLP');
  });

  it("says 'Marked done by you' for a request the user marked done, which never had a partner", async () => {
    const done = item(4, { id: 43, exchangeRequestId: 43, exchangeMatchId: null, otherUser: undefined, fromAmount: 50, toAmount: 63_775 });
    fakeApi({ ...signedIn(), 'GET /api/transaction-history': { body: [item(43), done], headers: { 'x-total-count': '2' } } });
    renderWithRoutes(<TransactionHistory />);
    // Both rows show though the match and the request share the id 43.
    const [matched, marked] = await screen.findAllByRole('article');
    expect(matched!.textContent).toContain('You requested · with Bea Soto');
    expect(marked!.getAttribute('aria-label')).toBe('Reference #43');
    expect(marked!.textContent).toContain('Marked done by you');
    expect(marked!.textContent).not.toContain('User information unavailable');
    expect(marked!.textContent).not.toContain('You requested');
    expect(within(marked!).getByTestId('history-sent').textContent).toBe('£50.00');
    expect(within(marked!).getByTestId('history-received').textContent).toBe('$63,775 CLP');
    expect(within(marked!).getByTestId('history-status').textContent).toBe('completed');
  });

  it('loads more while there are more, and says so when there are none', async () => {
    const server = fakeApi({ ...signedIn(), 'GET /api/transaction-history': (call) => ({
      body: call.url.includes('offset=0') ? Array.from({ length: 20 }, (_, i) => item(i + 1)) : [item(21)], headers: { 'x-total-count': '21' },
    }) });
    renderWithRoutes(<TransactionHistory />);
    fireEvent.click(await screen.findByRole('button', { name: 'Load more' }));
    expect(await screen.findByRole('article', { name: 'Reference #61' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(server.callsTo('GET /api/transaction-history').map((c) => c.url)).toEqual(['/api/transaction-history?limit=20&offset=0', '/api/transaction-history?limit=20&offset=20']);
  });

  it('has an empty state', async () => {
    fakeApi({ ...signedIn(), 'GET /api/transaction-history': { body: [], headers: { 'x-total-count': '0' } } });
    renderWithRoutes(<TransactionHistory />);
    expect(await screen.findByText(/No completed exchanges yet/)).toBeTruthy();
  });
});
