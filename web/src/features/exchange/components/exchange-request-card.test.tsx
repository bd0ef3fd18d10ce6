import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { ExchangeRequestCard, AgeBadge } from './exchange-request-card.tsx';
import { makeRequest } from '../testing.ts';
import { renderWithRoutes } from '../../../testing/render.tsx';

describe('the exchange request card', () => {
  it('shows direction, amount, the receive amount, poster, stars, date, status, age and the reference', () => {
    const onOpen = vi.fn();
    renderWithRoutes(<ExchangeRequestCard request={makeRequest({ createdAt: '2026-05-04T10:00:00.000Z' })} onOpen={onOpen} now={Date.parse('2026-05-04T10:20:00.000Z')} />);
    const card = screen.getByRole('article', { name: 'View exchange #42' });
    expect(card.textContent).toContain('GBP → CLP');
    expect(screen.getByTestId('request-amount').textContent).toBe('£100.00');
    expect(screen.getByTestId('request-receive').textContent).toBe('≈ $127,550 CLP');
    expect(card.textContent).toContain('by Bea Soto');
    expect(screen.getByRole('img', { name: 'Rated 4.5 out of 5' })).toBeTruthy();
    expect(card.textContent).toContain('Posted 4 May 2026');
    expect(screen.getByTestId('request-status').textContent).toBe('open');
    expect(screen.getByTestId('age-badge').textContent).toBe('New');
    expect(card.textContent).toContain('#42');
    fireEvent.click(screen.getByRole('button'));
    expect(onOpen).toHaveBeenCalledWith(42);
  });

  it('shows a CLP request in pesos with its receive amount in pounds', () => {
    renderWithRoutes(<ExchangeRequestCard request={makeRequest({ fromCurrency: 'CLP', toCurrency: 'GBP', amount: 255_000 })} onOpen={() => {}} />);
    expect(screen.getByTestId('request-amount').textContent).toBe('$255,000 CLP');
    expect(screen.getByTestId('request-receive').textContent).toBe('≈ £199.92');
  });

  it('reads the age as New under an hour, then hours, then days', () => {
    const at = Date.parse('2026-05-04T10:00:00.000Z');
    const badge = (minutesAgo: number) => {
      const { unmount } = renderWithRoutes(<AgeBadge createdAt={new Date(at - minutesAgo * 60_000).toISOString()} now={at} />);
      const text = screen.getByTestId('age-badge').textContent;
      unmount();
      return text;
    };
    expect([badge(0), badge(59), badge(60), badge(23 * 60 + 59), badge(24 * 60), badge(10 * 24 * 60)]).toEqual(['New', 'New', '1h', '23h', '1d', '10d']);
  });
});
