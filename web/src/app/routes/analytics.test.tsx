import { beforeAll, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import type { Analytics } from '@puente/contracts';
import { fakeApi, makeUser, signedIn } from '../../testing/fake-api.ts';
import { renderApp } from '../../testing/render.tsx';

/** The figures' module (MUI X Charts with it): refused when imported with the app, which a static import would do. */
const figures = vi.hoisted(() => ({ testsStarted: false, requested: false }));
vi.mock('../../features/analytics/components/analytics-figures.tsx', async (importOriginal) => {
  if (!figures.testsStarted) throw new Error('analytics-figures.tsx (and MUI X Charts) was imported with the app, not when a premium user opened /analytics');
  figures.requested = true;
  return importOriginal();
});
beforeAll(() => { figures.testsStarted = true; });

const FIGURES: Analytics = {
  completedExchanges: 4,
  months: [
    { month: '2026-01', exchanges: 3, sent: { GBP: 110, CLP: 63_819 }, received: { GBP: 50.55, CLP: 134_600 } },
    { month: '2026-02', exchanges: 1, sent: { GBP: 99.99, CLP: 0 }, received: { GBP: 0, CLP: 130_000 } },
  ],
  rates: {
    averageAdvantagePercent: 0.17,
    trades: [
      { exchangeMatchId: 3, completedAt: '2026-02-16T00:00:00.000Z', fromCurrency: 'GBP', exchangeRate: 1300.1234, marketRate: 1300, advantagePercent: 0.01 },
      { exchangeMatchId: 2, completedAt: '2026-01-25T02:00:00.000Z', fromCurrency: 'CLP', exchangeRate: 1262.5, marketRate: 1250, advantagePercent: -1 },
      { exchangeMatchId: 1, completedAt: '2026-01-01T00:30:00.000Z', fromCurrency: 'GBP', exchangeRate: 1280, marketRate: null, advantagePercent: null },
    ],
  },
  timeToCompletion: { medianSeconds: 6_300, averageSeconds: 25_650 },
  counterparties: {
    averageRating: 3.8,
    list: [
      { userId: 8, firstName: 'Bruno', lastName: 'Diaz', exchanges: 2, trustRating: 4.5, ratingCount: 2 },
      { userId: 9, firstName: 'Dan', lastName: 'Moss', exchanges: 1, trustRating: null, ratingCount: 0 },
    ],
  },
};

const rows = (table: HTMLElement) => within(table).getAllByRole('row').map((row) => [...row.querySelectorAll('th, td')].map((c) => c.textContent ?? ''));
const mainNav = () => within(screen.getAllByRole('navigation', { name: 'Main' })[0]!);

// In this order: once loaded, the module stays loaded for the rest of the file.
describe('the analytics page', () => {
  it('shows a free user what Premium adds and the way to upgrade, without loading the figures or their charts', async () => {
    const server = fakeApi(signedIn(makeUser()));
    renderApp('/analytics');
    expect(await screen.findByRole('heading', { name: 'Advanced analytics are part of Premium' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Upgrade to Premium' }).getAttribute('href')).toBe('/subscription');
    expect(mainNav().queryByRole('link', { name: 'Analytics' })).toBeNull();
    expect([figures.requested, server.callsTo('GET /api/analytics/me')]).toEqual([false, []]);
  });

  it("shows a premium user their figures: the summary, volume per month, rates against the market and counterparties' ratings", async () => {
    fakeApi({ ...signedIn(makeUser({ subscriptionTier: 'premium' })), 'GET /api/analytics/me': { body: FIGURES } });
    renderApp('/analytics');
    expect(await screen.findByText('Median time to completion')).toBeTruthy();
    expect(mainNav().getByRole('link', { name: 'Analytics' })).toBeTruthy();
    const summary = [...document.querySelectorAll('dl dt')].map((dt) => `${dt.textContent}: ${dt.nextElementSibling?.textContent}`);
    expect(summary).toEqual([
      'Completed exchanges: 4', 'Average rate against the market: +0.17 %', 'Median time to completion: 1 h 45 min',
      'Average time to completion: 7 h 8 min', "Counterparties' average rating: 3.8",
    ]);
    expect(rows(screen.getByRole('table', { name: 'Volume per month: the numbers' }))).toEqual([
      ['Month', 'Exchanges', 'Sent GBP', 'Received GBP', 'Sent CLP', 'Received CLP'],
      ['January 2026', '3', '£110.00', '£50.55', '$63,819 CLP', '$134,600 CLP'],
      ['February 2026', '1', '£99.99', '£0.00', '$0 CLP', '$130,000 CLP'],
    ]);
    expect(screen.getByRole('figure', { name: 'Volume in GBP per month' })).toBeTruthy();
    expect(rows(screen.getByRole('table', { name: 'Your rates against the market' })).slice(1)).toEqual([
      ['16 Feb 2026', 'GBP', '1300.1234', '1300.0000', '+0.01 %'],
      ['25 Jan 2026', 'CLP', '1262.5000', '1250.0000', '-1.00 %'],
      ['1 Jan 2026', 'GBP', '1280.0000', 'Not known', 'Not known'],
    ]);
    expect(rows(screen.getByRole('table', { name: 'Your counterparties' })).slice(1)).toEqual([
      ['Bruno Diaz', '2', '4.5 (2 ratings)'], ['Dan Moss', '1', 'Not rated yet'],
    ]);
  });

  it('shows the upgrade prompt when the server says the plan is free (a premium just ended)', async () => {
    fakeApi({
      ...signedIn(makeUser({ subscriptionTier: 'premium' })),
      'GET /api/analytics/me': { status: 403, body: { message: 'Advanced analytics are part of Premium. Upgrade to Premium to see your figures.', code: 'premium_required' } },
    });
    renderApp('/analytics');
    expect(await screen.findByRole('link', { name: 'Upgrade to Premium' })).toBeTruthy();
  });
});
