import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { DisputeOutcomes, PublicUser } from '@puente/contracts';
import { ExchangeRequestCard, AgeBadge } from './exchange-request-card.tsx';
import { makeRequest } from '../testing.ts';
import { chooseLanguage } from '../../../lib/i18n.ts';
import { fakeApi, signedIn } from '../../../testing/fake-api.ts';
import { renderWithRoutes } from '../../../testing/render.tsx';

/** The cards' sides line, for Ana (7) looking at Bea's (9) request, for Bea herself, and for a visitor. */
const sides = () => screen.getByTestId('request-sides').textContent;

describe('the exchange request card', () => {
  it('shows direction, amount, what the taker pays and receives, the rate, poster, stars, date, status, age and the reference', () => {
    const onOpen = vi.fn();
    renderWithRoutes(<ExchangeRequestCard request={makeRequest({ createdAt: '2026-05-04T10:00:00.000Z' })} onOpen={onOpen} now={Date.parse('2026-05-04T10:20:00.000Z')} viewerId={7} />);
    const card = screen.getByRole('article', { name: 'View exchange #42' });
    expect(card.textContent).toContain('GBP → CLP');
    expect(screen.getByTestId('request-amount').textContent).toBe('£100.00');
    // Ana would take Bea's £100 GBP → CLP: she pays the pesos and receives the pounds.
    expect(sides()).toBe('You pay $127,550 CLP · You receive £100.00');
    expect(screen.getByTestId('request-rate').textContent).toBe('Rate 1275.5000');
    expect(card.textContent).toContain('by Bea Soto');
    expect(screen.getByRole('img', { name: 'Rated 4.5 out of 5' })).toBeTruthy();
    expect(card.textContent).toContain('Posted 4 May 2026');
    expect(screen.getByTestId('request-status').textContent).toBe('open');
    expect(screen.getByTestId('age-badge').textContent).toBe('New');
    expect(card.textContent).toContain('#42');
    fireEvent.click(screen.getByRole('button', { name: /GBP → CLP/ }));
    expect(onOpen).toHaveBeenCalledWith(42);
  });

  it("says the requester's side to the requester: the spec's approximate receive amount", () => {
    renderWithRoutes(<ExchangeRequestCard request={makeRequest()} onOpen={() => {}} viewerId={9} />);
    expect(sides()).toBe('You pay £100.00 · You receive $127,550 CLP');
  });

  it("shows a visitor the taker's side, and a CLP request the other way round", () => {
    const { unmount } = renderWithRoutes(<ExchangeRequestCard request={makeRequest({ amount: 200, exchangeRate: 1290 })} onOpen={() => {}} />);
    expect(sides()).toBe('You pay $258,000 CLP · You receive £200.00');
    unmount();
    const clp = makeRequest({ fromCurrency: 'CLP', toCurrency: 'GBP', amount: 255_000 });
    const taker = renderWithRoutes(<ExchangeRequestCard request={clp} onOpen={() => {}} viewerId={7} />);
    expect(screen.getByTestId('request-amount').textContent).toBe('$255,000 CLP');
    expect(sides()).toBe('You pay £199.92 · You receive $255,000 CLP');
    taker.unmount();
    renderWithRoutes(<ExchangeRequestCard request={clp} onOpen={() => {}} viewerId={9} />);
    expect(sides()).toBe('You pay $255,000 CLP · You receive £199.92');
  });

  it('says how far the rate is from the market rate, in Spanish too', async () => {
    const { unmount } = renderWithRoutes(<>
      <ExchangeRequestCard request={makeRequest({ id: 1, exchangeRate: 1300 })} onOpen={() => {}} viewerId={7} marketRate={1275.5} />
      <ExchangeRequestCard request={makeRequest({ id: 2, exchangeRate: 1200 })} onOpen={() => {}} viewerId={7} marketRate={1275.5} />
      <ExchangeRequestCard request={makeRequest({ id: 3 })} onOpen={() => {}} viewerId={7} marketRate={1275.5} />
    </>);
    expect(screen.getAllByTestId('request-rate').map((r) => r.textContent)).toEqual([
      'Rate 1300.0000 · 1.9% above the market rate', 'Rate 1200.0000 · 5.9% below the market rate', 'Rate 1275.5000 · at the market rate',
    ]);
    unmount();
    await act(() => chooseLanguage('es'));
    renderWithRoutes(<ExchangeRequestCard request={makeRequest({ exchangeRate: 1300 })} onOpen={() => {}} viewerId={7} marketRate={1275.5} />);
    expect(sides()).toBe('Pagas $130.000 · Recibes £100,00');
    expect(screen.getByTestId('request-rate').textContent).toBe('Tipo de cambio 1.300,0000 · 1,9% sobre el tipo de cambio del mercado');
  });

  it("lets whoever would take it open the poster's record, and not the poster", async () => {
    fakeApi({
      ...signedIn(),
      'GET /api/users/9': { body: PublicUser.parse({
        id: 9, firstName: 'Bea', lastName: 'Soto', profileImageUrl: null, trustRating: 4.5, ratingCount: 12, transactionCount: 14, trustLevel: 'Gold',
        emailVerified: true, phoneVerified: true, idVerified: false, bankVerified: true, createdAt: '2026-01-15T10:00:00.000Z', completionRate: 93.3, averageCompletionMinutes: 95,
      }) },
      'GET /api/users/9/dispute-outcomes': { body: DisputeOutcomes.parse({ completed: 0, cancelled: 0, warnings: 0, suspensions: 0 }) },
    });
    const { unmount } = renderWithRoutes(<ExchangeRequestCard request={makeRequest()} onOpen={() => {}} viewerId={9} />);
    expect(screen.queryByRole('button', { name: "See Bea's record" })).toBeNull();
    unmount();
    renderWithRoutes(<ExchangeRequestCard request={makeRequest()} onOpen={() => {}} viewerId={7} />);
    expect(screen.queryByTestId('trader-record')).toBeNull(); // read only once wanted
    fireEvent.click(screen.getByRole('button', { name: "See Bea's record" }));
    const record = await screen.findByRole('region', { name: "Bea Soto's record" });
    expect(record.textContent).toContain('14 completed trades');
    expect(within(record).getByRole('link', { name: "See Bea's profile" }).getAttribute('href')).toBe('/users/9');
    expect(screen.getByRole('button', { name: "Hide Bea's record" }).getAttribute('aria-expanded')).toBe('true');
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
